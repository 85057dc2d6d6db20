/**
 * What happened on a stroke, read once from its events (spec §3, §4): the settled pots (hanging
 * balls and bounce-outs resolved), balls off the table, the cue ball's first-contact set, whether a
 * ball reached a rail after it, placements and the stroke faults. Pure reading: no rule is applied.
 */
import type { Stroke, StrokeEvent } from '../../core/contracts/strokes.js';
import type { CushionSide, PocketId } from '../../core/games.js';
import { eventsOf, firstContactSet } from '../validate.js';
import { CUE } from './balls.js';
import type { Pool8Flags } from './profiles.js';

export interface PotFact {
  ball: string;
  pocket: PocketId;
  t: number;
}

export interface ShotFacts {
  struck: string | null;
  strikeT: number;
  /** Object balls pocketed on this stroke, in time order (after the hanging window and bounce-outs). */
  pots: PotFact[];
  cuePotted: boolean;
  /** Balls driven off the table (the cue ball included). */
  offTable: string[];
  /** Hanging balls that dropped after the window: not pocketed, back on the lip. */
  lateDrops: PotFact[];
  /** Pot events for balls the `rest` list shows back on the bed (bounce-outs). */
  bounceOuts: PotFact[];
  firstContact: string[];
  firstContactT: number;
  firstContactConf: number;
  /** No contact was logged, yet several object balls moved: the cue ball hit one of them, which one is unknown. */
  firstContactUnknown: boolean;
  /** A ball (cue or object) touched a rail after the first contact (P2), frozen balls excepted. */
  railAfterContact: boolean;
  /** Object balls that touched a rail, were pocketed or left the table (P5 break count). */
  ballsToRail: Set<string>;
  /** Distinct object balls that reached a cushion (WEPF break). */
  ballsToCushion: Set<string>;
  /** Distinct object balls that crossed the centre string (blackball break). */
  crossedCentre: Set<string>;
  cuePlacements: { x: number; y: number; t: number; index: number }[];
  /** The cue ball crossed the head string before `t` (P4). */
  cueCrossedHeadStringBefore: (t: number) => boolean;
  touches: Extract<StrokeEvent, { type: 'touch' }>[];
  push: boolean;
  doubleHit: boolean;
  jumps: Extract<StrokeEvent, { type: 'jump' }>[];
  manualFouls: Extract<StrokeEvent, { type: 'foul' }>[];
  /** Balls whose sampled path shows them moving faster than `STOPPED_MM_PER_S` at the strike (3.9). */
  movingAtStrike: { ball: string; speedMmPerS: number }[];
  concede: Extract<StrokeEvent, { type: 'concede' }> | null;
  stalemate: boolean;
  /** Number of separate contacts between the cue ball and each object ball. */
  cueContacts: Map<string, number>;
  /** Lowest confidence among the events that decide the call, with their codes (for review). */
  lowConf: { code: string; reason: string; conf: number }[];
}

/** Below this event confidence the call is flagged for review (the call stands). */
export const REVIEW_CONF = 0.6;

export function readFacts(stroke: Stroke, flags: Pool8Flags, headStringY: number, centreY: number): ShotFacts {
  const ev = stroke.events;
  const strike = eventsOf(ev, 'strike')[0];
  const restIds = new Set((stroke.rest ?? []).map((b) => b.id));
  const hangingAt = new Map<string, number>();
  for (const h of eventsOf(ev, 'hanging')) if (!hangingAt.has(h.ball)) hangingAt.set(h.ball, h.t);
  // The balls stopped (ALL_STOPPED) at the last event that is not the drop of a hanging ball.
  let stoppedT = -Infinity;
  for (const e of ev) if (!(e.type === 'pot' && hangingAt.has(e.ball))) stoppedT = Math.max(stoppedT, e.t);

  const pots: PotFact[] = [];
  const lateDrops: PotFact[] = [];
  const bounceOuts: PotFact[] = [];
  let cuePotted = false;
  const seenPot = new Set<string>();
  for (const p of eventsOf(ev, 'pot')) {
    if (seenPot.has(p.ball)) continue;
    seenPot.add(p.ball);
    const f = { ball: p.ball, pocket: p.pocket, t: p.t };
    const h = hangingAt.get(p.ball);
    // A ball that hung on the lip counts only if it fell within the window after the balls
    // stopped (WPA R 2.2).
    if (h !== undefined && p.t - Math.max(h, stoppedT) > flags.hangingWindowS) {
      lateDrops.push(f);
      continue;
    }
    // A pot followed by the ball at rest on the bed is a bounce-out: not pocketed under WPA.
    if (restIds.has(p.ball) && !flags.bounceOutCounts) {
      bounceOuts.push(f);
      continue;
    }
    if (p.ball === CUE) cuePotted = true;
    else pots.push(f);
  }
  const offTable = [...new Set(eventsOf(ev, 'offTable').map((e) => e.ball))];

  let fc = firstContactSet(ev, CUE, flags.tieS);
  // Blackball: playing away from a declared touching ball counts as hitting it (spec §9).
  if (!fc.balls.length && flags.family === 'blackball' && stroke.touching?.length && strike) {
    fc = { balls: [...stroke.touching], t: strike.t, conf: 1 };
  }
  // Hand-entered logs often give no contact events ("A pots 5 in BR"). An object ball that moved
  // (reached a cushion, a pocket, the floor) was set moving by the cue ball: when it is the only one,
  // it was the first ball hit; when several moved, the first contact is unknown (not "no contact").
  let firstContactUnknown = false;
  if (!fc.balls.length && strike?.ball === CUE && !ev.some((e) => e.type === 'contact')) {
    const moved = new Set<string>();
    for (const e of ev) if ((e.type === 'pot' || e.type === 'cushion' || e.type === 'offTable' || e.type === 'hanging') && e.ball !== CUE) moved.add(e.ball);
    if (moved.size === 1) fc = { balls: [...moved], t: strike.t, conf: 1 };
    else if (moved.size > 1) firstContactUnknown = true;
  }
  const t0 = fc.balls.length ? fc.t : firstContactUnknown ? strike!.t : Infinity;
  const frozen = stroke.frozen ?? {};
  // A cushion by a ball declared frozen to that cushion does not count (spec P2): it must leave first.
  const leftRail = (ball: string, side: CushionSide) => pathLeftRail(stroke, ball, side);
  const countsAsRail = (ball: string, side: CushionSide) => !(frozen[ball]?.includes(side) ?? false) || leftRail(ball, side);
  let railAfterContact = false;
  const ballsToRail = new Set<string>();
  const ballsToCushion = new Set<string>();
  for (const c of eventsOf(ev, 'cushion')) {
    if (c.ball !== CUE) {
      ballsToRail.add(c.ball);
      ballsToCushion.add(c.ball);
    }
    // The cue ball's rail touch within τ_tie before the first contact counts as after it.
    const after = c.t >= t0 || (c.ball === CUE && t0 - c.t <= flags.tieS);
    if (after && countsAsRail(c.ball, c.side)) railAfterContact = true;
  }
  // A ball that went into a pocket and bounced out touched the pocket: that is a rail (spec §1).
  if (bounceOuts.some((b) => b.t >= t0)) railAfterContact = true;
  for (const p of pots) ballsToRail.add(p.ball);
  for (const b of offTable) if (b !== CUE) ballsToRail.add(b);
  const crossedCentre = new Set(eventsOf(ev, 'cross').filter((c) => c.line === 'centreLine' && c.ball !== CUE).map((c) => c.ball));
  // Read on the break only: the rack lies beyond the centre string, so an object ball that reaches
  // the head (baulk) cushion or a head pocket has crossed it (hand-entered logs rarely log crossings).
  for (const c of eventsOf(ev, 'cushion')) if (c.ball !== CUE && c.side === 'bottom' && !c.jaw) crossedCentre.add(c.ball);
  for (const p of pots) if (p.ball !== CUE && (p.pocket === 'BL' || p.pocket === 'BR')) crossedCentre.add(p.ball);
  // Paths, when given, also show balls past the centre string at rest.
  for (const b of stroke.rest ?? []) {
    if (b.id !== CUE && stroke.paths?.[b.id]?.[0] && (stroke.paths[b.id]![0]![2] - centreY) * (b.y - centreY) < 0) crossedCentre.add(b.id);
  }

  const cuePlacements = ev.flatMap((e, index) => (e.type === 'place' && e.ball === CUE ? [{ x: e.x, y: e.y, t: e.t, index }] : []));
  const crosses = eventsOf(ev, 'cross').filter((c) => c.ball === CUE && c.line === 'headString');
  const cuePath = stroke.paths?.[CUE];
  const cueCrossedHeadStringBefore = (t: number) =>
    crosses.some((c) => c.t <= t) || (cuePath?.some(([pt, , y]) => pt <= t && y >= headStringY) ?? false);

  const cueContacts = new Map<string, number>();
  for (const c of eventsOf(ev, 'contact')) {
    if (c.a !== CUE && c.b !== CUE) continue;
    const o = c.a === CUE ? c.b : c.a;
    cueContacts.set(o, (cueContacts.get(o) ?? 0) + 1);
  }

  // Low confidence turns into a review flag, not a call (contract): a doubtful fault event is only
  // proposed; a doubtful contact or pot is still judged, with a flag.
  const lowConf: ShotFacts['lowConf'] = [];
  const sure = <E extends StrokeEvent>(e: E): boolean => e.conf === undefined || e.conf >= REVIEW_CONF;
  for (const e of ev) {
    if (sure(e)) continue;
    const proposed = FAULT_CODES[e.type];
    if (proposed) lowConf.push({ code: e.type === 'foul' ? e.code : proposed, reason: `proposed ${e.type} at t=${e.t} s (confidence ${e.conf}): not called, confirm or dismiss`, conf: e.conf! });
    else lowConf.push({ code: 'LOW_CONFIDENCE', reason: `${e.type} event at t=${e.t} s has confidence ${e.conf}`, conf: e.conf! });
  }
  const moving = movingAtStrike(stroke, strike?.t);

  return {
    struck: strike?.ball ?? null,
    strikeT: strike?.t ?? ev[0]?.t ?? 0,
    pots,
    cuePotted,
    offTable,
    lateDrops,
    bounceOuts,
    firstContact: fc.balls,
    firstContactT: fc.t,
    firstContactConf: fc.conf,
    firstContactUnknown,
    railAfterContact,
    ballsToRail,
    ballsToCushion,
    crossedCentre,
    cuePlacements,
    cueCrossedHeadStringBefore,
    touches: eventsOf(ev, 'touch').filter(sure),
    push: ev.some((e) => e.type === 'push' && sure(e)),
    doubleHit: ev.some((e) => e.type === 'doubleHit' && sure(e)),
    jumps: eventsOf(ev, 'jump').filter(sure),
    // `foul {code: "STALEMATE"}` is how a log without the pool `stalemate` event enters one.
    manualFouls: eventsOf(ev, 'foul').filter((e) => sure(e) && e.code !== 'STALEMATE'),
    movingAtStrike: moving,
    concede: eventsOf(ev, 'concede')[0] ?? null,
    stalemate: ev.some((e) => e.type === 'stalemate' || (e.type === 'foul' && e.code === 'STALEMATE' && sure(e))),
    cueContacts,
    lowConf,
  };
}

/** Fault events and the foul each proposes (the `foul` event carries its own code). */
const FAULT_CODES: Partial<Record<StrokeEvent['type'], string>> = {
  touch: 'TOUCHED_BALL',
  push: 'PUSH_STROKE',
  doubleHit: 'DOUBLE_HIT',
  jump: 'JUMP_SHOT',
  foul: 'FOUL',
};

/**
 * Below this speed a ball counts as stopped (spec 3.9 `v_stop`). Raising it forgives slow creep
 * that tracking noise fakes; lowering it catches a ball still rolling at a few mm/s.
 */
export const STOPPED_MM_PER_S = 5;

/** Longest gap between two sightings, or from the last one to the strike, that still gives a speed at the strike, s. */
const MAX_SPEED_GAP_S = 0.25;

/** Balls other than the cue ball still moving at the strike, from their sampled paths. */
function movingAtStrike(stroke: Stroke, strikeT: number | undefined): { ball: string; speedMmPerS: number }[] {
  if (strikeT === undefined || !stroke.paths) return [];
  const out: { ball: string; speedMmPerS: number }[] = [];
  for (const [ball, path] of Object.entries(stroke.paths)) {
    if (ball === CUE) continue;
    // The last two samples at or before the strike give the speed the ball had then.
    const upTo = path.filter(([t]) => t <= strikeT + 1e-9);
    if (upTo.length < 2) continue;
    const [t1, x1, y1] = upTo[upTo.length - 2]!;
    const [t2, x2, y2] = upTo[upTo.length - 1]!;
    // Two sightings far apart (a ball hidden under a hand, seen again moved) say where it went,
    // not how fast it was going at the strike; nor does a last sighting long before the strike.
    if (t2 <= t1 || t2 - t1 > MAX_SPEED_GAP_S || strikeT - t2 > MAX_SPEED_GAP_S) continue;
    const v = Math.hypot(x2 - x1, y2 - y1) / (t2 - t1);
    if (v > STOPPED_MM_PER_S) out.push({ ball, speedMmPerS: v });
  }
  return out;
}

/** Did the ball's sampled path leave the given rail (gap > 0.5 mm beyond touching) at some point? */
function pathLeftRail(stroke: Stroke, ball: string, side: CushionSide): boolean {
  const path = stroke.paths?.[ball];
  if (!path || path.length < 2) return false;
  // Without the table here, use the path's own extreme on that side as the rail line.
  const coord = (p: readonly [number, number, number]) => (side === 'left' || side === 'right' ? p[1] : p[2]);
  const toward = side === 'right' || side === 'top' ? 1 : -1;
  const railValue = Math.max(...path.map((p) => toward * coord(p)));
  return path.some((p) => railValue - toward * coord(p) > 0.5);
}
