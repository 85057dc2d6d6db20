/**
 * Pure plane geometry for calibration: 2-D lines (fits robust to occlusion), homographies by the
 * normalised DLT, and small linear-algebra helpers. Points are [x, y] tuples in any one unit.
 */
import { applyH, inv3, normaliseH, type Mat3 } from '../core/mat3.js';

export type Pt = [number, number];

/** A line n·p = c with |n| = 1. */
export interface Line {
  nx: number;
  ny: number;
  c: number;
}

export const lineDistance = (l: Line, x: number, y: number): number => l.nx * x + l.ny * y - l.c;

/** Total-least-squares line through points (the principal axis of their scatter). */
export function fitLineTls(pts: ReadonlyArray<Pt>): Line | null {
  const n = pts.length;
  if (n < 2) return null;
  let mx = 0, my = 0;
  for (const [x, y] of pts) {
    mx += x;
    my += y;
  }
  mx /= n;
  my /= n;
  let sxx = 0, sxy = 0, syy = 0;
  for (const [x, y] of pts) {
    const dx = x - mx, dy = y - my;
    sxx += dx * dx;
    sxy += dx * dy;
    syy += dy * dy;
  }
  // Direction = eigenvector of the larger eigenvalue; the normal is perpendicular to it.
  const theta = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const nx = -Math.sin(theta), ny = Math.cos(theta);
  return { nx, ny, c: nx * mx + ny * my };
}

/** Deterministic pseudo-random numbers (xorshift32) so calibration is reproducible. */
export function rng(seed: number): () => number {
  let s = seed >>> 0 || 0x9e3779b9;
  return () => {
    s ^= s << 13;
    s >>>= 0;
    s ^= s >>> 17;
    s ^= s << 5;
    s >>>= 0;
    return s / 4294967296;
  };
}

export interface RobustLine {
  line: Line;
  inliers: Pt[];
  /** RMS distance of the inliers from the line, in the points' unit. */
  rms: number;
}

/**
 * RANSAC line then a TLS refit on the inliers (twice, so the final inlier set matches the final
 * line). `tol` is the inlier distance: too small loses real edge points to noise, too large lets a
 * ball's outline pull the line.
 */
export function ransacLine(pts: ReadonlyArray<Pt>, tol: number, iterations = 300, seed = 1): RobustLine | null {
  if (pts.length < 2) return null;
  const rand = rng(seed);
  let best: Line | null = null;
  let bestCount = -1;
  for (let it = 0; it < iterations; it++) {
    const a = pts[Math.floor(rand() * pts.length)]!, b = pts[Math.floor(rand() * pts.length)]!;
    const dx = b[0] - a[0], dy = b[1] - a[1];
    const len = Math.hypot(dx, dy);
    if (len < 1e-9) continue;
    const l: Line = { nx: -dy / len, ny: dx / len, c: (-dy * a[0] + dx * a[1]) / len };
    let count = 0;
    for (const p of pts) if (Math.abs(lineDistance(l, p[0], p[1])) <= tol) count++;
    if (count > bestCount) {
      bestCount = count;
      best = l;
    }
  }
  if (!best) return null;
  let line = best;
  let inliers: Pt[] = [];
  for (let pass = 0; pass < 3; pass++) {
    inliers = pts.filter((p) => Math.abs(lineDistance(line, p[0], p[1])) <= tol);
    const refit = fitLineTls(inliers);
    if (!refit) break;
    line = refit;
  }
  inliers = pts.filter((p) => Math.abs(lineDistance(line, p[0], p[1])) <= tol);
  const rms = Math.sqrt(inliers.reduce((s, p) => s + lineDistance(line, p[0], p[1]) ** 2, 0) / Math.max(1, inliers.length));
  return { line, inliers, rms };
}

export function intersect(a: Line, b: Line): Pt | null {
  const det = a.nx * b.ny - a.ny * b.nx;
  if (Math.abs(det) < 1e-9) return null;
  return [(a.c * b.ny - a.ny * b.c) / det, (a.nx * b.c - a.c * b.nx) / det];
}

/** Solve A x = b (n×n, Gaussian elimination with partial pivoting); null when singular. */
export function solveLinear(A: number[][], b: number[]): number[] | null {
  const n = b.length;
  const M = A.map((row, i) => [...row, b[i]!]);
  for (let col = 0; col < n; col++) {
    let piv = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(M[r]![col]!) > Math.abs(M[piv]![col]!)) piv = r;
    if (Math.abs(M[piv]![col]!) < 1e-12) return null;
    [M[col], M[piv]] = [M[piv]!, M[col]!];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = M[r]![col]! / M[col]![col]!;
      if (f === 0) continue;
      for (let c = col; c <= n; c++) M[r]![c]! -= f * M[col]![c]!;
    }
  }
  return M.map((row, i) => row[n]! / row[i]!);
}

function normaliser(pts: ReadonlyArray<Pt>): Mat3 {
  let mx = 0, my = 0;
  for (const [x, y] of pts) {
    mx += x;
    my += y;
  }
  mx /= pts.length;
  my /= pts.length;
  let d = 0;
  for (const [x, y] of pts) d += Math.hypot(x - mx, y - my);
  const s = Math.SQRT2 / Math.max(1e-12, d / pts.length);
  return [[s, 0, -s * mx], [0, s, -s * my], [0, 0, 1]];
}

/**
 * Homography src → dst by the normalised direct linear transform (least squares with h33 = 1 on
 * Hartley-normalised points). Needs ≥ 4 points, no three of four collinear.
 */
export function homographyDlt(src: ReadonlyArray<Pt>, dst: ReadonlyArray<Pt>): Mat3 | null {
  if (src.length < 4 || src.length !== dst.length) return null;
  const Ts = normaliser(src), Td = normaliser(dst);
  const A: number[][] = Array.from({ length: 8 }, () => new Array<number>(8).fill(0));
  const b = new Array<number>(8).fill(0);
  for (let i = 0; i < src.length; i++) {
    const [x, y] = applyH(Ts, src[i]![0], src[i]![1]);
    const [u, v] = applyH(Td, dst[i]![0], dst[i]![1]);
    const rows: [number[], number][] = [
      [[x, y, 1, 0, 0, 0, -u * x, -u * y], u],
      [[0, 0, 0, x, y, 1, -v * x, -v * y], v],
    ];
    for (const [r, rhs] of rows) {
      for (let p = 0; p < 8; p++) {
        b[p]! += r[p]! * rhs;
        for (let q = 0; q < 8; q++) A[p]![q]! += r[p]! * r[q]!;
      }
    }
  }
  const h = solveLinear(A, b);
  if (!h) return null;
  const Hn: Mat3 = [[h[0]!, h[1]!, h[2]!], [h[3]!, h[4]!, h[5]!], [h[6]!, h[7]!, 1]];
  try {
    return normaliseH(mulMat(inv3(Td), mulMat(Hn, Ts)));
  } catch {
    return null;
  }
}

export function mulMat(a: Mat3, b: Mat3): Mat3 {
  const r = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[i]![j]! += a[i]![k]! * b[k]![j]!;
  return r as Mat3;
}

/** Signed area (shoelace) of a polygon; positive when counter-clockwise in a y-up frame. */
export function signedArea(poly: ReadonlyArray<Pt>): number {
  let a = 0;
  for (let i = 0; i < poly.length; i++) {
    const p = poly[i]!, q = poly[(i + 1) % poly.length]!;
    a += p[0] * q[1] - q[0] * p[1];
  }
  return a / 2;
}

/** Andrew's monotone-chain convex hull, counter-clockwise in the points' own frame. */
export function convexHull(points: ReadonlyArray<Pt>): Pt[] {
  const pts = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  if (pts.length < 3) return pts;
  const cross = (o: Pt, a: Pt, b: Pt) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: Pt[] = [];
  for (const p of pts) {
    while (lower.length >= 2 && cross(lower[lower.length - 2]!, lower[lower.length - 1]!, p) <= 0) lower.pop();
    lower.push(p);
  }
  const upper: Pt[] = [];
  for (let i = pts.length - 1; i >= 0; i--) {
    const p = pts[i]!;
    while (upper.length >= 2 && cross(upper[upper.length - 2]!, upper[upper.length - 1]!, p) <= 0) upper.pop();
    upper.push(p);
  }
  upper.pop();
  lower.pop();
  return lower.concat(upper);
}

/**
 * Reduce a convex polygon to `k` vertices by repeatedly dropping the vertex whose triangle with its
 * neighbours has the least area (Visvalingam): the table's four corners survive, the chamfers the
 * corner pockets cut into the cloth do not.
 */
export function reducePolygon(poly: ReadonlyArray<Pt>, k: number): Pt[] {
  const p = [...poly];
  const tri = (a: Pt, b: Pt, c: Pt) => Math.abs((b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])) / 2;
  while (p.length > k) {
    let bi = 0, ba = Infinity;
    for (let i = 0; i < p.length; i++) {
      const a = tri(p[(i + p.length - 1) % p.length]!, p[i]!, p[(i + 1) % p.length]!);
      if (a < ba) {
        ba = a;
        bi = i;
      }
    }
    p.splice(bi, 1);
  }
  return p;
}

export { applyH, inv3, normaliseH };
export type { Mat3 };
