/**
 * How large a ball looks in a calibrated image: the radius in pixels of a ball at the table's
 * centre (core/ballImage.ts). The detector uses it to bring balls to the size it was trained on.
 */
import { imageBallRadius } from '../core/ballImage.js';
import type { TableProfile } from '../core/table.js';
import type { Calibration } from './contract.js';

export function ballRadiusPx(cal: Pick<Calibration, 'imageToTable'>, table: Pick<TableProfile, 'bed' | 'ballDiameter'>): number {
  return imageBallRadius(cal.imageToTable, table.bed.width / 2, table.bed.length / 2, table.ballDiameter / 2);
}
