/**
 * Pool 8-ball ball ids and groups (contract: `cue`, `1`…`15`; 1–7 solids, 9–15 stripes, 8 the
 * eight). UK blackball uses the same ids: 1–7 stand for the reds, 9–15 for the yellows, 8 for the black.
 */
import type { TableProfile } from '../../core/table.js';

export type Group = 'solids' | 'stripes';
export const GROUPS: readonly Group[] = ['solids', 'stripes'];

export const CUE = 'cue';
export const EIGHT = '8';
export const OBJECT_BALLS: readonly string[] = Array.from({ length: 15 }, (_, i) => String(i + 1));
export const ALL_BALLS: readonly string[] = [CUE, ...OBJECT_BALLS];
export const KNOWN_IDS: ReadonlySet<string> = new Set(ALL_BALLS);

export function groupOf(id: string): Group | null {
  const n = Number(id);
  if (!Number.isInteger(n) || n < 1 || n > 15 || n === 8) return null;
  return n < 8 ? 'solids' : 'stripes';
}

export const otherGroup = (g: Group): Group => (g === 'solids' ? 'stripes' : 'solids');

export function ballsOfGroup(g: Group): string[] {
  return OBJECT_BALLS.filter((b) => groupOf(b) === g);
}

/** Radius of a ball by id, mm: the cue ball may be smaller (UK tables). */
export function radiusOf(table: TableProfile, id: string): number {
  return (id === CUE ? table.cueBallDiameter : table.ballDiameter) / 2;
}

/**
 * The standard rack (WPA R 4.2): a tight triangle, apex on the foot spot, rows towards the foot
 * cushion √3·R apart, the 8 in the middle of the third row, a solid and a stripe in the back corners.
 * The order of the other balls is random in play; this fixed order gives the referee positions to
 * spot against when the log does not list them. A hair of gap (0.1 mm) keeps balls from overlapping.
 */
export function standardRack(table: TableProfile): { id: string; x: number; y: number }[] {
  const r = table.ballDiameter / 2 + 0.05;
  const foot = table.spots.foot ?? { x: table.bed.width / 2, y: (3 * table.bed.length) / 4 };
  // Rows front to back; position 4 (row 3, middle) is the 8; row 5 ends are a solid and a stripe.
  const order = ['1', '9', '2', '10', '8', '3', '11', '4', '12', '5', '6', '13', '7', '14', '15'];
  const out: { id: string; x: number; y: number }[] = [];
  let k = 0;
  for (let row = 0; row < 5; row++) {
    for (let i = 0; i <= row; i++) {
      out.push({ id: order[k++]!, x: foot.x + (i - row / 2) * 2 * r, y: foot.y + row * Math.sqrt(3) * r });
    }
  }
  return out;
}

/**
 * Spellings hand-entered logs use for the two special balls: the 8 as `eight`, `8ball`, `08`; the
 * cue ball as `cueball`, `CUE`. Read as the contract's `8` and `cue`. Snooker's `white`/`black`
 * stay unknown ids (a snooker log fed to the pool referee is refused, not guessed).
 */
const ID_ALIASES: Readonly<Record<string, string>> = { eight: '8', eightball: '8', '8ball': '8', blackball: '8', cue: 'cue', cueball: 'cue' };
export function normaliseId(id: string): string;
export function normaliseId(id: string | undefined): string | undefined;
export function normaliseId(id: string | undefined): string | undefined {
  if (id === undefined) return id;
  const k = id.toLowerCase().replace(/[^a-z0-9]/g, '');
  return ID_ALIASES[k] ?? (/^0*\d+$/.test(k) && k !== id ? String(Number(k)) : id);
}

