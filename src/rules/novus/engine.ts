/**
 * The Novus referee: `applyStroke(state, stroke) → {state, call}` (spec ../shared/spec/rules-novus.md).
 * Order of work on a stroke: check the input (ids, time order, pieces on the board, decisions),
 * read the position before the strike, judge the striker's path (stroke.ts), put back what the rules
 * put back (penalties.ts), then turn, series, set and match (set.ts). Pure: no I/O, no clock.
 */
import type { BaseCall, FoulCall, ReviewEntry } from '../../core/contracts/calls.js';
import type { Stroke, StrokeEvent, StrokeLog } from '../../core/contracts/strokes.js';
import type { InputErrorInfo } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';
import type { PointMm, TableProfile } from '../../core/table.js';
import type { RulesEngine, StrokeOutcome } from '../contract.js';
import { checkStrokeCommon } from '../validate.js';
import { NOVUS_VARIANTS } from './config.js';
import { dist, distToOwnEdge, pawnIsDark, strikerPlacementFaults, VISIBILITY_UNCERTAINTY_MM, type Player } from './geometry.js';
import {
  MATCH_LOSS_CODES,
  nearestSide,
  PENALTY_FOUL_CODES,
  placeAtOriginal,
  placeOwnPawnOff,
  placePenaltyPawns,
  placeStacked,
  RULE_OF,
  SET_LOSS_CODES,
  WARNING_CODE,
  WARNINGS_TO_LOSE,
  type PenaltyFoulCode,
  type Placed,
} from './penalties.js';
import { cleared, finishSet, forfeitMatch, nextSetFirstStriker } from './set.js';
import { ALL_IDS, cloneState, initState, other, ownerOf, PAWNS_PER_PLAYER, startNewSet, STRIKER, type NovusState } from './state.js';
import { judgeStroke, returnLineApplies, type RelEdge, type Review } from './stroke.js';

export type LossOfTurn = 'L1' | 'L2' | 'L3' | 'L4';

/** A Novus call: the contract's fields with their meanings, plus Novus fields (docs/rules-novus.md). */
export interface NovusCall extends BaseCall {
  /** What the striker may play first: `light` (own light pawns) or `dark` (only dark pawns: far edge, or side edge → circle). */
  ballOn: 'light' | 'dark';
  fouls: (FoulCall & { player: Player; rule: string })[];
  strokeType: 'direct' | 'rebound' | null;
  firstContact: string[];
  edgesBeforeFirstPawn: RelEdge[];
  /** The striker's own dark pawns before the stroke. */
  darkPawns: string[];
  ownPotted: string[];
  opponentPotted: string[];
  strikerPocketed: boolean;
  strikerOffBoard: boolean;
  offBoard: string[];
  respot: Placed[];
  /** Penalty pawns due on this stroke per player (placed or added to the debt). */
  penaltyPawns: [number, number];
  penaltyDebt: [number, number];
  /** Debt pawns placed at the end of this turn, per player. */
  debtSettled: [number, number];
  /** The striker keeps the right to strike (seed 003 rule 12.10). */
  series: boolean;
  /** Own pawns pocketed in the current series including this stroke. */
  break: number;
  lossOfTurn: LossOfTurn | null;
  returnLine: boolean;
  placement: { x: number; y: number; legal: boolean; faults: string[] } | null;
  setNumber: number;
  setScores: [number, number];
  setLost: { player: Player; code: string } | null;
  setReplay: boolean;
  firstSeriesSweep: boolean;
  matchOver: boolean;
  matchWinner: Player | null;
}

type EvIdx = { e: StrokeEvent; i: number };
const fail = (stroke: number, field: string, code: string, message: string) => err<InputErrorInfo>({ code, stroke, field, message });

/** Distance (mm) a logged placement may differ from where the rules put the pawn before it is flagged. */
const PLACEMENT_CHECK_MM = 5;
const NOT_IN_NOVUS = new Set(['requestEnd', 'lots', 'miss', 'stalemate']);
const SET_LOSS = new Set(Object.keys(SET_LOSS_CODES));
const MATCH_LOSS = new Set<string>(MATCH_LOSS_CODES);
const PENALTY = new Set<string>(PENALTY_FOUL_CODES);
/** Events that mean pieces moved: without a logged strike, the first of them starts the stroke. */
const MOVEMENT = new Set<string>(['contact', 'cushion', 'pot', 'offTable', 'hanging', 'jump', 'stacked', 'doubleHit', 'push']);
/** A striker at rest within this distance (mm) of where it was placed has not been shown to move. */
const SAME_SPOT_MM = 5;
/** A pawn touched before the strike within this gap (mm) of the placed striker was nudged by the placing. */
const PLACING_NUDGE_MM = 5;
const NOVUS_POCKETS = new Set<string>(['BL', 'BR', 'TL', 'TR']);
/** Names of the spec's manual inputs (§3.2) accepted for the codes they mean. */
const FOUL_ALIASES: Record<string, string> = {
  OUT_OF_TURN: 'PLAYED_OUT_OF_TURN',
  REFUSED_TO_STRIKE: 'DELAY',
  // The contract's codes of the other games for the same Novus faults (a hand-entered log may use them).
  TOUCHED_BALL: 'TOUCHED_PAWN',
  STRUCK_WHILE_MOVING: 'TOUCHED_PAWN',
  PUSH_STROKE: 'DOUBLE_HIT',
};

function radiusOf(s: NovusState) {
  return (id: string) => (id === STRIKER ? s.board.strikerRadiusMm : s.board.pawnRadiusMm);
}

/** Ids the stroke names anywhere: these keep their identity when pawns are interchanged. */
function referencedIds(stroke: Stroke): Set<string> {
  const ids = new Set<string>();
  for (const b of stroke.before ?? []) ids.add(b.id);
  for (const b of stroke.rest ?? []) ids.add(b.id);
  for (const e of stroke.events) for (const k of ['ball', 'a', 'b', 'on'] as const) {
    const v = (e as Record<string, unknown>)[k];
    if (typeof v === 'string') ids.add(v);
  }
  return ids;
}

/**
 * A penalty pawn the referee put back is "one of his pocketed pawns": if the log calls it by another
 * id of the same player, swap the two ids rather than reject the log.
 */
function aliasPawn(s: NovusState, id: string, referenced: ReadonlySet<string>): boolean {
  const owner = ownerOf(id);
  if (owner === null || id in s.pieces) return false;
  const k = s.pocketed[owner].indexOf(id);
  if (k < 0) return false;
  const y = s.interchangeable.find((c) => ownerOf(c) === owner && c in s.pieces && !referenced.has(c));
  if (!y) return false;
  s.pieces[id] = s.pieces[y]!;
  delete s.pieces[y];
  s.pocketed[owner][k] = y;
  s.interchangeable = s.interchangeable.map((c) => (c === y ? id : c));
  return true;
}

export function applyNovusStroke(input: NovusState, stroke: Stroke, index: number): Result<StrokeOutcome<NovusState, NovusCall>, InputErrorInfo> {
  if (input.matchOver) {
    return fail(index, 'strokes', 'MATCH_OVER', `the match is over (${input.matchWinner === null ? 'drawn' : `player ${input.matchWinner} won`} ${input.setScores.join(':')}): no stroke may follow; remove it or raise config.maxSets/setsToWin`);
  }
  let s = cloneState(input);
  if (s.set.over) s = startNewSet(s, nextSetFirstStriker(s), false);
  const b = s.board;
  const reviews: Review[] = [];
  // The log's `player` says who is at the table. A disagreement with the rules is flagged, and the
  // stroke is judged as that player's: out-of-turn play is a manual call in Novus (loss of set h,
  // and only if noticed before the next stroke), and the rest of the log stays judgeable.
  if (stroke.player !== undefined && stroke.player !== s.toPlay) {
    reviews.push({ code: 'OUT_OF_TURN', reason: `the log gives this stroke to player ${stroke.player} but player ${s.toPlay} has the right to strike by the rules; judged as player ${stroke.player}'s`, conf: 0.5, ask: 'check the turn (PLAYED_OUT_OF_TURN if it was the first strike of the set)' });
    s.toPlay = stroke.player;
    s.series = 0;
  }
  const P = s.toPlay;
  const O = other(P);

  // ---- Input checks (errors: the log cannot be judged) ----
  if (stroke.decision !== undefined && stroke.decision !== 'play') {
    return fail(index, 'decision', 'DECISION_NOT_ALLOWED', `Novus has no '${stroke.decision}' choice: after a Novus penalty the opponent always takes the board; remove the field or use 'play'`);
  }
  for (let i = 0; i < stroke.events.length; i++) {
    const e = stroke.events[i]!;
    if (NOT_IN_NOVUS.has(e.type)) return fail(index, `events[${i}].type`, 'EVENT_NOT_ALLOWED', `a '${e.type}' event has no meaning in Novus`);
    if (e.type === 'stacked') {
      for (const k of ['ball', 'on'] as const) {
        if (!ALL_IDS.has(e[k])) return fail(index, `events[${i}].${k}`, 'UNKNOWN_BALL', `unknown piece id '${e[k]}' in 'stacked' event (known: striker, a1…a8, b1…b8)`);
      }
      if (e.ball === STRIKER) return fail(index, `events[${i}].ball`, 'BAD_EVENT', `only a pawn can land on another piece; the striker cannot be the upper piece of 'stacked'`);
      if (e.ball === e.on) return fail(index, `events[${i}]`, 'SELF_CONTACT', `a pawn cannot land on itself ('${e.ball}')`);
    }
  }
  const stackedUppers = new Set(stroke.events.flatMap((e) => (e.type === 'stacked' ? [e.ball] : [])));
  // Stacked pawns overlap at rest by definition: their rest positions are checked for the bed only.
  const forCommon: Stroke = stroke.rest ? { ...stroke, rest: stroke.rest.filter((r) => !stackedUppers.has(r.id)) } : stroke;
  const common = checkStrokeCommon(forCommon, index, { table: tableOf(s), knownIds: ALL_IDS, radiusOf: radiusOf(s) });
  if (common) return err(common);
  for (const [k, e] of stroke.events.entries()) {
    const pocket = e.type === 'pot' || e.type === 'hanging' ? e.pocket : e.type === 'cushion' ? e.jaw : undefined;
    if (pocket !== undefined && !NOVUS_POCKETS.has(pocket)) {
      return fail(index, `events[${k}].${e.type === 'cushion' ? 'jaw' : 'pocket'}`, 'UNKNOWN_POCKET', `a Novus board has only the corner pockets BL, BR, TL, TR; there is no '${pocket}'`);
    }
    if (e.type === 'place' && (e.x < 0 || e.x > b.sizeMm || e.y < 0 || e.y > b.sizeMm)) {
      return fail(index, `events[${k}]`, 'BALL_OFF_BED', `'${e.ball}' placed at (${e.x}, ${e.y}) mm, outside the ${b.sizeMm}×${b.sizeMm} mm board`);
    }
  }

  const referenced = referencedIds(stroke);
  for (const id of referenced) aliasPawn(s, id, referenced);

  // ---- The position at the strike ----
  const pre: Record<string, PointMm> = { ...s.pieces };
  let strikerAt: PointMm | undefined;
  if (stroke.before) {
    const listed = new Set<string>();
    for (const [k, e] of stroke.before.entries()) {
      listed.add(e.id);
      if (e.id === STRIKER) strikerAt = { x: e.x, y: e.y };
      else if (e.id in pre) pre[e.id] = { x: e.x, y: e.y };
      else {
        // The camera saw it on the table: take `before` as the truth and flag the disagreement.
        const owner = ownerOf(e.id)!;
        s.pocketed[owner] = s.pocketed[owner].filter((id) => id !== e.id);
        s.pieces[e.id] = pre[e.id] = { x: e.x, y: e.y };
        reviews.push({ code: 'BEFORE_MISMATCH', reason: `before[${k}]: '${e.id}' is on the table though pocketed by the rules so far; taken from before`, conf: 0.5 });
      }
    }
    const missing = Object.keys(pre).filter((id) => !listed.has(id));
    if (missing.length) reviews.push({ code: 'BEFORE_MISMATCH', reason: `before does not list ${missing.join(', ')}, still on the board by the rules; last known positions used`, conf: 0.5 });
  }

  let strikeIdx = stroke.events.findIndex((e) => e.type === 'strike');
  if (strikeIdx < 0) {
    // Pieces moved but the strike was not logged: the stroke starts with the first movement; flagged.
    strikeIdx = stroke.events.findIndex((e) => MOVEMENT.has(e.type));
    if (strikeIdx >= 0) reviews.push({ code: 'NO_STRIKE_EVENT', reason: `no 'strike' event: the stroke is taken to start at events[${strikeIdx}] (t=${stroke.events[strikeIdx]!.t} s)`, conf: 0.5 });
  }
  const struck = strikeIdx >= 0;
  const preStrike: EvIdx[] = [];
  const afterStrike: EvIdx[] = [];
  // The strike event opens the stroke: it and everything after it are the stroke proper.
  stroke.events.forEach((e, i) => (struck && i >= strikeIdx ? afterStrike : preStrike).push({ e, i }));
  const strikeT = struck ? stroke.events[strikeIdx]!.t : Infinity;
  // A striker listed in `start.balls` is the placement of the log's first stroke, unless it says otherwise.
  if (s.startStriker && struck) {
    // Only a striker in the striker's own edge area is a placement; one elsewhere is where it last stopped.
    const nearOwnEdge = distToOwnEdge(b, s.startStriker, P) <= b.zoneLineMm + b.zoneLineWidthMm / 2 + b.strikerRadiusMm;
    if (nearOwnEdge && !strikerAt && !preStrike.some(({ e }) => e.type === 'place' && e.ball === STRIKER)) strikerAt = { ...s.startStriker };
    s.startStriker = null;
  }

  const strikerFouls: { code: PenaltyFoulCode; detail: string; ball?: string }[] = [];
  const oppFouls: { code: PenaltyFoulCode; detail: string; ball?: string }[] = [];
  const otherFouls: { code: string; detail: string; player: Player; ball?: string }[] = [];
  let setLoser: { player: Player; code: string } | null = null;
  let matchLoser: Player | null = null;
  const placingTouches: string[] = [];

  for (const { e, i } of preStrike) {
    switch (e.type) {
      case 'place':
        if (e.ball === STRIKER) strikerAt = { x: e.x, y: e.y };
        else if (e.ball in pre) pre[e.ball] = { x: e.x, y: e.y };
        else {
          // A pocketed pawn put on the board by hand: it is there now. If its owner owed a pawn, this pays it.
          const owner = ownerOf(e.ball)!;
          s.pocketed[owner] = s.pocketed[owner].filter((id) => id !== e.ball);
          s.pieces[e.ball] = pre[e.ball] = { x: e.x, y: e.y };
          if (s.debt[owner] > 0) {
            s.debt[owner] -= 1;
            reviews.push({ code: 'DEBT_PAID', reason: `events[${i}]: '${e.ball}' put back by hand pays one owed penalty pawn`, conf: 0.8 });
          } else reviews.push({ code: 'PLACEMENT_NOT_DUE', reason: `events[${i}]: '${e.ball}' was pocketed and no rule returns it; taken as on the board`, conf: 0.5 });
        }
        break;
      case 'contact': {
        if (e.a !== STRIKER && e.b !== STRIKER) return fail(index, `events[${i}]`, 'EVENT_BEFORE_STRIKE', `pawns '${e.a}' and '${e.b}' collide before the strike: give the strike event first`);
        const pawn = e.a === STRIKER ? e.b : e.a;
        if (!(pawn in pre)) return fail(index, `events[${i}].${e.a === STRIKER ? 'b' : 'a'}`, 'NOT_ON_BOARD', `pawn '${pawn}' is not on the board`);
        placingTouches.push(pawn);
        break;
      }
      case 'touch':
      case 'foul':
      case 'concede':
      case 'cross':
        break;
      default:
        if (struck) return fail(index, `events[${i}]`, 'EVENT_BEFORE_STRIKE', `a '${e.type}' event at t=${e.t} s comes before the strike at t=${strikeT} s: nothing moves before the striker is struck`);
        return fail(index, `events[${i}]`, 'NO_STRIKE', `a '${e.type}' event needs a stroke: add the 'strike' event of the striker`);
    }
  }

  // Track what is on the board through the stroke: a pot or contact of a piece not there is an error.
  const onBoard = new Set<string>([...Object.keys(pre), STRIKER]);
  const removedAt = new Map<string, number>();
  const potted: string[] = [];
  const off: string[] = [];
  let strikerPocketed = false;
  let strikerOff = false;
  let strikes = 0;
  const stacked: Extract<StrokeEvent, { type: 'stacked' }>[] = [];
  const loggedPlace = new Map<string, PointMm>();
  const need = (id: string, i: number, field: string): InputErrorInfo | null => {
    if (onBoard.has(id)) return null;
    const at = removedAt.get(id);
    return {
      code: 'NOT_ON_BOARD',
      stroke: index,
      field: `events[${i}].${field}`,
      message: at !== undefined ? `'${id}' already left the board at events[${at}]` : `'${id}' is not on the board (pocketed earlier): a pawn put back by a rule comes back through the calls' respot`,
    };
  };
  for (const { e, i } of afterStrike) {
    switch (e.type) {
      case 'strike':
        strikes++;
        if (e.ball !== STRIKER) strikerFouls.push({ code: 'TOUCHED_PAWN', ball: e.ball, detail: `the cue struck pawn '${e.ball}', not the striker` });
        else if (strikes > 1) strikerFouls.push({ code: 'DOUBLE_HIT', detail: `the cue struck the striker again at t=${e.t} s` });
        break;
      case 'contact': {
        const bad = need(e.a, i, 'a') ?? need(e.b, i, 'b');
        if (bad) return err(bad);
        break;
      }
      case 'cushion':
      case 'hanging':
      case 'jump':
      case 'cross': {
        const bad = need(e.ball, i, 'ball');
        if (bad) return err(bad);
        if (e.type === 'jump') reviews.push({ code: 'AIRBORNE', reason: `'${e.ball}' may have left the board's surface at t=${e.t} s`, conf: e.conf ?? 0.5 });
        break;
      }
      case 'pot':
      case 'offTable': {
        const bad = need(e.ball, i, 'ball');
        if (bad) return err(bad);
        onBoard.delete(e.ball);
        removedAt.set(e.ball, i);
        if (e.ball === STRIKER) {
          if (e.type === 'pot') strikerPocketed = true;
          else strikerOff = true;
        } else (e.type === 'pot' ? potted : off).push(e.ball);
        if ((e.conf ?? 1) < s.config.minConf) reviews.push({ code: 'LOW_CONFIDENCE', reason: `events[${i}]: '${e.type}' of '${e.ball}' seen with confidence ${e.conf}`, conf: e.conf! });
        break;
      }
      case 'stacked': {
        for (const k of ['ball', 'on'] as const) {
          const bad = need(e[k], i, k);
          if (bad) return err(bad);
        }
        stacked.push(e);
        reviews.push({ code: 'STACKED', reason: `'${e.ball}' landed on '${e.on}': laid beside it (seed 003 rule 12.11)`, conf: e.conf ?? 0.5 });
        break;
      }
      case 'place':
        if (e.ball === STRIKER) break;
        loggedPlace.set(e.ball, { x: e.x, y: e.y });
        break;
      case 'push':
      case 'doubleHit':
        // N-P10 is ASSISTED: called when seen clearly, and always put to the referee to confirm.
        if ((e.conf ?? 1) >= s.config.minConf) strikerFouls.push({ code: 'DOUBLE_HIT', detail: `the cue moved the striker twice (t=${e.t} s)` });
        reviews.push({ code: 'DOUBLE_HIT', reason: `second impulse of the striker at t=${e.t} s${e.conf !== undefined ? ` (confidence ${e.conf})` : ''}`, conf: e.conf ?? 0.8, ask: 'confirm a double stroke' });
        break;
      default:
        break;
    }
  }

  // Events any time in the stroke: hand touches, manual fouls, concessions.
  for (const { e, i } of [...preStrike, ...afterStrike]) {
    if (e.type === 'touch') {
      const lowConf = (e.conf ?? 1) < s.config.minConf;
      const owner = ownerOf(e.ball);
      // Seed 003 rule 12.5: until the stroke the player may move the placed striker by hand (or
      // re-place it). Only the cue touching it makes a stroke (rule 12.9), so that stays a fault.
      if (e.ball === STRIKER && e.by !== 'cue' && (!struck || i < strikeIdx)) continue;
      // Before the strike, a pawn moved right beside the placed striker was nudged by the placing (N-P8).
      const placingAt = strikerAt;
      if (!lowConf && i < strikeIdx && placingAt && owner !== null && pre[e.ball] && dist(placingAt, pre[e.ball]!) - b.strikerRadiusMm - b.pawnRadiusMm < PLACING_NUDGE_MM) {
        placingTouches.push(e.ball);
        continue;
      }
      // A hand or clothing moving a pawn of the player who is not striking is that player's doing
      // (N-P13); so is a pawn of his seen moving with no contact and no cause the camera could
      // name (`other`: spec N30, MOTION_WITHOUT_CONTACT while the other player is the striker) —
      // flagged for the referee to confirm who moved it, like every N-P13.
      const byOpponent = owner === O && (e.by === 'hand' || e.by === 'clothing' || e.by === 'other');
      if (lowConf) {
        reviews.push({ code: 'TOUCHED_PAWN', reason: `events[${i}]: '${e.ball}' may have been moved by ${e.by} (confidence ${e.conf})`, conf: e.conf!, ask: 'confirm who moved it' });
      } else if (byOpponent) {
        oppFouls.push({ code: 'MOVED_IN_OPPONENT_TURN', ball: e.ball, detail: `player ${O} moved his pawn '${e.ball}' by ${e.by} during player ${P}'s turn` });
        reviews.push({ code: 'MOVED_IN_OPPONENT_TURN', reason: `events[${i}]: '${e.ball}' moved by ${e.by}, taken as its owner's doing`, conf: 0.7, ask: 'confirm who moved the pawn' });
      } else {
        strikerFouls.push({ code: 'TOUCHED_PAWN', ball: e.ball, detail: `'${e.ball}' was touched by ${e.by}${i < strikeIdx ? ' before the stroke' : ''}` });
      }
    } else if (e.type === 'foul') {
      const code = FOUL_ALIASES[e.code] ?? e.code;
      // Moving pawns in the opponent's turn is, by definition, the non-striker's doing.
      const offender: Player = e.player ?? (code === 'MOVED_IN_OPPONENT_TURN' ? O : P);
      if (PENALTY.has(code)) {
        const f = { code: code as PenaltyFoulCode, detail: `entered by the referee (events[${i}])`, ...(e.ball ? { ball: e.ball } : {}) };
        (offender === P ? strikerFouls : oppFouls).push(f);
      } else if (SET_LOSS.has(code)) {
        setLoser ??= { player: offender, code };
        otherFouls.push({ code, detail: `loss of set (UK-N ${SET_LOSS_CODES[code as keyof typeof SET_LOSS_CODES]})`, player: offender });
      } else if (MATCH_LOSS.has(code)) {
        matchLoser ??= offender;
        otherFouls.push({ code, detail: 'loss of the game (match)', player: offender });
      } else if (code === WARNING_CODE) {
        s.warnings[offender] += 1;
        otherFouls.push({ code: WARNING_CODE, detail: `warning ${s.warnings[offender]} of ${WARNINGS_TO_LOSE}`, player: offender });
        if (s.warnings[offender] >= WARNINGS_TO_LOSE) {
          matchLoser ??= offender;
          otherFouls.push({ code: 'THIRD_WARNING', detail: 'a third warning loses the game', player: offender });
        }
      } else {
        return fail(index, `events[${i}].code`, 'UNKNOWN_FOUL_CODE', `'${e.code}' is not a Novus foul code: use one of ${[...PENALTY_FOUL_CODES, ...SET_LOSS, ...MATCH_LOSS, WARNING_CODE].join(', ')}`);
      }
    } else if (e.type === 'concede') {
      setLoser ??= { player: e.player, code: 'CONCEDED' };
    }
  }

  // ---- Striker placement (spec §1.1; N-P8, N-P9) ----
  let placement: NovusCall['placement'] = null;
  if (struck && strikerAt) {
    const faults = strikerPlacementFaults(b, strikerAt, P, pre);
    const sure = faults.filter((f) => f.code === 'TOUCHES_PAWN' || f.marginMm >= VISIBILITY_UNCERTAINTY_MM);
    for (const f of faults) if (!sure.includes(f)) reviews.push({ code: 'PLACEMENT_UNCERTAIN', reason: f.detail, conf: 0.5, ask: 'confirm the striker placement' });
    const touching = sure.filter((f) => f.code === 'TOUCHES_PAWN');
    const lines = sure.filter((f) => f.code !== 'TOUCHES_PAWN');
    if (lines.length) strikerFouls.push({ code: 'BAD_STRIKER_PLACEMENT', detail: lines.map((f) => f.detail).join('; ') });
    for (const f of touching) placingTouches.push((f as { pawn: string }).pawn);
    placement = { x: strikerAt.x, y: strikerAt.y, legal: faults.length === 0, faults: faults.map((f) => f.code) };
  }
  const touchedPlacing = [...new Set(placingTouches)];
  if (touchedPlacing.length) strikerFouls.push({ code: 'PAWN_TOUCHED_PLACING', ball: touchedPlacing[0], detail: `the striker touched ${touchedPlacing.join(', ')} while being placed` });

  // ---- The striker's path ----
  const restMap = new Map((stroke.rest ?? []).map((r) => [r.id, { x: r.x, y: r.y }]));
  // A rest the registry inferred from the next stroke's `before` shows the striker already placed for
  // the next stroke and the pawns the rules put back after this one: neither says where things stopped.
  const restInferred = (stroke as { restInferred?: unknown }).restInferred === true;
  const strikerRest = restInferred ? undefined : restMap.get(STRIKER);
  const judged = struck
    ? judgeStroke({
        board: b,
        config: s.config,
        player: P,
        pre,
        events: afterStrike.map((x) => x.e),
        ...(stroke.paths ? { paths: stroke.paths } : {}),
        // A rest on the very spot the striker was placed says nothing of a return (a copied placement).
        ...(strikerRest && !(strikerAt && dist(strikerRest, strikerAt) < SAME_SPOT_MM) ? { strikerRest } : {}),
        strikerGone: strikerPocketed || strikerOff,
      })
    : null;
  if (judged) {
    strikerFouls.unshift(...judged.fouls);
    reviews.push(...judged.reviews);
  }
  if (strikerPocketed) strikerFouls.unshift({ code: 'STRIKER_POCKETED', detail: 'the striker dropped into a pocket' });
  if (strikerOff) strikerFouls.unshift({ code: 'STRIKER_OFF_BOARD', detail: 'the striker left the board' });
  const type = judged?.facts.type ?? null;

  // ---- Pieces after the stroke ----
  for (const [k, r] of (stroke.rest ?? []).entries()) {
    if (r.id === STRIKER || onBoard.has(r.id)) continue;
    const at = removedAt.get(r.id);
    if (at !== undefined && stroke.events[at]!.type === 'offTable') {
      // Seed 003 rule 12.11: a pawn that flew, touched something outside and fell back counts as off
      // the board. A log may record where it fell back: the rules put it back, the rest is ignored.
      reviews.push({ code: 'REST_MISMATCH', reason: `rest[${k}]: '${r.id}' left the board at events[${at}] and fell back; it counts as off the board (seed 003 rule 12.11)`, conf: 0.5 });
      continue;
    }
    if (at !== undefined) return fail(index, `rest[${k}].id`, 'NOT_ON_BOARD', `'${r.id}' is listed at rest but left the board at events[${at}]`);
    if (!restInferred) reviews.push({ code: 'REST_MISMATCH', reason: `rest[${k}]: '${r.id}' is pocketed by the rules so far; ignored`, conf: 0.5 });
  }
  const post: Record<string, PointMm> = {};
  const restMissing: string[] = [];
  for (const id of Object.keys(pre)) {
    if (!onBoard.has(id)) continue;
    const r = restMap.get(id);
    if (r) post[id] = r;
    else {
      post[id] = pre[id]!;
      if (stroke.rest) restMissing.push(id);
    }
  }
  if (restMissing.length) reviews.push({ code: 'REST_MISMATCH', reason: `rest does not list ${restMissing.join(', ')}: left where they were`, conf: 0.5 });

  const respot: Placed[] = [];
  const place = (p: Placed) => {
    respot.push(p);
    s.pieces[p.ball] = { x: p.x, y: p.y };
  };
  // Stacked pawns are laid beside (or where the striker was).
  s.pieces = { ...post };
  for (const e of stacked) {
    if (!(e.ball in s.pieces)) continue;
    const logged = loggedPlace.get(e.ball);
    delete s.pieces[e.ball];
    if (logged) {
      s.pieces[e.ball] = logged;
      loggedPlace.delete(e.ball);
      continue;
    }
    const lower = e.on === STRIKER ? strikerRest ?? pre[e.ball] ?? b.centre : s.pieces[e.on] ?? post[e.on] ?? b.centre;
    place(placeStacked(b, s.pieces, e.ball, lower, restMap.get(e.ball), e.on === STRIKER));
  }

  // Pawns off the board (N-P14, N-P18, L4).
  const ownPotted = potted.filter((id) => ownerOf(id) === P);
  const opponentPotted = potted.filter((id) => ownerOf(id) !== P);
  let l4 = false;
  for (const id of off) {
    const owner = ownerOf(id)!;
    const path = stroke.paths?.[id];
    const lastSeen = path?.length ? { x: path.at(-1)![1], y: path.at(-1)![2] } : post[id] ?? pre[id]!;
    if (owner === P) {
      if (s.config.ownPawnOffPenalty) strikerFouls.push({ code: 'OWN_PAWN_OFF', ball: id, detail: `own pawn '${id}' driven off the board` });
      else l4 = true;
      place(placeOwnPawnOff(b, s.pieces, id, nearestSide(b, lastSeen)));
    } else {
      if (type === 'direct') strikerFouls.push({ code: 'OPPONENT_PAWN_OFF', ball: id, detail: `direct stroke drove the opponent's '${id}' off the board` });
      else l4 = true;
      place(placeAtOriginal(b, s.pieces, id, pre[id]!));
    }
  }

  // N-P19 (variant): a direct stroke knocks a pawn into its owner's dark field; it goes back.
  if (s.config.knockIntoDarkPenalty && type === 'direct' && stroke.rest) {
    for (const [id, to] of Object.entries(post)) {
      const owner = ownerOf(id)!;
      const from = pre[id]!;
      if (dist(from, to) < 1 || pawnIsDark(b, from, owner).value || !pawnIsDark(b, to, owner).value) continue;
      strikerFouls.push({ code: 'KNOCKED_INTO_DARK', ball: id, detail: `direct stroke knocked '${id}' into a dark field` });
      delete s.pieces[id];
      place(placeAtOriginal(b, s.pieces, id, from));
    }
  }

  // Q3: several own pawns knocked out of the dark fields by a direct stroke may lose the set (UK-N a).
  if (judged && type === 'direct' && stroke.rest) {
    const out = Object.keys(judged.facts.darkPawns).filter((id) => id in post && dist(pre[id]!, post[id]!) >= 1 && !pawnIsDark(b, post[id]!, P).value);
    if (out.length >= 2) reviews.push({ code: 'LOSS_OF_SET_PROPOSED', reason: `a direct stroke knocked ${out.join(', ')} out of the dark fields (UK-N loss of set a)`, conf: 0.3, ask: 'decide loss of set' });
  }

  // Pocketed pawns are counted to their owners (L2 when the opponent's fall).
  for (const id of potted) s.pocketed[ownerOf(id)!].push(id);
  s.interchangeable = s.interchangeable.filter((id) => id in s.pieces);

  // Pawns a hand moved in the opponent's turn go back where they were (N-P13).
  for (const f of oppFouls) {
    if (f.code === 'MOVED_IN_OPPONENT_TURN' && f.ball && f.ball in s.pieces && pre[f.ball] && dist(s.pieces[f.ball]!, pre[f.ball]!) > 1e-6) {
      delete s.pieces[f.ball];
      place(placeAtOriginal(b, s.pieces, f.ball, pre[f.ball]!));
    }
  }

  // ---- Penalty pawns (spec §9): one per offender, whatever the number of violations ----
  const penaltyPawns: [number, number] = [0, 0];
  const debtSettled: [number, number] = [0, 0];
  const takeBack = (p: Player, n: number): string[] => {
    // Prefer the ids the log itself placed, so its later strokes keep their names.
    const pool = s.pocketed[p];
    const chosen: string[] = [];
    for (const id of [...loggedPlace.keys()]) if (chosen.length < n && ownerOf(id) === p && pool.includes(id)) chosen.push(id);
    for (let k = pool.length - 1; k >= 0 && chosen.length < n; k--) if (!chosen.includes(pool[k]!)) chosen.push(pool[k]!);
    s.pocketed[p] = pool.filter((id) => !chosen.includes(id));
    return chosen;
  };
  const penalise = (p: Player) => {
    penaltyPawns[p] = 1;
    if (s.pocketed[p].length > 0) {
      const ids = takeBack(p, 1);
      for (const pl of placePenaltyPawns(b, s.pieces, p, ids)) place(pl);
      s.interchangeable.push(...ids);
    } else s.debt[p] += 1;
  };
  if (oppFouls.length) {
    penalise(O);
    if (oppFouls.some((f) => f.code === 'MOVED_IN_OPPONENT_TURN')) s.forfeitNext[O] = true;
  }
  if (strikerFouls.length) penalise(P);
  const settleDebt = (p: Player) => {
    const n = Math.min(s.debt[p], s.pocketed[p].length);
    if (n === 0) return;
    const ids = takeBack(p, n);
    for (const pl of placePenaltyPawns(b, s.pieces, p, ids)) place(pl);
    s.interchangeable.push(...ids);
    s.debt[p] -= n;
    debtSettled[p] += n;
  };

  // ---- Turn (spec §7, seed 003 rule 12.10) ----
  const l2 = opponentPotted.length > 0;
  const l3 = judged !== null && returnLineApplies(s.config, judged.facts);
  if (judged?.facts.returnedToOwnZone) {
    reviews.push({
      code: 'RETURN_LINE',
      reason: l3
        ? 'the striker came back into its own edge zone: loss of the right to strike, no penalty (seed 003 rule 12.9)'
        : `the striker came back into its own edge zone; ${s.config.returnLine === 'seed' && judged.facts.hasDark ? 'exempt: the player has a dark pawn (seed 003 rule 12.9; NA would end the turn, Q2)' : 'the rule does not apply here'}`,
      conf: l3 ? 0.9 : 0.5,
    });
  }
  const strokeMade = struck;
  const violation = strikerFouls.length > 0;
  let lossOfTurn: LossOfTurn | null = null;
  if (strokeMade && !violation) {
    if (l2) lossOfTurn = 'L2';
    else if (ownPotted.length === 0) lossOfTurn = l4 ? 'L4' : 'L1';
    else if (l3) lossOfTurn = 'L3';
    else if (l4) lossOfTurn = 'L4';
  }
  let series = strokeMade && !violation && lossOfTurn === null;
  let turnEnds = violation || (strokeMade && !series);

  // A player with debt who pockets his last pawn gets the debt pawn back at once, so he has a pawn to play.
  if (!turnEnds && Object.keys(s.pieces).every((id) => ownerOf(id) !== P) && s.debt[P] > 0) settleDebt(P);

  // ---- Set (spec §11) ----
  let setLost: NovusCall['setLost'] = null;
  let setReplay = false;
  let sweep = false;
  let setWinner: Player | null = null;
  const inFirstSeries = !s.set.firstSeriesDone[P];
  if (matchLoser !== null) {
    setLost = { player: matchLoser, code: otherFouls.find((f) => MATCH_LOSS.has(f.code) && f.player === matchLoser)?.code ?? 'MATCH_LOST' };
  } else if (setLoser) {
    setLost = setLoser;
    setWinner = other(setLoser.player);
  } else if (s.set.sweepBy !== null && s.set.sweepBy === O && inFirstSeries) {
    // The opponent cleared in his first series; this is the reply series (LNF-comp).
    if (cleared(s, P)) setReplay = true;
    else if (turnEnds) {
      setWinner = O;
      // Rule k: all 8 down in the reply but the last stroke cost the right to strike.
      if (violation && Object.keys(s.pieces).filter((id) => ownerOf(id) === P).length <= penaltyPawns[P]) setLost = { player: P, code: 'FIRST_SERIES_VIOLATION' };
    }
  } else if (cleared(s, P) && !violation) {
    if (inFirstSeries && P === s.set.firstStriker && !s.set.firstSeriesDone[O]) {
      sweep = true;
      s.set.sweepBy = P;
      series = false;
      turnEnds = true;
    } else setWinner = P;
  } else if (cleared(s, O)) {
    // Q5 default: a player whose last pawn goes down, by anyone, with no debt, wins.
    setWinner = O;
  }

  if (setWinner !== null || matchLoser !== null) {
    series = false;
    turnEnds = true;
  }
  if (turnEnds && setWinner === null && !setReplay) {
    settleDebt(P);
    settleDebt(O);
  }
  if (strokeMade || violation) s.set.strokes += 1;
  const seriesPawns = series || (strokeMade && !violation) ? s.series + ownPotted.length : 0;
  // A record without a stroke (a warning, a concession) leaves the series count alone.
  if (strokeMade || violation) s.series = series ? seriesPawns : 0;
  if (turnEnds) s.set.firstSeriesDone[P] = true;

  let nextPlayer: Player = P;
  if (turnEnds) {
    nextPlayer = O;
    if (s.forfeitNext[O]) {
      s.forfeitNext[O] = false;
      nextPlayer = P;
      reviews.push({ code: 'STROKE_FORFEITED', reason: `player ${O} forfeits this turn after moving pawns in the opponent's turn (N-P13)`, conf: 1 });
    }
  }
  s.toPlay = nextPlayer;

  const scoresBefore: [number, number] = [s.pocketed[0].length, s.pocketed[1].length];
  if (matchLoser !== null) forfeitMatch(s, matchLoser);
  else if (setWinner !== null) {
    finishSet(s, setWinner);
    // The next set opens with its first striker (players change sides; coordinates stay player 0's).
    if (!s.matchOver) nextPlayer = s.toPlay = nextSetFirstStriker(s);
  } else if (setReplay) {
    // Both cleared in the first series: replay with sides and first strike swapped.
    const replayed = startNewSet(s, other(s.set.firstStriker), true);
    Object.assign(s, replayed);
  }

  // ---- Verify placements the log recorded against where the rules put the pawns ----
  for (const [id, at] of loggedPlace) {
    const due = respot.find((r) => r.ball === id);
    if (!due) reviews.push({ code: 'PLACEMENT_NOT_DUE', reason: `'${id}' was placed at (${at.x}, ${at.y}) but no rule returns it on this stroke`, conf: 0.5 });
    else if (dist(due, at) > PLACEMENT_CHECK_MM) reviews.push({ code: 'PLACEMENT_MISMATCH', reason: `'${id}' placed at (${at.x.toFixed(1)}, ${at.y.toFixed(1)}); the rules put it at (${due.x.toFixed(1)}, ${due.y.toFixed(1)}) (${due.spot})`, conf: 0.8 });
  }

  const fouls: NovusCall['fouls'] = [
    ...dedupe(strikerFouls).map((f) => ({ code: f.code, penalty: 1, ...(f.ball ? { ball: f.ball } : {}), detail: f.detail, player: P, rule: RULE_OF[f.code] })),
    ...dedupe(oppFouls).map((f) => ({ code: f.code, penalty: 1, ...(f.ball ? { ball: f.ball } : {}), detail: f.detail, player: O, rule: RULE_OF[f.code] })),
    ...otherFouls.map((f) => ({ code: f.code, penalty: 0, detail: f.detail, player: f.player, rule: 'loss' })),
  ];
  if (sweep) setLost = null;
  const frameOver = s.set.over;
  const call: NovusCall = {
    stroke: index,
    player: P,
    ballOn: judged ? (judged.facts.hasLight ? 'light' : 'dark') : hasLightNow(input, P) ? 'light' : 'dark',
    legal: strikerFouls.length === 0 && otherFouls.every((f) => f.player !== P || f.code === WARNING_CODE),
    potted,
    points: ownPotted.length,
    fouls,
    penalty: penaltyPawns[0] || penaltyPawns[1] ? 1 : 0,
    scores: setReplay ? scoresBefore : [s.pocketed[0].length, s.pocketed[1].length],
    nextPlayer: setReplay ? s.toPlay : nextPlayer,
    inHand: !frameOver,
    frameOver,
    winner: frameOver ? s.set.winner : null,
    review: reviews.map((r): ReviewEntry => ({ code: r.code, reason: r.reason, conf: r.conf, ...(r.ask ? { ask: r.ask } : {}) })),
    summary: '',
    strokeType: type,
    firstContact: judged?.facts.firstPawns ?? [],
    edgesBeforeFirstPawn: judged?.facts.edgesBeforeFirstPawn ?? [],
    darkPawns: Object.keys(judged?.facts.darkPawns ?? {}),
    ownPotted,
    opponentPotted,
    strikerPocketed,
    strikerOffBoard: strikerOff,
    offBoard: off,
    respot,
    penaltyPawns,
    penaltyDebt: [...s.debt],
    debtSettled,
    series,
    break: seriesPawns,
    lossOfTurn,
    returnLine: l3,
    placement,
    setNumber: s.set.number,
    setScores: [...s.setScores],
    setLost,
    setReplay,
    firstSeriesSweep: sweep,
    matchOver: s.matchOver,
    matchWinner: s.matchWinner,
  };
  call.summary = summarise(call);
  return ok({ state: s, call });
}

function dedupe<T extends { code: string; ball?: string }>(list: T[]): T[] {
  const seen = new Set<string>();
  return list.filter((f) => {
    if (seen.has(f.code)) return false;
    seen.add(f.code);
    return true;
  });
}

function hasLightNow(s: NovusState, p: Player): boolean {
  return Object.entries(s.pieces).some(([id, pos]) => ownerOf(id) === p && !pawnIsDark(s.board, pos, p).value);
}

function summarise(c: NovusCall): string {
  const parts: string[] = [];
  if (c.strokeType) {
    const edges = c.edgesBeforeFirstPawn.length ? ` off ${c.edgesBeforeFirstPawn.join('+')}` : '';
    parts.push(`${c.strokeType}${edges} → ${c.firstContact.length ? c.firstContact.join('+') : 'no pawn'}`);
  }
  if (c.potted.length) parts.push(`pots ${c.potted.join(', ')}`);
  if (c.strikerPocketed) parts.push('striker pocketed');
  if (c.strikerOffBoard) parts.push('striker off');
  if (c.offBoard.length) parts.push(`off board ${c.offBoard.join(', ')}`);
  for (const r of c.respot) parts.push(`${r.ball} back at (${r.x.toFixed(0)}, ${r.y.toFixed(0)}) ${r.spot}`);
  for (const p of [0, 1] as const) {
    if (c.penaltyPawns[p] && !c.respot.some((r) => r.spot !== 'original' && r.ball.startsWith(p === 0 ? 'a' : 'b'))) parts.push(`player ${p} owes a penalty pawn (debt ${c.penaltyDebt[p]})`);
  }
  if (c.series) parts.push('series continues');
  else if (c.lossOfTurn) parts.push(`turn ends (${c.lossOfTurn}${c.lossOfTurn === 'L3' ? ' return line' : ''})`);
  if (c.firstSeriesSweep) parts.push('first-series clean sweep: opponent replies');
  if (c.setReplay) parts.push('both cleared in the first series: set replayed');
  if (c.setLost) parts.push(`set lost by player ${c.setLost.player} (${c.setLost.code})`);
  if (c.frameOver) parts.push(`set ${c.setNumber} to player ${c.winner}, sets ${c.setScores.join(':')}${c.matchOver ? ', match over' : ''}`);
  return parts.join('; ') || 'no stroke';
}

function tableOf(s: NovusState): TableProfile {
  // checkStrokeCommon needs only the bed.
  return { format: 'cueref.table/1', name: 'novus', game: 'novus', bed: { width: s.board.sizeMm, length: s.board.sizeMm }, ballDiameter: 2 * s.board.pawnRadiusMm, cueBallDiameter: 2 * s.board.strikerRadiusMm, spots: {}, pockets: {} };
}

export function describeNovus(s: NovusState): Record<string, unknown> {
  return {
    set: s.set.number,
    setOver: s.set.over,
    setWinner: s.set.winner,
    setScores: s.setScores,
    scores: [s.pocketed[0].length, s.pocketed[1].length],
    pawnsOnBoard: [0, 1].map((p) => PAWNS_PER_PLAYER - s.pocketed[p as Player].length),
    pocketed: s.pocketed,
    penaltyDebt: s.debt,
    toPlay: s.toPlay,
    firstStriker: s.set.firstStriker,
    pieces: s.pieces,
    warnings: s.warnings,
    matchOver: s.matchOver,
    matchWinner: s.matchWinner,
    variant: s.variant,
    config: s.config,
  };
}

export const novusRules: RulesEngine<NovusState, NovusCall> = {
  game: 'novus',
  variants: NOVUS_VARIANTS,
  init: (log: StrokeLog, table: TableProfile) => initState(log, table),
  applyStroke: applyNovusStroke,
  describe: describeNovus,
};
