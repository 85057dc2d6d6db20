/**
 * Standard fouls (spec §7.1, §9) and the predicates the shot judges share: legal targets, the
 * shooter's group being cleared, cue-ball placement. Fouls are data (`FoulCall`), never exceptions.
 */
import type { FoulCall } from '../../core/contracts/calls.js';
import type { Stroke } from '../../core/contracts/strokes.js';
import { CUE, EIGHT, ballsOfGroup, groupOf, otherGroup, type Group } from './balls.js';
import type { ShotFacts } from './facts.js';
import { headStringY, placementProblem } from './geometry.js';
import type { InHandZone } from './profiles.js';
import { knownPositions, objectBallsOnTable, onTable, type Player, type Pool8State } from './state.js';

/** Loss-of-rack codes (contract) and the variant losses this module adds in the same style. */
export const LOSS_CODES = new Set([
  'EIGHT_EARLY',
  'EIGHT_WRONG_POCKET',
  'EIGHT_WITH_FOUL',
  'EIGHT_OFF_TABLE',
  'EIGHT_SCRATCH',
  'EIGHT_MISSED',
  'EIGHT_OPPONENT_BALL',
  'EIGHT_THREE_MISSES',
  'NOMINATED_BALL_POTTED',
  'EIGHT_FOUL',
]);

/**
 * The `penalty` number of a pool foul: 0 (pool scores no penalty points) except in profiles that
 * award visits, where it is the number of visits the incoming player receives.
 */
export function foulPenalty(s: Pool8State): number {
  const f = s.profile.flags;
  return f.visitsAfterFoul > 1 || f.family === 'blackball' ? f.visitsAfterFoul : 0;
}

export const foul = (code: string, penalty: number, detail: string, ball?: string): FoulCall =>
  ball === undefined ? { code, penalty, detail } : { code, penalty, ball, detail };

/** Every ball of the player's group is down (pocketed or off the table), evaluated at shot start (WPA R 4.4). */
export function groupCleared(s: Pool8State, p: Player): boolean {
  const g = s.groups[p];
  return g !== null && ballsOfGroup(g).every((b) => !onTable(s, b));
}

/** A group with no ball left on the table (for the WPA-2025 open-table claim). */
export function goneGroup(s: Pool8State): Group | null {
  for (const g of ['solids', 'stripes'] as const) if (ballsOfGroup(g).every((b) => !onTable(s, b))) return g;
  return null;
}

export interface Targets {
  /** Balls the shooter may legally contact first. */
  balls: string[];
  /** The shooter is on the 8 (group cleared, or a valid open-table claim). */
  onEight: boolean;
  /** The claimed group for this shot (WPA-2025 exception), if valid. */
  claimed: Group | null;
}

/**
 * Legal targets at the start of a shot (spec §2 derived `legal_targets`, §9 free shot). `claim` is
 * the group the shooter claims on an open table (explicit `claimGroup`, or implied by calling the 8).
 */
export function legalTargets(s: Pool8State, p: Player, opts: { claim?: Group | undefined; nominated?: string | undefined } = {}): Targets {
  const f = s.profile.flags;
  const onTableObj = objectBallsOnTable(s);
  const g = s.groups[p];
  if (s.tableOpen || g === null) {
    const gone = goneGroup(s);
    const claimed = f.family === 'wpa' && f.edition === 2025 && opts.claim !== undefined && opts.claim === gone ? gone : null;
    const balls = onTableObj.filter((b) => b !== EIGHT || claimed !== null);
    return { balls, onEight: claimed !== null, claimed };
  }
  if (s.freeShot) {
    // Blackball free shot: any ball may be played first, the black only when on it.
    const onBlack = groupCleared(s, p);
    return { balls: onTableObj.filter((b) => b !== EIGHT || onBlack), onEight: onBlack, claimed: null };
  }
  if (groupCleared(s, p)) {
    const balls = [EIGHT];
    // New Zealand: a player on the 8 may nominate an opponent ball when the 8 blocks.
    if (f.nominateWhenBlocked && opts.nominated !== undefined && groupOf(opts.nominated) === otherGroup(g) && onTable(s, opts.nominated)) balls.push(opts.nominated);
    return { balls, onEight: true, claimed: null };
  }
  return { balls: ballsOfGroup(g).filter((b) => onTable(s, b)), onEight: false, claimed: null };
}

/** Faults of the stroke itself, whatever the situation: touched balls, cue faults, balls off the table, manual fouls. */
export function strokeFaults(s: Pool8State, facts: ShotFacts, atBreak: boolean): FoulCall[] {
  const f = s.profile.flags;
  const pen = foulPenalty(s);
  const out: FoulCall[] = [];
  if (facts.struck !== null && facts.struck !== CUE) {
    out.push(foul('TOUCHED_BALL', pen, `the cue tip struck ball ${facts.struck}, not the cue ball`, facts.struck));
  }
  for (const t of facts.touches) out.push(foul('TOUCHED_BALL', pen, `ball ${t.ball} was touched by the ${t.by}`, t.ball));
  if (facts.push) out.push(foul('PUSH_STROKE', pen, 'push shot: prolonged tip contact'));
  if (facts.doubleHit) out.push(foul('DOUBLE_HIT', pen, 'the cue struck the cue ball twice'));
  if (f.jumpIsFoul) {
    for (const j of facts.jumps) out.push(foul('JUMP_SHOT', pen, j.over ? `jump shot over ball ${j.over}` : 'jump shot', j.over));
  }
  for (const m of facts.movingAtStrike) {
    out.push(foul('STRUCK_WHILE_MOVING', pen, `ball ${m.ball} was still moving at ${m.speedMmPerS.toFixed(0)} mm/s when the cue ball was struck`, m.ball));
  }
  for (const m of facts.manualFouls) {
    if (!LOSS_CODES.has(m.code)) out.push(foul(m.code, pen, `entered by the referee: ${m.code}`, m.ball));
  }
  if (facts.cuePotted || facts.offTable.includes(CUE)) {
    const how = facts.cuePotted ? 'the cue ball was pocketed' : 'the cue ball left the table';
    out.push(foul(atBreak ? 'BREAK_SCRATCH' : 'SCRATCH', pen, atBreak ? `${how} on the break` : how, CUE));
  }
  for (const b of facts.offTable) {
    if (b !== CUE && b !== EIGHT && f.offTableFoul) out.push(foul('OFF_TABLE', pen, `ball ${b} left the table`, b));
  }
  if (f.doubleKissFoul) {
    for (const [b, n] of facts.cueContacts) if (n >= 2) out.push(foul('DOUBLE_KISS', pen, `the cue ball contacted ball ${b} ${n} times`, b));
  }
  return out;
}

/**
 * Where the cue ball was put by hand for this stroke: the last `place` event for it, else its
 * `before` position when it was in hand. Null when it was played from where it lay.
 */
export function cuePlacement(s: Pool8State, stroke: Stroke, facts: ShotFacts): { x: number; y: number } | null {
  const last = facts.cuePlacements.at(-1);
  if (last) return { x: last.x, y: last.y };
  if (s.inHand !== null && !s.inHandOptional) {
    const b = stroke.before?.find((p) => p.id === CUE);
    if (b) return { x: b.x, y: b.y };
  }
  return null;
}

/** 3.10: a placement outside the zone, off the bed, overlapping a ball, or with the cue ball not in hand. */
export function placementFouls(s: Pool8State, stroke: Stroke, facts: ShotFacts, zone: InHandZone | null): FoulCall[] {
  const at = cuePlacement(s, stroke, facts);
  if (!at) return [];
  const pen = foulPenalty(s);
  if (zone === null) return [foul('BAD_PLACEMENT', pen, 'the cue ball was moved by hand but was not in hand', CUE)];
  const others = stroke.before ?? knownPositions(s);
  const problem = placementProblem(s.table, zone, at, others.map((o) => ({ id: o.id, x: o.x, y: o.y })));
  return problem ? [foul('BAD_PLACEMENT', pen, problem, CUE)] : [];
}

/**
 * P4 (3.11) for a shot with the cue ball in hand in the kitchen after a break foul: the first ball
 * hit lay in the kitchen and the cue ball had not crossed the head string, or the cue ball neither
 * crossed the string nor hit a ball on or beyond it. Null when positions are unknown (review).
 */
export function kitchenShotFoul(s: Pool8State, stroke: Stroke, facts: ShotFacts): FoulCall | 'unknown' | null {
  const hs = headStringY(s.table);
  const crossed = facts.firstContact.length ? facts.cueCrossedHeadStringBefore(facts.firstContactT) : facts.cueCrossedHeadStringBefore(Infinity);
  if (crossed) return null;
  if (facts.firstContactUnknown) return 'unknown';
  if (!facts.firstContact.length) return foul('BAD_PLAY_FROM_KITCHEN', foulPenalty(s), 'from the kitchen the cue ball neither crossed the head string nor hit a ball beyond it', CUE);
  const posOf = (id: string) => stroke.before?.find((b) => b.id === id) ?? (s.balls[id]?.y !== undefined ? { x: s.balls[id]!.x!, y: s.balls[id]!.y! } : undefined);
  const ys = facts.firstContact.map((b) => posOf(b)?.y);
  if (ys.some((y) => y === undefined)) return 'unknown';
  // Any first-contact ball on or beyond the string makes the shot legal (benefit to the shooter).
  if (ys.some((y) => y! >= hs)) return null;
  return foul('BAD_PLAY_FROM_KITCHEN', foulPenalty(s), `from the kitchen the cue ball hit ball ${facts.firstContact[0]} (inside the kitchen) before crossing the head string`, facts.firstContact[0]);
}
