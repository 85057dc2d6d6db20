/**
 * Where the rules put pawns back (spec §7 L4, §9, §10): penalty pawns on the middle of the
 * offender's far edge, own pawns driven off at the centre circle, opponent pawns at their
 * pre-stroke position, stacked pawns beside the pawn they lay on. Pure: positions in, positions out.
 */
import type { PointMm } from '../../core/table.js';
import { nearestFree, nearestFreeOnLine, PLACEMENT_GAP_MM, type Disc, type NovusBoard, type Player } from './geometry.js';

export const PENALTY_FOUL_CODES = [
  'STRIKER_POCKETED', // N-P1
  'STRIKER_OFF_BOARD', // N-P2
  'NO_CONTACT', // N-P3
  'OPPONENT_PAWN_FIRST', // N-P4
  'DARK_PAWN_FIRST', // N-P5
  'BAD_REBOUND', // N-P6
  'OWN_ZONE_PAWN_FIRST', // N-P7
  'PAWN_TOUCHED_PLACING', // N-P8
  'BAD_STRIKER_PLACEMENT', // N-P9
  'DOUBLE_HIT', // N-P10
  'TOUCHED_PAWN', // N-P11, N-P12
  'MOVED_IN_OPPONENT_TURN', // N-P13
  'OPPONENT_PAWN_OFF', // N-P14
  'STRIKER_BROKEN', // N-P15
  'DELAY', // N-P16
  'CUE_FAULT', // N-P17
  'OWN_PAWN_OFF', // N-P18 (variant)
  'KNOCKED_INTO_DARK', // N-P19 (variant)
] as const;
export type PenaltyFoulCode = (typeof PENALTY_FOUL_CODES)[number];

export const RULE_OF: Record<PenaltyFoulCode, string> = {
  STRIKER_POCKETED: 'N-P1',
  STRIKER_OFF_BOARD: 'N-P2',
  NO_CONTACT: 'N-P3',
  OPPONENT_PAWN_FIRST: 'N-P4',
  DARK_PAWN_FIRST: 'N-P5',
  BAD_REBOUND: 'N-P6',
  OWN_ZONE_PAWN_FIRST: 'N-P7',
  PAWN_TOUCHED_PLACING: 'N-P8',
  BAD_STRIKER_PLACEMENT: 'N-P9',
  DOUBLE_HIT: 'N-P10',
  TOUCHED_PAWN: 'N-P11/12',
  MOVED_IN_OPPONENT_TURN: 'N-P13',
  OPPONENT_PAWN_OFF: 'N-P14',
  STRIKER_BROKEN: 'N-P15',
  DELAY: 'N-P16',
  CUE_FAULT: 'N-P17',
  OWN_PAWN_OFF: 'N-P18',
  KNOCKED_INTO_DARK: 'N-P19',
};

/** Loss of set (spec §8, UK-N "Loss of set" a–k): entered as `foul` events, except k (automatic). */
export const SET_LOSS_CODES = {
  TABLE_PUSHED: 'b',
  DELIBERATE_VIOLATION: 'c',
  PAWNS_MOVED_WITHOUT_STROKE: 'e',
  STRIKER_AT_SIDE_EDGE: 'f',
  PAWN_TAKEN_FROM_POCKET: 'g',
  PLAYED_OUT_OF_TURN: 'h',
  EQUIPMENT_SWAPPED: 'i',
  WRONG_PARTNER_FIRST: 'j',
  FIRST_SERIES_VIOLATION: 'k',
} as const;

/** Loss of the game (match), all MANUAL (spec §8); a third `WARNING` is one too. */
export const MATCH_LOSS_CODES = ['LATE_AT_TABLE', 'DISQUALIFIED', 'NO_GREETING', 'UNSPORTSMANLIKE', 'THIRD_WARNING'] as const;
export const WARNING_CODE = 'WARNING';
/** Warnings that lose the match (UK-N "Loss in the game"). */
export const WARNINGS_TO_LOSE = 3;

export type SpotName = 'penalty' | 'original' | 'centre' | 'circle' | 'stacked' | 'striker' | 'nearest';

export interface Placed extends PointMm {
  ball: string;
  spot: SpotName;
}

const discs = (pieces: Readonly<Record<string, PointMm>>, r: number, extra: readonly Disc[] = []): Disc[] => [
  ...Object.values(pieces).map((p) => ({ ...p, r })),
  ...extra,
];

/**
 * Penalty pawns (spec §9.3): on the middle line of the offender's far edge, touching that edge; if
 * taken, the nearest free place along that edge, offender's right first, then alternating sides.
 * Several pawns at once go symmetric about the middle line when there is room. Pawns already there
 * are never moved.
 */
export function placePenaltyPawns(b: NovusBoard, pieces: Readonly<Record<string, PointMm>>, offender: Player, ids: readonly string[]): Placed[] {
  const r = b.pawnRadiusMm;
  const y = offender === 0 ? b.sizeMm - r : r;
  // Player 0 faces +y, so his right is +x; player 1 faces −y, so his right is −x.
  const right: 1 | -1 = offender === 0 ? 1 : -1;
  const placed: Placed[] = [];
  // Several pawns at once (spec §9.3): symmetric about the middle line, touching one another
  // (odd count: one on the line; even: straddling it), right side first, when all those places are free.
  if (ids.length > 1) {
    const d = 2 * r + PLACEMENT_GAP_MM; // a hair apart, so that they do not overlap by rounding
    const offsets = ids.map((_, k) => {
      const step = ids.length % 2 === 1 ? Math.ceil(k / 2) : Math.floor(k / 2) + 0.5;
      const side = ids.length % 2 === 1 ? (k % 2 === 1 ? right : -right) : k % 2 === 0 ? right : -right;
      return side * step * d;
    });
    const spots = offsets.map((o) => ({ x: b.centre.x + o, y }));
    const blockers = discs(pieces, r);
    const fits = spots.every((q) => q.x - r >= b.cornerClearanceMm && q.x + r <= b.sizeMm - b.cornerClearanceMm && blockers.every((o) => Math.hypot(q.x - o.x, q.y - o.y) >= r + o.r + PLACEMENT_GAP_MM - 1e-9));
    if (fits) return ids.map((ball, k) => ({ ball, ...spots[k]!, spot: 'penalty' as const }));
  }
  let prefer: 1 | -1 = right;
  for (const ball of ids) {
    const blockers = discs(pieces, r, placed.map((p) => ({ x: p.x, y: p.y, r })));
    const x = nearestFreeOnLine(y, b.centre.x, r, blockers, b.cornerClearanceMm, b.sizeMm - b.cornerClearanceMm, prefer);
    if (x === null) {
      placed.push({ ball, ...nearestFree(b, { x: b.centre.x, y }, r, blockers), spot: 'nearest' });
      continue;
    }
    placed.push({ ball, x, y, spot: 'penalty' });
    if (Math.abs(x - b.centre.x) > 1e-6) prefer = x > b.centre.x ? -1 : 1;
  }
  return placed;
}

export type BoardSide = 'top' | 'right' | 'bottom' | 'left';
const CLOCKWISE: readonly BoardSide[] = ['top', 'right', 'bottom', 'left'];
const DIR: Record<BoardSide, PointMm> = { top: { x: 0, y: 1 }, right: { x: 1, y: 0 }, bottom: { x: 0, y: -1 }, left: { x: -1, y: 0 } };

/** The edge a point is nearest to (where a pawn that flew off most likely left). */
export function nearestSide(b: NovusBoard, p: PointMm): BoardSide {
  const d: [BoardSide, number][] = [['bottom', p.y], ['top', b.sizeMm - p.y], ['left', p.x], ['right', b.sizeMm - p.x]];
  d.sort((u, v) => u[1] - v[1]);
  return d[0]![0];
}

/**
 * An own pawn driven off the board (spec §7 L4, NA): the centre of the circle; if taken, on the
 * centre line towards the side where it left, inside the circle and tangent to its line; then the
 * next such point clockwise; then the nearest free place.
 */
export function placeOwnPawnOff(b: NovusBoard, pieces: Readonly<Record<string, PointMm>>, ball: string, exit: BoardSide, extra: readonly Disc[] = []): Placed {
  const r = b.pawnRadiusMm;
  const blockers = discs(pieces, r, extra);
  const free = (p: PointMm) => blockers.every((o) => Math.hypot(p.x - o.x, p.y - o.y) >= r + o.r - 1e-9);
  if (free(b.centre)) return { ball, ...b.centre, spot: 'centre' };
  const reach = b.circleRadiusMm - b.circleLineWidthMm / 2 - r;
  const start = CLOCKWISE.indexOf(exit);
  for (let k = 0; k < 4; k++) {
    const d = DIR[CLOCKWISE[(start + k) % 4]!];
    const p = { x: b.centre.x + d.x * reach, y: b.centre.y + d.y * reach };
    if (free(p)) return { ball, ...p, spot: 'circle' };
  }
  return { ball, ...nearestFree(b, b.centre, r, blockers), spot: 'nearest' };
}

/** A pawn returned to where it lay before the stroke (N-P14, N-P19, opponent pawn off on a rebound), or next to it. */
export function placeAtOriginal(b: NovusBoard, pieces: Readonly<Record<string, PointMm>>, ball: string, original: PointMm, extra: readonly Disc[] = []): Placed {
  const r = b.pawnRadiusMm;
  const blockers = discs(pieces, r, extra);
  const p = nearestFree(b, original, r, blockers);
  const moved = Math.hypot(p.x - original.x, p.y - original.y) > 1e-6;
  return { ball, ...p, spot: moved ? 'nearest' : 'original' };
}

/**
 * A pawn that landed on another pawn (seed 003 rule 12.11): laid beside it, on the side it
 * overhangs (the direction from the lower pawn's centre to the upper's), else the nearest free
 * place. On the striker: laid where the striker lay.
 */
export function placeStacked(b: NovusBoard, pieces: Readonly<Record<string, PointMm>>, ball: string, lower: PointMm, upperSeen: PointMm | undefined, onStriker: boolean): Placed {
  const r = b.pawnRadiusMm;
  const blockers = discs(pieces, r);
  if (onStriker) {
    const p = nearestFree(b, lower, r, blockers);
    return { ball, ...p, spot: Math.hypot(p.x - lower.x, p.y - lower.y) > 1e-6 ? 'nearest' : 'striker' };
  }
  let dx = 1;
  let dy = 0;
  if (upperSeen) {
    const ux = upperSeen.x - lower.x;
    const uy = upperSeen.y - lower.y;
    const n = Math.hypot(ux, uy);
    // Under half a millimetre of offset no overhang side can be told: take +x and let the search decide.
    if (n > 0.5) {
      dx = ux / n;
      dy = uy / n;
    } else if (lower.x > b.centre.x) dx = -1;
  } else if (lower.x > b.centre.x) dx = -1;
  const reach = 2 * r + 0.5;
  const target = { x: lower.x + dx * reach, y: lower.y + dy * reach };
  const p = nearestFree(b, target, r, blockers);
  return { ball, ...p, spot: Math.hypot(p.x - target.x, p.y - target.y) > 1e-6 ? 'nearest' : 'stacked' };
}
