/**
 * Sub-pixel ball centres from the frame's own pixels. The network places a centre on a stride-4
 * grid with a learnt offset: about 0.75 frame px off at 720p (≈ 2 mm on a full-size table seen
 * from overhead) for a ball alone, and several px for a ball in a pack, where the network's peaks
 * pull towards each other. A referee's touching-ball and rest calls need a millimetre. The ball's
 * outline against the cloth says where it is to a tenth of a pixel, so each ball's edge is found
 * along rays from its centre and a circle fitted to it:
 *
 * - "edge" is where the colour's distance from the cloth around the ball falls halfway from the
 *   ball's core to the cloth (each ball against its own local cloth: lamps make the bed uneven);
 * - rays towards a neighbouring ball are left out (two touching balls have no cloth between them);
 * - the circle's radius is fixed: a partial arc (a ball in a pack shows a third of its outline)
 *   cannot fix both a radius and a centre, and a free radius would slide the centre along the arc.
 *   The radius used is the median of what the frame's lone balls show (whole outlines, free
 *   fits): one radius for the frame, as the pipeline fits outlines only for a camera looking down
 *   on the bed (pipeline/outlineCentres.ts), where every ball is the same size;
 * - the fit is kept only when the outline is a circle: small residuals, enough arc, and for a ball
 *   with no other beside it most of the outline (a cue beside it, a line or a shadow across a dark
 *   ball keep the network's centre).
 *
 * Pure: a frame and detections in, detections out (same order, same kinds and confidences).
 */
import { sampleRgb } from '../calibration/image.js';
import { medianInPlace as median } from '../core/stats.js';
import type { Rgb } from './preprocess.js';

export interface CentreRefineOptions {
  /** Rays round each ball. */
  rays?: number;
  /** Least share of the rays that must find the edge (and not point at a neighbour). */
  minArcShare?: number;
  /** Largest RMS of the edge points off the fitted circle, in radii: more is not a lone round ball. */
  maxResidualRadii?: number;
  /** Largest move from the network's centre, in radii (more is another ball's edge). */
  maxShiftRadii?: number;
  /** Least contrast between a ball's core and its cloth (RGB distance): below it the edge is not seen. */
  minContrast?: number;
  /** Most balls touching one (centres within 2.5 radii) for it to be fitted: a pack's balls show too little outline. */
  maxNeighbours?: number;
  /** Fitting rounds (each later one with the neighbours where the last placed them). */
  rounds?: number;
}

const DEFAULT_ROUNDS = 2;
const DEFAULTS: Required<Omit<CentreRefineOptions, 'rounds'>> = { rays: 32, minArcShare: 0.2, maxResidualRadii: 0.12, maxShiftRadii: 0.5, minContrast: 30, maxNeighbours: 4 };

/** What the fit found for one ball (for benches and tests). */
export interface CentreFit {
  u: number;
  v: number;
  /** Radius of the free fit (whole outlines only), else NaN. */
  freeRadius: number;
  /** Edge points used / rays cast. */
  arcShare: number;
  /** RMS of the edge points off the circle, px. */
  residualPx: number;
  /** Whether the fit replaced the network's centre. */
  used: boolean;
}

/** A detection's centre and radius, frame px. */
export interface Ball {
  u: number;
  v: number;
  r: number;
}

/** The cloth's colour round a ball: the median of a ring 1.6–2.2 radii out, away from other balls. */
function clothRound(f: Rgb, b: Ball, others: readonly Ball[]): [number, number, number] | null {
  const px = new Float64Array(3);
  const ch: [number[], number[], number[]] = [[], [], []];
  for (const rr of [1.6, 1.9, 2.2]) {
    const n = Math.max(16, Math.round(2 * Math.PI * rr * b.r / 2));
    for (let k = 0; k < n; k++) {
      const a = (2 * Math.PI * k) / n;
      const u = b.u + rr * b.r * Math.cos(a), v = b.v + rr * b.r * Math.sin(a);
      if (others.some((o) => Math.hypot(o.u - u, o.v - v) < 1.3 * o.r)) continue;
      if (!sampleRgb(f, u, v, px)) continue;
      ch[0].push(px[0]!);
      ch[1].push(px[1]!);
      ch[2].push(px[2]!);
    }
  }
  if (ch[0].length < 12) return null;
  return [median(ch[0]), median(ch[1]), median(ch[2])];
}

/**
 * The colour's distance from `cloth` at (u, v), bilinear; NaN outside the frame. The hot loop of
 * the fit (tens of thousands of samples a frame), so written out: no allocation, no Math.hypot.
 */
function clothDistance(f: Rgb, u: number, v: number, cloth: readonly number[]): number {
  if (u < 0 || v < 0 || u > f.width - 1.001 || v > f.height - 1.001) return NaN;
  const x0 = u | 0, y0 = v | 0;
  const ax = u - x0, ay = v - y0;
  const w00 = (1 - ax) * (1 - ay), w01 = ax * (1 - ay), w10 = (1 - ax) * ay, w11 = ax * ay;
  const p = f.rgb;
  const i00 = (y0 * f.width + x0) * 3, i10 = i00 + f.width * 3;
  const r = p[i00]! * w00 + p[i00 + 3]! * w01 + p[i10]! * w10 + p[i10 + 3]! * w11 - cloth[0]!;
  const g = p[i00 + 1]! * w00 + p[i00 + 4]! * w01 + p[i10 + 1]! * w10 + p[i10 + 4]! * w11 - cloth[1]!;
  const b = p[i00 + 2]! * w00 + p[i00 + 5]! * w01 + p[i10 + 2]! * w10 + p[i10 + 5]! * w11 - cloth[2]!;
  return Math.sqrt(r * r + g * g + b * b);
}

/** Least share of a lone ball's rays that must meet the fitted circle. */
const MIN_SEEN_SHARE = 0.8;

/** Ray search step, px: the crossing is interpolated between samples, so half a pixel loses nothing. */
const RAY_STEP_PX = 0.5;

/**
 * The edge points of one ball seen from (u, v): per ray, the crossing of the level halfway between
 * the ball's core and the cloth nearest the expected radius; rays towards neighbours are skipped.
 * Measured against two other edges on the rendered library's first frames (lone snooker balls,
 * median / within 3 mm): this level 0.62 mm / 99.1 %; halfway from the limb (the ring at 0.75 R)
 * 0.45 mm / 94.5 % — a black ball's dark limb brings the level down to its shadow's; the steepest
 * fall 1.29 mm / 78.5 % — a highlight on a dark ball is a steeper edge than its outline. A ball
 * smeared by motion is found at its mid-exposure centre: half the exposure covers a point one
 * radius from it along the motion.
 */
function edgePoints(f: Rgb, u: number, v: number, r: number, cloth: readonly number[], others: readonly Ball[], o: typeof DEFAULTS): { pts: [number, number][]; open: number } | null {
  // The core: the ball's inner half, where neither edge nor cloth reaches.
  const core: number[] = [clothDistance(f, u, v, cloth)];
  for (let k = 0; k < 12; k++) {
    const cx = Math.cos((2 * Math.PI * k) / 12), cy = Math.sin((2 * Math.PI * k) / 12);
    core.push(clothDistance(f, u + 0.25 * r * cx, v + 0.25 * r * cy, cloth), clothDistance(f, u + 0.45 * r * cx, v + 0.45 * r * cy, cloth));
  }
  const dCore = median(core.filter((d) => d === d));
  if (!(dCore >= o.minContrast)) return null;
  const level = dCore / 2;
  const pts: [number, number][] = [];
  let open = 0;
  for (let k = 0; k < o.rays; k++) {
    const a = (2 * Math.PI * k) / o.rays;
    const cx = Math.cos(a), cy = Math.sin(a);
    // Towards a neighbour: the outline there meets the other ball, not the cloth.
    const eu = u + r * cx, ev = v + r * cy;
    if (others.some((b) => (b.u - eu) ** 2 + (b.v - ev) ** 2 < (1.35 * b.r) ** 2)) continue;
    open++;
    let best = NaN;
    let prev = clothDistance(f, u + 0.4 * r * cx, v + 0.4 * r * cy, cloth);
    for (let s = 0.4 * r + RAY_STEP_PX; s <= 1.7 * r; s += RAY_STEP_PX) {
      const d = clothDistance(f, u + s * cx, v + s * cy, cloth);
      if (d !== d || prev !== prev) break;
      if (prev >= level && d < level) {
        const at = s - RAY_STEP_PX + (RAY_STEP_PX * (prev - level)) / (prev - d);
        if (best !== best || Math.abs(at - r) < Math.abs(best - r)) best = at;
      }
      prev = d;
    }
    if (best === best) pts.push([u + best * cx, v + best * cy]);
  }
  return { pts, open };
}

/** Least-squares circle (Kåsa): centre and radius of points round a whole outline. */
function freeCircle(pts: readonly [number, number][]): [number, number, number] | null {
  const n = pts.length;
  if (n < 6) return null;
  let mx = 0, my = 0;
  for (const [x, y] of pts) (mx += x), (my += y);
  mx /= n;
  my /= n;
  let suu = 0, svv = 0, suv = 0, suuu = 0, svvv = 0, suvv = 0, svuu = 0;
  for (const [x, y] of pts) {
    const a = x - mx, b = y - my;
    suu += a * a;
    svv += b * b;
    suv += a * b;
    suuu += a * a * a;
    svvv += b * b * b;
    suvv += a * b * b;
    svuu += b * a * a;
  }
  const det = suu * svv - suv * suv;
  if (Math.abs(det) < 1e-9) return null;
  const r1 = (suuu + suvv) / 2, r2 = (svvv + svuu) / 2;
  const uc = (r1 * svv - r2 * suv) / det, vc = (r2 * suu - r1 * suv) / det;
  return [uc + mx, vc + my, Math.sqrt(uc * uc + vc * vc + (suu + svv) / n)];
}

/** Circle of fixed radius through the points: Gauss–Newton from (u, v); RMS residual with it. */
function fixedCircle(pts: readonly [number, number][], u: number, v: number, r: number): [number, number, number] {
  let cu = u, cv = v;
  for (let it = 0; it < 8; it++) {
    // Each point votes for the centre one radius back along its direction from the current centre.
    let su = 0, sv = 0;
    for (const [x, y] of pts) {
      const d = Math.hypot(x - cu, y - cv) || 1e-9;
      su += x - (r * (x - cu)) / d;
      sv += y - (r * (y - cv)) / d;
    }
    const nu = su / pts.length, nv = sv / pts.length;
    const moved = Math.hypot(nu - cu, nv - cv);
    cu = nu;
    cv = nv;
    if (moved < 1e-3) break;
  }
  let ss = 0;
  for (const [x, y] of pts) ss += (Math.hypot(x - cu, y - cv) - r) ** 2;
  return [cu, cv, Math.sqrt(ss / Math.max(1, pts.length))];
}

/** The fits for each detection, in order (see the module comment). */
export function fitCentres(frame: Rgb, balls: readonly Ball[], opts: CentreRefineOptions = {}): CentreFit[] {
  if (balls.length === 0) return [];
  const o = { ...DEFAULTS, ...opts };
  const medR = median(balls.map((b) => b.r));
  // Work with a steady radius per ball: the detector's radius is noisy ball to ball.
  const sized = balls.map((b) => ({ ...b, r: medR }));
  const near = (at: readonly Ball[], i: number) => at.filter((b, j) => j !== i && (b.u - at[i]!.u) ** 2 + (b.v - at[i]!.v) ** 2 < (4 * medR) ** 2);
  const touching = (at: readonly Ball[], i: number) => at.filter((b, j) => j !== i && (b.u - at[i]!.u) ** 2 + (b.v - at[i]!.v) ** 2 < (2.5 * medR) ** 2).length;
  // Pass 1: each fittable ball's cloth, and free fits of the lone ones: the outline's radius as
  // this frame's edge level sees it.
  const prep = sized.map((b, i) => {
    if (touching(sized, i) > o.maxNeighbours) return null;
    const others = near(sized, i);
    const cloth = clothRound(frame, b, others);
    if (!cloth) return null;
    let free = NaN;
    if (others.length === 0) {
      let e = edgePoints(frame, b.u, b.v, b.r, cloth, others, o);
      let c = e && e.pts.length >= 0.8 * o.rays ? freeCircle(e.pts) : null;
      if (c && Math.hypot(c[0] - b.u, c[1] - b.v) < o.maxShiftRadii * b.r) {
        // Once more from the fitted centre: rays from the true centre meet the outline square on.
        e = edgePoints(frame, c[0], c[1], b.r, cloth, others, o);
        c = e && e.pts.length >= 0.8 * o.rays ? freeCircle(e.pts) : null;
        if (c) free = c[2];
      }
    }
    return { cloth, free };
  });
  const frees = prep.map((p) => p?.free ?? NaN).filter((x) => Number.isFinite(x));
  const edgeR = frees.length ? median(frees) : medR;
  const fits: CentreFit[] = sized.map((b, i) => ({ u: b.u, v: b.v, freeRadius: prep[i]?.free ?? NaN, arcShare: 0, residualPx: NaN, used: false }));
  const at = sized.map((b) => ({ ...b }));
  for (let round = 0; round < (opts.rounds ?? DEFAULT_ROUNDS); round++) {
    for (let i = 0; i < sized.length; i++) {
      const p = prep[i];
      if (!p) continue;
      // A later round refits only balls with neighbours, whose rays it now aims from where they lie.
      const others = near(at, i);
      if (round > 0 && others.length === 0) continue;
      const f = fixedFit(frame, sized[i]!, p.cloth, others, edgeR, o);
      if (f) fits[i] = { ...f, freeRadius: p.free };
    }
    for (let i = 0; i < at.length; i++) if (fits[i]!.used) [at[i]!.u, at[i]!.v] = [fits[i]!.u, fits[i]!.v];
  }
  return fits;
}

/** A fixed-radius fit of one ball from the network's centre, or null when no outline is seen. */
function fixedFit(frame: Rgb, b: Ball, cloth: readonly number[], others: readonly Ball[], edgeR: number, o: typeof DEFAULTS): CentreFit | null {
  let u = b.u, v = b.v, res = NaN, share = 0, alone = false;
  for (let it = 0; it < 2; it++) {
    const e = edgePoints(frame, u, v, b.r, cloth, others, o);
    if (!e || e.pts.length < 5) return null;
    // Drop the points far off the circle (a highlight, a shadow, a neighbour's edge), then fit.
    const [fu, fv] = fixedCircle(e.pts, u, v, edgeR);
    const off = e.pts.map(([x, y]) => Math.abs(Math.hypot(x - fu, y - fv) - edgeR));
    const tol = Math.max(0.5, 2.5 * median([...off]));
    const inliers = e.pts.filter((_, k) => off[k]! <= tol);
    if (inliers.length < 5) return null;
    [u, v, res] = fixedCircle(inliers, fu, fv, edgeR);
    share = inliers.length / o.rays;
    alone = e.open === o.rays;
  }
  // A ball with no other beside it must show most of its outline on the circle: a cue or a hand
  // beside it, a line or a shadow across a dark ball, take the rays they cross off it (rendered
  // S39: the green on the baulk line with the cue beside it, a third of its rays lost, fitted 11 mm
  // off). In a pack the balls the network missed hide arcs too, so there the arc share decides.
  const used = share >= o.minArcShare && (!alone || share >= MIN_SEEN_SHARE) && res <= o.maxResidualRadii * edgeR && Math.hypot(u - b.u, v - b.v) <= o.maxShiftRadii * b.r;
  return { u, v, freeRadius: NaN, arcShare: share, residualPx: res, used };
}

/** The detections (frame px) with the centres the fits could place (`fitCentres`), the rest as they were. */
export function refineCentres<T extends Ball>(frame: Rgb, rows: readonly T[], opts: CentreRefineOptions = {}): T[] {
  const fits = fitCentres(frame, rows, opts);
  return rows.map((row, i) => (fits[i]!.used ? { ...row, u: fits[i]!.u, v: fits[i]!.v } : row));
}
