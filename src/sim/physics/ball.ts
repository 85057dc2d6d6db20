/**
 * One ball's (or disc's) dynamic state and its motion between events.
 *
 * Between events every ball is in one phase with a constant acceleration, so its motion is an
 * exact parabola in time and the step to the next phase change is known in closed form:
 *  - sliding: the contact point with the cloth slips at u = v + ω × (−R ẑ); friction μs·m·g acts
 *    against u, and u shrinks along a fixed direction at (7/2)·μs·g until it is zero (Coriolis-free
 *    textbook result for a uniform sphere, I = 2/5 m R²);
 *  - rolling: u = 0, the ball decelerates at μr·g along v, ω stays locked to v;
 *  - spinning about the vertical (side) decays at 5·μsp·g/(2R) independently;
 *  - discs (Novus) only slide, at μs·g against v, and carry no spin.
 */
import type { PhysicsParams } from './params.js';

export type Placement = 'bed' | 'pocketed' | 'offTable';

export interface BallState {
  id: string;
  radiusMm: number;
  massG: number;
  x: number;
  y: number;
  vx: number;
  vy: number;
  /** Angular velocity, rad/s (x, y: roll/stun/screw; z: side). */
  wx: number;
  wy: number;
  wz: number;
  /** Orientation of the ball (for the renderer's numbers), unit quaternion [w, x, y, z]. */
  q: [number, number, number, number];
  where: Placement;
}

/** Below these the motion counts as stopped (mm/s, rad/s): far under any camera's resolution. */
export const EPS_V = 1e-3;
export const EPS_W = 1e-3;

export interface Accel {
  ax: number;
  ay: number;
  dwx: number;
  dwy: number;
  dwz: number;
  /** Time until this phase ends (slide→roll, roll→stop, spin→0), s; Infinity when at rest. */
  phaseEndS: number;
}

export function slip(b: BallState): [number, number] {
  return [b.vx - b.radiusMm * b.wy, b.vy + b.radiusMm * b.wx];
}

export function isMoving(b: BallState): boolean {
  if (b.where !== 'bed') return false;
  const v2 = b.vx * b.vx + b.vy * b.vy;
  const w2 = (b.wx * b.wx + b.wy * b.wy) * b.radiusMm * b.radiusMm;
  return v2 > EPS_V * EPS_V || Math.abs(b.wz) > EPS_W || w2 > EPS_V * EPS_V;
}

export function accelOf(b: BallState, p: PhysicsParams): Accel {
  const g = p.gMmPerS2;
  const R = b.radiusMm;
  const out: Accel = { ax: 0, ay: 0, dwx: 0, dwy: 0, dwz: 0, phaseEndS: Infinity };
  if (b.where !== 'bed') return out;
  const speed = Math.sqrt(b.vx * b.vx + b.vy * b.vy);
  if (p.discs) {
    if (speed > EPS_V) {
      const k = p.muSlide * g;
      out.ax = (-k * b.vx) / speed;
      out.ay = (-k * b.vy) / speed;
      out.phaseEndS = speed / k;
    }
    return out;
  }
  const ux = b.vx - R * b.wy, uy = b.vy + R * b.wx;
  const uMag = Math.sqrt(ux * ux + uy * uy);
  if (uMag > EPS_V) {
    const k = p.muSlide * g;
    out.ax = (-k * ux) / uMag;
    out.ay = (-k * uy) / uMag;
    out.dwx = ((-5 * k) / (2 * R)) * (uy / uMag);
    out.dwy = ((5 * k) / (2 * R)) * (ux / uMag);
    out.phaseEndS = uMag / (3.5 * k);
  } else if (speed > EPS_V) {
    const k = p.muRoll * g;
    out.ax = (-k * b.vx) / speed;
    out.ay = (-k * b.vy) / speed;
    // ω stays locked to v: ωx = −vy/R, ωy = vx/R.
    out.dwx = -out.ay / R;
    out.dwy = out.ax / R;
    out.phaseEndS = speed / k;
  }
  if (Math.abs(b.wz) > EPS_W && p.muSpin > 0) {
    const k = (5 * p.muSpin * g) / (2 * R);
    out.dwz = -Math.sign(b.wz) * k;
    out.phaseEndS = Math.min(out.phaseEndS, Math.abs(b.wz) / k);
  }
  return out;
}

/** Advance one ball by `s` seconds under constant acceleration `a` (exact within a phase). */
export function advance(b: BallState, a: Accel, s: number): void {
  if (b.where !== 'bed' || s <= 0) return;
  const wx0 = b.wx, wy0 = b.wy, wz0 = b.wz;
  b.x += b.vx * s + 0.5 * a.ax * s * s;
  b.y += b.vy * s + 0.5 * a.ay * s * s;
  b.vx += a.ax * s;
  b.vy += a.ay * s;
  b.wx += a.dwx * s;
  b.wy += a.dwy * s;
  b.wz += a.dwz * s;
  rotate(b, (wx0 + b.wx) / 2, (wy0 + b.wy) / 2, (wz0 + b.wz) / 2, s);
}

/** Snap tiny residuals at a phase end so phases are clean (no ping-pong of slip sign). */
export function settle(b: BallState, p: PhysicsParams): void {
  if (b.where !== 'bed') return;
  if (p.discs) {
    if (Math.hypot(b.vx, b.vy) <= EPS_V) b.vx = b.vy = 0;
    b.wx = b.wy = b.wz = 0;
    return;
  }
  const [ux, uy] = slip(b);
  if (Math.hypot(ux, uy) <= EPS_V * 10) {
    // Rolling: lock ω to v exactly.
    b.wx = -b.vy / b.radiusMm;
    b.wy = b.vx / b.radiusMm;
  }
  if (Math.hypot(b.vx, b.vy) <= EPS_V && Math.hypot(ux, uy) <= EPS_V * 10) {
    b.vx = b.vy = 0;
    b.wx = b.wy = 0;
  }
  if (Math.abs(b.wz) <= EPS_W) b.wz = 0;
}

function rotate(b: BallState, wx: number, wy: number, wz: number, s: number): void {
  const w = Math.sqrt(wx * wx + wy * wy + wz * wz);
  if (w * s < 1e-12) return;
  const half = (w * s) / 2;
  const k = Math.sin(half) / w;
  const aw = Math.cos(half), ax = wx * k, ay = wy * k, az = wz * k;
  const q = b.q;
  const bw = q[0], bx = q[1], by = q[2], bz = q[3];
  const qw = aw * bw - ax * bx - ay * by - az * bz;
  const qx = aw * bx + ax * bw + ay * bz - az * by;
  const qy = aw * by - ax * bz + ay * bw + az * bx;
  const qz = aw * bz + ax * by - ay * bx + az * bw;
  const n = Math.sqrt(qw * qw + qx * qx + qy * qy + qz * qz);
  q[0] = qw / n;
  q[1] = qx / n;
  q[2] = qy / n;
  q[3] = qz / n;
}

/** Kinetic energy, translational plus rotational, in g·mm²/s² (µJ ×10⁻³; only ratios matter). */
export function kineticEnergy(b: BallState, p: PhysicsParams): number {
  if (b.where !== 'bed') return 0;
  const m = b.massG;
  const lin = 0.5 * m * (b.vx * b.vx + b.vy * b.vy);
  if (p.discs) return lin;
  const I = 0.4 * m * b.radiusMm * b.radiusMm;
  return lin + 0.5 * I * (b.wx * b.wx + b.wy * b.wy + b.wz * b.wz);
}
