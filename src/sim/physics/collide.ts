/**
 * Impulse responses at a contact: ball–ball and ball–cushion. Both are instantaneous impulses in
 * 3-D at the contact point (normal restitution plus Coulomb friction capped at the impulse that
 * stops the slip there), keeping only the in-plane part of the linear velocity (the cloth takes
 * the vertical). Capping the friction at "slip stops" makes every contact dissipative, so the
 * energy of the table never rises.
 *
 * Friction at a ball–ball contact is what throws the object ball off the line of centres (cut-
 * and spin-induced throw); at the cushion it is what makes side spin bend the rebound.
 */
import type { BallState } from './ball.js';
import type { PhysicsParams } from './params.js';

/** Approach speed below which a contact is treated as resting (no restitution), mm/s. */
export const RESTING_CONTACT_MM_PER_S = 10;

type V3 = [number, number, number];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];

/** Velocity of the ball's surface point at offset r from its centre. */
function surfaceVel(b: BallState, r: V3): V3 {
  const w: V3 = [b.wx, b.wy, b.wz];
  const wr = cross(w, r);
  return [b.vx + wr[0], b.vy + wr[1], wr[2]];
}

function applyImpulse(b: BallState, P: V3, r: V3, discs: boolean): void {
  b.vx += P[0] / b.massG;
  b.vy += P[1] / b.massG;
  if (discs) return;
  const I = 0.4 * b.massG * b.radiusMm * b.radiusMm;
  const t = cross(r, P);
  b.wx += t[0] / I;
  b.wy += t[1] / I;
  b.wz += t[2] / I;
}

/**
 * Resolve a collision between two touching balls. Returns the normal impulse (0 if separating)
 * and whether it was a resting (plastic) contact.
 */
export function collideBalls(a: BallState, b: BallState, p: PhysicsParams): { impulse: number; plastic: boolean } {
  let nx = b.x - a.x, ny = b.y - a.y;
  const d = Math.hypot(nx, ny);
  if (d < 1e-12) return { impulse: 0, plastic: false };
  nx /= d;
  ny /= d;
  const rA: V3 = [a.radiusMm * nx, a.radiusMm * ny, 0];
  const rB: V3 = [-b.radiusMm * nx, -b.radiusMm * ny, 0];
  const va = surfaceVel(a, rA), vb = surfaceVel(b, rB);
  const rel: V3 = [va[0] - vb[0], va[1] - vb[1], va[2] - vb[2]];
  const vn = rel[0] * nx + rel[1] * ny;
  if (vn <= 0) return { impulse: 0, plastic: false };
  // Below RESTING_CONTACT_MM_PER_S the balls are pressing rather than striking: a plastic contact
  // (no bounce) stops them chattering thousands of times as one pushes the other.
  const e = vn < RESTING_CONTACT_MM_PER_S ? 0 : p.eBall;
  const Jn = ((1 + e) * vn) / (1 / a.massG + 1 / b.massG);
  // Friction from the slip before the impulse (Coulomb, capped at sticking).
  const vt: V3 = [rel[0] - vn * nx, rel[1] - vn * ny, rel[2]];
  const vtMag = Math.hypot(vt[0], vt[1], vt[2]);
  applyImpulse(a, [-Jn * nx, -Jn * ny, 0], rA, p.discs);
  applyImpulse(b, [Jn * nx, Jn * ny, 0], rB, p.discs);
  if (p.muBall > 0 && vtMag > 1e-9) {
    const c = p.discs ? 1 : 3.5;
    const kt = c / a.massG + c / b.massG;
    const Jt = Math.min(p.muBall * Jn, vtMag / kt);
    const t: V3 = [vt[0] / vtMag, vt[1] / vtMag, vt[2] / vtMag];
    applyImpulse(a, [-Jt * t[0], -Jt * t[1], -Jt * t[2]], rA, p.discs);
    applyImpulse(b, [Jt * t[0], Jt * t[1], Jt * t[2]], rB, p.discs);
  }
  return { impulse: Jn, plastic: e === 0 };
}

/**
 * Resolve a ball hitting a fixed edge whose outward normal (into the table) at the contact is
 * (nx, ny). Returns the normal impulse (0 if the ball is moving away).
 */
export function collideCushion(b: BallState, nx: number, ny: number, p: PhysicsParams): number {
  const r: V3 = [-b.radiusMm * nx, -b.radiusMm * ny, 0];
  const v = surfaceVel(b, r);
  const vn = v[0] * nx + v[1] * ny;
  if (vn >= 0) return 0;
  const e = -vn < RESTING_CONTACT_MM_PER_S ? 0 : p.eCushion;
  const Jn = -(1 + e) * b.massG * vn;
  const vt: V3 = [v[0] - vn * nx, v[1] - vn * ny, v[2]];
  const vtMag = Math.hypot(vt[0], vt[1], vt[2]);
  applyImpulse(b, [Jn * nx, Jn * ny, 0], r, p.discs);
  if (p.muCushion > 0 && vtMag > 1e-9) {
    const c = p.discs ? 1 : 3.5;
    const Jt = Math.min(p.muCushion * Jn, (vtMag * b.massG) / c);
    applyImpulse(b, [(-Jt * vt[0]) / vtMag, (-Jt * vt[1]) / vtMag, (-Jt * vt[2]) / vtMag], r, p.discs);
  }
  return Jn;
}
