/**
 * Software renderer for simulated recordings: camera (pose, lens distortion), table, balls as
 * ray-traced spheres (pool numbers and stripes) or Novus discs, contact and cast shadows from each
 * lamp, motion blur over the exposure, occluding players and cues, a TV score bar and sensor noise.
 * It returns each frame with its labels in the detections contract's terms (`u, v` = centre of
 * the ball's outline as seen, `r` = its radius in pixels).
 *
 * Per frame it only copies the precomputed table image and draws what moves, inside each object's
 * pixel bounding box: the budget is faster than real time for 1280×720 at 30 fps on one core.
 */
import type { GameId } from '../../core/games.js';
import type { TableProfile } from '../../core/table.js';
import { project, type Camera } from '../camera.js';
import type { BallSnapshot, FrameSnapshot, Occluder } from '../types.js';
import { ballAppearance, type BallAppearance } from './balls.js';
import { glyphBit, GLYPH_H, GLYPH_W } from './font.js';
import { lightsForBed, mulberry32, type LightParams, type LookParams, type Rgb } from './look.js';
import { buildOverlay, compositeOverlay, overlayCovers, type OverlayLayer } from './overlay.js';
import { buildRayMap, type RayMap } from './rays.js';
import { renderTableImage, Surface, type TableImage } from './tableImage.js';

export { defaultLook, randomLook, randomCueBallSpots, mulberry32, type LookParams, type LightParams, type Rgb, type CueBallSpots } from './look.js';
export { ballClass, ballAppearance } from './balls.js';

export interface FrameLabel {
  id: string;
  class: string;
  /** Centre of the ball's outline in image pixels (pixel (i, j) has its centre at (i, j)). */
  u: number;
  v: number;
  /** Radius of the outline, pixels (√(area/π) for the slightly elliptic outlines of perspective). */
  r: number;
  /** False when a detector could not see it: off-image, under the score bar, behind a player or cue, sinking into a pocket. */
  visible: boolean;
}

export interface RenderedFrame {
  i: number;
  t: number;
  width: number;
  height: number;
  rgb: Uint8Array;
  labels: FrameLabel[];
}

export interface RendererOptions {
  game: GameId;
  table: TableProfile;
  camera: Camera;
  look: LookParams;
  seed: number;
  /** Overrides `look.exposureS`. */
  exposureS?: number;
}

/** One position of a ball within the exposure. */
interface Pose {
  x: number;
  y: number;
  z: number;
  /** Local → world rotation, row-major 3×3 (identity when the snapshot has no orientation). */
  m: Float64Array;
}

const IDENTITY = new Float64Array([1, 0, 0, 0, 1, 0, 0, 0, 1]);
/** Noise texture side: a power of two so the wrap is a mask; read at a random offset per frame, its period is invisible in Gaussian noise. */
const NOISE_SIZE = 512;
/** Precomputed noisy copies of the static image, and the band height they are mixed in. */
const NOISY_VARIANTS = 8;
const NOISE_BAND_ROWS = 16;
/** A ball moving less than this fraction of its radius during the exposure is drawn sharp. */
const BLUR_MIN_TRAVEL = 0.15;
const MAX_BLUR_SAMPLES = 10;
const HAIR = [40, 30, 25] as const;
const CUE_BUTT = [55, 28, 18] as const, CUE_SHAFT = [222, 190, 135] as const, CUE_TIP = [40, 70, 120] as const;
/** Weight of each lamp's own highlight next to the canopy's main one. */
const LAMP_SPECULAR = 0.5;
/** Light wrap-around on balls (0 = Lambert). */
const BALL_WRAP = 0.35;
/**
 * Lamp light on a ball relative to the cloth's: phenolic balls under a canopy look brighter than a
 * Lambertian sphere would (interreflection from the bright cloth and the canopy's size).
 */
const BALL_LAMP_GAIN = 1.35;
/** Lookup that clamps an integer in −CLAMP_OFFSET … 255 + CLAMP_OFFSET to a byte. */
const CLAMP_OFFSET = 128;
const CLAMP_TABLE = Uint8Array.from({ length: 256 + 2 * CLAMP_OFFSET }, (_, k) => Math.max(0, Math.min(255, k - CLAMP_OFFSET)));
/** Most poses a blurred ball's shadow is averaged over. */
const SHADOW_POSES = 4;

function quatToMatrix(q: readonly [number, number, number, number] | undefined): Float64Array {
  if (!q) return IDENTITY;
  const [w, x, y, z] = q;
  const n = Math.hypot(w, x, y, z) || 1;
  const a = w / n, b = x / n, c = y / n, d = z / n;
  return new Float64Array([
    1 - 2 * (c * c + d * d), 2 * (b * c - a * d), 2 * (b * d + a * c),
    2 * (b * c + a * d), 1 - 2 * (b * b + d * d), 2 * (c * d - a * b),
    2 * (b * d - a * c), 2 * (c * d + a * b), 1 - 2 * (b * b + c * c),
  ]);
}

function hashString(s: string): number {
  let h = 2166136261;
  for (let k = 0; k < s.length; k++) h = Math.imul(h ^ s.charCodeAt(k), 16777619);
  return h >>> 0;
}

/** A ball's appearance in one renderer: its look's colour jitter, and a spotted cue ball's dots. */
type RenderedAppearance = BallAppearance & { tint: [number, number, number]; spots?: { dirs: [number, number, number][]; cos: number; rgb: Rgb } };

export class Renderer {
  readonly game: GameId;
  readonly table: TableProfile;
  readonly camera: Camera;
  readonly look: LookParams;
  readonly seed: number;
  readonly exposureS: number;
  private readonly rays: RayMap;
  private readonly tableImg: TableImage;
  private readonly overlay: OverlayLayer | undefined;
  private readonly noise: Float32Array;
  /** The same noise rounded to integers within ±CLAMP_OFFSET, for the noisy copies of the static image. */
  private readonly noiseInt: Int16Array;
  private readonly lights: LightParams[];
  private readonly lightShare: number[];
  /** Intensity-weighted centre of the lamps: where the one dominant highlight comes from. */
  private readonly canopy: [number, number, number];
  private readonly occMask: Uint8Array;
  private occDirty = false;
  private readonly restingOrientation = new Map<string, Float64Array>();
  private readonly appearances = new Map<string, RenderedAppearance>();

  constructor(opts: RendererOptions) {
    this.game = opts.game;
    this.table = opts.table;
    this.camera = opts.camera;
    this.look = opts.look;
    this.seed = opts.seed;
    this.exposureS = opts.exposureS ?? opts.look.exposureS;
    if (opts.table.game !== opts.game) throw new Error(`table profile '${opts.table.name}' is for ${opts.table.game}, not ${opts.game}`);
    this.rays = buildRayMap(opts.camera);
    this.tableImg = renderTableImage(opts.camera, this.rays, opts.table, opts.look, opts.seed);
    this.overlay = opts.look.overlay ? buildOverlay(opts.game, opts.camera.width, opts.camera.height, opts.seed, opts.look.overlayStyle) : undefined;
    this.lights = lightsForBed(opts.look, opts.table.bed.width, opts.table.bed.length);
    const total = this.lights.reduce((s, l) => s + l.intensity, 0) || 1;
    this.lightShare = this.lights.map((l) => l.intensity / total);
    this.canopy = [0, 1, 2].map((c) => this.lights.reduce((a, l, k) => a + [l.x, l.y, l.z][c]! * this.lightShare[k]!, 0)) as [number, number, number];
    // Gaussian noise texture (Box–Muller), read at random offsets: per-pixel random numbers every
    // frame would cost more than the rest of the frame.
    const rng = mulberry32(opts.seed ^ 0xa5a5a5);
    const nz = new Float32Array(NOISE_SIZE * NOISE_SIZE * 3);
    for (let k = 0; k < nz.length; k += 2) {
      const u1 = Math.max(1e-12, rng()), u2 = rng();
      const m = Math.sqrt(-2 * Math.log(u1)) * opts.look.noiseSigma;
      nz[k] = m * Math.cos(2 * Math.PI * u2);
      if (k + 1 < nz.length) nz[k + 1] = m * Math.sin(2 * Math.PI * u2);
    }
    this.noise = nz;
    this.noiseInt = new Int16Array(nz.length);
    for (let k = 0; k < nz.length; k++) this.noiseInt[k] = Math.max(-CLAMP_OFFSET, Math.min(CLAMP_OFFSET, Math.round(nz[k]!)));
    this.occMask = new Uint8Array(opts.camera.width * opts.camera.height);
    this.buildNoisyStatics();
  }

  /** The static table image (no balls, noise or overlay): for calibration tests and docs. */
  tableImage(): Uint8Array {
    return this.tableImg.rgb.slice();
  }

  /**
   * Render one frame. `history` holds other snapshots within the exposure (|t − frame.t| ≤
   * exposure); the frame is the average of the ball positions they and `frame` give. Labels are the
   * balls at `frame.t`: pass the snapshots centred on it (t − e/2 … t + e/2) and the smear's centre
   * is where the label says, pass only earlier ones and the label sits at the smear's leading end.
   * Without history a moving ball is blurred along its velocity over an exposure centred on
   * `frame.t`.
   * `into` (optional) is a buffer to render into instead of a new one: streaming callers that
   * encode each frame before rendering the next save an allocation (and GC) per frame.
   */
  render(frame: FrameSnapshot, history: FrameSnapshot[] = [], into?: Uint8Array): RenderedFrame {
    const cam = this.camera;
    const { width, height } = cam;
    // The frame starts as the static table with sensor noise (bands of precomputed noisy copies);
    // what is drawn over it adds the same noise field in proportion to its coverage.
    if (into && into.length !== width * height * 3) throw new Error(`render: 'into' has ${into.length} bytes, the frame needs ${width * height * 3}`);
    const rgb = into ?? new Uint8Array(width * height * 3);
    this.startFrame(rgb, frame.i);
    const exposure = this.exposureS;
    // Snapshots within one exposure of the frame's time, before or after it: a caller that passes
    // them centred on t (t − e/2 … t + e/2) gets a smear centred on the label.
    const within = history.filter((h) => h.t !== frame.t && Math.abs(h.t - frame.t) <= exposure + 1e-9);

    // Balls still in view: on the table, plus pocketed balls still dropping through the pocket's
    // mouth and balls flying off the table (the truth writer animates both): drawn, but labelled
    // not visible. A ball more than its radius below the cloth is gone.
    const onTable = frame.balls.filter((b) => (b.state !== 'pocketed' && b.state !== 'offTable') || b.z > -this.appearance(b.id).radiusMm);
    for (const b of onTable) {
      // A NaN from the physics would silently empty the ball's bounding box: fail loudly instead.
      if (![b.x, b.y, b.z, b.vx, b.vy].every(Number.isFinite)) throw new Error(`frame ${frame.i}: ball '${b.id}' has a non-finite position or velocity`);
    }
    const poses = new Map<string, Pose[]>();
    for (const b of onTable) poses.set(b.id, this.posesFor(b, within, exposure));

    for (const b of onTable) this.drawShadow(rgb, b, poses.get(b.id)!);
    // Far to near, so nearer balls cover farther ones.
    const order = onTable
      .map((b) => ({ b, depth: Math.hypot(b.x - this.rays.ox, b.y - this.rays.oy, b.z - this.rays.oz) }))
      .sort((p, q) => q.depth - p.depth);
    for (const { b } of order) this.drawBall(rgb, b, poses.get(b.id)!);

    if (this.occDirty) {
      this.occMask.fill(0);
      this.occDirty = false;
    }
    if (this.look.occluders && frame.occluders?.length) this.drawOccluders(rgb, frame.occluders);
    if (this.overlay) compositeOverlay(this.overlay, rgb, width, height);

    const labels = onTable.map((b) => this.label(b));
    return { i: frame.i, t: frame.t, width, height, rgb, labels };
  }

  private appearance(id: string): RenderedAppearance {
    let a = this.appearances.get(id);
    if (!a) {
      const base = ballAppearance(this.game, this.table, id);
      const rng = mulberry32(hashString(id) ^ this.seed);
      const j = this.look.ballColourJitter;
      const tint: [number, number, number] = [1 + (rng() * 2 - 1) * j, 1 + (rng() * 2 - 1) * j, 1 + (rng() * 2 - 1) * j];
      a = { ...base, tint };
      const spots = this.look.cueBallSpots;
      if (spots && (base.class === 'white' || base.class === 'cue')) a.spots = { dirs: spots.dirs, cos: Math.cos(spots.radiusRad), rgb: spots.rgb };
      this.appearances.set(id, a);
    }
    return a;
  }

  /**
   * Texture rotation of a ball: the snapshot's, or when the physics gives none a fixed random one
   * per ball (real balls come to rest at any angle; all numbers facing up would be a cue a
   * detector could learn).
   */
  private orientationOf(b: BallSnapshot): Float64Array {
    if (b.orientation) return quatToMatrix(b.orientation);
    let m = this.restingOrientation.get(b.id);
    if (!m) {
      const rng = mulberry32(hashString(b.id) ^ 0x5bd1e995);
      // Uniform random unit quaternion (Shoemake).
      const u1 = rng(), u2 = rng() * 2 * Math.PI, u3 = rng() * 2 * Math.PI;
      const a = Math.sqrt(1 - u1), c = Math.sqrt(u1);
      m = quatToMatrix([a * Math.sin(u2), a * Math.cos(u2), c * Math.sin(u3), c * Math.cos(u3)]);
      this.restingOrientation.set(b.id, m);
    }
    return m;
  }

  private posesFor(b: BallSnapshot, within: FrameSnapshot[], exposure: number): Pose[] {
    const cur: Pose = { x: b.x, y: b.y, z: b.z, m: this.orientationOf(b) };
    if (exposure <= 0) return [cur];
    if (within.length > 0) {
      const out: Pose[] = [];
      for (const h of within) {
        const hb = h.balls.find((q) => q.id === b.id);
        if (hb && hb.state !== 'pocketed' && hb.state !== 'offTable') out.push({ x: hb.x, y: hb.y, z: hb.z, m: this.orientationOf(hb) });
      }
      out.push(cur);
      return out;
    }
    const R = this.appearance(b.id).radiusMm;
    const travel = Math.hypot(b.vx, b.vy) * exposure;
    if (travel < BLUR_MIN_TRAVEL * R) return [cur];
    // Poses 0.4 R apart: closer spacing is invisible once edges are anti-aliased and softened.
    const k = Math.min(MAX_BLUR_SAMPLES, Math.max(2, Math.ceil(travel / (0.4 * R)) + 1));
    const out: Pose[] = [];
    for (let s = 0; s < k; s++) {
      const tau = exposure * (s / (k - 1) - 0.5);
      out.push({ x: b.x + b.vx * tau, y: b.y + b.vy * tau, z: b.z, m: cur.m });
    }
    return out;
  }

  /** Pixel bounding box of bed-plane rectangle [x0, x1] × [y0, y1] at height z, clipped to the image. */
  private bedBox(x0: number, x1: number, y0: number, y1: number, z: number): [number, number, number, number] | null {
    const cam = this.camera;
    let i0 = Infinity, i1 = -Infinity, j0 = Infinity, j1 = -Infinity;
    // Edge midpoints too: distortion bows the rectangle's sides outwards.
    for (const [x, y] of [[x0, y0], [x1, y0], [x0, y1], [x1, y1], [(x0 + x1) / 2, y0], [(x0 + x1) / 2, y1], [x0, (y0 + y1) / 2], [x1, (y0 + y1) / 2]] as const) {
      const p = project(cam, x, y, z);
      if (!p) return null;
      i0 = Math.min(i0, p[0]);
      i1 = Math.max(i1, p[0]);
      j0 = Math.min(j0, p[1]);
      j1 = Math.max(j1, p[1]);
    }
    const a = Math.max(0, Math.floor(i0) - 2), b = Math.min(cam.width - 1, Math.ceil(i1) + 2);
    const c = Math.max(0, Math.floor(j0) - 2), d = Math.min(cam.height - 1, Math.ceil(j1) + 2);
    return a > b || c > d ? null : [a, b, c, d];
  }

  /**
   * Contact shadow (ambient occlusion under the ball) and one soft cast shadow per lamp, on the bed
   * only. A blurred ball's shadow averages at most SHADOW_POSES of its poses: shadows are soft
   * anyway and this is the costliest loop of a frame.
   */
  private drawShadow(rgb: Uint8Array, b: BallSnapshot, allPoses: Pose[]): void {
    const app = this.appearance(b.id);
    const R = app.radiusMm;
    const look = this.look;
    if (b.z < 0 || look.shadowStrength <= 0) return;
    const step = Math.max(1, Math.ceil(allPoses.length / SHADOW_POSES));
    const poses = allPoses.filter((_, k) => k % step === 0);
    const nP = poses.length, nL = this.lights.length;
    // Per pose and lamp, 7 numbers: shadow centre (sx, sy), unit axis away from the lamp (ax, ay),
    // cos of the lamp's elevation from vertical (the shadow is stretched by 1/cos along the axis),
    // shadow radius, and the lamp's share of the light (how dark its shadow is).
    const sh = new Float64Array(nP * nL * 7);
    const soft = Math.max(1, look.shadowSoftness * R);
    const zDisc = app.shape === 'disc' ? (app.thicknessMm ?? 5) / 2 : 0;
    let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
    for (let s = 0; s < nP; s++) {
      const p = poses[s]!;
      const zc = app.shape === 'disc' ? zDisc : p.z;
      x0 = Math.min(x0, p.x - R);
      x1 = Math.max(x1, p.x + R);
      y0 = Math.min(y0, p.y - R);
      y1 = Math.max(y1, p.y + R);
      for (let k = 0; k < nL; k++) {
        const l = this.lights[k]!;
        const o = (s * nL + k) * 7;
        if (l.z <= zc + 1) {
          sh[o + 6] = 0;
          continue;
        }
        const f = zc / (l.z - zc);
        const ox = (p.x - l.x) * f, oy = (p.y - l.y) * f;
        const off = Math.sqrt(ox * ox + oy * oy);
        const horiz = Math.sqrt((p.x - l.x) ** 2 + (p.y - l.y) ** 2);
        const cosA = (l.z - zc) / Math.sqrt(horiz * horiz + (l.z - zc) ** 2);
        const rs = app.shape === 'disc' ? R : (R * l.z) / (l.z - zc);
        sh[o] = p.x + ox;
        sh[o + 1] = p.y + oy;
        sh[o + 2] = off > 1e-6 ? ox / off : 1;
        sh[o + 3] = off > 1e-6 ? oy / off : 0;
        sh[o + 4] = cosA;
        sh[o + 5] = rs;
        sh[o + 6] = this.lightShare[k]!;
        const ext = rs / cosA + soft;
        x0 = Math.min(x0, sh[o]! - ext);
        x1 = Math.max(x1, sh[o]! + ext);
        y0 = Math.min(y0, sh[o + 1]! - ext);
        y1 = Math.max(y1, sh[o + 1]! + ext);
      }
    }
    const box = this.bedBox(x0, x1, y0, y1, 0);
    if (!box) return;
    const [i0, i1, j0, j1] = box;
    const { dx, dy, dz, ox, oy, oz } = this.rays;
    const surf = this.tableImg.surface;
    const width = this.camera.width;
    const strength = look.shadowStrength;
    // Contact shadow ≈ the umbra under a canopy of lamps: about the ball's own size, nearly black
    // at the centre; seen from an elevated camera it is the dark crescent below each ball.
    const invAo = 1 / (0.85 * R) ** 2;
    const aoDepth = Math.min(0.95, strength * 1.6);
    const invSoft = 1 / soft;
    const aoCut = 9 / invAo; // beyond 3σ the contact shadow is < 0.02 %
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const p = j * width + i;
        if (surf[p] !== Surface.Bed) continue;
        const t = -oz / dz[p]!;
        const x = ox + t * dx[p]!, y = oy + t * dy[p]!;
        let att = 0;
        for (let s = 0; s < nP; s++) {
          const pose = poses[s]!;
          // Contact shadow: the cloth right under a ball sees almost no sky; fades as the ball jumps.
          const d2 = (x - pose.x) ** 2 + (y - pose.y) ** 2;
          let a = 1;
          if (d2 < aoCut) {
            const lift = app.shape === 'disc' ? 1 : Math.max(0, 1 - (pose.z - R) / R);
            a -= aoDepth * lift * Math.exp(-d2 * invAo);
          }
          for (let k = 0, o = s * nL * 7; k < nL; k++, o += 7) {
            const w = sh[o + 6]!;
            if (w === 0) continue;
            const vx = x - sh[o]!, vy = y - sh[o + 1]!;
            const rs = sh[o + 5]!;
            const along = (vx * sh[o + 2]! + vy * sh[o + 3]!) * sh[o + 4]!;
            const perp = vy * sh[o + 2]! - vx * sh[o + 3]!;
            const dn2 = along * along + perp * perp;
            const lim = rs + soft * 0.5;
            if (dn2 >= lim * lim) continue;
            const cov = Math.min(1, (rs - Math.sqrt(dn2)) * invSoft + 0.5);
            a *= 1 - strength * w * cov;
          }
          att += a;
        }
        att /= nP;
        if (att < 0.998) {
          const q = p * 3;
          rgb[q] = rgb[q]! * att + 0.5;
          rgb[q + 1] = rgb[q + 1]! * att + 0.5;
          rgb[q + 2] = rgb[q + 2]! * att + 0.5;
        }
      }
    }
  }

  private drawBall(rgb: Uint8Array, b: BallSnapshot, poses: Pose[]): void {
    const app = this.appearance(b.id);
    if (app.shape === 'disc') {
      this.drawDisc(rgb, b, poses, app);
      return;
    }
    const R = app.radiusMm;
    if (b.z < -R) return;
    const cam = this.camera;
    const width = cam.width;
    let i0 = Infinity, i1 = -Infinity, j0 = Infinity, j1 = -Infinity;
    for (const p of poses) {
      const c = project(cam, p.x, p.y, p.z);
      if (!c) continue;
      const depth = Math.hypot(p.x - this.rays.ox, p.y - this.rays.oy, p.z - this.rays.oz);
      // Outline radius plus a margin for lens distortion and the anti-aliased edge ramp.
      const rp = ((cam.fx * R) / Math.max(R * 1.01, depth - R)) * 1.08 + 2 + 2 * this.look.softnessPx;
      i0 = Math.min(i0, c[0] - rp);
      i1 = Math.max(i1, c[0] + rp);
      j0 = Math.min(j0, c[1] - rp);
      j1 = Math.max(j1, c[1] + rp);
    }
    const a0 = Math.max(0, Math.floor(i0)), a1 = Math.min(width - 1, Math.ceil(i1));
    const c0 = Math.max(0, Math.floor(j0)), c1 = Math.min(cam.height - 1, Math.ceil(j1));
    if (a0 > a1 || c0 > c1) return;
    const { dx, dy, dz, ox, oy, oz } = this.rays;
    const surf = this.tableImg.surface;
    const vig = this.tableImg.vignette;
    const look = this.look;
    const lights = this.lights, share = this.lightShare;
    const nL = lights.length;
    const tint = app.tint;
    const gain = look.gain;
    // 1 mm of slack: physics may leave a resting ball a hair below R.
    const sinking = b.z < R - 1;
    const R2 = R * R;
    const n = poses.length;
    const invFx = 1 / cam.fx;
    const edgePx = Math.max(1, 1 + 1.5 * look.softnessPx);
    const px = new Float64Array(3);
    for (let j = c0; j <= c1; j++) {
      for (let i = a0; i <= a1; i++) {
        const p = j * width + i;
        // A ball sinking into a pocket is hidden by the cushions and rails in front of it.
        if (sinking && surf[p] !== Surface.Pocket && surf[p] !== Surface.Bed) continue;
        const rx = dx[p]!, ry = dy[p]!, rz = dz[p]!;
        let ar = 0, ag = 0, ab = 0, acov = 0;
        for (let s = 0; s < n; s++) {
          const pose = poses[s]!;
          const cx = ox - pose.x, cy = oy - pose.y, cz = oz - pose.z;
          const bb = cx * rx + cy * ry + cz * rz;
          const cc = cx * cx + cy * cy + cz * cz;
          const dist2 = cc - bb * bb;
          // Analytic anti-aliasing: coverage from the ray's distance to the silhouette in pixel units.
          const dist = Math.sqrt(Math.max(0, dist2));
          // Edge ramp: one pixel, widened by the look's optical softness (defocus, broadcast scaling).
          const fp = -bb * invFx * edgePx;
          const cov = Math.min(1, Math.max(0, (R - dist) / fp + 0.5));
          if (cov <= 0) continue;
          // Hit point (or, just outside the silhouette, its nearest point on the limb).
          const th = dist2 < R2 ? -bb - Math.sqrt(R2 - dist2) : -bb;
          let nx = (ox + th * rx - pose.x) / R, ny = (oy + th * ry - pose.y) / R, nz = (oz + th * rz - pose.z) / R;
          const nl = 1 / Math.sqrt(nx * nx + ny * ny + nz * nz);
          nx *= nl;
          ny *= nl;
          nz *= nl;
          this.albedo(app, pose.m, nx, ny, nz, px);
          let ar0 = px[0]! * tint[0], ag0 = px[1]! * tint[1], ab0 = px[2]! * tint[2];
          // Hemisphere ambient (the underside sees the dark cloth) plus lamps: diffuse and a
          // Blinn–Phong highlight per lamp, which is what gives real balls their bright dots.
          let diff = look.ambient * (1 - look.ballHemisphere * 0.5 * (1 - nz));
          let spec = 0;
          const hx0 = ox + th * rx, hy0 = oy + th * ry, hz0 = oz + th * rz;
          for (let k = 0; k < nL; k++) {
            const l = lights[k]!;
            let lx = l.x - hx0, ly = l.y - hy0, lz = l.z - hz0;
            const ll = 1 / Math.sqrt(lx * lx + ly * ly + lz * lz);
            lx *= ll;
            ly *= ll;
            lz *= ll;
            const ndl = nx * lx + ny * ly + nz * lz;
            // Wrapped Lambert: a glossy ball's limb also shows the bright room and cloth it
            // reflects, so real balls never go black at the edge as a matt sphere would.
            const lit = (ndl + BALL_WRAP) / (1 + BALL_WRAP);
            if (lit <= 0) continue;
            diff += (1 - look.ambient) * share[k]! * lit * BALL_LAMP_GAIN;
            if (ndl <= 0) continue;
            let hx = lx - rx, hy = ly - ry, hz = lz - rz;
            const hl = 1 / Math.sqrt(hx * hx + hy * hy + hz * hz);
            hx *= hl;
            hy *= hl;
            hz *= hl;
            const ndh = nx * hx + ny * hy + nz * hz;
            // Below ndh = 0.8 the highlight is < 1e-5 for any shininess ≥ 25: skip the pow.
            if (ndh > 0.8) spec += LAMP_SPECULAR * l.intensity * Math.pow(ndh, look.shininess);
          }
          {
            // The canopy as a whole (its reflector) makes one dominant highlight, as real balls show.
            let lx = this.canopy[0] - hx0, ly = this.canopy[1] - hy0, lz = this.canopy[2] - hz0;
            const ll = 1 / Math.sqrt(lx * lx + ly * ly + lz * lz);
            lx = lx * ll - rx;
            ly = ly * ll - ry;
            lz = lz * ll - rz;
            const ndh = (nx * lx + ny * ly + nz * lz) / Math.sqrt(lx * lx + ly * ly + lz * lz);
            if (ndh > 0.5) spec += 0.75 * Math.pow(ndh, look.shininess * 0.4);
          }
          spec *= look.specular * 255;
          ar0 = ar0 * diff + spec;
          ag0 = ag0 * diff + spec;
          ab0 = ab0 * diff + spec;
          ar += ar0 * cov;
          ag += ag0 * cov;
          ab += ab0 * cov;
          acov += cov;
        }
        if (acov <= 0) continue;
        const k = (gain * vig[p]!) / n;
        const alpha = acov / n;
        this.blend(rgb, p, i, j, alpha, ar * k, ag * k, ab * k);
      }
    }
  }

  /** Write coverage-weighted colour (premultiplied r, g, b) over pixel p, with the frame's noise on the covered part. */
  private blend(rgb: Uint8Array, p: number, i: number, j: number, alpha: number, r: number, g: number, b: number): void {
    const q = p * 3;
    const wb = this.look.whiteBalance;
    r *= wb[0];
    g *= wb[1];
    b *= wb[2];
    const nr = this.noiseAt(0, i, j) * alpha, ng = this.noiseAt(1, i, j) * alpha, nb = this.noiseAt(2, i, j) * alpha;
    const v0 = rgb[q]! * (1 - alpha) + r + nr, v1 = rgb[q + 1]! * (1 - alpha) + g + ng, v2 = rgb[q + 2]! * (1 - alpha) + b + nb;
    rgb[q] = v0 < 0 ? 0 : v0 > 255 ? 255 : v0 + 0.5;
    rgb[q + 1] = v1 < 0 ? 0 : v1 > 255 ? 255 : v1 + 0.5;
    rgb[q + 2] = v2 < 0 ? 0 : v2 > 255 ? 255 : v2 + 0.5;
  }

  /** Surface colour at world normal n: pool balls carry a stripe and a numbered disc in their own frame. */
  private albedo(app: RenderedAppearance, m: Float64Array, nx: number, ny: number, nz: number, out: Float64Array): void {
    const c = app.rgb;
    if (app.number === undefined && !app.spots) {
      out[0] = c[0];
      out[1] = c[1];
      out[2] = c[2];
      return;
    }
    // Local = Mᵀ · world: numbers, stripes and dots are fixed in the ball's own frame, so they roll with it.
    const lx = m[0]! * nx + m[3]! * ny + m[6]! * nz;
    const ly = m[1]! * nx + m[4]! * ny + m[7]! * nz;
    const lz = m[2]! * nx + m[5]! * ny + m[8]! * nz;
    if (app.spots) {
      for (const d of app.spots.dirs) {
        if (lx * d[0] + ly * d[1] + lz * d[2] > app.spots.cos) {
          out[0] = app.spots.rgb[0];
          out[1] = app.spots.rgb[1];
          out[2] = app.spots.rgb[2];
          return;
        }
      }
    }
    if (app.number === undefined) {
      out[0] = c[0];
      out[1] = c[1];
      out[2] = c[2];
      return;
    }
    const white = 242;
    const pole = Math.abs(lz);
    if (pole > 0.9) {
      // Number disc (on both poles); glyph cells in the disc's tangent plane.
      const label = String(app.number);
      const cell = 0.075;
      const textW = (label.length * (GLYPH_W + 1) - 1) * cell;
      const gx = Math.floor((lx * Math.sign(lz) + textW / 2) / cell);
      const gy = Math.floor((-ly + (GLYPH_H * cell) / 2) / cell);
      const ch = label[Math.floor(gx / (GLYPH_W + 1))];
      const ink = ch !== undefined && gx >= 0 && glyphBit(ch, gx % (GLYPH_W + 1), gy);
      const v = ink ? 25 : white;
      out[0] = v;
      out[1] = v;
      out[2] = v - (ink ? 0 : 8);
      return;
    }
    if (app.stripe && pole > 0.5) {
      out[0] = white;
      out[1] = white;
      out[2] = white - 8;
      return;
    }
    out[0] = c[0];
    out[1] = c[1];
    out[2] = c[2];
  }

  /** Novus pawn/striker: a flat disc with a hole, lying on the board (top face + outer wall). */
  private drawDisc(rgb: Uint8Array, b: BallSnapshot, poses: Pose[], app: RenderedAppearance): void {
    const cam = this.camera;
    const width = cam.width;
    const R = app.radiusMm, H = app.thicknessMm ?? 5, hole = app.holeRadiusMm ?? 0;
    if (b.z < 0) return;
    let i0 = Infinity, i1 = -Infinity, j0 = Infinity, j1 = -Infinity;
    for (const p of poses) {
      const box = this.bedBox(p.x - R, p.x + R, p.y - R, p.y + R, H);
      const box0 = this.bedBox(p.x - R, p.x + R, p.y - R, p.y + R, 0);
      for (const bx of [box, box0]) {
        if (!bx) continue;
        i0 = Math.min(i0, bx[0]);
        i1 = Math.max(i1, bx[1]);
        j0 = Math.min(j0, bx[2]);
        j1 = Math.max(j1, bx[3]);
      }
    }
    if (!(i0 <= i1 && j0 <= j1)) return;
    const { dx, dy, dz, ox, oy, oz } = this.rays;
    const vig = this.tableImg.vignette;
    const look = this.look;
    const n = poses.length;
    const invFx = 1 / cam.fx;
    const col = app.rgb, tint = app.tint;
    // Top face lit by the lamps (flat: one level per disc) with a soft sheen; the wall is darker.
    let lamp = look.ambient;
    for (let k = 0; k < this.lights.length; k++) {
      const l = this.lights[k]!;
      const d = Math.hypot(l.x - b.x, l.y - b.y, l.z);
      lamp += (1 - look.ambient) * this.lightShare[k]! * (l.z / d) * 1.1;
    }
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const p = j * width + i;
        const rx = dx[p]!, ry = dy[p]!, rz = dz[p]!;
        if (rz >= 0) continue;
        let ar = 0, ag = 0, ab = 0, acov = 0;
        for (let s = 0; s < n; s++) {
          const pose = poses[s]!;
          const t = (H - oz) / rz;
          const x = ox + t * rx - pose.x, y = oy + t * ry - pose.y;
          const d = Math.sqrt(x * x + y * y);
          const fp = ((t * invFx) / Math.sqrt(-rz)) * Math.max(1, 1 + 1.5 * look.softnessPx);
          const cOuter = Math.min(1, Math.max(0, (R - d) / fp + 0.5));
          const cHole = Math.min(1, Math.max(0, (d - hole) / fp + 0.5));
          let cov = cOuter * cHole;
          let shade = lamp * (1 - 0.12 * (d / R) ** 2);
          if (cov < 1 && d > hole) {
            // Outer wall: where the ray crosses the cylinder of radius R between z = 0 and H.
            const ex = ox - pose.x, ey = oy - pose.y;
            const qa = rx * rx + ry * ry, qb = ex * rx + ey * ry, qc = ex * ex + ey * ey - R * R;
            const disc = qb * qb - qa * qc;
            if (disc > 0) {
              const tw = (-qb - Math.sqrt(disc)) / qa;
              const zw = oz + tw * rz;
              if (zw >= 0 && zw <= H) {
                const wallShade = lamp * 0.55;
                shade = (shade * cov + wallShade * (1 - cov));
                cov = 1;
              }
            }
          }
          if (cov <= 0) continue;
          ar += col[0] * tint[0] * shade * cov;
          ag += col[1] * tint[1] * shade * cov;
          ab += col[2] * tint[2] * shade * cov;
          acov += cov;
        }
        if (acov <= 0) continue;
        const k = (look.gain * vig[p]!) / n;
        this.blend(rgb, p, i, j, acov / n, ar * k, ag * k, ab * k);
      }
    }
  }

  /** Occluders as seen from above: tapered cue capsules, round hands and bodies (2D, from their projections). */
  /**
   * Players as the camera sees them: bodies, then an arm (sleeve) from each body to the hands near
   * it, then cues, then hands on top (the bridge hand rests on the cue).
   */
  private drawOccluders(rgb: Uint8Array, occluders: Occluder[]): void {
    const cam = this.camera;
    const look = this.look;
    const depthOf = (p: readonly [number, number, number]): number => Math.hypot(p[0] - this.rays.ox, p[1] - this.rays.oy, p[2] - this.rays.oz);
    const bodies = occluders.filter((o): o is Extract<Occluder, { kind: 'body' }> => o.kind === 'body');
    const hands = occluders.filter((o): o is Extract<Occluder, { kind: 'hand' }> => o.kind === 'hand');
    const cues = occluders.filter((o): o is Extract<Occluder, { kind: 'cue' }> => o.kind === 'cue');
    const disc = (centre: [number, number, number], radiusMm: number, colour: readonly [number, number, number]): void => {
      const c = project(cam, ...centre);
      if (!c) return;
      const r = (cam.fx * radiusMm) / depthOf(centre);
      this.drawCapsule(rgb, c, c, r, r, () => colour);
    };
    for (const b of bodies) {
      // Seen from above a player is shoulders and a head, not a disc: shoulders across the line
      // to the hand (or to the bed centre), the head a little towards it, hair dark.
      const hand = hands.reduce<(typeof hands)[number] | undefined>((best, h) => {
        const d = Math.hypot(h.centre[0] - b.centre[0], h.centre[1] - b.centre[1]);
        return d < 1100 && (!best || d < Math.hypot(best.centre[0] - b.centre[0], best.centre[1] - b.centre[1])) ? h : best;
      }, undefined);
      const aim = hand ? hand.centre : [this.table.bed.width / 2, this.table.bed.length / 2];
      let fx = aim[0]! - b.centre[0], fy = aim[1]! - b.centre[1];
      const fl = Math.hypot(fx, fy) || 1;
      fx /= fl;
      fy /= fl;
      const half = b.radiusMm * 0.55;
      const s1: [number, number, number] = [b.centre[0] - fy * half, b.centre[1] + fx * half, b.centre[2]];
      const s2: [number, number, number] = [b.centre[0] + fy * half, b.centre[1] - fx * half, b.centre[2]];
      const p1 = project(cam, ...s1), p2 = project(cam, ...s2);
      if (p1 && p2) {
        const rr = b.radiusMm * 0.45;
        this.drawCapsule(rgb, p1, p2, (cam.fx * rr) / depthOf(s1), (cam.fx * rr) / depthOf(s2), () => look.playerRgb);
      }
      const head: [number, number, number] = [b.centre[0] + fx * b.radiusMm * 0.15, b.centre[1] + fy * b.radiusMm * 0.15, b.centre[2] + b.radiusMm * 0.3];
      disc(head, b.radiusMm * 0.3, HAIR);
    }
    for (const h of hands) {
      // An arm joins a hand to a body within reach (≈ 1 m): shoulder on the body's rim towards the hand.
      let best: (typeof bodies)[number] | undefined, bestD = 1100;
      for (const b of bodies) {
        const d = Math.hypot(b.centre[0] - h.centre[0], b.centre[1] - h.centre[1]);
        if (d < bestD) {
          best = b;
          bestD = d;
        }
      }
      if (!best) continue;
      const k = Math.min(1, (best.radiusMm * 0.6) / Math.max(1, bestD));
      const shoulder: [number, number, number] = [
        best.centre[0] + (h.centre[0] - best.centre[0]) * k,
        best.centre[1] + (h.centre[1] - best.centre[1]) * k,
        best.centre[2],
      ];
      const a = project(cam, ...shoulder), b = project(cam, ...h.centre);
      if (!a || !b) continue;
      const armMm = Math.max(35, h.radiusMm * 0.9);
      this.drawCapsule(rgb, a, b, (cam.fx * armMm * 1.3) / depthOf(shoulder), (cam.fx * armMm * 0.8) / depthOf(h.centre), () => look.sleeveRgb);
    }
    for (const o of cues) {
      const a = project(cam, ...o.from), b = project(cam, ...o.to);
      if (!a || !b) continue;
      // As the truth writer poses it: `from` is the tip, `to` the butt. A cue tapers from ≈ 2.2 ×
      // the given radius at the butt to ≈ 0.9 × at the tip: blue chalked tip, ash shaft, dark butt.
      const ra = Math.max(0.6, (cam.fx * o.radiusMm * 0.9) / depthOf(o.from)), rb = Math.max(0.8, (cam.fx * o.radiusMm * 2.2) / depthOf(o.to));
      this.drawCapsule(rgb, a, b, ra, rb, (s) => (s < 0.012 ? CUE_TIP : s < 0.6 ? CUE_SHAFT : CUE_BUTT));
    }
    for (const h of hands) disc(h.centre, h.radiusMm, look.skinRgb);
  }

  /** Anti-aliased tapered capsule from a (radius ra) to b (radius rb), shaded as a cylinder. */
  private drawCapsule(
    rgb: Uint8Array, a: [number, number], b: [number, number], ra: number, rb: number,
    colourAt: (s: number) => readonly [number, number, number],
  ): void {
    const { width, height } = this.camera;
    const rMax = Math.max(ra, rb);
    const i0 = Math.max(0, Math.floor(Math.min(a[0], b[0]) - rMax - 1)), i1 = Math.min(width - 1, Math.ceil(Math.max(a[0], b[0]) + rMax + 1));
    const j0 = Math.max(0, Math.floor(Math.min(a[1], b[1]) - rMax - 1)), j1 = Math.min(height - 1, Math.ceil(Math.max(a[1], b[1]) + rMax + 1));
    if (i0 > i1 || j0 > j1) return;
    const ex = b[0] - a[0], ey = b[1] - a[1];
    const len2 = ex * ex + ey * ey;
    const vig = this.tableImg.vignette;
    const g = this.look.gain;
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const s = len2 > 0 ? Math.min(1, Math.max(0, ((i - a[0]) * ex + (j - a[1]) * ey) / len2)) : 0;
        const qx = a[0] + s * ex - i, qy = a[1] + s * ey - j;
        const d = Math.sqrt(qx * qx + qy * qy);
        const r = ra + (rb - ra) * s;
        const cov = Math.min(1, Math.max(0, r - d + 0.5));
        if (cov <= 0) continue;
        const p = j * width + i;
        // Cylinder shading: bright along the axis (lamp above), darker at the limbs.
        const across = Math.min(1, d / Math.max(0.5, r));
        const shade = (0.55 + 0.55 * Math.sqrt(Math.max(0, 1 - across * across))) * g * vig[p]!;
        const c = colourAt(s);
        this.blend(rgb, p, i, j, cov, c[0] * shade * cov, c[1] * shade * cov, c[2] * shade * cov);
        if (cov > 0.5) this.occMask[p] = 1;
      }
    }
    this.occDirty = true;
  }

  /**
   * Frames start from one of NOISY_VARIANTS copies of the static image with the noise texture
   * already added (each at its own random offset), chosen independently for every band of
   * NOISE_BAND_ROWS rows. A frame then costs a memcpy instead of a pass of clamped additions (that
   * pass was half of the frame's time); the price is that a band's noise pattern recurs among 8
   * (a detector cannot exploit it; H.264 may code such bands a little more cheaply than real noise).
   */
  private noisyStatic: Uint8Array[] = [];
  private noiseVariantOff: Int32Array = new Int32Array(0);
  /** Variant chosen for each band of the current frame. */
  private bandVariant: Uint8Array = new Uint8Array(0);

  private buildNoisyStatics(): void {
    const { width, height } = this.camera;
    const src = this.tableImg.rgb;
    this.bandVariant = new Uint8Array(Math.ceil(height / NOISE_BAND_ROWS));
    if (this.look.noiseSigma <= 0) {
      this.noisyStatic = [src];
      this.noiseVariantOff = new Int32Array(2);
      return;
    }
    const rng = mulberry32(this.seed ^ 0x3c6ef372);
    this.noiseVariantOff = new Int32Array(NOISY_VARIANTS * 2);
    const nz = this.noiseInt;
    const clamp = CLAMP_TABLE;
    const mask = NOISE_SIZE - 1;
    for (let v = 0; v < NOISY_VARIANTS; v++) {
      const offX = (this.noiseVariantOff[v * 2] = Math.floor(rng() * NOISE_SIZE));
      const offY = (this.noiseVariantOff[v * 2 + 1] = Math.floor(rng() * NOISE_SIZE));
      const out = new Uint8Array(src.length);
      for (let j = 0; j < height; j++) {
        const row = ((j + offY) & mask) * NOISE_SIZE * 3;
        let p = j * width * 3;
        // Runs that do not wrap the texture, so the inner loop is a plain linear walk; integer noise
        // and a clamp table keep float rounding and branches out of it.
        let i = 0;
        while (i < width) {
          const col = (i + offX) & mask;
          const run = Math.min(width - i, NOISE_SIZE - col);
          let q = row + col * 3;
          const end = p + run * 3;
          for (; p < end; p++, q++) out[p] = clamp[src[p]! + nz[q]! + CLAMP_OFFSET]!;
          i += run;
        }
      }
      this.noisyStatic.push(out);
    }
  }

  /** Sensor noise at pixel (i, j), channel `ch`, as the current frame's band variant has it. */
  private noiseAt(ch: number, i: number, j: number): number {
    const v = this.bandVariant[(j / NOISE_BAND_ROWS) | 0]!;
    const offX = this.noiseVariantOff[v * 2]!, offY = this.noiseVariantOff[v * 2 + 1]!;
    const q = (((j + offY) & (NOISE_SIZE - 1)) * NOISE_SIZE + ((i + offX) & (NOISE_SIZE - 1))) * 3;
    return this.noise[q + ch]!;
  }

  private startFrame(rgb: Uint8Array, frameIndex: number): void {
    const { width, height } = this.camera;
    const rng = mulberry32((this.seed ^ Math.imul(frameIndex + 1, 0x9e3779b1)) >>> 0);
    const n = this.noisyStatic.length;
    const rowBytes = width * 3;
    for (let b = 0; b < this.bandVariant.length; b++) {
      const v = n === 1 ? 0 : Math.floor(rng() * n);
      this.bandVariant[b] = v;
      const start = b * NOISE_BAND_ROWS * rowBytes, end = Math.min(height, (b + 1) * NOISE_BAND_ROWS) * rowBytes;
      rgb.set(this.noisyStatic[v]!.subarray(start, end), start);
    }
  }

  /**
   * Label of a ball at the frame's instant: the outline is the projection of the sphere's tangent
   * circle seen from the camera (through the lens model), so `u, v` is its area centroid and `r` the
   * radius of the circle with its area.
   */
  private label(b: BallSnapshot): FrameLabel {
    const app = this.appearance(b.id);
    const cam = this.camera;
    const R = app.radiusMm;
    const N = 48;
    const pts: [number, number][] = [];
    if (app.shape === 'disc') {
      const H = app.thicknessMm ?? 5;
      for (let k = 0; k < N; k++) {
        const a = (2 * Math.PI * k) / N;
        const p = project(cam, b.x + R * Math.cos(a), b.y + R * Math.sin(a), H);
        if (p) pts.push(p);
      }
    } else {
      const vx = b.x - cam.position[0], vy = b.y - cam.position[1], vz = b.z - cam.position[2];
      const D2 = vx * vx + vy * vy + vz * vz;
      const D = Math.sqrt(D2);
      const f = 1 - (R * R) / D2;
      const qx = cam.position[0] + vx * f, qy = cam.position[1] + vy * f, qz = cam.position[2] + vz * f;
      const rho = R * Math.sqrt(f);
      const wx = vx / D, wy = vy / D, wz = vz / D;
      // Orthonormal e1, e2 ⟂ view direction.
      let e1x = -wy, e1y = wx, e1z = 0;
      let l = Math.hypot(e1x, e1y, e1z);
      if (l < 1e-9) {
        e1x = 1;
        e1y = 0;
        l = 1;
      }
      e1x /= l;
      e1y /= l;
      e1z /= l;
      const e2x = wy * e1z - wz * e1y, e2y = wz * e1x - wx * e1z, e2z = wx * e1y - wy * e1x;
      for (let k = 0; k < N; k++) {
        const a = (2 * Math.PI * k) / N;
        const c = Math.cos(a) * rho, s = Math.sin(a) * rho;
        const p = project(cam, qx + c * e1x + s * e2x, qy + c * e1y + s * e2y, qz + c * e1z + s * e2z);
        if (p) pts.push(p);
      }
    }
    let area = 0, cu = 0, cv = 0;
    for (let k = 0; k < pts.length; k++) {
      const [x0, y0] = pts[k]!;
      const [x1, y1] = pts[(k + 1) % pts.length]!;
      const cr = x0 * y1 - x1 * y0;
      area += cr;
      cu += (x0 + x1) * cr;
      cv += (y0 + y1) * cr;
    }
    area /= 2;
    const u = pts.length === N && area !== 0 ? cu / (6 * area) : NaN;
    const v = pts.length === N && area !== 0 ? cv / (6 * area) : NaN;
    const r = Math.sqrt(Math.abs(area) / Math.PI);
    let visible =
      b.state !== 'pocketed' && b.state !== 'offTable' &&
      Number.isFinite(u) && u >= 0 && v >= 0 && u <= cam.width - 1 && v <= cam.height - 1 && b.z >= (app.shape === 'disc' ? 0 : R * 0.5);
    if (visible && this.overlay && overlayCovers(this.overlay, u, v)) visible = false;
    if (visible && this.occDirty) {
      // Hidden when most of a 3×3 grid over the ball's disc is under an occluder.
      let hidden = 0;
      for (const oy of [-0.5, 0, 0.5]) {
        for (const ox of [-0.5, 0, 0.5]) {
          const x = Math.round(u + ox * r), y = Math.round(v + oy * r);
          if (x >= 0 && y >= 0 && x < cam.width && y < cam.height && this.occMask[y * cam.width + x]) hidden++;
        }
      }
      if (hidden >= 5) visible = false;
    }
    return { id: b.id, class: app.class, u, v, r, visible };
  }
}
