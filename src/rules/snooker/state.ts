/**
 * Snooker frame state (spec §2) and the opening position. The state is plain data (JSON-safe), so a
 * live session can persist it and a reader can show it.
 */
import type { RespotCall } from '../../core/contracts/calls.js';
import type { StrokeLog } from '../../core/contracts/strokes.js';
import type { InputErrorInfo } from '../../core/errors.js';
import type { PocketId } from '../../core/games.js';
import { err, ok, type Result } from '../../core/result.js';
import type { PointMm, TableProfile } from '../../core/table.js';
import { checkPositions, tieWindowS } from '../validate.js';
import { COLOURS, KNOWN_IDS, RED_IDS, VALUE, coloursFrom, isColour, isRed, type Colour } from './balls.js';
import { configFor, SNOOKER_VARIANTS, type SnookerConfig } from './config.js';

export type Phase = 'RED_ON' | 'COLOUR_AFTER_RED' | 'COLOURS_SEQUENCE' | 'RESPOTTED_BLACK';
export type Player = 0 | 1;

/** What the table looked like before a stroke: restored after a miss when the incoming player asks. */
export interface Snapshot {
  balls: Record<string, PointMm>;
  phase: Phase;
  colourOn: Colour;
  inHand: boolean;
  /** The ball on after a red (any colour) stays "any colour" on a restore. */
}

export interface SnookerState {
  table: TableProfile;
  config: SnookerConfig;
  variant: string;
  /** Ball radius, mm. */
  R: number;
  /** Balls on the table by id (the white is absent while in hand). Respots already applied. */
  balls: Record<string, PointMm>;
  /** Whether `balls` positions are measured (rest/before given) or only carried forward. */
  positionsKnown: boolean;
  scores: [number, number];
  /** The player to play the next stroke. */
  striker: Player;
  phase: Phase;
  /** The lowest colour on the table, meaningful in COLOURS_SEQUENCE. */
  colourOn: Colour;
  inHand: boolean;
  /** The current break of `striker` (0 at the start of a turn). */
  breakPoints: number;
  /** A free ball was awarded to `striker` by the previous foul. */
  freeBall: boolean;
  /** Colours the referee must have put back before the next stroke, where. */
  pendingRespots: RespotCall[];
  /** Balls at rest over a pocket edge (spec §10.2), with the pocket. */
  hanging: Record<string, PocketId>;
  /** The last stroke was a foul: who committed it and what the incoming player may choose. */
  foul: { offender: Player; miss: boolean; snapshot: Snapshot; stroke: number } | null;
  /** Consecutive foul-and-misses from the same restored position (spec §9.3). */
  missChain: { offender: Player; count: number; fullBall: boolean } | null;
  missWarning: boolean;
  /** Re-spotted black: the next stroke's `lots` event says who plays. */
  awaitingLots: boolean;
  frameOver: boolean;
  winner: Player | null;
  strokes: number;
}

export const other = (p: Player): Player => (p === 0 ? 1 : 0);

export const redsOnTable = (s: Pick<SnookerState, 'balls'>): string[] => Object.keys(s.balls).filter(isRed);

export function lowestColour(balls: Record<string, PointMm>): Colour | null {
  for (const c of COLOURS) if (balls[c]) return c;
  return null;
}

/** Points remaining on the table (spec §2). */
export function pointsRemaining(s: Pick<SnookerState, 'balls' | 'phase' | 'colourOn'>): number {
  const reds = redsOnTable(s).length;
  switch (s.phase) {
    case 'RED_ON':
      return reds * 8 + 27;
    case 'COLOUR_AFTER_RED':
      return 7 + reds * 8 + 27;
    case 'COLOURS_SEQUENCE':
      return coloursFrom(s.colourOn).reduce((a, c) => a + VALUE[c], 0);
    case 'RESPOTTED_BLACK':
      return 7;
  }
}

/** Snookers a player needs (0 when he does not): deficit beyond what is left, in 7-point snookers. */
export function snookersRequired(scores: [number, number], remaining: number, divisor = 7): [number, number] {
  const need = (p: Player) => {
    const deficit = scores[other(p)] - scores[p];
    return deficit > remaining ? Math.ceil((deficit - remaining) / divisor) : 0;
  };
  return [need(0), need(1)];
}

/** The full-size opening: colours on their spots, the pyramid's apex just above the pink (spec §1). */
export function standardLayout(table: TableProfile, R: number): Record<string, PointMm> {
  const balls: Record<string, PointMm> = {};
  for (const c of COLOURS) balls[c] = { ...table.spots[c]! };
  const pink = table.spots.pink!;
  const gapMm = 2; // the rules ask for "as close as possible without touching": 1–5 mm in practice
  const rowStep = Math.sqrt(3) * R;
  let k = 0;
  for (let row = 0; row < 5; row++) {
    for (let j = 0; j <= row; j++) {
      // 0.1 mm between neighbours in a row keeps the rack tight without overlapping.
      balls[RED_IDS[k++]!] = { x: pink.x + (j - row / 2) * (2 * R + 0.1), y: pink.y + 2 * R + gapMm + row * (rowStep + 0.1) };
    }
  }
  return balls;
}

/**
 * A log that joins a frame midway may give only `ballOn`/`redsLeft` (and scores), no `balls`.
 * Then the table holds `redsLeft` reds (none in the colour sequence) and the colours from the ball
 * on up to the black (all six while reds are left), and the white; their positions are unknown.
 * Returns null when the start is the opening position (the standard layout applies).
 */
function joinedLayout(start: NonNullable<StrokeLog['start']>, table: TableProfile, R: number): Record<string, PointMm> | null {
  const on = start.ballOn === undefined ? [] : Array.isArray(start.ballOn) ? start.ballOn : [start.ballOn];
  const single = on.length === 1 && isColour(on[0]!) ? (on[0] as Colour) : null;
  const opening = (on.length === 0 || (on.length === 1 && on[0] === 'red')) && (start.redsLeft === undefined || start.redsLeft === 15);
  if (opening) return null;
  const std = standardLayout(table, R);
  const nReds = start.redsLeft ?? (single ? 0 : 15);
  const balls: Record<string, PointMm> = {};
  for (const id of RED_IDS.slice(0, nReds)) balls[id] = std[id]!;
  const colours = single && nReds === 0 ? COLOURS.slice(COLOURS.indexOf(single)) : COLOURS;
  for (const c of colours) balls[c] = { ...table.spots[c]! };
  // Somewhere on the table, away from every spot: the geometry calls are skipped until a rest is known.
  balls.white = { x: table.bed.width / 4, y: table.bed.length * 0.4 };
  return balls;
}

export function initState(log: StrokeLog, table: TableProfile): Result<SnookerState, InputErrorInfo> {
  const variant = log.variant ?? 'standard';
  if (!(SNOOKER_VARIANTS as readonly string[]).includes(variant)) {
    return err({ code: 'UNKNOWN_VARIANT', field: 'variant', message: `unknown snooker variant '${variant}' (known: ${SNOOKER_VARIANTS.join(', ')})` });
  }
  const cfg = configFor(variant, log.config);
  if (!cfg.success) {
    const i = cfg.error.issues[0]!;
    return err({ code: 'BAD_CONFIG', field: `config.${i.path.join('.')}`, message: `invalid snooker option: ${i.message}` });
  }
  const R = table.ballDiameter / 2;
  const rawStart = log.start ?? {};
  // Plural spellings an examiner may write for the phase: "reds" = "red", "colours" = "colour".
  const syn = (b: string) => (b === 'reds' ? 'red' : b === 'colours' || b === 'color' || b === 'colors' ? 'colour' : b);
  const start = rawStart.ballOn === undefined ? rawStart : { ...rawStart, ballOn: Array.isArray(rawStart.ballOn) ? rawStart.ballOn.map(syn) : syn(rawStart.ballOn) };
  let balls: Record<string, PointMm>;
  let inHand: boolean;
  let positionsKnown = true;
  const joined = start.balls === undefined ? joinedLayout(start, table, R) : null;
  if (joined) {
    // A frame joined midway with no positions: the balls the state implies, where is unknown.
    balls = joined;
    inHand = start.inHand ?? false;
    if (inHand) delete balls.white;
    positionsKnown = false;
  } else if (start.balls === undefined || start.balls === 'standard') {
    balls = standardLayout(table, R);
    if (start.inHand === false) return err({ code: 'BAD_START', field: 'start.inHand', message: 'the standard layout starts with the white in hand; list the balls to start with the white on the table' });
    inHand = true;
  } else {
    const bad = checkPositions(start.balls, { table, knownIds: KNOWN_IDS, radiusOf: () => R }, 0, 'start.balls');
    if (bad) return err({ ...bad, stroke: undefined, field: bad.field } as InputErrorInfo);
    balls = Object.fromEntries(start.balls.map((b) => [b.id, { x: b.x, y: b.y }]));
    inHand = start.inHand ?? !balls.white;
    if (!inHand && !balls.white) return err({ code: 'BAD_START', field: 'start.balls', message: 'the white is not listed, but start.inHand is false: list the white or leave it in hand' });
    if (inHand) delete balls.white;
  }
  const reds = Object.keys(balls).filter(isRed).length;
  let phase: Phase = reds > 0 ? 'RED_ON' : 'COLOURS_SEQUENCE';
  let colourOn: Colour = lowestColour(balls) ?? 'black';
  if (start.ballOn !== undefined) {
    const on = Array.isArray(start.ballOn) ? start.ballOn : [start.ballOn];
    if (on.length === 1 && on[0] === 'red') {
      if (reds === 0) return err({ code: 'BAD_START', field: 'start.ballOn', message: 'ballOn is red but no red is on the table' });
      phase = 'RED_ON';
    } else if (on.length === 1 && isColour(on[0]!)) {
      if (reds > 0) return err({ code: 'BAD_START', field: 'start.ballOn', message: `ballOn '${on[0]}' alone means the colour sequence, but ${reds} reds are on the table (use ["colour"] or the six colours for a colour after a red)` });
      if (!balls[on[0]!]) return err({ code: 'BAD_START', field: 'start.ballOn', message: `ball on '${on[0]}' is not on the table` });
      phase = 'COLOURS_SEQUENCE';
      colourOn = on[0] as Colour;
    } else if (on.every((b) => b === 'colour' || isColour(b))) {
      phase = 'COLOUR_AFTER_RED';
    } else {
      return err({ code: 'BAD_START', field: 'start.ballOn', message: `ballOn must be "red", one colour, or the colours after a red; got ${JSON.stringify(start.ballOn)}` });
    }
  }
  if (start.redsLeft !== undefined && start.redsLeft !== reds) {
    return err({ code: 'BAD_START', field: 'start.redsLeft', message: `redsLeft is ${start.redsLeft} but start.balls has ${reds} reds` });
  }
  if (phase === 'COLOURS_SEQUENCE' && !balls[colourOn] && lowestColour(balls) === null) {
    return err({ code: 'BAD_START', field: 'start.balls', message: 'no object ball is on the table: the frame is already over' });
  }
  const scores = (start.scores ?? [0, 0]) as [number, number];
  return ok({
    table,
    config: { ...cfg.data, tieWindowS: tieWindowS(cfg.data.tieWindowS, log.frameS) },
    variant,
    R,
    balls,
    positionsKnown,
    scores: [scores[0], scores[1]],
    striker: (start.player ?? 0) as Player,
    phase,
    colourOn,
    inHand,
    breakPoints: 0,
    freeBall: false,
    pendingRespots: [],
    hanging: {},
    foul: null,
    missChain: null,
    missWarning: false,
    awaitingLots: false,
    frameOver: false,
    winner: null,
    strokes: 0,
  });
}
