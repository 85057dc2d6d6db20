/**
 * Where a snooker colour goes back (rules-snooker.md §10.1), used when the referee module is not
 * available to say so: own spot if free; else the highest-value free spot; else as near its own
 * spot as possible on the line towards the top cushion, then (pink, black and — by the spec's
 * default Q5 — the others) below it on the same line. "Occupied" = a ball centre nearer than
 * 2R + 0.5 mm (ε_place).
 */
import type { TableProfile } from '../../core/table.js';
import { radiusOf, SNOOKER_COLOURS, spot } from './layouts.js';

export const EPS_PLACE_MM = 0.5;

export function isFree(table: TableProfile, p: { x: number; y: number }, r: number, others: readonly { id: string; x: number; y: number }[]): boolean {
  return others.every((o) => Math.hypot(o.x - p.x, o.y - p.y) >= r + radiusOf(table, o.id) + EPS_PLACE_MM);
}

export function respotPosition(table: TableProfile, colour: string, others: readonly { id: string; x: number; y: number }[]): { x: number; y: number; spot: string } {
  const r = radiusOf(table, colour);
  const own = spot(table, colour);
  if (isFree(table, own, r, others)) return { ...own, spot: colour };
  for (const c of [...SNOOKER_COLOURS].reverse()) {
    const s = spot(table, c);
    if (isFree(table, s, r, others)) return { ...s, spot: c };
  }
  const L = table.bed.length;
  for (let d = 0.1; d < L; d += 0.1) {
    const up = { x: own.x, y: own.y + d };
    if (up.y <= L - r && isFree(table, up, r, others)) return { ...up, spot: 'nearest' };
  }
  for (let d = 0.1; d < L; d += 0.1) {
    const down = { x: own.x, y: own.y - d };
    if (down.y >= r && isFree(table, down, r, others)) return { ...down, spot: 'nearest' };
  }
  return { ...own, spot: colour };
}
