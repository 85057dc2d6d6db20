/**
 * Respotting colours (spec §10.1; seed 000 Part III rule 7, Part II def 17): own spot if free,
 * else the highest-value free spot, else as near as possible to the own spot towards the top
 * cushion (pink and black: then below the spot), never touching a ball.
 */
import type { RespotCall } from '../../core/contracts/calls.js';
import type { PointMm, TableProfile } from '../../core/table.js';
import { SPOTS_BY_VALUE, VALUE, type Colour } from './balls.js';
import type { GeoBall } from './geometry.js';

export interface RespotOptions {
  R: number;
  placeEpsMm: number;
  order: 'ownFirst' | 'valueFirst';
  searchDown: boolean;
}

/** A spot is occupied when a ball centred on it would touch another ball (def 17). */
export function spotOccupied(spot: PointMm, balls: readonly GeoBall[], o: RespotOptions): boolean {
  return balls.some((b) => Math.hypot(b.x - spot.x, b.y - spot.y) < 2 * o.R + o.placeEpsMm);
}

/** Walk along x = spot.x from the spot in `dir` (+1 up, -1 down) in 0.1 mm steps. */
function walk(spot: PointMm, dir: 1 | -1, balls: readonly GeoBall[], table: TableProfile, o: RespotOptions): PointMm | null {
  const minY = o.R;
  const maxY = table.bed.length - o.R;
  // k/10 (not k*0.1) keeps each candidate exact: 530/10 is 53, 530*0.1 is not.
  for (let k = 1; ; k++) {
    const y = spot.y + (dir * k) / 10;
    if (y > maxY || y < minY) return null;
    const p = { x: spot.x, y };
    if (!spotOccupied(p, balls, o)) return p;
  }
}

/**
 * Positions for the colours to respot, placed in the rule's order against the balls left on the
 * table (`balls` must not include the colours being respotted).
 */
export function respotColours(colours: readonly Colour[], balls: readonly GeoBall[], table: TableProfile, o: RespotOptions): RespotCall[] {
  const placed: GeoBall[] = [...balls];
  const out: RespotCall[] = [];
  const spotOf = (c: Colour) => table.spots[c]!;
  const byValue = [...colours].sort((a, b) => VALUE[b] - VALUE[a]);
  const queue =
    o.order === 'ownFirst'
      ? [...byValue.filter((c) => !spotOccupied(spotOf(c), placed, o)), ...byValue.filter((c) => spotOccupied(spotOf(c), placed, o))]
      : byValue;
  for (const c of queue) {
    const call = placeOne(c, placed, table, o);
    out.push(call);
    placed.push({ id: c, x: call.x, y: call.y });
  }
  // Report in the order the referee places them.
  return out;
}

function placeOne(c: Colour, placed: readonly GeoBall[], table: TableProfile, o: RespotOptions): RespotCall {
  const own = table.spots[c]!;
  if (!spotOccupied(own, placed, o)) return { ball: c, x: own.x, y: own.y, spot: c };
  for (const s of SPOTS_BY_VALUE) {
    const p = table.spots[s]!;
    if (!spotOccupied(p, placed, o)) return { ball: c, x: p.x, y: p.y, spot: s };
  }
  const up = walk(own, 1, placed, table, o);
  if (up) return { ball: c, x: up.x, y: up.y, spot: 'nearest' };
  if (c === 'pink' || c === 'black' || o.searchDown) {
    const down = walk(own, -1, placed, table, o);
    if (down) return { ball: c, x: down.x, y: down.y, spot: 'nearest' };
  }
  // No room on the line at all (a table packed with balls): the referee places it by hand.
  return { ball: c, x: own.x, y: own.y, spot: 'nearest' };
}
