/**
 * How large a ball looks in a calibrated image: the radius in pixels of a ball at the table's
 * centre, from the calibration's bed → image map. A sphere's outline is close to a circle even
 * where the bed is foreshortened, so the largest of the four image distances R away on the bed is
 * taken. The detector uses it to bring balls to the size it was trained on.
 */
import { applyH, inv3 } from '../core/mat3.js';
import type { TableProfile } from '../core/table.js';
import type { Calibration } from './contract.js';

export function ballRadiusPx(cal: Pick<Calibration, 'imageToTable'>, table: Pick<TableProfile, 'bed' | 'ballDiameter'>): number {
  const toImage = inv3(cal.imageToTable);
  const x = table.bed.width / 2, y = table.bed.length / 2, R = table.ballDiameter / 2;
  const [cu, cv] = applyH(toImage, x, y);
  return Math.max(...[[R, 0], [-R, 0], [0, R], [0, -R]].map(([dx, dy]) => {
    const [u, v] = applyH(toImage, x + dx!, y + dy!);
    return Math.hypot(u - cu, v - cv);
  }));
}
