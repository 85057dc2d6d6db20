/**
 * The break shot (spec §5 for WPA-style profiles, §9 for blackball): break legality, the 8 on the
 * break and its options, break fouls with the cue ball in the kitchen (or baulk).
 */
import type { Stroke } from '../../core/contracts/strokes.js';
import { CUE, EIGHT, groupOf } from './balls.js';
import type { ShotFacts } from './facts.js';
import { LOSS_CODES, foul, foulPenalty, placementFouls, strokeFaults } from './fouls.js';
import { other, type Player, type Pool8State } from './state.js';
import { baseVerdict, type Verdict } from './verdict.js';

/** Is the break legal by the profile's requirement (spec P5; blackball centre string; WEPF; IEPF points)? */
export function breakIsLegal(s: Pool8State, facts: ShotFacts): { legal: boolean; why: string } {
  const potted = facts.pots.length;
  switch (s.profile.flags.breakRule) {
    case 'rails4':
      return { legal: potted > 0 || facts.ballsToRail.size >= 4, why: `${potted} pocketed, ${facts.ballsToRail.size} distinct object balls to a rail (4 needed)` };
    case 'cushions4':
      return { legal: potted > 0 || facts.ballsToCushion.size >= 4, why: `${potted} potted, ${facts.ballsToCushion.size} balls to a cushion (4 needed)` };
    case 'centre2':
      return { legal: potted > 0 || facts.crossedCentre.size >= 2, why: `${potted} potted, ${facts.crossedCentre.size} balls over the centre string (2 needed)` };
    case 'points3': {
      const pottedIds = new Set(facts.pots.map((p) => p.ball));
      const points = potted + [...facts.crossedCentre].filter((b) => !pottedIds.has(b)).length;
      return { legal: points >= 3, why: `${points} break points (1 per pot, 1 per ball past the centre line; 3 needed)` };
    }
  }
}

export function judgeBreak(s: Pool8State, stroke: Stroke, facts: ShotFacts, striker: Player): Verdict {
  const f = s.profile.flags;
  const opp = other(striker);
  const v = baseVerdict(opp);
  const pen = foulPenalty(s);
  const zone = f.family === 'blackball' ? 'baulk' : 'kitchen';
  const faults = [...placementFouls(s, stroke, facts, zone), ...strokeFaults(s, facts, true)];
  const scratch = facts.cuePotted || facts.offTable.includes(CUE);
  const eightPotted = facts.pots.some((p) => p.ball === EIGHT);
  const eightOff = facts.offTable.includes(EIGHT);
  const objOff = facts.offTable.filter((b) => b !== CUE && b !== EIGHT);
  const { legal, why } = breakIsLegal(s, facts);
  v.breakLegal = legal;
  v.points = faults.length ? 0 : facts.pots.length;
  const losses = facts.manualFouls.filter((m) => LOSS_CODES.has(m.code));
  if (losses.length) {
    v.fouls = [...faults, ...losses.map((m) => foul(m.code, pen, `entered by the referee: ${m.code}`, m.ball))];
    v.rackWinner = opp;
    v.points = 0;
    v.notes.push('loss of rack entered by the referee');
    return v;
  }

  if (f.family === 'blackball') {
    if (eightPotted) {
      // Blackball: the black on the break re-racks, the same player breaks, no penalty even after a foul.
      v.rerackBreaker = striker;
      v.next = striker;
      v.points = 0;
      v.notes.push('black potted on the break: re-rack, the same player breaks again');
      if (faults.length) v.review.push({ code: 'FOUL_IGNORED', reason: `${faults.map((x) => x.code).join(', ')} on a break that potted the black carries no penalty`, conf: 1 });
      return v;
    }
    if (eightOff) faults.push(foul('OFF_TABLE', pen, 'the black left the table', EIGHT));
    v.spot = f.offTableRespot ? [...(eightOff ? [EIGHT] : []), ...objOff] : [];
    if (!legal) {
      v.fouls = [foul('ILLEGAL_BREAK', pen, `illegal break: ${why}`), ...faults];
      v.pending = { kind: 'illegalBreak', decider: opp, options: ['play', 'rerack'], breaker: striker, zone: scratch ? f.foulZone : null };
      setFoulNext(s, v, opp, scratch);
      v.notes.push('illegal break');
      return v;
    }
    if (faults.length) {
      v.fouls = faults;
      setFoulNext(s, v, opp, scratch);
      return v;
    }
    v.next = facts.pots.length ? striker : opp;
    v.notes.push(facts.pots.length ? 'legal break, breaker continues (table open)' : 'legal break, nothing potted');
    return v;
  }

  // WPA family, cases B1–B7 in the spec's order.
  if (f.eightOnBreak === 'wins' && eightPotted) {
    if (scratch && f.eightOnBreakWithScratchLoses) {
      v.fouls = [...faults, foul('EIGHT_WITH_FOUL', pen, 'the 8 was pocketed on the break with a scratch', EIGHT)];
      v.rackWinner = opp;
      v.points = 0;
      v.notes.push('8 on the break with a scratch: loss');
    } else {
      v.fouls = faults;
      v.rackWinner = striker;
      v.notes.push('8 on the break wins');
    }
    return v;
  }
  const anyFoul = faults.length > 0 || objOff.length > 0;
  if (eightPotted && !anyFoul) {
    // B1: the breaker chooses: spot the 8 and continue, or re-rack and break again.
    v.next = striker;
    v.spot = [EIGHT];
    v.pending = { kind: 'eightOnBreak', decider: striker, options: ['spot8', 'breakAgain'], breaker: striker, zone: null };
    v.notes.push('8 on the break: breaker may spot it and continue, or break again');
    return v;
  }
  if ((eightPotted && anyFoul) || eightOff) {
    // B2: the incoming player chooses: spot the 8 and shoot from the kitchen, or re-rack and break.
    v.fouls = [...(eightOff ? [foul('OFF_TABLE', pen, 'the 8 left the table on the break', EIGHT)] : []), ...faults];
    if (!legal) v.fouls.unshift(foul('ILLEGAL_BREAK', pen, `illegal break: ${why}`));
    v.spot = [EIGHT];
    const rerackAllowed = f.edition === 2025 || scratch;
    v.pending = { kind: 'eightOnBreakFoul', decider: opp, options: rerackAllowed ? ['spot8', 'rerack'] : ['spot8'], breaker: striker, zone: f.breakFoulZone };
    v.nextInHand = f.breakFoulZone;
    v.nextKitchenShot = f.breakFoulZone === 'kitchen';
    v.points = 0;
    v.notes.push(`8 ${eightOff ? 'off the table' : 'pocketed'} on a foul break`);
    return v;
  }
  if (!legal) {
    // B3: accept the table, re-rack and break, or have the offender break again.
    v.fouls = [foul('ILLEGAL_BREAK', pen, `illegal break: ${why}`), ...faults];
    v.pending = { kind: 'illegalBreak', decider: opp, options: ['play', 'rerack', 'breakAgain'], breaker: striker, zone: scratch ? f.breakFoulZone : null };
    if (scratch) {
      v.nextInHand = f.breakFoulZone;
      v.nextKitchenShot = f.breakFoulZone === 'kitchen';
    }
    v.notes.push('illegal break');
    return v;
  }
  if (anyFoul) {
    // B4 (object ball off the table, stays off) and B5 (other break fouls): cue ball in hand in the
    // kitchen; with the cue ball still on the bed the incoming player may accept the position.
    v.fouls = faults;
    v.points = 0;
    v.nextInHand = f.breakFoulZone;
    v.nextInHandOptional = !scratch;
    v.nextKitchenShot = f.breakFoulZone === 'kitchen';
    if (!scratch) v.pending = { kind: 'breakFoul', decider: opp, options: ['play', 'kitchen'], breaker: striker, zone: f.breakFoulZone };
    return v;
  }
  if (facts.pots.length) {
    // B6: the breaker continues; the table stays open (USA bar: an unequal break gives a group).
    v.next = striker;
    v.notes.push('legal break, breaker continues (table open)');
    if (f.breakAssignsGroup) {
      const solids = facts.pots.filter((p) => groupOf(p.ball) === 'solids').length;
      const stripes = facts.pots.filter((p) => groupOf(p.ball) === 'stripes').length;
      if (solids !== stripes) v.assign = { player: striker, group: solids > stripes ? 'solids' : 'stripes' };
      else {
        // Seed 004 §USA: as many of one group as of the other on the break passes the turn.
        v.next = opp;
        v.notes.push('as many solids as stripes potted on the break: turn passes (table open)');
      }
    }
    return v;
  }
  v.notes.push('legal break, nothing pocketed');
  return v;
}

/**
 * After a standard foul: the opponent comes in with the profile's visits, free shot and cue ball in
 * hand (in `foulZone`; a scratch makes it compulsory, other fouls leave it optional where allowed).
 */
export function setFoulNext(s: Pool8State, v: Verdict, incoming: Player, scratch: boolean, visits?: number): void {
  const f = s.profile.flags;
  v.next = incoming;
  v.nextVisits = visits ?? f.visitsAfterFoul;
  v.nextFreeShot = f.freeShot;
  if (f.foulsWithoutBih && !scratch) {
    v.nextInHand = null;
    return;
  }
  v.nextInHand = f.foulZone;
  v.nextInHandOptional = f.inHandOptional && !scratch;
}
