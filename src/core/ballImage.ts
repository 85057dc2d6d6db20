/**
 * How large a ball looks in a calibrated image at a place on the bed. A sphere's outline stays
 * close to a circle even where the bed is foreshortened, so its radius is the largest of the four
 * image distances R away from its centre on the bed, not their mean. Used by calibration (the
 * ball size at the table's centre, for the detector's scale), tracking (a detection far larger
 * than a ball is not one) and the stand-in detector (the radius a real one would report).
 */
import { applyH, inv3, type Mat3 } from './mat3.js';

const inverses = new WeakMap<Mat3, Mat3>();

/** A ball's radius in (undistorted) image pixels at table (x, y), through a table-from-image homography. */
export function imageBallRadius(toTable: Mat3, x: number, y: number, ballRadiusMm: number): number {
  return Math.max(...imageBallRadii(toTable, x, y, ballRadiusMm));
}

/** The image distances (px) of the four points R across and along the bed from a ball's centre at table (x, y). */
export function imageBallRadii(toTable: Mat3, x: number, y: number, ballRadiusMm: number): number[] {
  let toImage = inverses.get(toTable);
  if (!toImage) inverses.set(toTable, (toImage = inv3(toTable)));
  const [cu, cv] = applyH(toImage, x, y);
  return ([[ballRadiusMm, 0], [-ballRadiusMm, 0], [0, ballRadiusMm], [0, -ballRadiusMm]] as const).map(([dx, dy]) => {
    const [u, v] = applyH(toImage, x + dx, y + dy);
    return Math.hypot(u - cu, v - cv);
  });
}
