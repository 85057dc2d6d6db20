/**
 * How large a ball looks in a calibrated image: the radius in pixels of a ball at the table's
 * centre (core/ballImage.ts). The detector uses it to bring balls to the size it was trained on.
 */
import { imageBallRadii, imageBallRadius } from '../core/ballImage.js';
import type { TableProfile } from '../core/table.js';
import type { Calibration } from './contract.js';

export function ballRadiusPx(cal: Pick<Calibration, 'imageToTable'>, table: Pick<TableProfile, 'bed' | 'ballDiameter'>): number {
  return imageBallRadius(cal.imageToTable, table.bed.width / 2, table.bed.length / 2, table.ballDiameter / 2);
}

/**
 * How far the camera is from looking straight down on the bed: the least, over the bed's centre and
 * corners, of a ball's shortest image radius over its longest (1 straight overhead; a broadcast
 * camera down the table's length foreshortens the bed to about half). Where the bed is
 * foreshortened, a ball's shadow and reflection on the cloth join its outline.
 */
export function bedForeshortening(cal: Pick<Calibration, 'imageToTable'>, table: Pick<TableProfile, 'bed' | 'ballDiameter'>): number {
  const R = table.ballDiameter / 2;
  const { width: W, length: L } = table.bed;
  let least = 1;
  for (const [x, y] of [[W / 2, L / 2], [R, R], [W - R, R], [R, L - R], [W - R, L - R]] as const) {
    const radii = imageBallRadii(cal.imageToTable, x, y, R);
    least = Math.min(least, Math.min(...radii) / Math.max(...radii));
  }
  return least;
}
