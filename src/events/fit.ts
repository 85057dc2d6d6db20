/**
 * Trajectory fitting: a ball between two impulses follows a smooth path (constant velocity with a
 * slowly changing friction deceleration), so a low-order polynomial in time per axis fits it to the
 * noise. Where a fit stops explaining the positions, something struck the ball: a kink. Times are
 * taken relative to the segment's first sample for numerical conditioning.
 */

/** p(t) = c0 + c1·(t − t0) + c2·(t − t0)², per axis. */
export interface Poly2 {
  t0: number;
  x: [number, number, number];
  y: [number, number, number];
}

export const evalPos = (p: Poly2, t: number): [number, number] => {
  const d = t - p.t0;
  return [p.x[0] + p.x[1] * d + p.x[2] * d * d, p.y[0] + p.y[1] * d + p.y[2] * d * d];
};

export const evalVel = (p: Poly2, t: number): [number, number] => {
  const d = t - p.t0;
  return [p.x[1] + 2 * p.x[2] * d, p.y[1] + 2 * p.y[2] * d];
};

/**
 * Least-squares polynomial of degree ≤ 2 per axis over samples [a, b] of the arrays (no copies:
 * this runs for every candidate piece), by the normal equations solved with Cramer's rule. A
 * singular system (all samples at one time) falls back to a lower degree.
 */
export function fitPolyRange(ts: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>, a: number, b: number, quadFrom = 6, maxDegree: 0 | 1 | 2 = 2): Poly2 {
  const n = b - a + 1;
  const t0 = ts[a]!;
  let deg = Math.min(maxDegree, n >= quadFrom ? 2 : n >= 2 ? 1 : 0);
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0, s4 = 0, x0 = 0, x1 = 0, x2 = 0, y0 = 0, y1 = 0, y2 = 0;
  for (let k = a; k <= b; k++) {
    const d = ts[k]! - t0, d2 = d * d;
    const x = xs[k]!, y = ys[k]!;
    s0 += 1; s1 += d; s2 += d2; s3 += d2 * d; s4 += d2 * d2;
    x0 += x; x1 += x * d; x2 += x * d2;
    y0 += y; y1 += y * d; y2 += y * d2;
  }
  for (;;) {
    if (deg === 2) {
      const det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2);
      if (Math.abs(det) > 1e-18 * Math.max(1, s4 * s4)) {
        const solve = (r0: number, r1: number, r2: number): [number, number, number] => [
          (r0 * (s2 * s4 - s3 * s3) - s1 * (r1 * s4 - s3 * r2) + s2 * (r1 * s3 - s2 * r2)) / det,
          (s0 * (r1 * s4 - s3 * r2) - r0 * (s1 * s4 - s3 * s2) + s2 * (s1 * r2 - r1 * s2)) / det,
          (s0 * (s2 * r2 - r1 * s3) - s1 * (s1 * r2 - r1 * s2) + r0 * (s1 * s3 - s2 * s2)) / det,
        ];
        return { t0, x: solve(x0, x1, x2), y: solve(y0, y1, y2) };
      }
      deg = 1;
    }
    if (deg === 1) {
      const det = s0 * s2 - s1 * s1;
      if (Math.abs(det) > 1e-18 * Math.max(1, s2 * s2)) {
        return { t0, x: [(x0 * s2 - s1 * x1) / det, (s0 * x1 - s1 * x0) / det, 0], y: [(y0 * s2 - s1 * y1) / det, (s0 * y1 - s1 * y0) / det, 0] };
      }
      deg = 0;
    }
    return { t0, x: [x0 / s0, 0, 0], y: [y0 / s0, 0, 0] };
  }
}

/**
 * Fit samples: degree 2 from `quadFrom` samples up (deceleration is visible only over several
 * frames; on fewer a quadratic would chase the noise), 1 from 2, 0 for one.
 */
export function fitPoly(ts: readonly number[], xs: readonly number[], ys: readonly number[], quadFrom = 6, maxDegree: 0 | 1 | 2 = 2): Poly2 {
  return fitPolyRange(ts, xs, ys, 0, ts.length - 1, quadFrom, maxDegree);
}

/** Sum of squared residuals of a fit over samples [a, b]. */
export function sseRange(p: Poly2, ts: ArrayLike<number>, xs: ArrayLike<number>, ys: ArrayLike<number>, a: number, b: number): number {
  let s = 0;
  for (let k = a; k <= b; k++) {
    const d = ts[k]! - p.t0;
    const ex = p.x[0] + p.x[1] * d + p.x[2] * d * d - xs[k]!;
    const ey = p.y[0] + p.y[1] * d + p.y[2] * d * d - ys[k]!;
    s += ex * ex + ey * ey;
  }
  return s;
}

/** A straight line v ≈ c0 + c1·(t − t0) fitted to samples [a, b] of one coordinate, t0 = ts[a]; with its residuals' standard deviation and the times' spread √Σ(t − t̄)² (the slope's standard error is their ratio). */
export interface Line1 {
  t0: number;
  c0: number;
  c1: number;
  residualSd: number;
  timeSpread: number;
}

export function fitLineRange(ts: ArrayLike<number>, vs: ArrayLike<number>, a: number, b: number): Line1 {
  const n = b - a + 1;
  const t0 = ts[a]!;
  let mt = 0, mv = 0;
  for (let k = a; k <= b; k++) (mt += ts[k]! - t0), (mv += vs[k]!);
  mt /= n;
  mv /= n;
  let stt = 0, stv = 0;
  for (let k = a; k <= b; k++) {
    const d = ts[k]! - t0 - mt;
    stt += d * d;
    stv += d * (vs[k]! - mv);
  }
  const c1 = stt > 0 ? stv / stt : 0;
  const c0 = mv - c1 * mt;
  let sse = 0;
  for (let k = a; k <= b; k++) sse += (vs[k]! - (c0 + c1 * (ts[k]! - t0))) ** 2;
  return { t0, c0, c1, residualSd: Math.sqrt(sse / Math.max(1, n - 2)), timeSpread: Math.sqrt(stt) };
}

export function maxResidual(p: Poly2, ts: readonly number[], xs: readonly number[], ys: readonly number[]): number {
  let m = 0;
  for (let k = 0; k < ts.length; k++) {
    const [px, py] = evalPos(p, ts[k]!);
    m = Math.max(m, Math.hypot(px - xs[k]!, py - ys[k]!));
  }
  return m;
}

export function sse(p: Poly2, ts: readonly number[], xs: readonly number[], ys: readonly number[]): number {
  let s = 0;
  for (let k = 0; k < ts.length; k++) {
    const [px, py] = evalPos(p, ts[k]!);
    s += (px - xs[k]!) ** 2 + (py - ys[k]!) ** 2;
  }
  return s;
}

/**
 * Earliest t in [lo, hi] where |a(t) − b(t)| = dist, for two fitted paths (b may be a fixed point),
 * found by scanning then bisecting (the distance need not be monotonic over the window).
 */
export function timeAtDistance(a: (t: number) => [number, number], b: (t: number) => [number, number], dist: number, lo: number, hi: number, steps = 200): number | undefined {
  const f = (t: number) => {
    const p = a(t), q = b(t);
    return Math.hypot(p[0] - q[0], p[1] - q[1]) - dist;
  };
  let prevT = lo, prevF = f(lo);
  if (prevF <= 0) return undefined;
  for (let k = 1; k <= steps; k++) {
    const t = lo + ((hi - lo) * k) / steps;
    const v = f(t);
    if (v <= 0) {
      let l = prevT, h = t;
      for (let it = 0; it < 50; it++) {
        const m = (l + h) / 2;
        if (f(m) > 0) l = m;
        else h = m;
      }
      return (l + h) / 2;
    }
    prevT = t;
    prevF = v;
  }
  void prevF;
  return undefined;
}

/** The time a 1-D fitted coordinate reaches `target` within [lo, hi] (first crossing), by scan + bisection. */
export function timeAtCoord(f: (t: number) => number, target: number, lo: number, hi: number, steps = 200): number | undefined {
  const g = (t: number) => f(t) - target;
  let prevT = lo;
  const s0 = Math.sign(g(lo));
  if (s0 === 0) return lo;
  for (let k = 1; k <= steps; k++) {
    const t = lo + ((hi - lo) * k) / steps;
    if (Math.sign(g(t)) !== s0) {
      let l = prevT, h = t;
      for (let it = 0; it < 50; it++) {
        const m = (l + h) / 2;
        if (Math.sign(g(m)) === s0) l = m;
        else h = m;
      }
      return (l + h) / 2;
    }
    prevT = t;
  }
  return undefined;
}
