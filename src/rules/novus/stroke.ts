/**
 * Stroke evaluation (spec §4 facts, §5 correct strokes, §6 penalty cases from the striker's path,
 * §7 L3 return line). Pure: the pre-stroke position and the validated events in, facts and fouls out.
 */
import type { CushionSide } from '../../core/games.js';
import type { StrokeEvent } from '../../core/contracts/strokes.js';
import type { PointMm } from '../../core/table.js';
import { firstContactSet } from '../validate.js';
import type { NovusConfig } from './config.js';
import {
  centreInCircle,
  distToOwnEdge,
  holeBeyondZoneLine,
  holeInEdgeStrip,
  isUncertain,
  pawnInOwnStrip,
  pawnIsDark,
  type NovusBoard,
  type Player,
} from './geometry.js';
import type { PenaltyFoulCode } from './penalties.js';
import { ownerOf, STRIKER } from './state.js';

/** An edge as seen by the striking player (spec §3.1). */
export type RelEdge = 'own' | 'far' | 'left' | 'right';

export function relativeEdge(side: CushionSide, player: Player): RelEdge {
  if (player === 0) return side === 'bottom' ? 'own' : side === 'top' ? 'far' : side;
  // Player 1 faces down the board: his left is the contract's right.
  return side === 'top' ? 'own' : side === 'bottom' ? 'far' : side === 'left' ? 'right' : 'left';
}

export interface StrokeFoul {
  code: PenaltyFoulCode;
  detail: string;
  ball?: string;
}

export interface Review {
  code: string;
  reason: string;
  conf: number;
  ask?: string;
}

export interface StrokeFacts {
  /** DIRECT: no edge before the first pawn contact (or no pawn and no edge); REBOUND otherwise. */
  type: 'direct' | 'rebound';
  firstPawns: string[];
  firstContactT: number;
  edgesBeforeFirstPawn: RelEdge[];
  hasLight: boolean;
  hasDark: boolean;
  /** The striker's own dark pawns before the stroke, and the field each lies in. */
  darkPawns: Record<string, 'strip' | 'circle'>;
  /** The striker had left its edge strip before its first pawn contact (exempts that contact from N-P7). */
  leftStripBeforeFirst: boolean;
  /** Striker's hole came back fully inside the own strip after having been out of it (§1.1 return line). */
  returnedToOwnZone: boolean;
}

export interface Judgement {
  facts: StrokeFacts;
  fouls: StrokeFoul[];
  reviews: Review[];
}

export interface JudgeInput {
  board: NovusBoard;
  config: NovusConfig;
  player: Player;
  /** Pawns on the board at the strike. */
  pre: Readonly<Record<string, PointMm>>;
  /** Events from the strike on. */
  events: readonly StrokeEvent[];
  paths?: Readonly<Record<string, readonly (readonly [number, number, number])[]>>;
  /** The striker's rest position, when it is still on the board. */
  strikerRest?: PointMm;
  strikerGone: boolean;
}

export function judgeStroke(inp: JudgeInput): Judgement {
  const { board: b, config, player: P, pre, events } = inp;
  const reviews: Review[] = [];
  const fouls: StrokeFoul[] = [];

  // Light and dark, on the pre-stroke position (spec §4).
  const darkPawns: Record<string, 'strip' | 'circle'> = {};
  let hasLight = false;
  for (const [id, pos] of Object.entries(pre)) {
    if (ownerOf(id) !== P) continue;
    const d = pawnIsDark(b, pos, P);
    if (d.value) darkPawns[id] = d.field!;
    else hasLight = true;
  }
  const hasDark = Object.keys(darkPawns).length > 0;

  const first = firstContactSet(events, STRIKER, config.tieS);
  const firstPawns = first.balls.filter((id) => ownerOf(id) !== null);
  const firstT = firstPawns.length ? first.t : Infinity;
  if (firstPawns.length > 1) {
    reviews.push({ code: 'SIMULTANEOUS_CONTACT', reason: `the striker met ${firstPawns.join(' and ')} within ${config.tieS * 1000} ms: taken as simultaneous`, conf: 0.5 });
  }
  if (first.conf < config.minConf) {
    reviews.push({ code: 'LOW_CONFIDENCE', reason: `first contact seen with confidence ${first.conf}`, conf: first.conf });
  }
  for (const id of firstPawns) {
    const pos = pre[id];
    if (!pos || ownerOf(id) !== P) continue;
    const d = pawnIsDark(b, pos, P);
    if (isUncertain(d)) {
      reviews.push({ code: 'DARK_UNCERTAIN', reason: `pawn '${id}' is ${d.value ? 'dark' : 'light'} by ${d.marginMm.toFixed(2)} mm only: the line may or may not show through its hole`, conf: 0.5, ask: 'confirm light or dark' });
    }
  }

  const strikerCushions = events.filter((e): e is Extract<StrokeEvent, { type: 'cushion' }> => e.type === 'cushion' && e.ball === STRIKER);
  const edgesBefore: RelEdge[] = [];
  for (const e of strikerCushions) {
    if (e.t >= firstT) break;
    const r = relativeEdge(e.side, P);
    if (!edgesBefore.includes(r)) edgesBefore.push(r);
  }
  const type: 'direct' | 'rebound' = edgesBefore.length === 0 ? 'direct' : 'rebound';
  const farFirst = edgesBefore.includes('far');
  const sideFirst = edgesBefore.includes('left') || edgesBefore.includes('right');

  // Striker path relative to the own strip: did it leave (before the first pawn), did it come back?
  const zoneLine = P === 0 ? 'zone0' : 'zone1';
  // The contract words zone crossings `in`/`out` and lines `up`/`down` the table; a hand-entered log
  // may use either for a zone line. zone0 (player 0's strip, y < zone line): `down` = in; zone1: `up` = in.
  const crosses = events
    .filter((e): e is Extract<StrokeEvent, { type: 'cross' }> => e.type === 'cross' && e.ball === STRIKER && e.line === zoneLine)
    .map((e) => (e.dir === 'up' || e.dir === 'down' ? { ...e, dir: (e.dir === 'down') === (P === 0) ? ('in' as const) : ('out' as const) } : e));
  const path = inp.paths?.[STRIKER] ?? [];
  const rh = b.strikerHoleRadiusMm;
  const outAt: number[] = [
    ...crosses.filter((e) => e.dir === 'out').map((e) => e.t),
    ...path.filter(([, x, y]) => holeBeyondZoneLine(b, { x, y }, rh, P).value).map(([t]) => t),
    ...strikerCushions.filter((e) => relativeEdge(e.side, P) === 'far').map((e) => e.t),
  ];
  // A pawn the striker cannot reach while its hole is still inside the strip proves it left.
  const reachLimit = b.zoneLineMm + b.zoneLineWidthMm / 2 + rh + b.strikerRadiusMm + b.pawnRadiusMm;
  for (const e of events) {
    if (e.type !== 'contact' || (e.a !== STRIKER && e.b !== STRIKER)) continue;
    const other = e.a === STRIKER ? e.b : e.a;
    const pos = pre[other];
    if (pos && distToOwnEdge(b, pos, P) >= reachLimit) outAt.push(e.t);
  }
  const firstOut = outAt.length ? Math.min(...outAt) : Infinity;
  const leftStripBeforeFirst = firstOut <= firstT;
  let returned = false;
  if (firstOut < Infinity) {
    // An 'in' crossing implies the striker had been out even when the 'out' was not logged.
    returned = crosses.some((e) => e.dir === 'in') ||
      path.some(([t, x, y]) => t > firstOut && holeInEdgeStrip(b, { x, y }, rh, P).value) ||
      (!inp.strikerGone && inp.strikerRest !== undefined && holeInEdgeStrip(b, inp.strikerRest, rh, P).value);
  } else if (crosses.some((e) => e.dir === 'in')) {
    returned = true;
  }

  // Correct stroke (spec §5) and the penalty cases read from the striker's path (§6).
  if (firstPawns.length === 0) {
    if (hasLight) fouls.push({ code: 'NO_CONTACT', detail: 'the striker touched no pawn while the player has light pawns' });
    else if (!farFirst) fouls.push({ code: 'NO_CONTACT', detail: 'the striker touched no pawn and not the far edge (the player has only dark pawns)' });
  } else {
    const own = firstPawns.filter((id) => ownerOf(id) === P);
    const opp = firstPawns.filter((id) => ownerOf(id) !== P);
    const ownDark = own.filter((id) => id in darkPawns);
    const inCircle = (id: string) => pre[id] !== undefined && centreInCircle(b, pre[id]!);
    const sideToCircle = config.sideBankToCircleDark && sideFirst && opp.length === 0 && own.every(inCircle);
    if (type === 'direct') {
      if (opp.length) fouls.push({ code: 'OPPONENT_PAWN_FIRST', ball: opp[0], detail: `direct stroke: the first pawn contact includes the opponent's ${opp.join(', ')}` });
      if (ownDark.length) fouls.push({ code: 'DARK_PAWN_FIRST', ball: ownDark[0], detail: `direct stroke onto the own dark pawn ${ownDark.join(', ')} (${ownDark.map((id) => darkPawns[id]).join(', ')})` });
    } else if (hasLight) {
      if (opp.length) fouls.push({ code: 'OPPONENT_PAWN_FIRST', ball: opp[0], detail: `rebound: the first pawn contact includes the opponent's ${opp.join(', ')} while the player has light pawns` });
      const darkOk = (farFirst && !config.farEdgeOnlyWithoutLight) || sideToCircle;
      if (ownDark.length && !darkOk) {
        fouls.push({ code: 'BAD_REBOUND', ball: ownDark[0], detail: `rebound off the ${edgesBefore.join(', ')} edge onto the own dark pawn ${ownDark.join(', ')}${config.farEdgeOnlyWithoutLight && farFirst ? ' (far-edge route only without light pawns)' : ' without the far edge first'}` });
      } else if (config.reboundMustTouchFarEdge && !farFirst && !sideToCircle && !opp.length) {
        fouls.push({ code: 'BAD_REBOUND', ball: own[0], detail: 'rebound that touched neither the far edge nor a pawn in the centre circle (strict reading)' });
      }
    } else if (!farFirst && !sideToCircle) {
      fouls.push({ code: 'BAD_REBOUND', ball: firstPawns[0], detail: `only dark pawns: the striker reached ${firstPawns.join(', ')} off the ${edgesBefore.join(', ')} edge, not the far edge first` });
    }
    // Seed 003 rule 12.4: starting out, the striker must not touch a pawn lying in the own dark strip.
    const inOwnStrip = firstPawns.filter((id) => pre[id] !== undefined && pawnInOwnStrip(b, pre[id]!, P).value);
    if (inOwnStrip.length && !leftStripBeforeFirst) {
      fouls.push({ code: 'OWN_ZONE_PAWN_FIRST', ball: inOwnStrip[0], detail: `the striker touched ${inOwnStrip.join(', ')} in the own edge strip before any pawn outside it` });
    }
  }

  return {
    facts: {
      type,
      firstPawns,
      firstContactT: firstT,
      edgesBeforeFirstPawn: edgesBefore,
      hasLight,
      hasDark,
      darkPawns,
      leftStripBeforeFirst,
      returnedToOwnZone: returned,
    },
    fouls,
    reviews,
  };
}

/**
 * Whether the return-line rule (L3) ends the turn (spec §7; Q2): `seed` exempts a player with any
 * dark pawn; `na` applies only on direct strokes while he has a light pawn.
 */
export function returnLineApplies(config: NovusConfig, facts: StrokeFacts): boolean {
  if (!facts.returnedToOwnZone) return false;
  switch (config.returnLine) {
    case 'seed':
      return !facts.hasDark;
    case 'na':
      return facts.type === 'direct' && facts.hasLight;
    case 'off':
      return false;
  }
}
