/**
 * Turning a scenario's aim into a strike direction, on table coordinates.
 *  - ball + pocket: the ghost-ball aim (the cue ball's centre at contact sits 2R behind the object
 *    ball on the line from the pocket's mouth through it). Throw is not compensated: `adjustDeg`
 *    rotates the aim when a pot needs it (the stroke finder does this search).
 *  - ball + cutDeg: the cut angle θ between the cue ball's path and the object ball's departure;
 *    positive sends the object ball to the right of the cue ball's path (seen from the cue ball).
 *    The aim line passes 2R·sin θ from the object ball's centre (0 = full ball, 30 = half ball).
 *  - directionDeg: degrees from +x (across) towards +y (up the table).
 *  - towards: a point on the table.
 */
import { InputError } from '../../core/errors.js';
import type { TableProfile } from '../../core/table.js';
import type { Aim } from './schema.js';

export interface Pos {
  id: string;
  x: number;
  y: number;
}

/** The pocket's mouth midpoint (the point a pot aims through). */
export function pocketTarget(table: TableProfile, pocket: string): { x: number; y: number } {
  const pk = table.pockets[pocket as keyof TableProfile['pockets']];
  if (!pk) throw new InputError({ code: 'UNKNOWN_POCKET', message: `the table '${table.name}' has no pocket ${pocket}; it has ${Object.keys(table.pockets).join(', ')}` });
  const W = table.bed.width, L = table.bed.length;
  // Aim a little inside the mouth (a quarter of the mouth past the corner nose line).
  const inX = pk.x <= 0 ? 1 : pk.x >= W ? -1 : 0;
  const inY = pk.y <= 0 ? 1 : pk.y >= L ? -1 : 0;
  if (inX !== 0 && inY !== 0) {
    const a = pk.mouth * Math.SQRT1_2;
    return { x: pk.x + (inX * a) / 2 - inX * 10, y: pk.y + (inY * a) / 2 - inY * 10 };
  }
  return { x: pk.x, y: pk.y };
}

export function aimAngleRad(aim: Aim, cue: Pos, balls: readonly Pos[], table: TableProfile, cueRadiusMm: number, objRadiusMm: number, where = 'aim'): number {
  if ('directionDeg' in aim) return (aim.directionDeg * Math.PI) / 180;
  if ('towards' in aim) {
    if (Math.hypot(aim.towards.x - cue.x, aim.towards.y - cue.y) < 1e-6) throw new InputError({ code: 'BAD_AIM', field: where, message: 'aim.towards is the cue ball\'s own position' });
    return Math.atan2(aim.towards.y - cue.y, aim.towards.x - cue.x);
  }
  const obj = balls.find((b) => b.id === aim.ball);
  if (!obj) throw new InputError({ code: 'BAD_AIM', field: `${where}.ball`, message: `aim ball '${aim.ball}' is not on the table at this stroke (on: ${balls.map((b) => b.id).join(', ')})` });
  if (obj.id === cue.id) throw new InputError({ code: 'BAD_AIM', field: `${where}.ball`, message: 'the aim ball is the striking ball itself' });
  const D = cueRadiusMm + objRadiusMm;
  if ('pocket' in aim) {
    const t = pocketTarget(table, aim.pocket);
    const ux = t.x - obj.x, uy = t.y - obj.y;
    const l = Math.hypot(ux, uy);
    const gx = obj.x - (ux / l) * D, gy = obj.y - (uy / l) * D;
    return Math.atan2(gy - cue.y, gx - cue.x) + ((aim.adjustDeg ?? 0) * Math.PI) / 180;
  }
  return cutAngleAim(cue, obj, D, aim.cutDeg);
}

export function cutAngleAim(cue: { x: number; y: number }, obj: { x: number; y: number }, D: number, cutDeg: number): number {
  const psi = Math.atan2(obj.y - cue.y, obj.x - cue.x);
  const d = Math.hypot(obj.x - cue.x, obj.y - cue.y);
  const b = D * Math.sin((cutDeg * Math.PI) / 180);
  if (Math.abs(b) > d) throw new InputError({ code: 'BAD_AIM', message: `a ${cutDeg}° cut is impossible from ${d.toFixed(0)} mm` });
  // Positive cut: the object ball lies to the right of the aim line, so the aim turns left (CCW).
  return psi + Math.asin(b / d);
}

/** Cut angle (deg) that pots `obj` into `pocket` from `cue` (ghost-ball geometry), for the finder. */
export function potCutDeg(cue: Pos, obj: Pos, table: TableProfile, pocket: string, D: number): number {
  const t = pocketTarget(table, pocket);
  const ux = t.x - obj.x, uy = t.y - obj.y;
  const l = Math.hypot(ux, uy);
  const gx = obj.x - (ux / l) * D, gy = obj.y - (uy / l) * D;
  const aim = Math.atan2(gy - cue.y, gx - cue.x);
  const psi = Math.atan2(obj.y - cue.y, obj.x - cue.x);
  const d = Math.hypot(obj.x - cue.x, obj.y - cue.y);
  let da = aim - psi;
  while (da > Math.PI) da -= 2 * Math.PI;
  while (da < -Math.PI) da += 2 * Math.PI;
  const s = (Math.sin(da) * d) / D;
  return (Math.asin(Math.max(-1, Math.min(1, s))) * 180) / Math.PI;
}
