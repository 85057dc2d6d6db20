/**
 * Table geometry the pool rules need, on bed millimetres: the kitchen and baulk zones, cue-ball
 * placement checks, and spotting a ball on the long string (spec §8.1).
 */
import type { PocketId } from '../../core/games.js';
import type { PointMm, TableProfile } from '../../core/table.js';
import { CUE, radiusOf } from './balls.js';
import type { InHandZone } from './profiles.js';

export interface Placed extends PointMm {
  id: string;
}

/** Head string (kitchen boundary), mm from the head cushion: L/4 unless the profile says otherwise. */
export const headStringY = (t: TableProfile): number => t.headStringY ?? t.bed.length / 4;
/** Blackball baulk line: the profile's, else 1/5 of the length (WPA blackball R 8.1). */
export const baulkLineY = (t: TableProfile): number => t.baulkLineY ?? t.bed.length / 5;

/**
 * Is a cue-ball centre inside the zone? The kitchen is strictly behind the head string: a ball
 * exactly on the string is not in the kitchen (WPA R 1.6).
 */
export function inZone(t: TableProfile, zone: InHandZone, p: PointMm): boolean {
  switch (zone) {
    case 'anywhere':
      return true;
    case 'kitchen':
      return p.y < headStringY(t);
    case 'baulk':
      return p.y < baulkLineY(t);
  }
}

/** Overlap allowed when a ball is placed by hand, mm: frozen is legal, tracking noise is not a foul. */
export const PLACEMENT_OVERLAP_TOLERANCE_MM = 2;

/**
 * Why a cue-ball placement is illegal (3.10), or null: off the bed, overlapping a ball, or outside
 * the zone the foul allowed.
 */
export function placementProblem(t: TableProfile, zone: InHandZone, p: PointMm, others: readonly Placed[]): string | null {
  const r = radiusOf(t, CUE);
  if (p.x < r - 2 || p.x > t.bed.width - r + 2 || p.y < r - 2 || p.y > t.bed.length - r + 2) {
    return `the cue ball was placed at (${p.x.toFixed(0)}, ${p.y.toFixed(0)}) mm, off the bed`;
  }
  if (!inZone(t, zone, p)) {
    const line = zone === 'kitchen' ? `the head string (y < ${headStringY(t).toFixed(0)} mm)` : `the baulk line (y < ${baulkLineY(t).toFixed(0)} mm)`;
    return `the cue ball was placed at y = ${p.y.toFixed(0)} mm, not behind ${line}`;
  }
  for (const o of others) {
    if (o.id === CUE) continue;
    const d = Math.hypot(o.x - p.x, o.y - p.y);
    if (d < r + radiusOf(t, o.id) - PLACEMENT_OVERLAP_TOLERANCE_MM) {
      return `the cue ball was placed overlapping ball ${o.id} (centres ${d.toFixed(1)} mm apart)`;
    }
  }
  return null;
}

/**
 * Spot a ball on the long string (spec §8.1): as close to the foot spot as possible between it and
 * the foot cushion; if that line is full, towards the head, as close to the foot spot as possible.
 * A spotted ball may touch an object ball but never the cue ball, which keeps a 1 mm gap.
 * Returns the position and which way it went (`foot` = on the spot itself).
 */
export function spotOnLongString(t: TableProfile, id: string, occupied: readonly Placed[]): { x: number; y: number; spot: string } {
  const r = radiusOf(t, id);
  const x = t.bed.width / 2;
  const footY = t.spots.foot?.y ?? (3 * t.bed.length) / 4;
  // Blocked y-intervals along x = centre: where the spotted ball's disc would overlap another.
  const blocked: [number, number][] = [];
  for (const o of occupied) {
    if (o.id === id) continue;
    const d = r + radiusOf(t, o.id) + (o.id === CUE ? 1 : 0);
    const dx = Math.abs(o.x - x);
    if (dx >= d) continue;
    const h = Math.sqrt(d * d - dx * dx);
    blocked.push([o.y - h, o.y + h]);
  }
  const free = (y: number) => y >= r && y <= t.bed.length - r && blocked.every(([lo, hi]) => y <= lo + 1e-9 || y >= hi - 1e-9);
  // Candidates: the foot spot and every interval end; the answer is always one of them.
  const ends = blocked.flatMap(([lo, hi]) => [lo, hi]);
  const forward = [footY, ...ends.filter((y) => y > footY)].filter(free).sort((a, b) => a - b);
  if (forward.length) return { x, y: forward[0]!, spot: forward[0] === footY ? 'foot' : 'nearest' };
  const back = ends.filter((y) => y < footY).filter(free).sort((a, b) => b - a);
  if (back.length) return { x, y: back[0]!, spot: 'nearest' };
  return { x, y: footY, spot: 'foot' };
}

/** Where a hanging ball is put back: on the lip of its pocket, one radius in from the pocket point. */
export function lipPosition(t: TableProfile, pocket: PocketId, id: string): { x: number; y: number } {
  const p = t.pockets[pocket] ?? { x: 0, y: 0 };
  const r = radiusOf(t, id);
  const cx = t.bed.width / 2;
  const cy = t.bed.length / 2;
  const dx = cx - p.x;
  const dy = cy - p.y;
  const n = Math.hypot(dx, dy) || 1;
  // Corner pockets sit diagonally, middle pockets straight across: move 1.5 R towards the centre.
  const k = 1.5 * r;
  return p.y === cy ? { x: p.x + Math.sign(dx) * k, y: p.y } : { x: p.x + (dx / n) * k, y: p.y + (dy / n) * k };
}
