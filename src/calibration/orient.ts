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

/** Table mm (x, y) → (W − x, L − y): the same bed seen from its other end. */
function turned(m: Mat3, W: number, L: number): Mat3 {
  const F: Mat3 = [[-1, 0, W], [0, -1, L], [0, 0, 1]];
  const r: number[][] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) for (let j = 0; j < 3; j++) for (let k = 0; k < 3; k++) r[i]![j]! += F[i]![k]! * m[k]![j]!;
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

/**
 * The calibration with its head end towards `side` of the picture (its centre further that way
 * than the foot end's — any view, across the picture or along it): as it is, or turned end for
 * end (both homographies, the outline's corner order, the camera's place). `end` becomes `given`.
 * `turned` says whether it had to be; `overrode` whether that went against the markings (`end:
 * found`), which the caller reports.
 */
export function orientCalibration(cal: Calibration, side: ImageSide): { calibration: Calibration; turned: boolean; overrode: boolean } {
  const W = cal.table.bed.width, L = cal.table.bed.length;
  const { head: [hu, hv], foot: [fu, fv] } = endCentres(cal);
  const ok = side === 'left' ? hu <= fu : side === 'right' ? hu >= fu : side === 'top' ? hv <= fv : hv >= fv;
  if (ok) return { calibration: { ...cal, end: 'given' }, turned: false, overrode: false };
  const c = cal.cornersPx;
  const calibration: Calibration = {
    ...cal,
    imageToTable: turned(cal.imageToTable, W, L),
    ballCentreToTable: turned(cal.ballCentreToTable, W, L),
    end: 'given',
    // BL, BR, TR, TL: the turned table's BL is where its TR was, and so on.
    ...(c ? { cornersPx: [c[2]!, c[3]!, c[0]!, c[1]!] } : {}),
    ...(cal.camera ? { camera: { ...cal.camera, centreMm: [W - cal.camera.centreMm[0], L - cal.camera.centreMm[1], cal.camera.centreMm[2]] as [number, number, number] } } : {}),
  };
  return { calibration, turned: true, overrode: cal.end === 'found' };
}
