/**
 * Opening layouts per game, on any table profile (positions scale with the profile's spots, bed
 * and ball size):
 *  - snooker (rules-snooker.md §1): colours on their spots; 15 reds in a triangle whose apex red
 *    sits on the centre line `pyramidGapMm` above the pink (the spec's 1–5 mm), rows √3·R apart,
 *    back row parallel to the top cushion; the white is in hand (placed by the first stroke).
 *  - pool8 (rules-pool8.md §1): apex ball on the foot spot, rows towards the foot rail, the 8 in
 *    the middle of the third row, a solid and a stripe in the back corners, the rest shuffled by
 *    the scenario's seed; the cue ball is in hand in the kitchen.
 *  - novus (rules-novus.md §11): each player's 8 pawns in a row touching each other and the far
 *    edge, 4 either side of the middle line; player 0 (bottom edge) owns a1…a8 on the top edge,
 *    player 1 owns b1…b8 on the bottom edge; the striker is placed by each stroke.
 *
 * A real rack is never perfectly tight; a `rackGapMm` (default 0.1 mm) between neighbours keeps
 * the simulated break well defined (perfectly touching balls make the order of the contacts,
 * and so the spread, depend on rounding).
 */
import { SNOOKER_COLOURS, type GameId } from '../../core/games.js';

/** Re-exported where the simulator has always found them. */
export { allBallIds, SNOOKER_COLOURS } from '../../core/games.js';
import type { TableProfile } from '../../core/table.js';
import { mulberry32 } from '../../core/random.js';

export interface PlacedBall {
  id: string;
  x: number;
  y: number;
}


export function cueBallId(game: GameId): string {
  return game === 'snooker' ? 'white' : game === 'pool8' ? 'cue' : 'striker';
}


export function radiusOf(table: TableProfile, id: string): number {
  const cue = id === 'white' || id === 'cue' || id === 'striker';
  return (cue ? table.cueBallDiameter : table.ballDiameter) / 2;
}

export interface LayoutOptions {
  /** Gap between the pink and the apex red, mm (snooker). */
  pyramidGapMm?: number;
  /** Gap between neighbouring balls in a rack, mm. */
  rackGapMm?: number;
  /** Seed for the random part of a pool rack. */
  seed?: number;
}

/** The object balls of the opening layout (the cue ball is placed by the first stroke). */
export function standardLayout(game: GameId, table: TableProfile, opts: LayoutOptions = {}): PlacedBall[] {
  const gap = opts.rackGapMm ?? 0.1;
  const R = table.ballDiameter / 2;
  const cx = table.bed.width / 2;
  switch (game) {
    case 'snooker': {
      const out: PlacedBall[] = SNOOKER_COLOURS.map((c) => ({ id: c, ...spot(table, c) }));
      const pink = spot(table, 'pink');
      const d = 2 * R + gap;
      const apexY = pink.y + 2 * R + (opts.pyramidGapMm ?? 2);
      let n = 1;
      for (let row = 0; row < 5; row++) {
        for (let k = 0; k <= row; k++) {
          out.push({ id: `red${n++}`, x: cx + (k - row / 2) * d, y: apexY + row * d * (Math.sqrt(3) / 2) });
        }
      }
      return out;
    }
    case 'pool8': {
      const foot = table.spots.foot ?? { x: cx, y: (3 * table.bed.length) / 4 };
      const d = 2 * R + gap;
      const slots: { x: number; y: number }[] = [];
      for (let row = 0; row < 5; row++) for (let k = 0; k <= row; k++) slots.push({ x: foot.x + (k - row / 2) * d, y: foot.y + row * d * (Math.sqrt(3) / 2) });
      // Slot indices: row r starts at r(r+1)/2. Eight: row 2 middle = 4. Back corners: 10 and 14.
      const rng = mulberry32(opts.seed ?? 0);
      const solids = [1, 2, 3, 4, 5, 6, 7], stripes = [9, 10, 11, 12, 13, 14, 15];
      shuffle(solids, rng);
      shuffle(stripes, rng);
      const cornerSolidLeft = rng() < 0.5;
      const ids: number[] = new Array(15).fill(0);
      ids[4] = 8;
      ids[10] = cornerSolidLeft ? solids.pop()! : stripes.pop()!;
      ids[14] = cornerSolidLeft ? stripes.pop()! : solids.pop()!;
      const rest = shuffle([...solids, ...stripes], rng);
      for (let i = 0; i < 15; i++) if (ids[i] === 0) ids[i] = rest.pop()!;
      return slots.map((s, i) => ({ id: String(ids[i]), x: s.x, y: s.y }));
    }
    case 'novus': {
      const W = table.bed.width, L = table.bed.length;
      const out: PlacedBall[] = [];
      const d = 2 * R + gap;
      // Pawns touch the edge (plus the gap so they are not pressed into it).
      for (let k = 0; k < 8; k++) {
        const x = W / 2 + (k - 3.5) * d;
        out.push({ id: `a${k + 1}`, x, y: L - R - gap });
        out.push({ id: `b${k + 1}`, x, y: R + gap });
      }
      return out;
    }
  }
}

export function spot(table: TableProfile, name: string): { x: number; y: number } {
  const s = table.spots[name];
  if (!s) throw new Error(`table profile '${table.name}' has no '${name}' spot`);
  return { x: s.x, y: s.y };
}

/** Where the cue ball goes when a stroke is played from hand and gives no position. */
export function defaultCueBallPlace(game: GameId, table: TableProfile, player: 0 | 1): { x: number; y: number } {
  const W = table.bed.width, L = table.bed.length;
  switch (game) {
    case 'snooker': {
      // In the D, right of the brown (rules-snooker.md S01 uses (1000, 700) on a full-size table).
      const brown = spot(table, 'brown');
      const dR = table.dRadius ?? 292;
      return { x: brown.x + 0.38 * dR, y: brown.y - 0.127 * dR };
    }
    case 'pool8':
      return { x: W / 2 - 0.0276 * W, y: (table.headStringY ?? L / 4) * 0.63 };
    case 'novus': {
      const zone = table.zoneLineMm ?? 100;
      // Beside the pawn row that starts on the player's own edge (the opponent's pawns).
      return { x: W / 2 + 0.25 * W, y: player === 0 ? zone / 2 : L - zone / 2 };
    }
  }
}

export { mulberry32 };

function shuffle<T>(a: T[], rng: () => number): T[] {
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [a[i], a[j]] = [a[j]!, a[i]!];
  }
  return a;
}
