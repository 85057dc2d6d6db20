/**
 * A ball's path in one stroke as smooth pieces separated by kinks. A kink is where the ball took an
 * impulse (cue tip, another ball, a cushion): position is continuous there and velocity jumps, so
 * the kink's time is where the fitted piece before and the piece after meet, which falls *between*
 * frames (at 30 fps a fast cue ball moves two ball-widths a frame; the nearest frame is not good
 * enough for a first-contact call).
 */
import { evalPos, evalVel, fitPolyRange, sseRange, type Poly2 } from './fit.js';

export interface Segment {
  /** Sample indices (into the arrays given to `segmentPath`), inclusive. */
  s0: number;
  s1: number;
  t0: number;
  t1: number;
  fit: Poly2;
  /** Fitted speed below the noise: the ball was still on this piece. */
  still: boolean;
}

export interface Kink {
  /** Estimated time of the impulse, s. */
  t: number;
  /** Bounds: the last sample before and the first after, s. */
  tLo: number;
  tHi: number;
  /** Position at the kink (from the piece before), mm. */
  x: number;
  y: number;
  vIn: [number, number];
  vOut: [number, number];
  before: Segment;
  after: Segment;
  /** Distance between the two pieces where they meet best, mm (≈ 0 for a true impulse). */
  gapMm: number;
}

export interface PathSamples {
  t: number[];
  x: number[];
  y: number[];
}

const STILL_SPEED_MM_PER_S = 20;
/** Faster than a misread resting ball seems to move over a few frames (a cue over it: 15 mm in 0.1 s), mm/s. */
const SURE_MOVING_MM_PER_S = 300;

/**
 * A piece is still when its straight-line speed is below 20 mm/s or below three standard errors
 * of that speed (short pieces cannot show a slow speed through the noise).
 */
function isStill(p: PathSamples, a: number, b: number, noiseMm: number): boolean {
  const n = b - a + 1;
  if (n < 2) return false;
  const lin = fitPolyRange(p.t, p.x, p.y, a, b, Infinity, 1);
  const speed = Math.hypot(lin.x[1], lin.y[1]);
  const T = p.t[b]! - p.t[a]!;
  const sigmaV = noiseMm / (T * Math.sqrt(n / 12) + 1e-9);
  return speed < Math.max(STILL_SPEED_MM_PER_S, 3 * sigmaV);
}

function fitRange(p: PathSamples, a: number, b: number): Poly2 {
  return fitPolyRange(p.t, p.x, p.y, a, b);
}

function rangeSse(p: PathSamples, a: number, b: number): number {
  if (b < a) return 0;
  const f = fitRange(p, a, b);
  return plausible(f) ? sseRange(f, p.t, p.x, p.y, a, b) : Infinity;
}

/**
 * No ball between two impulses changes speed faster than sliding friction allows (μg ≈ 2–3 m/s²).
 * A quadratic fit that needs more is bending round a rebound (a cushion's turn looks like the top
 * of a parabola): the piece must be split there, not smoothed over.
 */
const MAX_ACCEL_MM_PER_S2 = 6000;
function plausible(f: Poly2): boolean {
  return Math.hypot(2 * f.x[2], 2 * f.y[2]) <= MAX_ACCEL_MM_PER_S2;
}

/**
 * Split samples into pieces each fitted within `tolMm`: greedy growth while the next sample lies
 * on the current fit's extrapolation, then pieces of one or two samples that straddle an impulse
 * are dissolved into their neighbours, and each boundary is moved to where the two fits explain
 * the samples best (the first sample after an impulse that came just before it is barely off the
 * old path, and the greedy pass keeps it on the wrong side).
 */
export function segmentPath(p: PathSamples, tolMm: number, noiseMm = 1, cuts: readonly number[] = []): Segment[] {
  const n = p.t.length;
  const bounds: [number, number][] = [];
  // Forced boundaries (a piece ends at each cut): where the rest/moving state machine saw a ball
  // leave or reach rest, which a slow slide can hide from the fits' tolerance.
  const cutSet = new Set(cuts.filter((c) => c >= 0 && c < n - 1));
  let s = 0;
  while (s < n) {
    let e = s;
    while (e + 1 < n && !cutSet.has(e)) {
      const count = e - s + 1;
      if (count < 2) {
        e++;
        continue;
      }
      const f = fitRange(p, s, e);
      // Extrapolating a short fit is less certain: widen the tolerance for 2–3 samples.
      const tol = count <= 3 ? tolMm * 1.75 : tolMm;
      const off = (k: number) => {
        const [px, py] = evalPos(f, p.t[k]!);
        return Math.hypot(px - p.x[k]!, py - p.y[k]!);
      };
      if (off(e + 1) <= tol && (count + 1 < 6 || plausible(fitRange(p, s, e + 1)))) {
        e++;
        continue;
      }
      break;
    }
    bounds.push([s, e]);
    s = e + 1;
  }
  dissolveShortPieces(p, bounds, tolMm);
  refineBoundaries(p, bounds, cutSet);
  const segs: Segment[] = [];
  for (const [a, b] of bounds) {
    if (b < a) continue;
    const still = isStill(p, a, b, noiseMm);
    segs.push({ s0: a, s1: b, t0: p.t[a]!, t1: p.t[b]!, fit: fitPolyRange(p.t, p.x, p.y, a, b, 6, still ? 0 : 2), still });
  }
  return segs;
}

/**
 * Shift each boundary by up to two samples to where the two fits explain the samples best — but
 * not a forced one (a cut) across a gap in the sightings: there a quadratic bends to take one
 * sample of the far side (the P27 5 ball, seen again 20 mm off after 0.7 s hidden, joined to its
 * rest as a slow slide). A cut between consecutive frames may move (a ball set down by hand and
 * struck at once: its one-sample rest must take the next sample to time the start).
 */
function refineBoundaries(p: PathSamples, bounds: [number, number][], cuts: ReadonlySet<number>): void {
  const steps: number[] = [];
  for (let k = 1; k < p.t.length; k++) steps.push(p.t[k]! - p.t[k - 1]!);
  steps.sort((a, b) => a - b);
  const dt = steps[steps.length >> 1] ?? 0;
  for (let b = 0; b + 1 < bounds.length; b++) {
    const A = bounds[b]!, B = bounds[b + 1]!;
    if (cuts.has(A[1]) && p.t[A[1] + 1]! - p.t[A[1]]! > 3 * dt) continue;
    let best = A[1], bestCost = Infinity;
    for (let cut = A[1] - 2; cut <= A[1] + 1; cut++) {
      if (cut < A[0] || cut + 1 > B[1]) continue;
      const cost = rangeSse(p, A[0], cut) + rangeSse(p, cut + 1, B[1]);
      if (cost < bestCost - 1e-9) {
        bestCost = cost;
        best = cut;
      }
    }
    A[1] = best;
    B[0] = best + 1;
  }
}

/**
 * A piece of one or two samples between two longer ones usually straddles an impulse (one sample
 * before it, one after): hand its samples to the neighbours when their fits still hold them, so
 * that the kink is timed from the long pieces on either side.
 */
function dissolveShortPieces(p: PathSamples, bounds: [number, number][], tolMm: number): void {
  const fitsWithin = (a: number, b: number) => {
    if (b < a) return true;
    const f = fitRange(p, a, b);
    if (!plausible(f)) return false;
    for (let k = a; k <= b; k++) {
      const [x, y] = evalPos(f, p.t[k]!);
      if (Math.hypot(x - p.x[k]!, y - p.y[k]!) > tolMm) return false;
    }
    return true;
  };
  // The two neighbours clearly moving (SURE_MOVING_MM_PER_S) agree on where the ball went (same
  // velocity where they meet, within a quarter or 150 mm/s): no impulse between them, so the
  // short piece is noise on a smooth path — a ball does not stop dead for a frame or two and
  // carry on as before. Its samples (up to four) go to the neighbours even where a misread lies
  // beyond the tolerance (rendered S25, overhead 60 fps: a sample 3.5 mm off split the rolling
  // cue ball round a two-sample "stop", read as a hand placing it and the strike put half a
  // second late).
  const agree = (A: [number, number], B: [number, number]) => {
    const vA = evalVel(fitRange(p, A[0], A[1]), p.t[A[1]]!), vB = evalVel(fitRange(p, B[0], B[1]), p.t[B[0]]!);
    const sA = Math.hypot(vA[0], vA[1]), sB = Math.hypot(vB[0], vB[1]);
    return Math.min(sA, sB) >= SURE_MOVING_MM_PER_S && Math.hypot(vA[0] - vB[0], vA[1] - vB[1]) <= Math.max(150, 0.25 * Math.max(sA, sB));
  };
  for (let i = 1; i + 1 < bounds.length; i++) {
    const P = bounds[i]!, A = bounds[i - 1]!, B = bounds[i + 1]!;
    if (P[1] - P[0] > 3 || A[1] - A[0] < 2 || B[1] - B[0] < 2) continue;
    const smooth = agree(A, B);
    // (Three or four samples only on a smooth path: a piece that long may be a real stop.)
    if (P[1] - P[0] > 1 && !smooth) continue;
    let best: { cut: number; cost: number } | undefined;
    // cut = last sample given to A (P[0]−1: all to B … P[1]: all to A).
    for (let cut = P[0] - 1; cut <= P[1]; cut++) {
      if (!smooth && (!fitsWithin(A[0], cut) || !fitsWithin(cut + 1, B[1]))) continue;
      const cost = rangeSse(p, A[0], cut) + rangeSse(p, cut + 1, B[1]);
      if (!best || cost < best.cost) best = { cut, cost };
    }
    if (!best) continue;
    A[1] = best.cut;
    B[0] = best.cut + 1;
    bounds.splice(i, 1);
    i--;
  }
}

/**
 * Where two consecutive pieces meet: the t in [t1(before) − dt, t0(after)] that brings the two
 * fitted paths closest. A piece of one sample has no velocity and yields no kink.
 */
export function kinkBetween(a: Segment, b: Segment, frameDtS: number): Kink | undefined {
  // A piece of one sample has no velocity of its own: nothing to intersect.
  if (b.s1 - b.s0 < 1 || a.s1 - a.s0 < 1) return undefined;
  const lo = Math.max(a.t0, a.t1 - frameDtS * 0.999);
  const hi = b.t0;
  let bestT = lo, bestD = Infinity;
  const steps = 120;
  for (let k = 0; k <= steps; k++) {
    const t = lo + ((hi - lo) * k) / steps;
    const [ax, ay] = evalPos(a.fit, t), [bx, by] = evalPos(b.fit, t);
    const d = Math.hypot(ax - bx, ay - by);
    if (d < bestD) {
      bestD = d;
      bestT = t;
    }
  }
  // Refine by golden-section on a bracket around the best grid point.
  let l = Math.max(lo, bestT - (hi - lo) / steps), h = Math.min(hi, bestT + (hi - lo) / steps);
  const dist = (t: number) => {
    const [ax, ay] = evalPos(a.fit, t), [bx, by] = evalPos(b.fit, t);
    return Math.hypot(ax - bx, ay - by);
  };
  for (let it = 0; it < 40; it++) {
    const m1 = l + (h - l) * 0.382, m2 = l + (h - l) * 0.618;
    if (dist(m1) < dist(m2)) h = m2;
    else l = m1;
  }
  const t = (l + h) / 2;
  const [x, y] = evalPos(a.fit, t);
  return { t, tLo: a.t1, tHi: b.t0, x, y, vIn: a.still ? [0, 0] : evalVel(a.fit, t), vOut: evalVel(b.fit, t), before: a, after: b, gapMm: dist(t) };
}

/**
 * The start of a ball from rest, timed from the rest position and the samples after it: the ball
 * left the (precisely known) rest point at t_c with velocity v and constant deceleration a, so
 * p(t) = anchor + v·(t − t_c) + ½·a·(t − t_c)². A struck object ball slides first and slows hard
 * (μg ≈ 2 m/s²): a straight line back-extrapolated from its first frames would start it several
 * milliseconds early. t_c is scanned over the unseen interval; v and a are least squares per t_c.
 */
export function onsetFromRest(p: PathSamples, still: Segment, first: number, last: number): Kink | undefined {
  if (last - first + 1 < 2) return undefined;
  // The last samples of the rest piece may already be moving (a ball struck just before a frame
  // moves a millimetre or two, inside the noise): they take part as either at rest or moving.
  const k0 = Math.max(still.s0 + 2, still.s1 - 1);
  let ax = 0, ay = 0, na = 0;
  for (let k = still.s0; k < k0; k++) {
    ax += p.x[k]!;
    ay += p.y[k]!;
    na++;
  }
  if (na === 0) return undefined;
  ax /= na;
  ay /= na;
  const from = Math.min(k0, first);
  // The first "moving" sample may still be at rest (the piece boundary is only as good as the
  // noise): the start may fall up to one sample later.
  const lo = p.t[from - 1] ?? p.t[from]!, hi = p.t[Math.min(first + 1, last - 1)]!;
  const solve = (tc: number) => {
    // Normal equations for [v, a] (or [v]) per axis with τ = t − t_c, basis τ and ½τ², over the
    // samples after t_c; those before it count as at rest.
    let s11 = 0, s12 = 0, s22 = 0, bx1 = 0, bx2 = 0, by1 = 0, by2 = 0, nm = 0;
    let err = 0;
    for (let k = from; k <= last; k++) {
      const tau = p.t[k]! - tc;
      const dx = p.x[k]! - ax, dy = p.y[k]! - ay;
      if (tau <= 0) {
        err += dx * dx + dy * dy;
        continue;
      }
      const h = 0.5 * tau * tau;
      s11 += tau * tau; s12 += tau * h; s22 += h * h;
      bx1 += tau * dx; bx2 += h * dx; by1 += tau * dy; by2 += h * dy;
      nm++;
    }
    let vx = 0, vy = 0, axx = 0, ayy = 0;
    const det = s11 * s22 - s12 * s12;
    if (nm >= 4 && Math.abs(det) > 1e-18) {
      vx = (bx1 * s22 - s12 * bx2) / det; axx = (s11 * bx2 - s12 * bx1) / det;
      vy = (by1 * s22 - s12 * by2) / det; ayy = (s11 * by2 - s12 * by1) / det;
    } else if (s11 > 0) {
      vx = bx1 / s11; vy = by1 / s11;
    }
    for (let k = from; k <= last; k++) {
      const tau = p.t[k]! - tc;
      if (tau <= 0) continue;
      const h = 0.5 * tau * tau;
      err += (ax + vx * tau + axx * h - p.x[k]!) ** 2 + (ay + vy * tau + ayy * h - p.y[k]!) ** 2;
    }
    return { err, vx, vy };
  };
  let bestT = lo, best = solve(lo);
  const steps = 150;
  for (let k = 1; k <= steps; k++) {
    const tc = lo + ((hi - lo) * k) / steps;
    const r = solve(tc);
    if (r.err < best.err) {
      best = r;
      bestT = tc;
    }
  }
  let l = Math.max(lo, bestT - (hi - lo) / steps), h = Math.min(hi, bestT + (hi - lo) / steps);
  for (let it = 0; it < 40; it++) {
    const m1 = l + (h - l) * 0.382, m2 = l + (h - l) * 0.618;
    if (solve(m1).err < solve(m2).err) h = m2;
    else l = m1;
  }
  const tc = (l + h) / 2;
  const r = solve(tc);
  const n = last - from + 1;
  // The piece after: a fit over the same samples, for callers that look at the motion after.
  const after: Segment = { s0: first, s1: last, t0: p.t[first]!, t1: p.t[last]!, fit: fitPolyRange(p.t, p.x, p.y, first, last), still: false };
  const before: Segment = { ...still, fit: { t0: still.fit.t0, x: [ax, 0, 0], y: [ay, 0, 0] } };
  return { t: tc, tLo: lo, tHi: hi, x: ax, y: ay, vIn: [0, 0], vOut: [r.vx, r.vy], before, after, gapMm: Math.sqrt(r.err / n) };
}

/**
 * Samples used to time a start from rest: those within this of the first moving one (at least
 * four). A struck ball slides for ~0.1 s (2v/7μg) and then rolls: one constant deceleration holds
 * only over the slide.
 */
const ONSET_WINDOW_S = 0.4;
const ONSET_MIN_SAMPLES = 4;

export function kinksOf(segs: readonly Segment[], frameDtS: number, p?: PathSamples): Kink[] {
  const out: Kink[] = [];
  for (let k = 0; k + 1 < segs.length; k++) {
    const a = segs[k]!, b = segs[k + 1]!;
    if (p && a.still && !b.still) {
      // A one-sample piece right after the start (a hard-braking screw shot) continues smoothly
      // into the next piece: let the onset fit see both.
      const c = segs[k + 2];
      const last = b.s1 > b.s0 || !c || c.still ? b.s1 : c.s1;
      let end = b.s0;
      while (end < last && (p.t[end + 1]! - p.t[b.s0]! <= ONSET_WINDOW_S || end - b.s0 + 1 < ONSET_MIN_SAMPLES)) end++;
      // Three samples at least: with two, t_c and v trade off against each other freely.
      const onset = end - b.s0 + 1 >= 3 ? onsetFromRest(p, a, b.s0, end) : undefined;
      // Sanity: the fitted start must point where the ball went.
      const dx = p.x[end]! - a.fit.x[0], dy = p.y[end]! - a.fit.y[0];
      if (onset && onset.vOut[0] * dx + onset.vOut[1] * dy > 0) {
        onset.after = b.s1 > b.s0 ? b : onset.after;
        out.push(onset);
        continue;
      }
    }
    const kk = kinkBetween(a, b, frameDtS);
    if (kk) out.push(kk);
  }
  return out;
}

/** Position of the path at t from the piece that covers it (or the nearest piece, extrapolated). */
export function posAt(segs: readonly Segment[], t: number): [number, number] {
  let best = segs[0]!;
  let bestGap = Infinity;
  for (const s of segs) {
    const gap = t < s.t0 ? s.t0 - t : t > s.t1 ? t - s.t1 : 0;
    if (gap < bestGap) {
      bestGap = gap;
      best = s;
    }
  }
  return evalPos(best.fit, t);
}

/** The pieces whose span (widened by one frame) holds t: candidates for where the ball was. */
export function segmentsNear(segs: readonly Segment[], t: number, frameDtS: number): Segment[] {
  return segs.filter((s) => t >= s.t0 - frameDtS * 1.01 && t <= s.t1 + frameDtS * 1.01);
}
