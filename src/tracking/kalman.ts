/**
 * Constant-velocity Kalman filter as pure maths over a documented state (ByteTrack's
 * kalman_filter.py, norfair's filter): state s = [x, y, vx, vy] (table mm, mm/s), covariance P
 * (4×4, row-major Float64Array). Time steps come from the frames' timestamps, so a dropped frame
 * or a variable frame rate only lengthens dt. Process noise is white acceleration with spectral
 * density q (mm/s²): raising it follows sharper changes of speed (friction, soft impacts) and costs
 * smoothing; measurements are positions with standard deviation r (mm).
 */

export interface KalmanState {
  /** [x, y, vx, vy]. */
  s: Float64Array;
  /** 4×4 covariance, row-major. */
  P: Float64Array;
}

export function initState(x: number, y: number, posSigmaMm: number, velSigmaMmPerS: number, vx = 0, vy = 0): KalmanState {
  const P = new Float64Array(16);
  P[0] = P[5] = posSigmaMm ** 2;
  P[10] = P[15] = velSigmaMmPerS ** 2;
  return { s: Float64Array.of(x, y, vx, vy), P };
}

/** Predict dt seconds ahead: s ← F s, P ← F P Fᵀ + Q, with F = [[I, dt·I], [0, I]]. */
export function predict(k: KalmanState, dt: number, qMmPerS2: number): KalmanState {
  const [x, y, vx, vy] = k.s as unknown as [number, number, number, number];
  const s = Float64Array.of(x + vx * dt, y + vy * dt, vx, vy);
  const P = k.P;
  // F P Fᵀ, written out per axis block (x with vx, y with vy) plus the cross terms.
  const FP = new Float64Array(16);
  for (let c = 0; c < 4; c++) {
    FP[c] = P[c]! + dt * P[8 + c]!;
    FP[4 + c] = P[4 + c]! + dt * P[12 + c]!;
    FP[8 + c] = P[8 + c]!;
    FP[12 + c] = P[12 + c]!;
  }
  const out = new Float64Array(16);
  for (let r = 0; r < 4; r++) {
    out[r * 4 + 0] = FP[r * 4 + 0]! + dt * FP[r * 4 + 2]!;
    out[r * 4 + 1] = FP[r * 4 + 1]! + dt * FP[r * 4 + 3]!;
    out[r * 4 + 2] = FP[r * 4 + 2]!;
    out[r * 4 + 3] = FP[r * 4 + 3]!;
  }
  const q = qMmPerS2 ** 2;
  const a = (q * dt ** 4) / 4, b = (q * dt ** 3) / 2, c = q * dt * dt;
  out[0]! += a; out[5]! += a;
  out[2]! += b; out[8]! += b; out[7]! += b; out[13]! += b;
  out[10]! += c; out[15]! += c;
  return { s, P: out };
}

/** Innovation ν = z − H s and its covariance S = H P Hᵀ + R (2×2), H picking the position. */
export function innovation(k: KalmanState, zx: number, zy: number, rMm: number): { nx: number; ny: number; S: [number, number, number] } {
  const r = rMm * rMm;
  return { nx: zx - k.s[0]!, ny: zy - k.s[1]!, S: [k.P[0]! + r, k.P[1]!, k.P[5]! + r] };
}

/** Squared Mahalanobis distance of a measurement from the prediction (χ² with 2 dof). */
export function mahalanobis2(k: KalmanState, zx: number, zy: number, rMm: number): number {
  const { nx, ny, S } = innovation(k, zx, zy, rMm);
  const det = S[0] * S[2] - S[1] * S[1];
  return (S[2] * nx * nx - 2 * S[1] * nx * ny + S[0] * ny * ny) / det;
}

/** Measurement update with a position z (Joseph-free standard form; P stays symmetric enough at 4×4). */
export function update(k: KalmanState, zx: number, zy: number, rMm: number): KalmanState {
  const { nx, ny, S } = innovation(k, zx, zy, rMm);
  const det = S[0] * S[2] - S[1] * S[1];
  const i00 = S[2] / det, i01 = -S[1] / det, i11 = S[0] / det;
  const P = k.P;
  // K = P Hᵀ S⁻¹ (4×2): P Hᵀ is P's first two columns.
  const K = new Float64Array(8);
  for (let r = 0; r < 4; r++) {
    const p0 = P[r * 4 + 0]!, p1 = P[r * 4 + 1]!;
    K[r * 2] = p0 * i00 + p1 * i01;
    K[r * 2 + 1] = p0 * i01 + p1 * i11;
  }
  const s = new Float64Array(4);
  for (let r = 0; r < 4; r++) s[r] = k.s[r]! + K[r * 2]! * nx + K[r * 2 + 1]! * ny;
  // P ← (I − K H) P
  const out = new Float64Array(16);
  for (let r = 0; r < 4; r++) {
    for (let c = 0; c < 4; c++) out[r * 4 + c] = P[r * 4 + c]! - K[r * 2]! * P[c]! - K[r * 2 + 1]! * P[4 + c]!;
  }
  return { s, P: out };
}

export const speedOf = (k: KalmanState): number => Math.hypot(k.s[2]!, k.s[3]!);
