/**
 * The table's own markings, read on the calibrated cloth plane: which end is baulk (snooker: the
 * baulk line and the D; colours standing on their spots) and where the baulk line actually lies.
 *
 * Each candidate orientation is scored by sampling the frame through its homography, so no warp
 * of the whole frame is needed: a line is a row of table points whose luminance differs from rows
 * a few millimetres either side, measured with a median across the table (balls and a cue over the
 * line move the median little).
 */
import { applyH, type Mat3 } from '../core/mat3.js';
import type { TableProfile } from '../core/table.js';
import { undistortPoint, distortPoint, type RadialDistortion } from './distortion.js';
import { rgbToHsv, sampleRgb, type RgbFrame } from './image.js';

export interface PlaneSampler {
  frame: RgbFrame;
  /** Table mm (cloth plane) → undistorted image pixel. */
  tableToImage: Mat3;
  distortion: RadialDistortion | null;
}

const tmp = new Float64Array(3);

/** Frame pixel of a table point (through the lens model when there is one). */
export function tableToFramePx(s: Pick<PlaneSampler, 'tableToImage' | 'distortion'>, x: number, y: number): [number, number] {
  const [u, v] = applyH(s.tableToImage, x, y);
  return s.distortion ? distortPoint(s.distortion, u, v) : [u, v];
}

export function framePxToUndistorted(d: RadialDistortion | null, u: number, v: number): [number, number] {
  return d ? undistortPoint(d, u, v) : [u, v];
}

function lum(s: PlaneSampler, x: number, y: number): number {
  const [u, v] = tableToFramePx(s, x, y);
  if (!sampleRgb(s.frame, u, v, tmp)) return NaN;
  return 0.299 * tmp[0]! + 0.587 * tmp[1]! + 0.114 * tmp[2]!;
}

function median(xs: number[]): number {
  const f = xs.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!f.length) return 0;
  return f[f.length >> 1]!;
}

/** Contrast of a line across the table at `y` (mm): median over x of |L(y) − mean L(y ± gapMm)|. */
export function crossLineContrast(s: PlaneSampler, table: TableProfile, y: number, gapMm: number): number {
  const W = table.bed.width;
  const vals: number[] = [];
  for (let i = 0; i <= 40; i++) {
    const x = W * (0.12 + (0.76 * i) / 40);
    vals.push(Math.abs(lum(s, x, y) - 0.5 * (lum(s, x, y - gapMm) + lum(s, x, y + gapMm))));
  }
  return median(vals);
}

/** Contrast of the D arc (centre (W/2, baulkY), radius r, on the side towards y = 0). */
export function arcContrast(s: PlaneSampler, table: TableProfile, baulkY: number, r: number, gapMm: number): number {
  const cx = table.bed.width / 2;
  const vals: number[] = [];
  for (let i = 1; i < 40; i++) {
    const th = (Math.PI * i) / 40;
    const dx = Math.cos(th), dy = -Math.sin(th);
    const at = (rr: number) => lum(s, cx + rr * dx, baulkY + rr * dy);
    vals.push(Math.abs(at(r) - 0.5 * (at(r - gapMm) + at(r + gapMm))));
  }
  return median(vals);
}

/** Line search: the y (mm) near `expectY` where the cross-line contrast peaks, and that contrast. */
export function findCrossLine(s: PlaneSampler, table: TableProfile, expectY: number, searchMm: number, gapMm: number): { y: number; contrast: number } {
  let best = { y: expectY, contrast: -1 };
  const step = Math.max(1, gapMm / 4);
  for (let y = expectY - searchMm; y <= expectY + searchMm; y += step) {
    const c = crossLineContrast(s, table, y, gapMm);
    if (c > best.contrast) best = { y, contrast: c };
  }
  return best;
}

type BallColour = 'yellow' | 'green' | 'brown' | 'blue' | 'pink' | 'black' | 'red' | 'white' | 'other';

/** Coarse colour class of a ball's pixel (only used to vote on the orientation). */
export function classifyBallColour(r: number, g: number, b: number, clothHueDeg: number): BallColour {
  const [h, s, v] = rgbToHsv(r, g, b);
  const near = (a: number, c: number, tol: number) => Math.min(Math.abs(a - c), 360 - Math.abs(a - c)) <= tol;
  if (v < 0.18) return 'black';
  if (s < 0.18 && v > 0.7) return 'white';
  if (near(h, clothHueDeg, 20)) return 'other';
  if (near(h, 55, 15) && s > 0.45 && v > 0.5) return 'yellow';
  if (near(h, 215, 30) && s > 0.35) return 'blue';
  if (near(h, 125, 30) && s > 0.35) return 'green';
  if (near(h, 350, 20) && s < 0.6 && v > 0.6) return 'pink';
  if (near(h, 25, 20) && v < 0.6) return 'brown';
  if (near(h, 0, 15) && s > 0.55) return 'red';
  return 'other';
}

export interface EndEvidence {
  /** > 0: the orientation as given has baulk at y = 0; < 0: the opposite end; 0: undecided. */
  vote: number;
  baulkLine: { y: number; contrast: number; noise: number } | null;
  dContrast: number;
  /** The D stood out of the cloth's texture and beat the other end's. */
  dFound: boolean;
  spotsMatched: string[];
}

/**
 * Score one orientation (baulk at y = 0) against its 180° turn. Returns the evidence for it;
 * `vote` sums the line, the D and the colours on their spots.
 */
export function snookerEndEvidence(s: PlaneSampler, table: TableProfile, ballToImage: Mat3 | null, clothHueDeg: number): EndEvidence {
  const L = table.bed.length;
  const baulk = table.baulkLineY ?? (737 / 3569) * L;
  const gap = Math.max(6, L / 400);
  const search = L * 0.02;
  const a = findCrossLine(s, table, baulk, search, gap);
  const b = findCrossLine(s, table, L - baulk, search, gap);
  // Noise floor: the same measure in the plain middle of the bed (away from blue spot and lines).
  const noise = median([0.3, 0.36, 0.42, 0.58, 0.64, 0.7].map((f) => crossLineContrast(s, table, f * L, gap)));
  let vote = 0;
  const strongA = a.contrast > 2 * noise + 1.5, strongB = b.contrast > 2 * noise + 1.5;
  if (strongA && a.contrast > 1.3 * b.contrast) vote += 2;
  else if (strongB && b.contrast > 1.3 * a.contrast) vote -= 2;
  const dr = table.dRadius ?? (292 / 1778) * table.bed.width;
  const dA = arcContrast(s, table, a.y, dr, gap);
  // The D of the other orientation: mirror the sampler by evaluating at L − y via a flipped table.
  const flipped: PlaneSampler = { ...s, tableToImage: flipTable(s.tableToImage, table) };
  const dB = arcContrast(flipped, table, L - b.y, dr, gap);
  const dFound = dA > 2 * noise + 1 && dA > 1.3 * dB;
  if (dFound) vote += 1;
  else if (dB > 2 * noise + 1 && dB > 1.3 * dA) vote -= 1;
  // Colours on their spots (a frame at the start of a snooker frame or mid-frame with colours spotted).
  const matched: string[] = [];
  if (ballToImage) {
    const colourAt = (x: number, y: number): BallColour => {
      const [u0, v0] = applyH(ballToImage, x, y);
      const [u, v] = s.distortion ? distortPoint(s.distortion, u0, v0) : [u0, v0];
      let r = 0, g = 0, bb = 0, n = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
        if (!sampleRgb(s.frame, u + dx, v + dy, tmp)) continue;
        r += tmp[0]!;
        g += tmp[1]!;
        bb += tmp[2]!;
        n++;
      }
      return n ? classifyBallColour(r / n, g / n, bb / n, clothHueDeg) : 'other';
    };
    let ca = 0, cb = 0;
    for (const [name, p] of Object.entries(table.spots)) {
      if (!['yellow', 'green', 'brown', 'blue', 'pink', 'black'].includes(name)) continue;
      if (name === 'blue') continue; // the blue spot is the centre: the same for both ends
      if (colourAt(p.x, p.y) === name) {
        ca++;
        matched.push(name);
      }
      if (colourAt(table.bed.width - p.x, L - p.y) === name) cb++;
    }
    vote += ca - cb;
  }
  return { vote, baulkLine: strongA ? { y: a.y, contrast: a.contrast, noise } : null, dContrast: dA, dFound, spotsMatched: matched };
}

/** The table→image homography of the same table turned by 180° (x → W − x, y → L − y). */
export function flipTable(tableToImage: Mat3, table: TableProfile): Mat3 {
  const W = table.bed.width, L = table.bed.length;
  const F: Mat3 = [[-1, 0, W], [0, -1, L], [0, 0, 1]];
  const r: number[][] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[i]![j]! += tableToImage[i]![k]! * F[k]![j]!;
  return r as Mat3;
}

/** Mean luminance in a small disc (radius `rMm`) around a table point, through the sampler. */
function discLum(s: PlaneSampler, x: number, y: number, rMm: number): number {
  const vals: number[] = [];
  for (const [dx, dy] of [[0, 0], [rMm, 0], [-rMm, 0], [0, rMm], [0, -rMm]] as const) vals.push(lum(s, x + dx, y + dy));
  const f = vals.filter(Number.isFinite);
  return f.length ? f.reduce((a, b) => a + b, 0) / f.length : NaN;
}

/**
 * Pool diamonds: the inlaid markers on the rails, `insetMm` behind the cushion nose, every L/8 on
 * the long rails and W/4 on the short ones (spec table-geometry.md). `railSampler` maps the rail
 * top's plane. Returns the share of diamonds that show as a bright spot against the rail beside
 * them (a check on the long axis and the scale, not used to solve).
 */
export function poolDiamondShare(railSampler: PlaneSampler, table: TableProfile, insetMm = 93.7): number {
  const { width: W, length: L } = table.bed;
  const spots: [number, number, 'x' | 'y'][] = [];
  for (let k = 1; k < 8; k++) {
    if (k === 4) continue; // the middle pocket
    spots.push([-insetMm, (k * L) / 8, 'y'], [W + insetMm, (k * L) / 8, 'y']);
  }
  for (let k = 1; k < 4; k++) spots.push([(k * W) / 4, -insetMm, 'x'], [(k * W) / 4, L + insetMm, 'x']);
  let seen = 0, n = 0;
  const r = Math.max(4, table.ballDiameter / 8);
  // The brightest point within a quarter ball of where the diamond should be: the markers are a
  // few pixels wide and the rail's height puts them a little off the cloth plane's prediction.
  const search = table.ballDiameter / 4;
  const peak = (x: number, y: number) => {
    let m = -Infinity;
    for (let i = -3; i <= 3; i++) for (let j = -3; j <= 3; j++) {
      const v = lum(railSampler, x + (i * search) / 3, y + (j * search) / 3);
      if (Number.isFinite(v) && v > m) m = v;
    }
    return m;
  };
  for (const [x, y, along] of spots) {
    const c = peak(x, y);
    const off = table.ballDiameter;
    const side = along === 'y' ? 0.5 * (discLum(railSampler, x, y - off, r) + discLum(railSampler, x, y + off, r)) : 0.5 * (discLum(railSampler, x - off, y, r) + discLum(railSampler, x + off, y, r));
    if (!Number.isFinite(c) || !Number.isFinite(side)) continue;
    n++;
    if (c > side + 25) seen++;
  }
  return n ? seen / n : 0;
}

export interface NovusMarkings {
  zoneLines: boolean;
  centreCircle: boolean;
}

/** Novus: the edge-zone lines (`zoneLineMm` from the bottom and top edges) and the centre circle. */
export function novusMarkings(s: PlaneSampler, table: TableProfile): NovusMarkings {
  const L = table.bed.length, W = table.bed.width;
  const gap = Math.max(6, L / 150);
  const noise = median([0.3, 0.38, 0.62, 0.7].map((f) => crossLineContrast(s, table, f * L, gap)));
  const z = table.zoneLineMm ?? 100;
  const a = findCrossLine(s, table, z, L * 0.02, gap), b = findCrossLine(s, table, L - z, L * 0.02, gap);
  const zoneLines = a.contrast > 2 * noise + 1.5 && b.contrast > 2 * noise + 1.5;
  const r = table.centreCircleRadiusMm ?? 100;
  const vals: number[] = [];
  for (let i = 0; i < 48; i++) {
    const th = (2 * Math.PI * i) / 48;
    const at = (rr: number) => lum(s, W / 2 + rr * Math.cos(th), L / 2 + rr * Math.sin(th));
    vals.push(Math.abs(at(r) - 0.5 * (at(r - gap) + at(r + gap))));
  }
  return { zoneLines, centreCircle: median(vals) > 2 * noise + 1.5 };
}
