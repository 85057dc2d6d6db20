/**
 * Which end of the table is which, when the user says so (`--head SIDE`). A snooker table's baulk
 * end is read from its markings (the baulk line and the D); a pool table's markings are the same
 * at both ends (spots at a quarter and three quarters, symmetric diamonds) and a Novus board is
 * square, so the solver can only assume one end (solve.ts: the far end of a perspective view, the
 * left end from above) — half the time the wrong one, and then every pocket, cushion side and the
 * head string are named for the other end (a called pocket judged against the wrong corner). The
 * person who mounted the camera knows which side of the picture the head (pool's breaking end;
 * snooker's baulk end) is on: one flag, once per camera.
 */
import { applyH, inv3, type Mat3 } from '../core/mat3.js';
import type { Calibration } from './contract.js';

export const IMAGE_SIDES = ['left', 'right', 'top', 'bottom'] as const;
export type ImageSide = (typeof IMAGE_SIDES)[number];

/**
 * The table turned about its centre by `quarter` quarter turns, as a map of table mm (quarter 2:
 * (x, y) → (W − x, L − y), the same bed seen from its other end; 1 and 3 only on a square bed).
 */
function turnMatrix(quarter: number, W: number, L: number): Mat3 {
  const q = ((quarter % 4) + 4) % 4;
  if (q === 0) return [[1, 0, 0], [0, 1, 0], [0, 0, 1]];
  if (q === 2) return [[-1, 0, W], [0, -1, L], [0, 0, 1]];
  return q === 1 ? [[0, -1, L], [1, 0, 0], [0, 0, 1]] : [[0, 1, 0], [-1, 0, W], [0, 0, 1]];
}

function mul(a: Mat3, b: Mat3): Mat3 {
  const r: number[][] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[i]![j]! += a[i]![k]! * b[k]![j]!;
  return r as Mat3;
}

/** The picture's pixels of the head end's centre (y = 0) and the foot end's (y = L). */
function endCentres(cal: Pick<Calibration, 'imageToTable' | 'table'>): { head: [number, number]; foot: [number, number] } {
  const toImage = inv3(cal.imageToTable);
  const W = cal.table.bed.width, L = cal.table.bed.length;
  return { head: applyH(toImage, W / 2, 0), foot: applyH(toImage, W / 2, L) };
}

/** Where the head end (y = 0) shows in the picture relative to the foot end (y = L): the side it is nearer. */
export function headSideOf(cal: Pick<Calibration, 'imageToTable' | 'table'>): ImageSide {
  const { head, foot } = endCentres(cal);
  const du = head[0] - foot[0], dv = head[1] - foot[1];
  return Math.abs(du) >= Math.abs(dv) ? (du < 0 ? 'left' : 'right') : dv < 0 ? 'top' : 'bottom';
}

/** How far towards `side` the head end's centre lies beyond the foot end's, pixels. */
function towards(cal: Pick<Calibration, 'imageToTable' | 'table'>, side: ImageSide): number {
  const { head: [hu, hv], foot: [fu, fv] } = endCentres(cal);
  return side === 'left' ? fu - hu : side === 'right' ? hu - fu : side === 'top' ? fv - hv : hv - fv;
}

/**
 * The calibration with its head end towards `side` of the picture (its centre further that way
 * than the foot end's — any view, across the picture or along it): as it is, or turned end for
 * end (both homographies, the outline's corner order, the camera's place). A square bed (Novus)
 * has no long axis to hold on to, so the solver's y axis may run across the head end: there a
 * quarter turn is tried too, and the turn that puts the head end furthest that way wins. `end`
 * becomes `given`. `turned` says whether it had to be; `overrode` whether that went against the
 * markings (`end: found`), which the caller reports.
 */
export function orientCalibration(cal: Calibration, side: ImageSide): { calibration: Calibration; turned: boolean; overrode: boolean } {
  const W = cal.table.bed.width, L = cal.table.bed.length;
  const square = Math.abs(W - L) < 1e-6;
  const turnedBy = (q: number): Calibration => {
    if (q === 0) return { ...cal, end: 'given' };
    const T = turnMatrix(q, W, L);
    const c = cal.cornersPx;
    const cam = cal.camera?.centreMm;
    const camAt = cam ? applyH(T, cam[0], cam[1]) : undefined;
    return {
      ...cal,
      imageToTable: mul(T, cal.imageToTable),
      ballCentreToTable: mul(T, cal.ballCentreToTable),
      end: 'given',
      // BL, BR, TR, TL: the turned table's corner k is where its corner k − q was (end for end,
      // q = 2: the new BL is the old TR).
      ...(c ? { cornersPx: [0, 1, 2, 3].map((k) => c[(k + 4 - q) % 4]!) } : {}),
      ...(cal.camera && camAt ? { camera: { ...cal.camera, centreMm: [camAt[0], camAt[1], cam![2]] as [number, number, number] } } : {}),
    };
  };
  const options = (square ? [0, 1, 2, 3] : [0, 2]).map((q) => ({ q, c: turnedBy(q) }));
  // The turn that puts the head furthest that way; ties go to no turn.
  const best = options.reduce((a, b) => (towards(b.c, side) > towards(a.c, side) + 1e-9 ? b : a));
  return { calibration: best.c, turned: best.q !== 0, overrode: best.q !== 0 && cal.end === 'found' };
}
