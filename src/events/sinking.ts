/**
 * Which way a ball sinking into a pocket seems to move on the table. Positions come from the
 * ball's centre in the picture, taken to be R above the bed; a ball dropping below that plane is
 * seen along a ray that meets the plane nearer the point under the camera, so it seems to roll
 * towards that point (overhead: the table's middle; a broadcast camera behind the top cushion:
 * towards the top) — and to a path-fitter that looks like a rebound off the jaw. The calibration's
 * two homographies give the direction anywhere: one pixel lands on the bed (`imageToTable`)
 * further from the camera's foot than on the centre plane (`ballCentreToTable`).
 */
import { applyH, inv3, type Mat3 } from '../core/mat3.js';

/** Unit vector of a sinking ball's apparent motion at (x, y) mm, or undefined under the camera. */
export type SinkDirection = (x: number, y: number) => readonly [number, number] | undefined;

export function sinkDirectionOf(cal?: { imageToTable?: unknown; ballCentreToTable?: unknown }): SinkDirection | undefined {
  const toBed = cal?.imageToTable as Mat3 | undefined, toCentre = cal?.ballCentreToTable as Mat3 | undefined;
  if (!toBed || !toCentre) return undefined;
  const toImage = inv3(toCentre);
  return (x, y) => {
    const [u, v] = applyH(toImage, x, y);
    const [bx, by] = applyH(toBed, u, v);
    const len = Math.hypot(x - bx, y - by);
    // Under the camera the ray is vertical: a sinking ball stays put in the picture.
    return len > 0.5 ? [(x - bx) / len, (y - by) / len] : undefined;
  };
}
