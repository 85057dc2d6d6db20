/**
 * Novus game state (spec §2) and the opening of a set (spec §11). Plain immutable data: the engine
 * copies it with `cloneState` before changing anything, so a caller's state is never touched.
 */
import type { BallPos, StrokeLog } from '../../core/contracts/strokes.js';
import type { InputErrorInfo } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';
import type { PointMm, TableProfile } from '../../core/table.js';
import { checkPositions, tieWindowS } from '../validate.js';
import { resolveConfig, type NovusConfig, type NovusVariant } from './config.js';
import { boardFromProfile, type NovusBoard, type Player } from './geometry.js';

export const STRIKER = 'striker';
export const PAWN_IDS: readonly [readonly string[], readonly string[]] = [
  ['a1', 'a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'],
  ['b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8'],
];
export const ALL_IDS: ReadonlySet<string> = new Set([STRIKER, ...PAWN_IDS[0], ...PAWN_IDS[1]]);
export const PAWNS_PER_PLAYER = 8;

/** Owner of a pawn id (`a*` → 0, `b*` → 1), or null for the striker / unknown ids. */
export function ownerOf(id: string): Player | null {
  if (PAWN_IDS[0].includes(id)) return 0;
  if (PAWN_IDS[1].includes(id)) return 1;
  return null;
}

export const other = (p: Player): Player => (p === 0 ? 1 : 0);

export interface NovusState {
  board: NovusBoard;
  config: NovusConfig;
  variant: NovusVariant;
  /** Pawns on the board and where they lie (at rest, after the last stroke's placements). */
  pieces: Record<string, PointMm>;
  /** Each player's pocketed pawns, oldest first (a penalty pawn comes from the end). */
  pocketed: [string[], string[]];
  /**
   * Pawns the referee put back (penalty pawns): pawns of one player are alike, so the log may name
   * the returned pawn differently; such an id is swapped with the log's (see `aliasPawn`).
   */
  interchangeable: string[];
  /** Penalty pawns owed by a player who had none pocketed (spec §9.4). */
  debt: [number, number];
  /** The player with the right to strike. */
  toPlay: Player;
  /** Pawns pocketed by the striker in the current series (the `break` of the calls). */
  series: number;
  set: {
    /** 1-based; a replayed set (both cleared in the first series) keeps its number. */
    number: number;
    firstStriker: Player;
    /** Whether a player's first series (first turn) of the set has ended. */
    firstSeriesDone: [boolean, boolean];
    /** The first striker pocketed all 8 in his first series: the opponent now plays his first series (LNF-comp). */
    sweepBy: Player | null;
    strokes: number;
    over: boolean;
    winner: Player | null;
  };
  setScores: [number, number];
  setsPlayed: number;
  /** Offender of N-P13 forfeits his next stroke. */
  forfeitNext: [boolean, boolean];
  /**
   * The striker as `start.balls` lists it: placed for the log's first stroke (used when that stroke
   * gives no `place` of the striker and no `before`), then cleared.
   */
  startStriker?: PointMm | null;
  warnings: [number, number];
  matchOver: boolean;
  matchWinner: Player | null;
}

export function cloneState(s: NovusState): NovusState {
  return {
    ...s,
    pieces: Object.fromEntries(Object.entries(s.pieces).map(([k, v]) => [k, { ...v }])),
    pocketed: [[...s.pocketed[0]], [...s.pocketed[1]]],
    interchangeable: [...s.interchangeable],
    debt: [...s.debt],
    set: { ...s.set, firstSeriesDone: [...s.set.firstSeriesDone] },
    setScores: [...s.setScores],
    forfeitNext: [...s.forfeitNext],
    warnings: [...s.warnings],
  };
}

/**
 * Opening layout (seed 003 rules 10.2–10.3): each player's 8 pawns in an unbroken row along the
 * **far** edge, touching each other and the edge, 4 on each side of the middle line. Player 0's
 * pawns lie along the top edge (player 1's side), player 1's along the bottom edge. Pawn `a1` is the
 * leftmost seen from the bottom; ids count across the board in +x.
 */
export function standardLayout(b: NovusBoard): Record<string, PointMm> {
  const out: Record<string, PointMm> = {};
  const r = b.pawnRadiusMm;
  for (let k = 0; k < PAWNS_PER_PLAYER; k++) {
    const x = b.centre.x + (k - 3.5) * 2 * r;
    out[PAWN_IDS[0][k]!] = { x, y: b.sizeMm - r };
    out[PAWN_IDS[1][k]!] = { x, y: r };
  }
  return out;
}

const playerSchemaCheck = (v: unknown): v is Player => v === 0 || v === 1;

/** Build the opening state from the log header (`variant`, `config`, `start`). */
export function initState(log: StrokeLog, table: TableProfile): Result<NovusState, InputErrorInfo> {
  const boardRes = boardFromProfile(table);
  if (!boardRes.ok) return boardRes;
  const board = boardRes.value;
  const cfg = resolveConfig(log.variant, log.config);
  if (!cfg.ok) return cfg;
  const start = (log.start ?? {}) as Record<string, unknown> & NonNullable<StrokeLog['start']>;
  const toPlay: Player = start.player ?? 0;

  let pieces: Record<string, PointMm>;
  let standard = true;
  let startStriker: PointMm | null = null;
  if (start.balls === undefined || start.balls === 'standard') {
    pieces = standardLayout(board);
  } else {
    standard = false;
    const list = start.balls as BallPos[];
    const radiusOf = (id: string) => (id === STRIKER ? board.strikerRadiusMm : board.pawnRadiusMm);
    const bad = checkPositions(list, { table, knownIds: ALL_IDS, radiusOf }, 0, 'start.balls');
    if (bad) {
      delete bad.stroke;
      return err(bad);
    }
    pieces = {};
    for (const b of list) {
      if (b.id !== STRIKER) pieces[b.id] = { x: b.x, y: b.y };
      else startStriker = { x: b.x, y: b.y };
    }
  }
  const pocketed: [string[], string[]] = [
    PAWN_IDS[0].filter((id) => !(id in pieces)),
    PAWN_IDS[1].filter((id) => !(id in pieces)),
  ];
  if (start.scores) {
    const [s0, s1] = start.scores;
    if (s0 !== pocketed[0].length || s1 !== pocketed[1].length) {
      return err({
        code: 'START_SCORES_MISMATCH',
        field: 'start.scores',
        message: `Novus scores are pawns pocketed: start.balls leaves ${pocketed[0].length} and ${pocketed[1].length} pocketed but start.scores says ${s0} and ${s1}; drop start.scores or make them agree`,
      });
    }
  }
  const pair = (key: string, min: number, max: number): Result<[number, number] | undefined, InputErrorInfo> => {
    const v = start[key];
    if (v === undefined) return ok(undefined);
    if (!Array.isArray(v) || v.length !== 2 || !v.every((n) => Number.isInteger(n) && n >= min && n <= max)) {
      return err({ code: 'BAD_START', field: `start.${key}`, message: `start.${key} must be two integers from ${min} to ${max}, one per player` });
    }
    return ok([v[0], v[1]]);
  };
  const debt = pair('debt', 0, PAWNS_PER_PLAYER);
  if (!debt.ok) return debt;
  const setScores = pair('setScores', 0, 99);
  if (!setScores.ok) return setScores;
  const fs = start['firstStriker'];
  if (fs !== undefined && !playerSchemaCheck(fs)) {
    return err({ code: 'BAD_START', field: 'start.firstStriker', message: 'start.firstStriker must be 0 or 1 (the player who struck first in this set)' });
  }
  const firstStriker: Player = fs ?? toPlay;
  // A set joined midway (a layout other than the opening one) is past both first series unless told.
  const ifs = start['inFirstSeries'];
  if (ifs !== undefined && typeof ifs !== 'boolean') {
    return err({ code: 'BAD_START', field: 'start.inFirstSeries', message: 'start.inFirstSeries must be true or false' });
  }
  const fresh = ifs ?? standard;
  const setNumber = start['setNumber'];
  if (setNumber !== undefined && !(Number.isInteger(setNumber) && (setNumber as number) >= 1)) {
    return err({ code: 'BAD_START', field: 'start.setNumber', message: 'start.setNumber must be an integer ≥ 1' });
  }
  const scores = setScores.value ?? [0, 0];
  return ok({
    board,
    config: { ...cfg.value.config, tieS: tieWindowS(cfg.value.config.tieS, log.frameS) },
    variant: cfg.value.variant,
    pieces,
    pocketed,
    interchangeable: [],
    debt: debt.value ?? [0, 0],
    toPlay,
    series: 0,
    set: {
      number: (setNumber as number | undefined) ?? scores[0] + scores[1] + 1,
      firstStriker,
      firstSeriesDone: fresh ? [false, false] : [true, true],
      sweepBy: null,
      strokes: 0,
      over: false,
      winner: null,
    },
    setScores: scores,
    setsPlayed: scores[0] + scores[1],
    forfeitNext: [false, false],
    startStriker,
    warnings: [0, 0],
    matchOver: false,
    matchWinner: null,
  });
}

/** A new set after one ended (or a replay): opening layout, fresh first series. */
export function startNewSet(s: NovusState, firstStriker: Player, replay: boolean): NovusState {
  const n = cloneState(s);
  n.pieces = standardLayout(s.board);
  n.pocketed = [[], []];
  n.interchangeable = [];
  n.debt = [0, 0];
  n.toPlay = firstStriker;
  n.series = 0;
  n.forfeitNext = [false, false];
  n.startStriker = null;
  n.set = {
    number: replay ? s.set.number : s.set.number + 1,
    firstStriker,
    firstSeriesDone: [false, false],
    sweepBy: null,
    strokes: 0,
    over: false,
    winner: null,
  };
  return n;
}
