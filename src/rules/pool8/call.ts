/**
 * Applying a verdict: the balls, groups, turn and scores of the new state, and the call written
 * for the stroke (cueref.calls/1 plus the pool fields of docs/rules-pool8.md).
 */
import type { BaseCall, RespotCall } from '../../core/contracts/calls.js';
import type { Decision, Stroke } from '../../core/contracts/strokes.js';
import { CUE, groupOf, otherGroup, type Group } from './balls.js';
import { newRack, nextBreaker } from './decisions.js';
import type { ShotFacts } from './facts.js';
import { legalTargets } from './fouls.js';
import { lipPosition, spotOnLongString } from './geometry.js';
import type { InHandZone } from './profiles.js';
import { knownPositions, other, type Player, type Pool8State } from './state.js';
import type { Verdict } from './verdict.js';

/** The call for one pool stroke: the contract's fields plus the pool fields of docs/rules-pool8.md. */
export interface Pool8Call extends BaseCall {
  ballOn: string[];
  nextBallOn: string[];
  isBreak: boolean;
  breakLegal: boolean | null;
  tableOpen: boolean;
  groups: [Group | null, Group | null];
  inHandZone: InHandZone | null;
  inHandOptional: boolean;
  options: Decision[];
  decider: Player | null;
  decision: Decision | null;
  spotted: string[];
  respot: RespotCall[];
  offTable: string[];
  awarded: string[];
  calledBall: string | null;
  calledPocket: string | null;
  callInferred: boolean;
  callFulfilled: boolean | null;
  visits: number;
  freeShot: boolean;
  rerack: boolean;
  stalemate: boolean;
  rack: number;
}

export function applyVerdict(
  s: Pool8State,
  before: Pool8State,
  stroke: Stroke,
  facts: ShotFacts,
  v: Verdict,
  ctx: { striker: Player; atBreak: boolean; index: number; ballOn: string[]; decision: Decision | null; rack: number },
): Pool8Call {
  const { striker, atBreak, index, ballOn, decision } = ctx;
  const table = s.table;
  const f = s.profile.flags;
  // Balls: pocketed, off the table, dropped late (back on the lip), rest positions.
  for (const p of facts.pots) s.balls[p.ball] = { where: 'pocketed', pocket: p.pocket };
  for (const b of facts.offTable) if (b !== CUE) s.balls[b] = { where: 'off' };
  if (stroke.rest) {
    // `rest` lists every ball on the bed: a ball it leaves out has no known position any more.
    for (const b of Object.values(s.balls)) if (b.where === 'table') delete b.x, delete b.y;
    for (const b of stroke.rest) {
      const cur = s.balls[b.id]!;
      if (cur.where === 'table' || facts.bounceOuts.some((x) => x.ball === b.id)) s.balls[b.id] = { where: 'table', x: b.x, y: b.y };
    }
  }
  const respot: RespotCall[] = [];
  for (const d of facts.lateDrops) {
    // A late drop goes back on the lip, whatever the log says happened after the window.
    const at = lipPosition(table, d.pocket, d.ball);
    s.balls[d.ball] = { where: 'table', x: round1(at.x), y: round1(at.y) };
    respot.push({ ball: d.ball, x: round1(at.x), y: round1(at.y), spot: `lip${d.pocket}` });
  }
  const cueGone = facts.cuePotted || facts.offTable.includes(CUE);
  if (cueGone) s.balls[CUE] = { where: 'table' };
  for (const a of v.awarded) s.balls[a] = { where: 'pocketed' };
  // Spotting on the long string, one ball after the other (each blocks the next).
  const spotted: string[] = [];
  if (v.rerackBreaker === null) {
    for (const id of v.spot) {
      const occupied = knownPositions(s).filter((p) => p.id !== id && (p.id !== CUE || !cueGone));
      const at = spotOnLongString(table, id, occupied);
      s.balls[id] = { where: 'table', x: at.x, y: at.y };
      respot.push({ ball: id, x: round1(at.x), y: round1(at.y), spot: at.spot });
      spotted.push(id);
    }
  }
  // Groups: assigned once, never changed in the rack.
  if (v.assign && s.tableOpen) {
    s.groups[v.assign.player] = v.assign.group;
    s.groups[other(v.assign.player)] = otherGroup(v.assign.group);
    s.tableOpen = false;
  }
  const own = s.groups[striker];
  if (own) {
    const lastOwn = facts.pots.filter((p) => groupOf(p.ball) === own).at(-1);
    if (lastOwn && !v.fouls.length) s.lastGroupPocket[striker] = lastOwn.pocket;
  }
  s.eightMisses[striker] = v.eightMiss ? s.eightMisses[striker] + 1 : 0;

  let frameOver = false;
  let winner: Player | null = null;
  const rerack = v.rerackBreaker !== null;
  if (v.rackWinner !== null || v.stalemate) {
    frameOver = true;
    winner = v.rackWinner;
    if (winner !== null) s.scores[winner] += 1;
    s.rackOver = true;
    s.winner = winner;
    s.pending = null;
  } else if (rerack) {
    newRack(s, v.rerackBreaker!);
  } else {
    s.atBreak = false;
    s.shooter = v.next;
    s.visits = v.nextVisits;
    s.freeShot = v.nextFreeShot;
    s.inHand = v.nextInHand;
    s.inHandOptional = v.nextInHandOptional;
    s.kitchenShot = v.nextKitchenShot;
    s.pending = v.pending;
  }
  const nextPlayer: Player = frameOver ? (winner === null ? s.breaker : nextBreaker(s, winner)) : rerack ? v.rerackBreaker! : (v.pending?.decider ?? v.next);
  const nextBallOn = frameOver ? [] : s.atBreak ? [] : legalTargets(s, s.pending?.kind === 'eightOnBreak' ? s.pending.breaker : s.shooter).balls;
  const legal = v.fouls.length === 0;
  const potted = facts.pots.map((p) => p.ball);
  const stalemate = v.stalemate;
  const call: Pool8Call = {
    stroke: index,
    player: striker,
    ballOn,
    legal,
    potted,
    points: legal ? v.points : 0,
    fouls: v.fouls,
    penalty: v.fouls.reduce((m, x) => Math.max(m, x.penalty), 0),
    scores: [s.scores[0], s.scores[1]],
    nextPlayer,
    nextBallOn,
    inHand: !frameOver && !rerack && v.nextInHand !== null,
    inHandZone: frameOver ? null : rerack ? (f.family === 'blackball' ? 'baulk' : 'kitchen') : v.nextInHand,
    inHandOptional: !frameOver && !rerack && v.nextInHandOptional,
    frameOver,
    winner,
    isBreak: atBreak,
    breakLegal: v.breakLegal,
    tableOpen: s.tableOpen,
    groups: [s.groups[0], s.groups[1]],
    options: frameOver || rerack ? [] : (v.pending?.options ?? []),
    decider: v.pending && !frameOver && !rerack ? v.pending.decider : null,
    decision,
    spotted,
    respot,
    offTable: facts.offTable,
    awarded: v.awarded,
    calledBall: v.call && v.call.ball !== '' ? v.call.ball : (stroke.calledBall ?? null),
    calledPocket: v.call?.pocket ?? stroke.calledPocket ?? null,
    callInferred: v.call?.inferred ?? false,
    callFulfilled: v.callFulfilled,
    visits: frameOver || rerack ? 1 : v.nextVisits,
    freeShot: !frameOver && !rerack && v.nextFreeShot,
    rerack: rerack || stalemate,
    stalemate,
    rack: ctx.rack,
    review: v.review,
    summary: '',
  };
  call.summary = summarise(call, v, facts, before);
  return call;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

function summarise(c: Pool8Call, v: Verdict, facts: ShotFacts, before: Pool8State): string {
  const parts: string[] = [];
  if (c.isBreak) parts.push(c.breakLegal === false ? 'illegal break' : 'break');
  if (facts.firstContact.length) parts.push(`hit ${facts.firstContact.join('+')}`);
  if (c.potted.length) parts.push(`potted ${c.potted.join(', ')}`);
  if (facts.cuePotted) parts.push('cue ball potted');
  if (facts.offTable.length) parts.push(`off table ${facts.offTable.join(', ')}`);
  if (c.calledPocket && c.calledPocket !== 'safety') parts.push(`call ${c.calledBall ?? '?'}→${c.calledPocket}${c.callInferred ? ' (obvious)' : ''}`);
  for (const n of v.notes) parts.push(n);
  if (c.groups[0] && before.tableOpen) parts.push(`groups: P0 ${c.groups[0]}, P1 ${c.groups[1]}`);
  if (c.spotted.length) parts.push(`spot ${c.spotted.join(', ')}`);
  if (c.options.length) parts.push(`P${c.decider} chooses ${c.options.join('/')}`);
  if (c.frameOver) parts.push(`rack to P${c.winner}`);
  else if (c.inHand) parts.push(`P${c.nextPlayer} in hand (${c.inHandZone}${c.inHandOptional ? ', optional' : ''})`);
  if (c.visits > 1) parts.push(`P${c.nextPlayer} has ${c.visits} visits${c.freeShot ? ' (free shot)' : ''}`);
  return parts.join('; ') || 'no event';
}

