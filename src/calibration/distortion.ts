/**
 * Radial lens distortion from straight lines: the cushion noses are straight on the table, so the
 * one-parameter radial model that makes the traced edge points straightest is the lens's (the
 * "plumb-line" method). Same model as OpenCV's and the simulator's: r_d = r (1 + k1 r² + k2 r⁴) on
 * coordinates normalised by the focal length around the image centre.
 */
import { distortPixel, undistortPixel, type RadialLens } from '../core/lens.js';
import { fitLineTls, lineDistance, type Pt } from './geometry.js';

export interface RadialDistortion extends RadialLens {
  model: 'radial';
}

/** Distorted pixel → ideal (undistorted) pixel (the shared lens model, src/core/lens.ts). */
export function undistortPoint(d: RadialDistortion, u: number, v: number): Pt {
  return undistortPixel(d, u, v);
}

/** Ideal pixel → distorted pixel (the forward lens model). */
export function distortPoint(d: RadialDistortion, u: number, v: number): Pt {
  return distortPixel(d, u, v);
}

/** Robust straightness cost: mean squared distance to each side's TLS line, residuals capped at `capPx`. */
function straightness(sides: ReadonlyArray<ReadonlyArray<Pt>>, d: RadialDistortion | null, capPx: number): number {
  let sum = 0, n = 0;
  for (const pts of sides) {
    if (pts.length < 10) continue;
    const u = d ? pts.map((p) => undistortPoint(d, p[0], p[1])) : [...pts];
    let line = fitLineTls(u)!;
    // Two trimmed refits so that a ball on the cushion does not decide the curvature.
    for (let pass = 0; pass < 2; pass++) {
      const res = u.map((p) => Math.abs(lineDistance(line, p[0], p[1])));
      const sorted = [...res].sort((a, b) => a - b);
      const cut = Math.max(capPx / 4, sorted[Math.floor(sorted.length * 0.8)]!);
      line = fitLineTls(u.filter((_, i) => res[i]! <= cut)) ?? line;
    }
    for (const p of u) {
      const r = Math.min(capPx, Math.abs(lineDistance(line, p[0], p[1])));
      sum += r * r;
      n++;
    }
  }
  return n ? sum / n : Infinity;
}

export interface DistortionFit {
  distortion: RadialDistortion | null;
  /** RMS straightness (px) before and after. */
  rmsBeforePx: number;
  rmsAfterPx: number;
}

/**
 * Fit k1 (k2 = 0) by golden-section search on the straightness of the given edge point sets.
 * The lens is reported only when it explains the curvature: the edges must bend by more than
 * `minRmsPx` and straighten by at least 40 % with k1 inside the range real lenses have (not at
 * its edge), otherwise the frame is treated as distortion-free (a fit to noise would bend good
 * lines).
 */
export function fitRadialDistortion(
  sides: ReadonlyArray<ReadonlyArray<Pt>>,
  image: { width: number; height: number; focalPx: number },
  minRmsPx = 0.3,
): DistortionFit {
  const base = { model: 'radial' as const, fx: image.focalPx, fy: image.focalPx, cx: image.width / 2, cy: image.height / 2, k2: 0 };
  const cap = Math.max(4, 0.01 * image.width);
  const cost = (k1: number) => straightness(sides, { ...base, k1 }, cap);
  const before = Math.sqrt(straightness(sides, null, cap));
  // Barrel down to a wide overhead webcam's; pincushion only as much as a long zoom lens has.
  const K1_MIN = -0.6, K1_MAX = 0.15;
  let lo = K1_MIN, hi = K1_MAX;
  const g = (Math.sqrt(5) - 1) / 2;
  let c = hi - g * (hi - lo), d = lo + g * (hi - lo);
  let fc = cost(c), fd = cost(d);
  for (let i = 0; i < 40; i++) {
    if (fc < fd) {
      hi = d;
      d = c;
      fd = fc;
      c = hi - g * (hi - lo);
      fc = cost(c);
    } else {
      lo = c;
      c = d;
      fc = fd;
      d = lo + g * (hi - lo);
      fd = cost(d);
    }
  }
  const k1 = (lo + hi) / 2;
  const after = Math.sqrt(cost(k1));
  // An optimum at the edge of the range is no lens: the edges bend for another reason (a
  // cushion's profile, edge points off the line), and "correcting" it would bend every position
  // (a broadcast clip fitted k1 = +0.36 with the range open to +0.4: 20 % at the corners).
  const atBound = k1 > K1_MAX - 0.01 || k1 < K1_MIN + 0.01;
  if (before < minRmsPx || after > 0.6 * before || atBound) return { distortion: null, rmsBeforePx: before, rmsAfterPx: before };
  return { distortion: { ...base, k1 }, rmsBeforePx: before, rmsAfterPx: after };
}
