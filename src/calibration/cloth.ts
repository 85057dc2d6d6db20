/**
 * Finding the cloth: the largest compact region of one dominant saturated hue. No colour is fixed
 * (green snooker, blue or red pool cloth, a Novus board): the candidate hues are the peaks of the
 * frame's hue histogram, and the winner is the one whose largest connected region looks most like a
 * table (large, convex, away from the frame edges) — a red carpet around a green table is large
 * but not convex.
 */
import { convexHull, signedArea, type Pt } from './geometry.js';
import { downscale, hueDistanceDeg, toHsv, type RgbFrame } from './image.js';

export interface ClothColour {
  hueDeg: number;
  /** Half-width of the accepted hue band, degrees. */
  hueTolDeg: number;
  /** Minimum saturation and value (0–1) of a cloth pixel. */
  minSat: number;
  minVal: number;
}

export interface ClothMask {
  /** Mask resolution and the factor from mask pixels to frame pixels. */
  width: number;
  height: number;
  scale: number;
  /** 1 = cloth (the largest region, holes such as balls and markings filled). */
  mask: Uint8Array;
  areaPx: number;
  /** Area over convex-hull area: 1 for a clean quadrilateral. */
  solidity: number;
  colour: ClothColour;
  /** Convex hull of the region, in frame pixels. */
  hull: Pt[];
}

/** The mask is computed at this many pixels on the long side: enough for the outline, cheap per frame. */
export const MASK_LONG_SIDE_PX = 400;

export function isCloth(c: ClothColour, h: number, s: number, v: number): boolean {
  return s >= c.minSat && v >= c.minVal && hueDistanceDeg(h, c.hueDeg) <= c.hueTolDeg;
}

export function maskScaleFor(width: number, height: number): number {
  return Math.max(1, Math.floor(Math.max(width, height) / MASK_LONG_SIDE_PX));
}

/** Hue peaks (degrees) of saturated pixels, strongest first. */
function huePeaks(h: Float32Array, s: Float32Array, v: Float32Array): { hue: number; weight: number; halfWidth: number }[] {
  const bins = 72; // 5° bins
  const hist = new Float64Array(bins);
  let total = 0;
  for (let i = 0; i < h.length; i++) {
    if (s[i]! < 0.2 || v[i]! < 0.12) continue;
    hist[Math.floor(h[i]! / 5) % bins]! += 1;
    total++;
  }
  const sm = new Float64Array(bins);
  const k = [1, 2, 3, 2, 1];
  for (let b = 0; b < bins; b++) for (let j = -2; j <= 2; j++) sm[b]! += hist[(b + j + bins) % bins]! * k[j + 2]!;
  const peaks: { hue: number; weight: number; halfWidth: number }[] = [];
  for (let b = 0; b < bins; b++) {
    const c = sm[b]!;
    if (c <= sm[(b + 1) % bins]! || c < sm[(b + bins - 1) % bins]!) continue;
    if (c < 0.03 * total * 9) continue;
    // Half-width: where the smoothed histogram falls under a quarter of the peak.
    let w = 1;
    while (w < 8 && (sm[(b + w) % bins]! > c / 4 || sm[(b - w + bins) % bins]! > c / 4)) w++;
    peaks.push({ hue: b * 5 + 2.5, weight: c, halfWidth: w * 5 });
  }
  return peaks.sort((a, b) => b.weight - a.weight).slice(0, 4);
}

/** Largest 4-connected component of `m` (in place: other pixels cleared). Returns its area. */
export function keepLargestComponent(m: Uint8Array, w: number, h: number): number {
  const label = new Int32Array(w * h);
  const stack = new Int32Array(w * h);
  let bestLabel = 0, bestArea = 0, next = 0;
  for (let i = 0; i < m.length; i++) {
    if (!m[i] || label[i]) continue;
    next++;
    let sp = 0, area = 0;
    stack[sp++] = i;
    label[i] = next;
    while (sp) {
      const p = stack[--sp]!;
      area++;
      const x = p % w, y = (p - x) / w;
      if (x > 0 && m[p - 1] && !label[p - 1]) { label[p - 1] = next; stack[sp++] = p - 1; }
      if (x < w - 1 && m[p + 1] && !label[p + 1]) { label[p + 1] = next; stack[sp++] = p + 1; }
      if (y > 0 && m[p - w] && !label[p - w]) { label[p - w] = next; stack[sp++] = p - w; }
      if (y < h - 1 && m[p + w] && !label[p + w]) { label[p + w] = next; stack[sp++] = p + w; }
    }
    if (area > bestArea) {
      bestArea = area;
      bestLabel = next;
    }
  }
  for (let i = 0; i < m.length; i++) m[i] = label[i] === bestLabel && bestLabel ? 1 : 0;
  return bestArea;
}

/** Fill holes: background not reachable from the frame border becomes mask (balls, lines, spots). */
export function fillHoles(m: Uint8Array, w: number, h: number): void {
  const outside = new Uint8Array(w * h);
  const stack: number[] = [];
  const push = (p: number) => {
    if (!m[p] && !outside[p]) {
      outside[p] = 1;
      stack.push(p);
    }
  };
  for (let x = 0; x < w; x++) {
    push(x);
    push((h - 1) * w + x);
  }
  for (let y = 0; y < h; y++) {
    push(y * w);
    push(y * w + w - 1);
  }
  while (stack.length) {
    const p = stack.pop()!;
    const x = p % w, y = (p - x) / w;
    if (x > 0) push(p - 1);
    if (x < w - 1) push(p + 1);
    if (y > 0) push(p - w);
    if (y < h - 1) push(p + w);
  }
  for (let i = 0; i < m.length; i++) if (!outside[i]) m[i] = 1;
}

/** Boundary pixels of a mask (mask pixels with a 4-neighbour outside it), in mask pixels. */
export function maskBoundary(m: Uint8Array, w: number, h: number): Pt[] {
  const out: Pt[] = [];
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      if (!m[p]) continue;
      if (x === 0 || y === 0 || x === w - 1 || y === h - 1 || !m[p - 1] || !m[p + 1] || !m[p - w] || !m[p + w]) out.push([x, y]);
    }
  }
  return out;
}

function maskFor(colour: ClothColour, hsv: ReturnType<typeof toHsv>, n: number): Uint8Array {
  const m = new Uint8Array(n);
  for (let i = 0; i < n; i++) m[i] = isCloth(colour, hsv.h[i]!, hsv.s[i]!, hsv.v[i]!) ? 1 : 0;
  return m;
}

/**
 * Tighten saturation and value to the hue band's own statistics: the lit cloth is the bright,
 * saturated part of its hue; a dim floor or backdrop of a similar hue is not. Thresholds at 45 % of
 * the band's 75th percentiles keep cushions in shadow and drop what is far darker or greyer.
 */
function adaptColour(hsv: ReturnType<typeof toHsv>, c: ClothColour): ClothColour {
  const ss: number[] = [], vs: number[] = [];
  for (let i = 0; i < hsv.h.length; i += 2) {
    if (isCloth(c, hsv.h[i]!, hsv.s[i]!, hsv.v[i]!)) {
      ss.push(hsv.s[i]!);
      vs.push(hsv.v[i]!);
    }
  }
  if (ss.length < 50) return c;
  ss.sort((a, b) => a - b);
  vs.sort((a, b) => a - b);
  const q = (xs: number[]) => xs[Math.floor(xs.length * 0.75)]!;
  return { ...c, minSat: Math.max(c.minSat, 0.45 * q(ss)), minVal: Math.max(c.minVal, 0.45 * q(vs)) };
}

export interface ClothOptions {
  /** Use this cloth colour instead of searching (the view gate re-uses the calibrated one). */
  colour?: ClothColour;
}

/**
 * The cloth region of a frame, or null when no hue forms a table-like region (a close-up, a
 * crowd shot). Cost: one pass over a ≈ 400-pixel-wide copy of the frame per candidate hue.
 */
export function findCloth(frame: RgbFrame, opts: ClothOptions = {}): ClothMask | null {
  const scale = maskScaleFor(frame.width, frame.height);
  const small = downscale(frame, scale);
  const { width: w, height: h } = small;
  const hsv = toHsv(small);
  const candidates: ClothColour[] = opts.colour
    ? [opts.colour]
    : huePeaks(hsv.h, hsv.s, hsv.v).map((p) => adaptColour(hsv, { hueDeg: p.hue, hueTolDeg: Math.min(30, Math.max(12, p.halfWidth + 5)), minSat: 0.18, minVal: 0.1 }));
  let best: ClothMask | null = null;
  let bestScore = 0;
  for (const colour of candidates) {
    const m = maskFor(colour, hsv, w * h);
    const area = keepLargestComponent(m, w, h);
    if (area < 0.03 * w * h) continue;
    fillHoles(m, w, h);
    let filled = 0;
    for (let i = 0; i < m.length; i++) filled += m[i]!;
    const boundary = maskBoundary(m, w, h);
    const hullSmall = convexHull(boundary);
    const hullArea = Math.abs(signedArea(hullSmall)) + 1;
    const solidity = Math.min(1, filled / hullArea);
    // A table is one compact region: reward area and convexity measured *before* filling holes
    // (squared, so a ring of carpet or rail around the table loses even though it is larger), and
    // penalise regions that run along the frame border (floors, backdrops).
    const rawSolidity = Math.min(1, area / hullArea);
    let borderPx = 0;
    for (let x = 0; x < w; x++) borderPx += m[x]! + m[(h - 1) * w + x]!;
    for (let y = 0; y < h; y++) borderPx += m[y * w]! + m[y * w + w - 1]!;
    const borderFrac = borderPx / (2 * (w + h));
    const score = area * rawSolidity * rawSolidity * (1 - 0.8 * borderFrac);
    if (score > bestScore) {
      bestScore = score;
      const hull = hullSmall.map(([x, y]) => [(x + 0.5) * scale, (y + 0.5) * scale] as Pt);
      best = { width: w, height: h, scale, mask: m, areaPx: filled, solidity, colour, hull };
    }
  }
  return best;
}
