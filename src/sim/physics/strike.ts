/**
 * The cue's impulse on the cue ball, and ball construction.
 *
 * A level cue striking a sphere at a tip offset (b above the centre, s to the right) with the ball
 * leaving at speed v gives ω = 5·v·offset/(2R²) about the matching axis (linear and angular
 * momentum of the impulse through the tip point). The offsets are given as fractions of the
 * largest safe offset, R/2 (beyond it the tip miscues); natural roll is top = 0.8 (b = 2R/5).
 * Squirt (the cue ball leaving off the cue line, away from the side used) is a fixed angle per
 * unit of side; swerve (the curve from side on a raised cue) is not modelled.
 */
import type { BallState } from './ball.js';

export interface StrikeSpec {
  /** Direction of travel, radians from +x (across the table) towards +y (up the table). */
  angleRad: number;
  speedMmPerS: number;
  /** Vertical tip offset, −1 (full screw) … 1 (full top), as a fraction of R/2. */
  top?: number;
  /** Horizontal tip offset, −1 (full left) … 1 (full right), as a fraction of R/2. */
  side?: number;
}

export const MAX_TIP_OFFSET_OF_R = 0.5;

export function makeBall(id: string, x: number, y: number, radiusMm: number, massG: number): BallState {
  return { id, radiusMm, massG, x, y, vx: 0, vy: 0, wx: 0, wy: 0, wz: 0, q: [1, 0, 0, 0], where: 'bed' };
}

export function strikeBall(b: BallState, s: StrikeSpec, discs: boolean, squirtDegAtFullSide = 0): void {
  // Right side (side > 0) pushes the ball to the left of the cue line (counter-clockwise).
  const squirtRad = discs ? 0 : ((s.side ?? 0) * squirtDegAtFullSide * Math.PI) / 180;
  const dx = Math.cos(s.angleRad + squirtRad), dy = Math.sin(s.angleRad + squirtRad);
  const v = s.speedMmPerS;
  b.vx = v * dx;
  b.vy = v * dy;
  if (discs) {
    b.wx = b.wy = b.wz = 0;
    return;
  }
  const R = b.radiusMm;
  const k = (5 * v) / (2 * R * R);
  const top = (s.top ?? 0) * MAX_TIP_OFFSET_OF_R * R;
  const side = (s.side ?? 0) * MAX_TIP_OFFSET_OF_R * R;
  // Topspin turns about ẑ × d (the rolling axis); right side spins the ball clockwise seen from above.
  b.wx = -k * top * dy;
  b.wy = k * top * dx;
  b.wz = -k * side;
}
