/**
 * Bucharest broadcast Task2 ground truth: pockets are numbered as seen in the image (1 top-left,
 * 2 top-right, 3 bottom-left, 4 bottom-right, 5 middle-left, 6 middle-right). This maps the table's
 * pocket ids to those numbers through a calibration, so pots found in table terms can be judged.
 */
import type { Calibration } from '../../src/calibration/contract.js';
import { applyH, inv3 } from '../../src/core/mat3.js';
import type { TableProfile } from '../../src/core/table.js';

export function imagePocketNumbers(cal: Pick<Calibration, 'imageToTable'>, table: Pick<TableProfile, 'pockets'>): Map<string, number> {
  const toImage = inv3(cal.imageToTable);
  const px = Object.entries(table.pockets).map(([id, p]) => ({ id, uv: applyH(toImage, p!.x, p!.y) })).sort((a, b) => a.uv[1] - b.uv[1]);
  const num = new Map<string, number>();
  const pair = (a: (typeof px)[number], b: (typeof px)[number], left: number, right: number) => {
    const [l, r] = a.uv[0] < b.uv[0] ? [a, b] : [b, a];
    num.set(l.id, left);
    num.set(r.id, right);
  };
  pair(px[0]!, px[1]!, 1, 2);
  pair(px[2]!, px[3]!, 5, 6);
  pair(px[4]!, px[5]!, 3, 4);
  return num;
}
