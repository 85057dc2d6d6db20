/**
 * The static part of every frame — floor, table body, rails, cushions, pocket holes, cloth with its
 * nap texture and light falloff, markings — ray-cast once per camera + look and then copied into
 * each frame. Rendering it per frame would cost ~20× the whole per-frame budget; it never changes.
 *
 * Geometry is a stack of horizontal planes hit from above (rail top, cushion top, bed), which is
 * exact for a camera above the rail height looking down, as all three camera kinds are. A ray that
 * reaches the bed plane outside the bed went through a cushion's vertical face and is shaded as one.
 */
import { assertNever, type GameId } from '../../core/games.js';
import { NOVUS_HOLE, type TableProfile } from '../../core/table.js';
import type { Camera } from '../camera.js';
import { lightsForBed, type LookParams, type Rgb } from './look.js';
import type { RayMap } from './rays.js';

/** What the static scene shows at a pixel (shadows fall only on the bed; sinking balls hide behind cushions). */
export const enum Surface {
  Floor = 0,
  Bed = 1,
  CushionTop = 2,
  CushionFace = 3,
  Rail = 4,
  Pocket = 5,
  Plate = 6,
  Apron = 7,
}

/** Body of the table around the bed, mm (not in the table profile: it does not affect play). */
export interface FrameGeometry {
  /** Cushion width from the nose to the rail, and nose height above the bed. */
  cushionWidthMm: number;
  cushionHeightMm: number;
  /** Wooden rail width and its top's height above the bed. */
  railWidthMm: number;
  railHeightMm: number;
  /** Floor height relative to the bed (negative). */
  floorZMm: number;
  /** Lower edge of the table body's sides (the apron) relative to the bed. */
  apronBottomZMm: number;
  /** Rail markers (pool diamonds): centre distance behind the cushion nose, radius; 0 = none. */
  diamondInsetMm: number;
  diamondRadiusMm: number;
}

export function frameGeometry(game: GameId): FrameGeometry {
  switch (game) {
    case 'snooker':
      return { cushionWidthMm: 50, cushionHeightMm: 37, railWidthMm: 110, railHeightMm: 44, floorZMm: -830, apronBottomZMm: -280, diamondInsetMm: 0, diamondRadiusMm: 0 };
    case 'pool8':
      // Diamonds 93.7 mm behind the nose (spec table-geometry.md).
      return { cushionWidthMm: 50, cushionHeightMm: 36, railWidthMm: 140, railHeightMm: 42, floorZMm: -760, apronBottomZMm: -200, diamondInsetMm: 93.7, diamondRadiusMm: 9 };
    case 'novus':
      return { cushionWidthMm: 12, cushionHeightMm: 14, railWidthMm: 55, railHeightMm: 16, floorZMm: -700, apronBottomZMm: -40, diamondInsetMm: 0, diamondRadiusMm: 0 };
    default:
      return assertNever(game);
  }
}

interface PocketHole {
  /** Hole centre (mm) and radius. */
  hx: number;
  hy: number;
  r: number;
  /** Pocket position on the bed outline and its mouth, for the cushion cut at the jaws. */
  px: number;
  py: number;
  mouth: number;
  corner: boolean;
}

export function pocketHoles(table: TableProfile): PocketHole[] {
  const W = table.bed.width, L = table.bed.length;
  const out: PocketHole[] = [];
  const novus = table.game === 'novus';
  for (const p of Object.values(table.pockets)) {
    if (!p) continue;
    const corner = (p.x <= 0 || p.x >= W) && (p.y <= 0 || p.y >= L);
    // Outward unit direction from the bed at this pocket.
    let ux = p.x <= 0 ? -1 : p.x >= W ? 1 : 0;
    let uy = p.y <= 0 ? -1 : p.y >= L ? 1 : 0;
    const l = len2(ux, uy) || 1;
    ux /= l;
    uy /= l;
    // Cue tables: the fall sits behind the jaws, partly under the cushions. Novus: a round hole cut
    // into the board's corner.
    // Sizes as the overhead club footage shows them (falls ≈ 1.4 mouths across).
    const off = novus ? -NOVUS_HOLE.insetMouths * p.mouth : corner ? 0.35 * p.mouth : 0.45 * p.mouth;
    const r = novus ? NOVUS_HOLE.radiusMouths * p.mouth : corner ? 0.72 * p.mouth : 0.65 * p.mouth;
    out.push({ hx: p.x + ux * off, hy: p.y + uy * off, r, px: p.x, py: p.y, mouth: p.mouth, corner });
  }
  return out;
}

/** √(a² + b²): Math.hypot is several times slower in V8 and this runs per sample. */
const len2 = (a: number, b: number): number => Math.sqrt(a * a + b * b);

// ---- procedural texture -------------------------------------------------------------------

function hash2(ix: number, iy: number, seed: number): number {
  let h = Math.imul(ix, 0x27d4eb2d) ^ Math.imul(iy, 0x165667b1) ^ seed;
  h = Math.imul(h ^ (h >>> 15), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** Smooth value noise in [−1, 1] with unit cell size. */
function valueNoise(x: number, y: number, seed: number): number {
  const ix = Math.floor(x), iy = Math.floor(y);
  const fx = x - ix, fy = y - iy;
  const sx = fx * fx * (3 - 2 * fx), sy = fy * fy * (3 - 2 * fy);
  const a = hash2(ix, iy, seed), b = hash2(ix + 1, iy, seed);
  const c = hash2(ix, iy + 1, seed), d = hash2(ix + 1, iy + 1, seed);
  return 2 * (a + (b - a) * sx + (c - a + (a - b + d - c) * sx) * sy) - 1;
}

// ---- the static image ---------------------------------------------------------------------

export interface TableImage {
  rgb: Uint8Array;
  surface: Uint8Array;
  /** Multiplicative lens vignetting per pixel (applied to balls too). */
  vignette: Float32Array;
  /** Cloth brightness factor (lights, falloff) at a bed point: balls and shadows reuse it. */
  clothLight: (x: number, y: number) => number;
}

/** Box-filtered coverage of a line of half-width `hw` at distance `d` for a pixel footprint `fp` (all mm). */
function lineCoverage(d: number, hw: number, fp: number): number {
  const a = Math.max(d - fp / 2, -hw), b = Math.min(d + fp / 2, hw);
  return b > a ? (b - a) / fp : 0;
}

interface Sample {
  r: number;
  g: number;
  b: number;
  surface: Surface;
}

/**
 * Ray-cast the static scene with 2×2 supersampling (edges of cushions and rails are long straight
 * lines: aliasing on them would be a cue the detector learns that real footage lacks).
 */
export function renderTableImage(cam: Camera, rays: RayMap, table: TableProfile, look: LookParams, seed: number): TableImage {
  const { width, height } = cam;
  const W = table.bed.width, L = table.bed.length;
  const geo = frameGeometry(table.game);
  const holes = pocketHoles(table);
  const lights = lightsForBed(look, W, L);
  const cw = geo.cushionWidthMm, rw = geo.railWidthMm;
  const texSeed = (seed * 2654435761) >>> 0;

  // Lamp light on the bed: cos/d² from each lamp, blended towards flat by `lightFalloff`, and
  // normalised so the brightest bed point gets the cloth colour as given.
  const rawLight = (x: number, y: number): number => {
    let s = 0;
    for (const l of lights) {
      const dz = l.z, d2 = (x - l.x) ** 2 + (y - l.y) ** 2 + dz * dz;
      const c3 = (dz * dz * dz) / (d2 * Math.sqrt(d2));
      s += l.intensity * (1 - look.lightFalloff + look.lightFalloff * c3);
    }
    return s;
  };
  let maxLight = 1e-9;
  for (let a = 0; a <= 20; a++) for (let b = 0; b <= 20; b++) maxLight = Math.max(maxLight, rawLight((W * a) / 20, (L * b) / 20));
  const clothLight = (x: number, y: number): number => look.ambient + (1 - look.ambient) * (rawLight(x, y) / maxLight);

  const gain = look.gain;
  const wb = look.whiteBalance;
  const cloth = look.clothRgb, cush = look.cushionRgb, rail = look.railRgb, floor = look.floorRgb;
  const plate = look.pocketPlateRgb, mark = look.markingRgb;
  const markHw = look.markingWidthMm / 2;
  const spotR = table.game === 'pool8' ? 6 : 4;
  const spots = Object.values(table.spots);

  // Markings: coverage in [0, 1] at bed point (x, y) for a footprint fp (mm).
  const markingCoverage = (x: number, y: number, fp: number): number => {
    let c = 0;
    switch (table.game) {
      case 'snooker': {
        const by = table.baulkLineY ?? 0;
        c = Math.max(c, lineCoverage(Math.abs(y - by), markHw, fp));
        const brown = table.spots.brown;
        if (brown && table.dRadius && y <= by + fp) {
          const d = Math.abs(len2(x - brown.x, y - brown.y) - table.dRadius);
          c = Math.max(c, lineCoverage(d, markHw, fp));
        }
        break;
      }
      case 'pool8':
        break;
      case 'novus': {
        const z = table.zoneLineMm ?? 100;
        const hw = (table.zoneLineWidthMm ?? 3) / 2;
        for (const d of [Math.abs(y - z), Math.abs(y - (L - z)), Math.abs(x - z), Math.abs(x - (W - z))]) {
          c = Math.max(c, lineCoverage(d, hw, fp));
        }
        const ctr = table.spots.centre ?? { x: W / 2, y: L / 2 };
        const cr = table.centreCircleRadiusMm ?? 100;
        c = Math.max(c, lineCoverage(Math.abs(len2(x - ctr.x, y - ctr.y) - cr), hw, fp));
        break;
      }
      default:
        assertNever(table.game);
    }
    for (const s of spots) {
      const d = len2(x - s.x, y - s.y);
      if (d < spotR + fp) c = Math.max(c, lineCoverage(d, spotR, fp) * 0.8);
    }
    return c;
  };

  const inHole = (x: number, y: number): number => {
    // Returns a depth shade in [0, 1] (1 = rim, 0 = the dark fall), or −1 outside every hole.
    for (const h of holes) {
      const d = len2(x - h.hx, y - h.hy);
      if (d < h.r) return d / h.r;
    }
    return -1;
  };
  const nearPlate = (x: number, y: number): boolean => {
    for (const h of holes) if (len2(x - h.hx, y - h.hy) < h.r + (h.corner ? 45 : 30)) return true;
    return false;
  };
  // Cushion cut at the jaws: no cushion within the pocket opening, narrowing behind the nose.
  const cushionCut = (x: number, y: number): boolean => {
    for (const h of holes) {
      if (h.corner) {
        const beyondY = y < 0 || y > L, beyondX = x < 0 || x > W;
        if (Math.abs(x - h.px) > h.mouth + cw || Math.abs(y - h.py) > h.mouth + cw) continue;
        // In the corner square behind both cushions there is no cushion at all.
        if (beyondX && beyondY) return true;
        const reach = h.mouth / Math.SQRT2;
        // Along the cushion from the corner, and depth into the cushion: the jaw's facing runs back
        // at an angle, so the cut narrows behind the nose.
        const along = beyondY ? Math.abs(x - h.px) : Math.abs(y - h.py);
        const into = beyondY ? Math.abs(y - h.py) : Math.abs(x - h.px);
        if (along < reach - 0.8 * into) return true;
      } else {
        const along = Math.abs(y - h.py);
        const into = Math.abs(x - h.px);
        if (into < cw + 1 && along < h.mouth / 2 + into * 0.25) return true;
      }
    }
    return false;
  };

  const woodTex = (x: number, y: number): number =>
    1 + 0.06 * valueNoise(x * 0.004, y * 0.08, texSeed ^ 7) + 0.03 * valueNoise(x * 0.05, y * 0.4, texSeed ^ 11);

  const out: Sample = { r: 0, g: 0, b: 0, surface: Surface.Floor };
  const set = (c: Rgb, k: number, s: Surface): void => {
    out.r = c[0] * k;
    out.g = c[1] * k;
    out.b = c[2] * k;
    out.surface = s;
  };
  const ox = rays.ox, oy = rays.oy, oz = rays.oz;
  /** Pixel footprint scale for analytic anti-aliasing: 1 for a whole pixel, ½ for a 2×2 sub-sample. */
  let fpScale = 1;
  /** Set when the last shaded ray came near a marking. */
  let touchedMarking = false;

  const inBedXY = (px: number, py: number): boolean => px >= 0 && px <= W && py >= 0 && py <= L;
  const shadeRay = (dx: number, dy: number, dz: number): void => {
    if (dz >= -1e-6) {
      set(floor, 0.5, Surface.Floor);
      return;
    }
    // 1) rail top
    let t = (geo.railHeightMm - oz) / dz;
    let x = ox + t * dx, y = oy + t * dy;
    const outerX0 = -cw - rw, outerX1 = W + cw + rw, outerY0 = -cw - rw, outerY1 = L + cw + rw;
    const inOuter = x > outerX0 && x < outerX1 && y > outerY0 && y < outerY1;
    const inCushionZone = x > -cw && x < W + cw && y > -cw && y < L + cw;
    if (inOuter && !inCushionZone) {
      const hole = inHole(x, y);
      if (hole >= 0) {
        set(look.pocketPlateRgb, 0.05 + 0.12 * hole * hole, Surface.Pocket);
        return;
      }
      if (nearPlate(x, y)) {
        set(plate, 0.9 * woodTex(x, y), Surface.Plate);
        return;
      }
      if (geo.diamondRadiusMm > 0) {
        const fp = (t / cam.fx) * 1.5 * fpScale;
        const dc = diamondDistance(x, y, W, L, geo.diamondInsetMm);
        if (dc < geo.diamondRadiusMm + fp) {
          const cov = lineCoverage(dc, geo.diamondRadiusMm, fp);
          const k = woodTex(x, y);
          out.r = rail[0] * k * (1 - cov) + 235 * cov;
          out.g = rail[1] * k * (1 - cov) + 235 * cov;
          out.b = rail[2] * k * (1 - cov) + 228 * cov;
          out.surface = Surface.Rail;
          return;
        }
      }
      // The rail's inner edge catches less lamp light than its middle: a mild gradient across it.
      const across = Math.min(x - outerX0, outerX1 - x, y - outerY0, outerY1 - y) / rw;
      const useDx = x < 0 || x > W;
      set(rail, (0.75 + 0.25 * Math.min(1, across)) * (useDx ? woodTex(y, x) : woodTex(x, y)), Surface.Rail);
      return;
    }
    // 2) cushion top
    t = (geo.cushionHeightMm - oz) / dz;
    x = ox + t * dx;
    y = oy + t * dy;
    if (x > -cw && x < W + cw && y > -cw && y < L + cw && !inBedXY(x, y) && !cushionCut(x, y)) {
      const hole = inHole(x, y);
      if (hole >= 0) {
        set(look.pocketPlateRgb, 0.05 + 0.12 * hole * hole, Surface.Pocket);
        return;
      }
      // The nose is rounded: darker towards the bed edge.
      const dEdge = Math.min(Math.abs(x < 0 ? x : x > W ? x - W : Infinity), Math.abs(y < 0 ? y : y > L ? y - L : Infinity));
      set(cush, (0.78 + 0.22 * Math.min(1, dEdge / (cw * 0.5))) * clothLight(Math.min(W, Math.max(0, x)), Math.min(L, Math.max(0, y))), Surface.CushionTop);
      return;
    }
    // 3) bed plane
    t = -oz / dz;
    x = ox + t * dx;
    y = oy + t * dy;
    const hole = inHole(x, y);
    if (hole >= 0 && x > -cw - rw && x < W + cw + rw && y > -cw - rw && y < L + cw + rw) {
      set(look.pocketPlateRgb, 0.05 + 0.12 * hole * hole, Surface.Pocket);
      return;
    }
    if (inBedXY(x, y)) {
      // Footprint of the pixel on the bed: stretched by 1/cos of the view angle along the view
      // direction; taking the stretched length for all directions keeps far lines continuous.
      const fp = ((t / cam.fx) / Math.max(0.1, -dz)) * fpScale;
      const cov = markingCoverage(x, y, fp);
      touchedMarking ||= cov > 0;
      // Nap: slow shading variation plus fine grain, in table mm so it stays on the cloth.
      const tex =
        1 +
        look.clothTextureStrength *
          (0.6 * valueNoise(x / 180, y / 180, texSeed) + 0.3 * valueNoise(x / 12, y / 12, texSeed ^ 3) + 0.4 * valueNoise(x / 2.5, y / 2.5, texSeed ^ 5));
      // Cloth reflects less towards a grazing view (the nap shadows itself): on TV the far end reads
      // ≈ 0.7 of the near end's brightness (bucharest: green 132 far, 181 centre, 189 near).
      const view = Math.min(1, Math.max(0.45, 0.3 + 1.3 * -dz));
      const k = clothLight(x, y) * tex * view;
      out.r = cloth[0] * k * (1 - cov) + mark[0] * cov * k;
      out.g = cloth[1] * k * (1 - cov) + mark[1] * cov * k;
      out.b = cloth[2] * k * (1 - cov) + mark[2] * cov * k;
      out.surface = Surface.Bed;
      return;
    }
    if (x > -cw && x < W + cw && y > -cw && y < L + cw) {
      if (cushionCut(x, y)) {
        // Shelf of cloth between the jaws leading into the fall.
        set(cloth, 0.8 * clothLight(Math.min(W, Math.max(0, x)), Math.min(L, Math.max(0, y))), Surface.Bed);
      } else {
        set(cush, 0.55 * clothLight(Math.min(W, Math.max(0, x)), Math.min(L, Math.max(0, y))), Surface.CushionFace);
      }
      return;
    }
    // 4) outside the table top: the table body's sides (a box down to the apron's bottom edge;
    //    legs are ignored), or the floor.
    const side = apronHit(ox, oy, oz, dx, dy, dz, outerX0, outerX1, outerY0, outerY1, geo.apronBottomZMm, geo.railHeightMm);
    if (side > 0) {
      // Side faces get less lamp light than the top: the face along x is darker than along y.
      set(rail, side === 1 ? 0.42 : 0.32, Surface.Apron);
      return;
    }
    const tf = (geo.floorZMm - oz) / dz;
    const fx = ox + tf * dx, fy = oy + tf * dy;
    // Floor: the lamps' spill fades away from the table; carpet texture.
    const dist = Math.max(0, Math.max(-fx, fx - W, -fy, fy - L));
    const spill = 0.55 + 0.45 * Math.exp(-dist / 2000);
    set(floor, spill * (1 + 0.08 * valueNoise(fx / 60, fy / 60, texSeed ^ 9) + 0.05 * valueNoise(fx / 6, fy / 6, texSeed ^ 13)), Surface.Floor);
  };

  const n = width * height;
  const rgb = new Uint8Array(n * 3);
  const surface = new Uint8Array(n);
  const vignette = new Float32Array(n);
  const counts = new Int32Array(8);
  const diag2 = (width / 2) ** 2 + (height / 2) ** 2;
  // Pass 1: one ray per pixel centre (markings and diamonds are anti-aliased analytically with the
  // pixel's footprint). Pass 2: 2×2 supersampling only where the surface changes between
  // neighbours — the cushion, rail and pocket edges — a few percent of the pixels.
  const acc = new Float32Array(n * 3);
  // Pixels to supersample: surface edges, and markings (thin far lines otherwise break into dots).
  const edge = new Uint8Array(n);
  fpScale = 1;
  for (let p = 0; p < n; p++) {
    shadeRay(rays.dx[p]!, rays.dy[p]!, rays.dz[p]!);
    acc[p * 3] = out.r;
    acc[p * 3 + 1] = out.g;
    acc[p * 3 + 2] = out.b;
    surface[p] = out.surface;
    if (touchedMarking) edge[p] = 1;
    touchedMarking = false;
  }
  fpScale = 0.5;
  for (let j = 0, p = 0; j < height; j++) {
    for (let i = 0; i < width; i++, p++) {
      const s0 = surface[p];
      if ((i > 0 && surface[p - 1] !== s0) || (i < width - 1 && surface[p + 1] !== s0) ||
          (j > 0 && surface[p - width] !== s0) || (j < height - 1 && surface[p + width] !== s0)) edge[p] = 1;
    }
  }
  for (let j = 0, p = 0; j < height; j++) {
    for (let i = 0; i < width; i++, p++) {
      if (!edge[p]) continue;
      let r = 0, g = 0, b = 0;
      counts.fill(0);
      for (let a = 0; a < 2; a++) {
        for (let c = 0; c < 2; c++) {
          // Sub-pixel rays: bilinear between neighbouring pixel-centre rays of the map (the lens
          // mapping is smooth at this scale), far cheaper than undistorting each sample.
          const ni = c === 0 ? Math.max(0, i - 1) : Math.min(width - 1, i + 1);
          const nj = a === 0 ? Math.max(0, j - 1) : Math.min(height - 1, j + 1);
          const p1 = j * width + ni, p2 = nj * width + i, p3 = nj * width + ni;
          const sx = rays.dx[p]! * 0.5625 + rays.dx[p1]! * 0.1875 + rays.dx[p2]! * 0.1875 + rays.dx[p3]! * 0.0625;
          const sy = rays.dy[p]! * 0.5625 + rays.dy[p1]! * 0.1875 + rays.dy[p2]! * 0.1875 + rays.dy[p3]! * 0.0625;
          const sz = rays.dz[p]! * 0.5625 + rays.dz[p1]! * 0.1875 + rays.dz[p2]! * 0.1875 + rays.dz[p3]! * 0.0625;
          const il = 1 / Math.sqrt(sx * sx + sy * sy + sz * sz);
          shadeRay(sx * il, sy * il, sz * il);
          r += out.r;
          g += out.g;
          b += out.b;
          counts[out.surface]!++;
        }
      }
      // The pixel's surface is its majority (a tie keeps the bed, where shadows may fall).
      let best = 0;
      for (let s = 1; s < 8; s++) if (counts[s]! > counts[best]! || (counts[s] === counts[best] && s === Surface.Bed)) best = s;
      surface[p] = best;
      acc[p * 3] = r / 4;
      acc[p * 3 + 1] = g / 4;
      acc[p * 3 + 2] = b / 4;
    }
  }
  if (look.softnessPx > 0.05) gaussianBlurRgb(acc, width, height, look.softnessPx);
  for (let j = 0, p = 0; j < height; j++) {
    for (let i = 0; i < width; i++, p++) {
      const rr2 = ((i - width / 2) ** 2 + (j - height / 2) ** 2) / diag2;
      const vig = 1 - look.vignette * rr2;
      vignette[p] = vig;
      const k = gain * vig;
      rgb[p * 3] = Math.min(255, acc[p * 3]! * k * wb[0] + 0.5);
      rgb[p * 3 + 1] = Math.min(255, acc[p * 3 + 1]! * k * wb[1] + 0.5);
      rgb[p * 3 + 2] = Math.min(255, acc[p * 3 + 2]! * k * wb[2] + 0.5);
    }
  }
  return { rgb, surface, vignette, clothLight };
}

/**
 * Which side face of the box [x0, x1] × [y0, y1] × [z0, z1] a ray enters through: 1 a face normal
 * to x, 2 normal to y, 0 none (a missed box or one entered through its top or bottom).
 */
function apronHit(
  ox: number, oy: number, oz: number, dx: number, dy: number, dz: number,
  x0: number, x1: number, y0: number, y1: number, z0: number, z1: number,
): number {
  let tmin = -Infinity, tmax = Infinity, face = 0;
  const axes: [number, number, number, number, number][] = [[ox, dx, x0, x1, 1], [oy, dy, y0, y1, 2], [oz, dz, z0, z1, 3]];
  for (const [o, d, lo, hi, f] of axes) {
    if (Math.abs(d) < 1e-12) {
      if (o < lo || o > hi) return 0;
      continue;
    }
    let ta = (lo - o) / d, tb = (hi - o) / d;
    if (ta > tb) [ta, tb] = [tb, ta];
    if (ta > tmin) {
      tmin = ta;
      face = f;
    }
    tmax = Math.min(tmax, tb);
  }
  return tmin <= tmax && tmin > 0 && face !== 3 ? face : 0;
}

/** In-place separable Gaussian blur of a float RGB image (edges clamp). */
export function gaussianBlurRgb(img: Float32Array, width: number, height: number, sigmaPx: number): void {
  const rad = Math.max(1, Math.ceil(2.5 * sigmaPx));
  const kernel = new Float32Array(2 * rad + 1);
  let sum = 0;
  for (let k = -rad; k <= rad; k++) sum += kernel[k + rad] = Math.exp(-(k * k) / (2 * sigmaPx * sigmaPx));
  for (let k = 0; k < kernel.length; k++) kernel[k]! /= sum;
  const line = new Float32Array(Math.max(width, height) * 3);
  for (let j = 0; j < height; j++) {
    const row = j * width * 3;
    line.set(img.subarray(row, row + width * 3));
    for (let i = 0; i < width; i++) {
      let r = 0, g = 0, b = 0;
      for (let k = -rad; k <= rad; k++) {
        const q = Math.min(width - 1, Math.max(0, i + k)) * 3, w = kernel[k + rad]!;
        r += line[q]! * w;
        g += line[q + 1]! * w;
        b += line[q + 2]! * w;
      }
      img[row + i * 3] = r;
      img[row + i * 3 + 1] = g;
      img[row + i * 3 + 2] = b;
    }
  }
  for (let i = 0; i < width; i++) {
    for (let j = 0; j < height; j++) {
      const p = (j * width + i) * 3;
      line[j * 3] = img[p]!;
      line[j * 3 + 1] = img[p + 1]!;
      line[j * 3 + 2] = img[p + 2]!;
    }
    for (let j = 0; j < height; j++) {
      let r = 0, g = 0, b = 0;
      for (let k = -rad; k <= rad; k++) {
        const q = Math.min(height - 1, Math.max(0, j + k)) * 3, w = kernel[k + rad]!;
        r += line[q]! * w;
        g += line[q + 1]! * w;
        b += line[q + 2]! * w;
      }
      const p = (j * width + i) * 3;
      img[p] = r;
      img[p + 1] = g;
      img[p + 2] = b;
    }
  }
}

/** Distance (mm) from (x, y) on the rail to the nearest pool diamond. */
function diamondDistance(x: number, y: number, W: number, L: number, inset: number): number {
  let best = Infinity;
  for (let k = 1; k <= 3; k++) {
    const dx = x - (W * k) / 4;
    best = Math.min(best, len2(dx, y + inset), len2(dx, y - L - inset));
  }
  for (let k = 1; k <= 7; k++) {
    if (k === 4) continue;
    const dy = y - (L * k) / 8;
    best = Math.min(best, len2(x + inset, dy), len2(x - W - inset, dy));
  }
  return best;
}
