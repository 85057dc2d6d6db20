/**
 * A shot after the break (spec §6, §7, §8.2, §9, §10): standard fouls, loss of the rack, the call,
 * group assignment, who plays next. One judge for every profile; the flags say where they differ.
 */
import type { FoulCall } from '../../core/contracts/calls.js';
import type { Stroke } from '../../core/contracts/strokes.js';
import type { PocketId } from '../../core/games.js';
import { CUE, EIGHT, OBJECT_BALLS, groupOf, otherGroup, type Group } from './balls.js';
import { setFoulNext } from './breakShot.js';
import type { PotFact, ShotFacts } from './facts.js';
import { LOSS_CODES, foul, foulPenalty, goneGroup, groupCleared, kitchenShotFoul, legalTargets, placementFouls, strokeFaults, type Targets } from './fouls.js';
import { other, onTable, type Player, type Pool8State } from './state.js';
import { baseVerdict, type Verdict } from './verdict.js';

export interface ShotCall {
  ball: string;
  pocket: PocketId | 'safety';
  inferred: boolean;
}

/**
 * The shooter's call for this shot. Explicit: `calledPocket` (+ `calledBall`; without it the ball is
 * the legal target that went into that pocket, else the 8 when on it, else the first ball hit).
 * `calledBall` alone (not the 8) calls the pocket the ball went into.
 * Inferred (OBVIOUS_ASSIST): the first ball hit went straight into a pocket, touching no other ball
 * and no cushion but that pocket's jaws, and the cue ball hit no cushion before it.
 */
export function resolveCall(stroke: Stroke, facts: ShotFacts, targets: Targets, inferObvious: boolean): ShotCall | null {
  if (stroke.calledPocket === 'safety') return { ball: stroke.calledBall ?? '', pocket: 'safety', inferred: false };
  if (stroke.calledPocket !== undefined) {
    const pocket = stroke.calledPocket;
    if (stroke.calledBall !== undefined) return { ball: stroke.calledBall, pocket, inferred: false };
    const inThat = facts.pots.filter((p) => p.pocket === pocket && targets.balls.includes(p.ball)).map((p) => p.ball);
    const ball = inThat.find((b) => facts.firstContact.includes(b)) ?? inThat[0] ?? (targets.onEight ? EIGHT : facts.firstContact[0]) ?? '';
    return { ball, pocket, inferred: false };
  }
  // A called ball without a pocket (hand-entered logs): the pocket it went in, for group balls only —
  // the 8 always needs its pocket (L-c).
  if (stroke.calledBall !== undefined && stroke.calledBall !== EIGHT) {
    const pot = facts.pots.find((p) => p.ball === stroke.calledBall);
    if (pot) return { ball: pot.ball, pocket: pot.pocket, inferred: true };
  }
  if (!inferObvious || facts.firstContact.length !== 1) return null;
  const b = facts.firstContact[0]!;
  const pot = facts.pots.find((p) => p.ball === b);
  if (!pot) return null;
  const ev = stroke.events;
  const kissed = ev.some((e) => e.type === 'contact' && (e.a === b || e.b === b) && e.a !== CUE && e.b !== CUE && e.t <= pot.t);
  const banked = ev.some((e) => e.type === 'cushion' && e.ball === b && e.t <= pot.t && e.jaw !== pot.pocket);
  const cueRailFirst = ev.some((e) => e.type === 'cushion' && e.ball === CUE && e.t < facts.firstContactT);
  if (kissed || banked || cueRailFirst) return null;
  return { ball: b, pocket: pot.pocket, inferred: true };
}

export function judgeShot(s: Pool8State, stroke: Stroke, facts: ShotFacts, striker: Player): Verdict {
  const f = s.profile.flags;
  const opp = other(striker);
  const v = baseVerdict(opp);
  const pen = foulPenalty(s);
  // Calling the 8 on an open table is a claim of the group that is gone (one group can be gone at most).
  const claim = stroke.claimGroup ?? (s.tableOpen && stroke.calledBall === EIGHT ? (goneGroup(s) ?? undefined) : undefined);
  const targets = legalTargets(s, striker, { claim, nominated: stroke.nominated });
  if (stroke.claimGroup !== undefined && targets.claimed === null) {
    v.review.push({ code: 'CLAIM_INVALID', reason: `claim of ${stroke.claimGroup} ignored: it needs an open table, a WPA-2025 profile and every ${stroke.claimGroup} off the table`, conf: 1 });
  }
  const onEight = targets.onEight;
  const ownGroup = s.groups[striker];
  const scratch = facts.cuePotted || facts.offTable.includes(CUE);
  const eightPot = facts.pots.find((p) => p.ball === EIGHT);
  const eightOff = facts.offTable.includes(EIGHT);
  const objPots = facts.pots.filter((p) => p.ball !== EIGHT);

  // ---- standard fouls (7.1 / §9) ----
  const zone = s.inHand;
  const fouls: FoulCall[] = [...placementFouls(s, stroke, facts, zone), ...strokeFaults(s, facts, false)];
  const placed = facts.cuePlacements.length > 0 || (s.inHand !== null && !s.inHandOptional);
  if (s.kitchenShot && placed && f.family === 'wpa') {
    const k = kitchenShotFoul(s, stroke, facts);
    if (k === 'unknown') v.review.push({ code: 'KITCHEN_SHOT_UNCHECKED', reason: 'positions of the first ball hit are unknown: 3.11 (play from the kitchen) not checked', conf: 0.5 });
    else if (k) fouls.push(k);
  }
  if (facts.firstContactUnknown) {
    v.review.push({ code: 'FIRST_CONTACT_UNKNOWN', reason: 'no contact logged while several object balls moved: the first ball hit is unknown (judged in the shooter\'s favour)', conf: 0.5 });
  } else if (facts.firstContact.length === 0) {
    if (facts.struck === CUE) fouls.push(foul('NO_CONTACT', pen, 'the cue ball hit no object ball'));
  } else if (!facts.firstContact.some((b) => targets.balls.includes(b))) {
    const hit = facts.firstContact[0]!;
    fouls.push(foul('WRONG_GROUP_FIRST', pen, `first contact ${facts.firstContact.join('+')}, legal: ${describeTargets(s, striker, targets)}`, hit));
  }
  if (facts.firstContact.length > 0 && facts.firstContactConf < 0.6) {
    v.review.push({ code: 'FIRST_CONTACT_UNCERTAIN', reason: `first contact (${facts.firstContact.join('+')}) has confidence ${facts.firstContactConf}`, conf: facts.firstContactConf });
  }
  const somethingPocketed = facts.pots.length > 0 || facts.cuePotted || facts.offTable.length > 0;
  if ((facts.firstContact.length > 0 || facts.firstContactUnknown) && !somethingPocketed && !facts.railAfterContact) {
    if (f.family === 'blackball' && stroke.totalSnooker) {
      v.notes.push('total snooker declared: no cushion needed');
    } else {
      fouls.push(foul('NO_RAIL', pen, 'no ball was pocketed and no ball reached a rail after the first contact'));
    }
  }
  if (f.family === 'blackball' && f.offTableRespot && eightOff) fouls.push(foul('OFF_TABLE', pen, 'the black left the table', EIGHT));
  if (f.opponentBallFoul && ownGroup !== null && !s.tableOpen && !s.freeShot) {
    // A ball nominated under the New Zealand rule has its own (losing) call below.
    const oppPots = objPots.filter((p) => groupOf(p.ball) === otherGroup(ownGroup) && !(f.nominateWhenBlocked && p.ball === stroke.nominated));
    const ownPotted = objPots.some((p) => groupOf(p.ball) === ownGroup);
    if (oppPots.length && !(f.opponentBallFoulUnlessOwn && ownPotted)) {
      fouls.push(foul('OPPONENT_BALL_POTTED', pen, `potted the opponent's ball ${oppPots.map((p) => p.ball).join(', ')}`, oppPots[0]!.ball));
    }
  }
  if (f.splitFoul && objPots.some((p) => groupOf(p.ball) === 'solids') && objPots.some((p) => groupOf(p.ball) === 'stripes')) {
    fouls.push(foul('SPLIT_POT', pen, 'balls of both groups were pocketed on one shot'));
  }
  if (f.ball1And15Pockets) {
    for (const [ball, pocket] of [['1', f.ball1And15Pockets.one], ['15', f.ball1And15Pockets.fifteen]] as const) {
      const p = objPots.find((x) => x.ball === ball);
      if (p && p.pocket !== pocket) fouls.push(foul('WRONG_POCKET', pen, `ball ${ball} must go in ${pocket}, went in ${p.pocket}`, ball));
    }
  }

  // ---- the call ----
  const call = f.callMode === 'none' ? null : resolveCall(stroke, facts, targets, f.inferObviousCalls);
  v.call = call;

  // ---- loss of the rack (7.2 and the variant losses) ----
  const losses: FoulCall[] = [];
  for (const m of facts.manualFouls) if (LOSS_CODES.has(m.code)) losses.push(foul(m.code, pen, `entered by the referee: ${m.code}`, m.ball));
  if (eightOff && f.eightOffTableLoses) losses.push(foul('EIGHT_OFF_TABLE', pen, 'the 8 left the table', EIGHT));
  let win = false;
  if (eightPot) {
    const early = !onEight;
    if (fouls.length) losses.push(foul('EIGHT_WITH_FOUL', pen, `the 8 was pocketed on a foul (${fouls.map((x) => x.code).join(', ')})`, EIGHT));
    if (early) {
      const why = s.tableOpen ? 'on an open table without a valid claim' : `with ${ownGroupLeft(s, striker)} of the group still on the table at the start of the shot`;
      losses.push(foul('EIGHT_EARLY', pen, `the 8 was pocketed ${why}`, EIGHT));
    } else {
      const wanted = eightPocketWanted(s, striker, call);
      if (wanted !== 'any' && wanted !== eightPot.pocket) {
        const what = wanted === 'safety' ? 'on a called safety' : wanted === null ? 'without a called pocket' : `in ${eightPot.pocket}, called ${wanted}`;
        losses.push(foul('EIGHT_WRONG_POCKET', pen, `the 8 was pocketed ${what}`, EIGHT));
      }
    }
    win = losses.length === 0;
  } else if (onEight && s.groups[striker] !== null) {
    if (f.scratchOnEightLoses && scratch) losses.push(foul('EIGHT_SCRATCH', pen, 'scratch while on the 8', CUE));
    if (f.missEightLoses && !facts.firstContactUnknown && !facts.firstContact.includes(EIGHT)) {
      losses.push(foul('EIGHT_MISSED', pen, 'the 8 was not hit first while on it', EIGHT));
      v.review.push({ code: 'EIGHT_MISS_BLOCKED', reason: 'the referee may excuse the miss if an opponent ball blocked the 8', conf: 0.5 });
    }
    const own = s.groups[striker]!;
    const oppPotted = objPots.filter((p) => groupOf(p.ball) === otherGroup(own));
    if (f.opponentBallOnEightLoses && oppPotted.length && !(stroke.nominated !== undefined && oppPotted.some((p) => p.ball === stroke.nominated) && f.nominateWhenBlocked)) {
      losses.push(foul('EIGHT_OPPONENT_BALL', pen, `pocketed the opponent's ball ${oppPotted[0]!.ball} while on the 8`, oppPotted[0]!.ball));
    }
    if (f.nominateWhenBlocked && stroke.nominated !== undefined && objPots.some((p) => p.ball === stroke.nominated)) {
      losses.push(foul('NOMINATED_BALL_POTTED', pen, `the nominated opponent ball ${stroke.nominated} was potted`, stroke.nominated));
    }
    if (f.foulLosesWhenOnlyEight && fouls.length && groupCleared(s, opp)) {
      losses.push(foul('EIGHT_FOUL', pen, `a foul (${fouls.map((x) => x.code).join(', ')}) with only the 8 left on the table`, EIGHT));
    }
    v.eightMiss = true;
    if (f.threeFailedEightLoses && s.eightMisses[striker] + 1 >= 3) losses.push(foul('EIGHT_THREE_MISSES', pen, 'three shots at the 8 in a row without pocketing it', EIGHT));
  }
  if (losses.length) {
    v.fouls = [...fouls, ...losses];
    v.rackWinner = opp;
    v.notes.push(`loss of rack: ${losses.map((x) => x.code).join(', ')}`);
    return v;
  }
  if (win) {
    v.fouls = fouls;
    v.rackWinner = striker;
    v.points = facts.pots.length;
    v.callFulfilled = call ? true : null;
    v.notes.push(`8 pocketed in ${eightPot!.pocket}: rack won`);
    return v;
  }

  // ---- a standard foul: the turn passes ----
  if (fouls.length) {
    v.fouls = fouls;
    const incoming = opp;
    let visits = groupCleared(s, incoming) ? f.visitsAfterFoulOnEight : f.visitsAfterFoul;
    if (f.postClearFoulVisits > 0 && onEight) visits = f.postClearFoulVisits;
    setFoulNext(s, v, incoming, scratch, visits);
    if (f.foulPocketsOpponentLowest) {
      const g = s.groups[incoming];
      const lowest = g ? OBJECT_BALLS.filter((b) => groupOf(b) === g && onTable(s, b) && !facts.pots.some((p) => p.ball === b))[0] : undefined;
      if (lowest) v.awarded = [lowest];
    }
    if (f.offTableRespot) v.spot = respotOrder(s, facts, incoming);
    v.callFulfilled = call ? false : null;
    return v;
  }
  if (f.offTableRespot) v.spot = respotOrder(s, facts, opp);

  // ---- no foul: was the shot made? ----
  const legalPots = objPots.filter((p) => targets.balls.includes(p.ball));
  let made: boolean;
  if (f.callMode === 'all') {
    if (call?.pocket === 'safety') {
      made = false;
      v.notes.push('safety called');
    } else if (call) {
      made = targets.balls.includes(call.ball) && objPots.some((p) => p.ball === call.ball && p.pocket === call.pocket);
      v.callFulfilled = made;
    } else {
      made = false;
      if (legalPots.length) v.review.push({ code: 'NO_CALL', reason: `ball ${legalPots.map((p) => p.ball).join(', ')} pocketed without a call on a shot that was not obvious: turn passes`, conf: 0.7 });
    }
  } else {
    made = legalPots.length > 0;
    v.callFulfilled = null;
  }
  v.points = facts.pots.length;
  if (f.missedCallFoul && call && call.pocket !== 'safety' && !call.inferred && !made) {
    // USA bar (seed 004): a shot not made as called is a foul; the turn passes.
    v.fouls = [foul('CALL_MISSED', pen, `the called shot (${call.ball || 'ball'} in ${call.pocket}) was not made`, call.ball || undefined)];
    v.points = 0;
    setFoulNext(s, v, opp, false);
    return v;
  }

  // Groups: decided on the first made shot on an open table (never on the break, a foul or a free shot).
  if (s.tableOpen && made && !s.freeShot) {
    const group = chooseGroup(s, stroke, call, legalPots);
    if (group) v.assign = { player: striker, group };
    else v.notes.push('both groups potted: table stays open');
  }
  if (made) {
    v.next = striker;
    v.nextVisits = s.visits;
  } else if (s.visits > 1) {
    // The end of one of several visits: the same player starts the next.
    v.next = striker;
    v.nextVisits = s.visits - 1;
  }
  return v;
}

function ownGroupLeft(s: Pool8State, p: Player): string {
  const g = s.groups[p];
  if (!g) return 'balls';
  const n = OBJECT_BALLS.filter((b) => groupOf(b) === g && onTable(s, b)).length;
  return `${n} ${g.replace(/s$/, n === 1 ? '' : 's')}`;
}

function describeTargets(s: Pool8State, p: Player, t: Targets): string {
  if (t.balls.length === 1 && t.balls[0] === EIGHT) return 'the 8';
  if (s.tableOpen) return 'any ball but the 8 (open table)';
  if (s.freeShot) return 'any ball but the black (free shot)';
  return `${s.groups[p]} (${t.balls.join(', ')})`;
}

/** Which pocket the 8 had to go in: the call, the last group pocket (variants), or any pocket (blackball). */
function eightPocketWanted(s: Pool8State, p: Player, call: ShotCall | null): PocketId | 'safety' | 'any' | null {
  const f = s.profile.flags;
  if (f.lastPocket && s.lastGroupPocket[p]) return s.lastGroupPocket[p];
  if (f.callMode === 'none') return 'any';
  if (!call) return null;
  if (call.pocket === 'safety') return 'safety';
  return call.ball === EIGHT || call.ball === '' ? call.pocket : null;
}

function chooseGroup(s: Pool8State, stroke: Stroke, call: ShotCall | null, legalPots: PotFact[]): Group | null {
  const f = s.profile.flags;
  if (f.callMode === 'all' && call && call.pocket !== 'safety') return groupOf(call.ball);
  const groups = new Set(legalPots.map((p) => groupOf(p.ball)).filter((g): g is Group => g !== null));
  if (groups.size === 1) return [...groups][0]!;
  if (f.bothGroupsStayOpen) return null;
  // Both groups on the deciding shot: the shooter's choice (calledBall/nominated), else the first in.
  const chosen = stroke.calledBall ?? stroke.nominated;
  const g = chosen !== undefined ? groupOf(chosen) : null;
  return g ?? groupOf(legalPots[0]!.ball);
}

/** Blackball: balls off the table go back on the long string, the black first, then the next shooter's group, then the rest. */
function respotOrder(s: Pool8State, facts: ShotFacts, next: Player): string[] {
  const off = facts.offTable.filter((b) => b !== CUE && (b !== EIGHT || !s.profile.flags.eightOffTableLoses));
  const g = s.groups[next];
  const rank = (b: string) => (b === EIGHT ? 0 : g && groupOf(b) === g ? 1 : 2);
  return [...off].sort((a, b) => rank(a) - rank(b) || Number(a) - Number(b));
}
