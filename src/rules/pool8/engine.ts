/**
 * The 8-ball referee: `applyStroke(state, stroke) → {state, call}` behind the game-neutral
 * RulesEngine contract. It validates the stroke against the rack (unknown balls, balls that are not
 * on the table, decisions the situation does not allow), resolves the pending choice, hands the
 * stroke to the break or shot judge and applies the verdict. Pure: no I/O, no clock.
 */
import type { Stroke } from '../../core/contracts/strokes.js';
import type { InputErrorInfo } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';
import type { RulesEngine, StrokeOutcome } from '../contract.js';
import { checkStrokeCommon } from '../validate.js';
import { CUE, KNOWN_IDS, OBJECT_BALLS, radiusOf } from './balls.js';
import { judgeBreak, setFoulNext } from './breakShot.js';
import { applyVerdict, type Pool8Call } from './call.js';
import { applyDecision, newRack, nextBreaker } from './decisions.js';
import { readFacts } from './facts.js';
import { checkBallsOnTable, compareBefore, withClaim, withContractIds } from './inputs.js';
import { foul, legalTargets } from './fouls.js';
import { headStringY } from './geometry.js';
import { VARIANT_NAMES } from './profiles.js';
import { judgeShot } from './shot.js';
import { initState, objectBallsOnTable, onTable, other, type Player, type Pool8State } from './state.js';
import { baseVerdict, type Verdict } from './verdict.js';

const clone = (s: Pool8State): Pool8State => ({
  ...s,
  scores: [...s.scores],
  groups: [...s.groups],
  balls: Object.fromEntries(Object.entries(s.balls).map(([k, b]) => [k, { ...b }])),
  pending: s.pending ? { ...s.pending, options: [...s.pending.options] } : null,
  eightMisses: [...s.eightMisses],
  notices: [...s.notices],
  lastGroupPocket: [...s.lastGroupPocket],
});

export function applyPool8Stroke(state: Pool8State, rawStroke: Stroke, index: number): Result<StrokeOutcome<Pool8State, Pool8Call>, InputErrorInfo> {
  const s = clone(state);
  const stroke = withClaim(withContractIds(rawStroke));
  const table = s.table;
  const common = checkStrokeCommon(stroke, index, { table, knownIds: KNOWN_IDS, radiusOf: (id) => radiusOf(table, id) });
  if (common) return err(common);
  if (s.rackOver) {
    // A stroke after a decided rack breaks the next one (a drawn rack: the same breaker again).
    newRack(s, stroke.player ?? (s.winner === null ? s.breaker : nextBreaker(s, s.winner)));
  }
  if (s.starterOpen && stroke.player !== undefined) {
    // The log did not say who starts: the first stroke's player does.
    s.shooter = stroke.player;
    if (s.atBreak) s.breaker = stroke.player;
  }
  s.starterOpen = false;
  const decided = applyDecision(s, stroke, index);
  if (!decided.ok) return decided;
  const onTableErr = checkBallsOnTable(s, stroke, index);
  if (onTableErr) return err(onTableErr);

  const atBreak = s.atBreak;
  let striker: Player = s.shooter;
  const preFouls = [];
  if (stroke.player !== undefined && stroke.player !== s.shooter) {
    // The log says the other player is at the table: judge the stroke as his, a foul (3.12).
    striker = stroke.player;
    preFouls.push(foul('PLAYED_OUT_OF_TURN', 0, `player ${stroke.player} played, but it was player ${s.shooter}'s turn`));
  }
  // Positions before the stroke: the log's `before` wins over what the last `rest` said, but a
  // ball that moved between strokes, or one missing from `before`, is flagged for the referee.
  const beforeReview = stroke.before ? compareBefore(s, stroke.before) : [];
  for (const b of stroke.before ?? []) Object.assign(s.balls[b.id]!, { x: b.x, y: b.y });

  const facts = readFacts(stroke, s.profile.flags, headStringY(table), table.bed.length / 2);
  // On the break any ball may be hit first.
  const ballOn = atBreak ? objectBallsOnTable(s) : legalTargets(s, striker, { claim: stroke.claimGroup, nominated: stroke.nominated }).balls;
  let v: Verdict;
  if (facts.concede) {
    v = baseVerdict(other(facts.concede.player));
    v.rackWinner = other(facts.concede.player);
    v.notes.push(`player ${facts.concede.player} concedes`);
  } else if (facts.stalemate) {
    v = baseVerdict(s.breaker);
    v.stalemate = true;
    v.notes.push('stalemate: the original breaker breaks again');
  } else if (facts.struck === null && facts.touches.length === 0 && facts.manualFouls.length === 0) {
    return err({ code: 'NO_STRIKE', stroke: index, field: 'events', message: 'the stroke has no strike event (and no foul, concession or stalemate): add {"type":"strike","ball":"cue"}' });
  } else {
    v = atBreak ? judgeBreak(s, stroke, facts, striker) : judgeShot(s, stroke, facts, striker);
  }
  if (preFouls.length && v.rackWinner === null && v.rerackBreaker === null && !v.stalemate) {
    // Out of turn is a standard foul: whatever the shot made, the other player comes in.
    const wasFoul = v.fouls.length > 0;
    v.fouls = [...preFouls, ...v.fouls];
    v.points = 0;
    v.assign = null;
    if (!wasFoul) setFoulNext(s, v, other(striker), facts.cuePotted || facts.offTable.includes(CUE));
  }
  for (const e of facts.lowConf) v.review.push(e);
  v.review.push(...beforeReview, ...s.notices);
  s.notices = [];
  if (facts.bounceOuts.length) v.review.push({ code: 'BOUNCE_OUT', reason: `ball ${facts.bounceOuts.map((b) => b.ball).join(', ')} came back out of the pocket: not pocketed`, conf: 0.8 });
  // Russia: three fouls in a row once someone is on the 8 re-rack the frame.
  const foulRun = v.fouls.length ? s.foulRun + 1 : 0;
  if (s.profile.flags.threeFoulsStalemate && foulRun >= 3 && v.rackWinner === null && (s.groups.some((g, p) => g !== null && legalTargets(s, p as Player).onEight))) {
    v.stalemate = true;
    v.notes.push('three fouls in a row: stalemate, re-rack');
  }
  const call = applyVerdict(s, state, stroke, facts, v, { striker, atBreak, index, ballOn, decision: decided.value, rack: s.rack });
  s.foulRun = foulRun;
  return ok({ state: s, call });
}

export const pool8Rules: RulesEngine<Pool8State, Pool8Call> = {
  game: 'pool8',
  variants: [...VARIANT_NAMES],
  init: initState,
  applyStroke: applyPool8Stroke,
  describe(s: Pool8State): Record<string, unknown> {
    return {
      variant: s.profile.name,
      rack: s.rack,
      scores: [...s.scores],
      breaker: s.breaker,
      nextPlayer: s.pending?.decider ?? s.shooter,
      atBreak: s.atBreak || s.rackOver,
      rackOver: s.rackOver,
      winner: s.winner,
      tableOpen: s.tableOpen,
      groups: [...s.groups],
      onTable: OBJECT_BALLS.filter((b) => onTable(s, b)),
      pocketed: OBJECT_BALLS.filter((b) => s.balls[b]!.where === 'pocketed'),
      offTable: OBJECT_BALLS.filter((b) => s.balls[b]!.where === 'off'),
      inHand: s.inHand !== null,
      inHandZone: s.inHand,
      options: s.pending?.options ?? [],
      visits: s.visits,
      freeShot: s.freeShot,
    };
  },
};
