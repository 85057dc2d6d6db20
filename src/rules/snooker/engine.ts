/**
 * The snooker referee: one stroke in, the call out (spec §5's order of operations). Pure.
 *
 * Where the spec marks a call ASSISTED the call is still made (the proposal) and a `review` entry
 * names what the referee is asked to decide. MANUAL calls arrive as events (`foul`, `concede`,
 * `requestEnd`, `lots`, `miss`) and are applied as given.
 */
import type { FoulCall, RespotCall, ReviewEntry } from '../../core/contracts/calls.js';
import type { Stroke, StrokeEvent } from '../../core/contracts/strokes.js';
import type { InputErrorInfo } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';
import type { PointMm } from '../../core/table.js';
import type { RulesEngine, StrokeOutcome } from '../contract.js';
import { checkStrokeCommon, eventsOf, firstContactSet } from '../validate.js';
import { COLOURS, KNOWN_IDS, VALUE, isColour, isRed, nameOf, valueOf, type Colour } from './balls.js';
import { SNOOKER_VARIANTS } from './config.js';
import {
  clearPathAny,
  dLineDistance,
  fullBallPath,
  inD,
  jawPoints,
  snookeredAt,
  snookeredInHand,
  touchingBalls,
  type GeoBall,
  type GeoOptions,
  type SnookerResult,
} from './geometry.js';
import { respotColours } from './respot.js';
import {
  initState,
  lowestColour,
  other,
  pointsRemaining,
  redsOnTable,
  snookersRequired,
  type Phase,
  type Player,
  type Snapshot,
  type SnookerState,
} from './state.js';

export interface SnookerCall {
  stroke: number;
  player: Player;
  ballOn: string[];
  nominated: string | null;
  /** The nominated free ball, when one was played. */
  freeBallPlayed: string | null;
  firstContact: string[];
  legal: boolean;
  potted: string[];
  points: number;
  fouls: FoulCall[];
  penalty: number;
  miss: boolean;
  missCount: number;
  missWarning: boolean;
  freeBall: boolean;
  touching: string[];
  snookered: boolean;
  effectiveSnookeringBall: string[];
  respot: RespotCall[];
  scores: [number, number];
  break: number;
  nextPlayer: Player;
  nextBallOn: string[];
  /** Choices open to the incoming player after a foul (`play`, `playAgain`, `replace`). */
  options: string[];
  inHand: boolean;
  frameOver: boolean;
  winner: Player | null;
  pointsRemaining: number;
  snookersRequired: [number, number];
  redsLeft: number;
  phase: Phase | 'FRAME_OVER';
  review: ReviewEntry[];
  summary: string;
  [extra: string]: unknown;
}

/** Penalty classes of the foul catalogue (spec §7). */
const BALL_ON_VALUE = new Set(['DOUBLE_HIT', 'FEET_OFF_FLOOR', 'PLAYED_OUT_OF_TURN', 'CUE_BALL_NOT_IN_D', 'NO_CONTACT', 'IN_OFF', 'FREE_BALL_SNOOKER', 'JUMP_SHOT', 'NON_STANDARD_CUE', 'CONFERRING']);
const HIGHER_OF = new Set(['STRUCK_WHILE_MOVING', 'STRUCK_BEFORE_RESPOT', 'POT_NOT_ON', 'WRONG_BALL_FIRST', 'PUSH_STROKE', 'TOUCHING_BALL_MOVED', 'TOUCHED_BALL', 'OFF_TABLE']);
const SEVEN = new Set(['BALL_OFF_TABLE_USED', 'MEASURING', 'RED_AFTER_RED', 'WRONG_CUE_BALL', 'NO_NOMINATION']);
/** Fouls about the cue ball's first contact: the ones that can be a miss (spec §9). */
const FIRST_CONTACT_FOULS = new Set(['NO_CONTACT', 'WRONG_BALL_FIRST', 'RED_AFTER_RED']);

const dist = (a: PointMm, b: PointMm) => Math.hypot(a.x - b.x, a.y - b.y);
const geoList = (balls: Record<string, PointMm>): GeoBall[] => Object.entries(balls).map(([id, p]) => ({ id, x: p.x, y: p.y }));

function review(code: string, reason: string, conf: number, ask?: string): ReviewEntry {
  return ask ? { code, reason, conf: round3(conf), ask } : { code, reason, conf: round3(conf) };
}
const round3 = (v: number) => Math.round(v * 1000) / 1000;
const round1 = (v: number) => Math.round(v * 10) / 10;

/** The ball-on set as ids on the table, for the current phase (no free ball). */
function ballsOnIds(s: Pick<SnookerState, 'balls' | 'phase' | 'colourOn'>, nominatedColour: Colour | null): string[] {
  switch (s.phase) {
    case 'RED_ON':
      return redsOnTable(s);
    case 'COLOUR_AFTER_RED':
      // Before a nomination any colour could be on.
      return nominatedColour ? [nominatedColour] : COLOURS.filter((c) => s.balls[c]);
    case 'COLOURS_SEQUENCE':
      return s.balls[s.colourOn] ? [s.colourOn] : [];
    case 'RESPOTTED_BLACK':
      return ['black'];
  }
}

function ballOnNames(phase: Phase, colourOn: Colour, nominated: Colour | null): string[] {
  switch (phase) {
    case 'RED_ON':
      return ['red'];
    case 'COLOUR_AFTER_RED':
      return nominated ? [nominated] : [...COLOURS];
    case 'COLOURS_SEQUENCE':
      return [colourOn];
    case 'RESPOTTED_BLACK':
      return ['black'];
  }
}

export const snookerRules: RulesEngine<SnookerState, SnookerCall> = {
  game: 'snooker',
  variants: SNOOKER_VARIANTS,
  init: initState,
  applyStroke,
  describe: (s) => ({
    scores: s.scores,
    striker: s.striker,
    phase: s.frameOver ? 'FRAME_OVER' : s.phase,
    ballOn: ballOnNames(s.phase, s.colourOn, null),
    redsLeft: redsOnTable(s).length,
    inHand: s.inHand,
    freeBall: s.freeBall,
    break: s.breakPoints,
    pointsRemaining: pointsRemaining(s),
    missWarning: s.missWarning,
    frameOver: s.frameOver,
    winner: s.winner,
    balls: s.balls,
  }),
};

interface Ctx {
  s: SnookerState;
  index: number;
  stroke: Stroke;
  player: Player;
  fouls: FoulCall[];
  reviews: ReviewEntry[];
  /** Ball-on value for penalties (spec §7: value of the ball on; 7 when a colour after a red is unclear). */
  ballOnValue: number;
  /** The colour on in the sequence when the stroke began (the state moves on as it is judged). */
  colourOnBefore: Colour;
  /** Ball positions at the strike are measured (`before`, or rest of the previous stroke). */
  knownAtStrike: boolean;
}

function addFoul(c: Ctx, code: string, detail: string, ball?: string): void {
  let penalty: number;
  const concerned = ball ? valueOf(ball) : 0;
  if (SEVEN.has(code)) penalty = 7;
  else if (HIGHER_OF.has(code)) penalty = Math.max(c.ballOnValue, concerned);
  else if (BALL_ON_VALUE.has(code)) penalty = c.ballOnValue;
  else {
    penalty = Math.max(c.ballOnValue, concerned);
    c.reviews.push(review('UNKNOWN_FOUL_CODE', `foul code ${code} is not in the snooker catalogue; penalised at the value of the ball on`, 0.5));
  }
  penalty = Math.max(4, penalty);
  const f: FoulCall = { code, penalty, detail };
  if (ball) f.ball = ball;
  // The same foul on the same ball is one foul.
  if (!c.fouls.some((x) => x.code === code && x.ball === ball)) c.fouls.push(f);
}

/**
 * Reds are interchangeable, so a hand-entered log may call one just "red" in its events. Each such
 * red gets the id of a red on the table that the stroke does not name otherwise: a red the white
 * (or any ball) hits is a new one, a red that strikes another ball is the last one mentioned, and a
 * pot, off-table or hanging "red" is the earliest red mentioned that has not dropped yet.
 */
function resolveBareReds(stroke: Stroke, balls: Record<string, PointMm>): { stroke: Stroke; assigned: string[] } {
  const bare = (id: string | undefined) => id === 'red' || id === 'reds';
  if (stroke.touching?.some(bare)) {
    // A declared touching "red" is the red nearest the white.
    const w = stroke.before?.find((b) => b.id === 'white') ?? (balls.white ? { ...balls.white } : null);
    const reds = Object.entries(balls).filter(([id]) => isRed(id) && !stroke.touching!.includes(id));
    reds.sort((p, q) => (w ? dist(w, p[1]) - dist(w, q[1]) : 0));
    const touching = stroke.touching.map((id) => (bare(id) ? (reds.shift()?.[0] ?? id) : id));
    stroke = { ...stroke, touching };
  }
  if (!stroke.events.some((e) => ('ball' in e && bare(e.ball as string)) || (e.type === 'contact' && (bare(e.a) || bare(e.b))))) return { stroke, assigned: [] };
  const named = new Set<string>();
  for (const e of stroke.events) for (const k of ['ball', 'a', 'b', 'over'] as const) if (k in e) named.add((e as Record<string, unknown>)[k] as string);
  for (const b of [...(stroke.rest ?? []), ...(stroke.before ?? [])]) named.add(b.id);
  const pool = Object.keys(balls).filter((id) => isRed(id) && !named.has(id));
  const assigned: string[] = [];
  const live: string[] = [];
  const fresh = (): string => {
    const id = pool.shift() ?? 'red';
    if (id !== 'red') {
      assigned.push(id);
      live.push(id);
    }
    return id;
  };
  const dropped = (): string => {
    const id = live.shift() ?? fresh();
    const i = live.indexOf(id);
    if (i >= 0) live.splice(i, 1);
    return id;
  };
  const events = stroke.events.map((e) => {
    if (e.type === 'contact') {
      if (!bare(e.a) && !bare(e.b)) return e;
      // A red already moving in this stroke (the last one mentioned) strikes on; a red it or the
      // white hits is another red.
      const a = bare(e.a) ? (e.b === 'white' ? fresh() : (live.at(-1) ?? fresh())) : e.a;
      const b = bare(e.b) ? fresh() : e.b;
      return { ...e, a, b };
    }
    if (!('ball' in e) || !bare(e.ball as string)) return e;
    if (e.type === 'pot' || e.type === 'offTable') return { ...e, ball: dropped() };
    if (e.type === 'hanging') return { ...e, ball: live[0] ?? fresh() };
    return { ...e, ball: fresh() };
  }) as StrokeEvent[];
  return { stroke: { ...stroke, events }, assigned };
}

/** A `strike` on the white for a stroke that has none but shows the white moving. */
function inferStrike(stroke: Stroke): StrokeEvent | null {
  if (stroke.events.some((e) => e.type === 'strike')) return null;
  const moved = stroke.events.filter(
    (e) =>
      (e.type === 'contact' && (e.a === 'white' || e.b === 'white')) ||
      ((e.type === 'cushion' || e.type === 'pot' || e.type === 'offTable') && e.ball === 'white') ||
      e.type === 'push' ||
      e.type === 'doubleHit' ||
      (e.type === 'jump' && e.ball === 'white'),
  );
  if (moved.length === 0) return null;
  const t = Math.min(...moved.map((e) => e.t));
  return { t, type: 'strike', ball: 'white' } as StrokeEvent;
}

function applyStroke(prev: SnookerState, strokeIn: Stroke, index: number): Result<StrokeOutcome<SnookerState, SnookerCall>, InputErrorInfo> {
  // Reds are interchangeable: a nomination of "red" names any red on the table.
  const nominatedFixed = strokeIn.nominated === 'red' ? { ...strokeIn, nominated: Object.keys(prev.balls).find(isRed) ?? 'red1' } : strokeIn;
  // A hand-entered log may leave out the `strike` when the white plainly moved (it hit a ball,
  // a cushion, or dropped): the stroke was played on the white at its first movement.
  const bareReds = resolveBareReds(nominatedFixed, prev.balls);
  const inferredStrike = inferStrike(bareReds.stroke);
  const stroke = inferredStrike ? { ...bareReds.stroke, events: [inferredStrike, ...bareReds.stroke.events] } : bareReds.stroke;
  if (prev.frameOver) {
    return err({ code: 'FRAME_OVER', stroke: index, field: 'events', message: `the frame ended at stroke ${prev.strokes - 1} (winner: player ${prev.winner}); a new frame needs a new log` });
  }
  const s: SnookerState = structuredClone(prev);
  const bad = checkStrokeCommon(stroke, index, { table: s.table, knownIds: KNOWN_IDS, radiusOf: () => s.R });
  if (bad) return err(bad);
  const reviews: ReviewEntry[] = [];
  if (bareReds.assigned.length) reviews.push(review('RED_ID_ASSIGNED', `events name a bare 'red': taken as ${bareReds.assigned.join(', ')} (reds are interchangeable)`, 0.9));
  if (inferredStrike) reviews.push(review('STRIKE_INFERRED', `no strike event: the white was taken as struck at t=${inferredStrike.t} (its first movement in the log)`, 0.9, 'confirm the white was the ball struck'));

  // 1. The incoming player's decision after the previous foul (spec §8).
  const decision = stroke.decision ?? 'play';
  let restored = false;
  if (s.foul) {
    const allowed = s.foul.miss ? ['play', 'playAgain', 'replace'] : ['play', 'playAgain'];
    if (!allowed.includes(decision)) {
      return err({ code: 'DECISION_NOT_ALLOWED', stroke: index, field: 'decision', message: `'${decision}' is not a choice after stroke ${s.foul.stroke}'s foul${s.foul.miss ? '' : ' (no miss was called, so the balls cannot be replaced)'}; allowed: ${allowed.join(', ')}` });
    }
    if (decision === 'playAgain') {
      s.striker = s.foul.offender;
      s.freeBall = false; // the offender never gets a free ball (Part III rule 10)
    } else if (decision === 'replace') {
      const snap = s.foul.snapshot;
      s.balls = structuredClone(snap.balls);
      s.phase = snap.phase;
      s.colourOn = snap.colourOn;
      s.inHand = snap.inHand;
      s.striker = s.foul.offender;
      s.freeBall = false;
      s.pendingRespots = [];
      s.positionsKnown = true;
      restored = true;
    }
    s.breakPoints = 0;
  } else if (decision !== 'play') {
    return err({ code: 'DECISION_NOT_ALLOWED', stroke: index, field: 'decision', message: `'${decision}' needs a foul on the previous stroke, and there was none` });
  }
  if (!restored) s.missChain = null;
  const foulBefore = s.foul;
  s.foul = null;

  // 2. Re-spotted black: the lots say who plays first.
  const lots = eventsOf(stroke.events, 'lots')[0];
  if (lots) {
    if (!s.awaitingLots) {
      return err({ code: 'LOTS_NOT_EXPECTED', stroke: index, field: 'events', message: 'lots are drawn only for a re-spotted black, and the black is not re-spotted' });
    }
    s.striker = (lots.first ?? lots.player) as Player;
    if (lots.first === undefined) reviews.push(review('LOTS_CHOICE_ASSUMED', `player ${lots.player} won the lots; assumed he chose to play first`, 0.7, 'who did the winner of the lots choose to play first?'));
  } else if (s.awaitingLots) {
    reviews.push(review('LOTS_NOT_DRAWN', 'the black was re-spotted but no lots event says who plays first; assumed the player to play', 0.5, 'who plays first at the re-spotted black?'));
  }
  s.awaitingLots = false;

  let player = s.striker;
  const c: Ctx = { s, index, stroke, player, fouls: [], reviews, ballOnValue: 4, colourOnBefore: s.colourOn, knownAtStrike: s.positionsKnown || stroke.before !== undefined };
  if (stroke.player !== undefined && stroke.player !== s.striker) {
    // The player at the table is treated as the striker for any foul he commits (WPBSA-2011).
    player = stroke.player;
    c.player = player;
  }

  // 3. Concession and request to end (spec §11): valid only from the striker.
  for (const e of stroke.events) {
    if (e.type === 'concede') {
      if (e.player === s.striker) return finishFrame(c, other(e.player as Player), `player ${e.player} conceded`);
      reviews.push(review('CONCESSION_REJECTED', `player ${e.player} conceded while player ${s.striker} was the striker: a concession is valid only in one's own turn`, 1));
    } else if (e.type === 'requestEnd') {
      const onlyBlack = isOnlyBlack(s);
      const lead = s.scores[e.player] - s.scores[other(e.player as Player)];
      if (e.player === s.striker && onlyBlack && lead > 7) return finishFrame(c, e.player as Player, `player ${e.player} asked to end the frame, ${lead} ahead with only the black left`);
      reviews.push(review('REQUEST_END_REJECTED', `request to end by player ${e.player} rejected: ${e.player !== s.striker ? 'not his turn' : !onlyBlack ? 'more than the black is on the table' : `a lead of ${lead} is not more than 7`}`, 1));
    }
  }

  const strike = eventsOf(stroke.events, 'strike')[0];
  const nominated = stroke.nominated ?? null;

  // 4. Positions at the strike: `before` when the log has it, else the previous rest with respots.
  const pos: Record<string, PointMm> = structuredClone(s.balls);
  const strikeT = strike?.t ?? Infinity;
  const missingRespots = checkBefore(c, pos, strikeT);
  if (!missingRespots.ok) return missingRespots;
  for (const e of eventsOf(stroke.events, 'place')) {
    if (e.t <= strikeT) {
      if (!pos[e.ball] && !(e.ball === 'white' && s.inHand) && !s.pendingRespots.some((r) => r.ball === e.ball)) {
        if (isRed(e.ball)) return err({ code: 'BALL_NOT_ON_TABLE', stroke: index, field: 'events', message: `'${e.ball}' is placed on the table, but reds never return once potted or forced off` });
      }
      pos[e.ball] = { x: e.x, y: e.y };
    }
  }

  // The ball-on context for this stroke.
  const freeBallAwarded = s.freeBall;
  let freeNom: string | null = null;
  let nomColour: Colour | null = null;
  if (s.phase === 'COLOUR_AFTER_RED' && nominated && isColour(nominated)) nomColour = nominated;
  if (freeBallAwarded && nominated) {
    const isOn = s.phase === 'RED_ON' ? isRed(nominated) : s.phase === 'COLOURS_SEQUENCE' ? nominated === s.colourOn : false;
    if (isOn) {
      reviews.push(review('INVALID_FREE_BALL_NOMINATION', `'${nominated}' is a ball on and cannot be nominated as the free ball (WPBSA-2014); judged as an ordinary stroke on the ball on`, 1, 'ask the striker for a new nomination before the stroke (live use)'));
    } else if (!pos[nominated]) {
      return err({ code: 'BALL_NOT_ON_TABLE', stroke: index, field: 'nominated', message: `the nominated free ball '${nominated}' is not on the table` });
    } else {
      freeNom = nominated;
    }
  } else if (nominated && !pos[nominated] && nominated !== 'white') {
    return err({ code: 'BALL_NOT_ON_TABLE', stroke: index, field: 'nominated', message: `the nominated ball '${nominated}' is not on the table` });
  }

  const ballOnSet = ballsOnIds({ balls: pos, phase: s.phase, colourOn: s.colourOn }, nomColour);
  const onSet = new Set<string>(ballOnSet);
  if (freeNom) onSet.add(freeNom);
  const first = strike ? firstContactSetWithTouching(c, pos, onSet) : { balls: [] as string[], t: NaN, conf: 1, touchingOn: null as string | null };

  // Implicit nomination: a colour after a red, none nominated, the first contact a single colour.
  let implicit: Colour | null = null;
  if (s.phase === 'COLOUR_AFTER_RED' && !nominated && first.balls.length === 1 && isColour(first.balls[0]!)) {
    implicit = first.balls[0] as Colour;
  }
  const colourTarget = nomColour ?? implicit;
  c.ballOnValue =
    s.phase === 'RED_ON' ? 1 : s.phase === 'COLOUR_AFTER_RED' ? (colourTarget ? VALUE[colourTarget] : 7) : s.phase === 'COLOURS_SEQUENCE' ? VALUE[s.colourOn] : 7;

  if (stroke.player !== undefined && stroke.player !== s.striker) {
    addFoul(c, 'PLAYED_OUT_OF_TURN', `player ${stroke.player} played when player ${s.striker} was to play`);
    reviews.push(review('PLAYED_OUT_OF_TURN', 'the log names a player other than the one to play', 0.8, 'confirm who played the stroke'));
  }

  // 5. Events without a stroke: manual fouls end the turn at once (spec §8.1).
  const manualFouls = eventsOf(stroke.events, 'foul');
  const touches = eventsOf(stroke.events, 'touch');
  if (!strike) {
    if (manualFouls.length === 0 && touches.length === 0) {
      if (lots || stroke.events.some((e) => e.type === 'concede' || e.type === 'requestEnd')) {
        return ok({ state: done(s, index), call: baseCall(c, { legal: true, summary: 'no stroke' }) });
      }
      return err({ code: 'EMPTY_STROKE', stroke: index, field: 'events', message: 'the stroke has no strike event and no referee input (foul, touch, concede, requestEnd, lots)' });
    }
    // After a foul-and-miss, before the next stroke, the players are in the consultation on
    // replacing the balls: a ball touched then costs 7 (F24), by default charged to the offender.
    const consultation = foulBefore?.miss === true;
    const named = manualFouls.find((f) => f.player !== undefined)?.player;
    if (named !== undefined) c.player = named as Player;
    else if (consultation && foulBefore) c.player = foulBefore.offender;
    for (const f of manualFouls) addManualFoul(c, f, consultation);
    for (const t of touches) addTouch(c, t, consultation);
    if (s.phase === 'COLOUR_AFTER_RED' && !nominated) addFoul(c, 'NO_NOMINATION', 'a foul before nominating the colour after a red (F23)');
    return foulPath(c, { pos, potted: [], offTable: [], cuePotted: false, cueOff: false, first: [], strikePos: null, nominated, freeNom, colourTarget, restored, summary: 'foul without a stroke' });
  }

  // 6. Pre-stroke checks (spec §5.1).
  if (strike.ball !== 'white') addFoul(c, 'WRONG_CUE_BALL', `the cue struck '${strike.ball}', not the white`, strike.ball);
  for (const m of missingRespots.value) addFoul(c, 'STRUCK_BEFORE_RESPOT', `struck before the ${m} was respotted`, m);
  const C = pos.white ?? null;
  if (!C) {
    if (s.inHand) reviews.push(review('CUE_BALL_POSITION_UNKNOWN', 'the cue ball was in hand but the log has no place event or before position for it', 0.5));
    else return err({ code: 'MISSING_CUE_BALL', stroke: index, field: 'before', message: 'the white is not on the table at the strike, but it is not in hand' });
  }
  if (s.inHand && C) {
    if (!inD(C, s.table, s.config.inDEpsMm)) addFoul(c, 'CUE_BALL_NOT_IN_D', `cue ball placed ${round1(dLineDistance(C, s.table))} mm outside the D`);
    const d = dLineDistance(C, s.table);
    if (Math.abs(d) <= s.config.inDReviewBandMm) reviews.push(review('IN_D_MARGIN', `the cue ball's centre is ${round1(Math.abs(d))} mm ${d > 0 ? 'outside' : 'inside'} the D line`, 0.6, 'is the cue ball in the D?'));
  }
  struckWhileMoving(c, strike.t);

  // 7. During the stroke.
  const pots = eventsOf(stroke.events, 'pot');
  const potted: string[] = [];
  const replacedHanging: RespotCall[] = [];
  const contacted = new Set<string>();
  for (const e of eventsOf(stroke.events, 'contact')) contacted.add(e.a).add(e.b);
  for (let i = 0; i < stroke.events.length; i++) {
    const e = stroke.events[i]!;
    if (e.type !== 'pot') continue;
    if (!pos[e.ball] && !(e.ball === 'white' && !s.inHand && pos.white)) {
      return err({ code: 'POT_OF_BALL_NOT_ON_TABLE', stroke: index, field: `events[${i}].ball`, message: `'${e.ball}' is potted but it is not on the table` });
    }
    if (potted.includes(e.ball)) {
      return err({ code: 'DUPLICATE_POT', stroke: index, field: `events[${i}].ball`, message: `'${e.ball}' is potted twice in one stroke` });
    }
    // A ball that drops with no contact while hanging (since an earlier stroke, or reported hanging
    // in this one without ever being hit) fell on its own: spec §10.2.
    const hangingNow = s.hanging[e.ball] !== undefined || eventsOf(stroke.events, 'hanging').some((h) => h.ball === e.ball && h.t <= e.t);
    // Set moving by this stroke, it came to rest over the pocket and stayed there past the wait
    // (no contact since): it did not drop as part of the stroke (spec §10.2).
    const hungHere = eventsOf(stroke.events, 'hanging').filter((h) => h.ball === e.ball && h.t <= e.t).at(-1);
    const waitedOut =
      hungHere !== undefined &&
      e.t - hungHere.t > s.config.hangingWaitS &&
      !eventsOf(stroke.events, 'contact').some((k) => (k.a === e.ball || k.b === e.ball) && k.t >= hungHere.t);
    if (hangingNow && (!contacted.has(e.ball) || waitedOut) && e.ball !== 'white') {
      // Spec §10.2: a ball at rest on the edge that drops with no contact is replaced.
      const p = pos[e.ball]!;
      replacedHanging.push({ ball: e.ball, x: p.x, y: p.y, spot: 'replaced' });
      reviews.push(review('HANGING_BALL_FELL', `'${e.ball}' was resting over ${e.pocket} and fell with no contact: replaced, not scored`, 0.7, 'could the ball have been involved in the stroke? If so the balls are restored and the stroke replayed'));
      continue;
    }
    if (e.ball !== 'white' && !contacted.has(e.ball) && !eventsOf(stroke.events, 'hanging').some((h) => h.ball === e.ball)) {
      reviews.push(review('POT_WITHOUT_CONTACT', `'${e.ball}' dropped into ${e.pocket} with no contact recorded`, 0.5));
    }
    potted.push(e.ball);
    if ((e.conf ?? 1) < s.config.reviewConfidence) reviews.push(review('LOW_CONFIDENCE_POT', `pot of '${e.ball}' in ${e.pocket} has confidence ${e.conf}`, e.conf ?? 1));
  }
  const offTable = [...new Set(eventsOf(stroke.events, 'offTable').map((e) => e.ball))];
  for (const b of offTable) if (!pos[b] && b !== 'white') return err({ code: 'BALL_NOT_ON_TABLE', stroke: index, field: 'events', message: `'${b}' leaves the table but was not on it` });
  const cuePotted = potted.includes('white');
  const cueOff = offTable.includes('white');

  // First contact (spec §4.1).
  const F = first.balls;
  if (strike.ball === 'white') judgeFirstContact(c, F, first.touchingOn, onSet, { nominated, nomColour, freeNom, implicit });
  if (F.length > 0 && first.conf < s.config.reviewConfidence) reviews.push(review('LOW_CONFIDENCE_CONTACT', `first contact ${F.join('+')} has confidence ${round3(first.conf)}`, first.conf, 'which ball did the cue ball hit first?'));
  closeContacts(c, F);

  // Pots (spec §4.2).
  if (cuePotted) addFoul(c, 'IN_OFF', `the cue ball was potted in ${pots.find((p) => p.ball === 'white')!.pocket}`);
  for (const b of potted) {
    if (b === 'white') continue;
    const legalPot =
      (s.phase === 'RED_ON' && isRed(b)) ||
      (s.phase === 'COLOUR_AFTER_RED' && b === colourTarget) ||
      (s.phase === 'COLOURS_SEQUENCE' && b === s.colourOn) ||
      (s.phase === 'RESPOTTED_BLACK' && b === 'black') ||
      b === freeNom;
    if (!legalPot) addFoul(c, 'POT_NOT_ON', `potted '${b}', which was not on`, b);
  }
  for (const b of offTable) addFoul(c, 'OFF_TABLE', b === 'white' ? 'the cue ball left the table' : `'${b}' was forced off the table`, b === 'white' ? undefined : b);

  // Stroke faults a camera infers with doubt (ASSISTED): proposed with a review entry.
  for (const e of eventsOf(stroke.events, 'push')) {
    addFoul(c, 'PUSH_STROKE', 'push stroke');
    reviews.push(review('PUSH_STROKE', 'a push stroke was inferred', e.conf ?? 0.6, 'did the tip stay on the cue ball?'));
  }
  for (const e of eventsOf(stroke.events, 'doubleHit')) {
    addFoul(c, 'DOUBLE_HIT', 'the cue ball was struck more than once');
    reviews.push(review('DOUBLE_HIT', 'a second impulse on the cue ball was inferred', e.conf ?? 0.6, 'was the cue ball struck twice?'));
  }
  for (const e of eventsOf(stroke.events, 'jump')) {
    // Exceptions (Part II def 19): after a fair first contact a jump is no foul; a declared
    // touching ball on counts as already hit.
    if (e.ball !== 'white') continue;
    if (first.touchingOn || (Number.isFinite(first.t) && e.t > first.t)) continue;
    addFoul(c, 'JUMP_SHOT', `the cue ball jumped${e.over ? ` over '${e.over}'` : ''} before its first contact`, undefined);
    reviews.push(review('JUMP_SHOT', `the cue ball's path crossed${e.over ? ` '${e.over}'` : ' a ball'} with no collision`, e.conf ?? 0.6, 'did the cue ball jump over the ball?'));
  }
  touchingMoved(c, pos, strike.t);
  for (const f of manualFouls) addManualFoul(c, f, false);
  for (const t of touches) addTouch(c, t, false);
  if (s.phase === 'COLOUR_AFTER_RED' && !nominated && c.fouls.length > 0 && !implicit && !c.fouls.some((f) => f.code === 'RED_AFTER_RED')) {
    reviews.push(review('NOMINATION_UNCLEAR', 'a foul with no colour nominated after a red: penalised at 7 (F23)', 0.7, 'was the intended colour evident?'));
  }
  if (implicit && c.fouls.length > 0) {
    reviews.push(review('IMPLICIT_NOMINATION', `no colour was nominated; '${implicit}', hit first, taken as the nomination`, 0.7, 'was that colour clearly the one aimed at?'));
  }

  // Rest positions.
  const restPos = restPositions(c, pos, potted, offTable, replacedHanging);
  if (!restPos.ok) return restPos;

  const summary = describeStroke(stroke, F, potted, offTable);
  const facts: StrokeFacts = { pos, rest: restPos.value, potted, offTable, cuePotted, cueOff, first: F, strikePos: C, nominated, freeNom, colourTarget, restored, summary, replacedHanging };

  if (c.fouls.length > 0) return foulPath(c, facts);
  return legalPath(c, facts);
}

interface StrokeFacts {
  pos: Record<string, PointMm>;
  rest?: Record<string, PointMm>;
  potted: string[];
  offTable: string[];
  cuePotted: boolean;
  cueOff: boolean;
  first: string[];
  strikePos: PointMm | null;
  nominated: string | null;
  freeNom: string | null;
  colourTarget: Colour | null;
  restored: boolean;
  summary: string;
  replacedHanging?: RespotCall[];
}

function isOnlyBlack(s: SnookerState): boolean {
  if (s.phase === 'RESPOTTED_BLACK') return true;
  return s.phase === 'COLOURS_SEQUENCE' && s.colourOn === 'black';
}

/** `before` against what the rules require: missing respots are F12; other differences are flagged. */
function checkBefore(c: Ctx, pos: Record<string, PointMm>, strikeT: number): Result<string[], InputErrorInfo> {
  const { s, stroke, index } = c;
  const placedBeforeStrike = new Set(eventsOf(stroke.events, 'place').filter((e) => e.t <= strikeT).map((e) => e.ball));
  const missing: string[] = [];
  if (!stroke.before) return ok(missing);
  const before = new Map(stroke.before.map((b) => [b.id, b]));
  for (const [id, b] of before) {
    const expected = s.balls[id];
    const isPending = s.pendingRespots.find((r) => r.ball === id);
    if (!expected && !(id === 'white' && s.inHand) && !isPending) {
      if (isRed(id) || id === 'white') {
        return err({ code: 'BALL_NOT_ON_TABLE', stroke: index, field: 'before', message: `'${id}' is listed in before, but it is not on the table (potted or forced off earlier${id === 'white' ? '' : '; reds never return'})` });
      }
      // A colour wrongly still on in the colour sequence is simply removed (Part III rule 7).
      c.reviews.push(review('COLOUR_WRONGLY_ON', `'${id}' is on the table although it was legally potted: it is removed`, 0.9));
      continue;
    }
    if (isPending && Math.hypot(b.x - isPending.x, b.y - isPending.y) > s.config.respotDeviationMm) {
      c.reviews.push(review('RESPOT_DEVIATION', `'${id}' was respotted ${round1(Math.hypot(b.x - isPending.x, b.y - isPending.y))} mm from its spot (${isPending.spot}); the position stands once played`, 0.9, 'respot the ball correctly?'));
    } else if (expected && id !== 'white' && !isPending && s.positionsKnown && dist(expected, b) > 5) {
      c.reviews.push(review('BALL_MOVED_BETWEEN_STROKES', `'${id}' moved ${round1(dist(expected, b))} mm since the balls stopped`, 0.6, 'was the ball touched? (a foul by the striker, or replaced without penalty)'));
    }
    pos[id] = { x: b.x, y: b.y };
  }
  for (const id of Object.keys(pos)) {
    if (!before.has(id) && !placedBeforeStrike.has(id)) {
      if (s.pendingRespots.some((r) => r.ball === id)) missing.push(id);
      else if (id !== 'white' || !s.inHand) c.reviews.push(review('BALL_MISSING_BEFORE', `'${id}' is not in before; its last known position is used`, 0.5));
      if (s.pendingRespots.some((r) => r.ball === id)) delete pos[id];
    }
  }
  if (!before.has('white') && s.inHand && !placedBeforeStrike.has('white')) delete pos.white;
  return ok(missing);
}

/** The cue ball's first-contact set; a declared touching ball that is on counts as already hit. */
function firstContactSetWithTouching(c: Ctx, pos: Record<string, PointMm>, onSet: Set<string>) {
  const { s, stroke } = c;
  const declared = (stroke.touching ?? []).filter((id) => pos[id]);
  let touchingOn: string | null = null;
  for (const id of declared) {
    const couldBeOn = onSet.has(id) || (s.phase === 'COLOUR_AFTER_RED' && isColour(id) && (stroke.nominated === id || !stroke.nominated));
    if (couldBeOn) {
      touchingOn = id;
      break;
    }
  }
  // A declared touching ball that is not on "does not count as hit" (spec §10.3): its moving at
  // the strike is the push (TOUCHING_BALL_MOVED), not a first contact with a ball not on.
  const strikeT = eventsOf(stroke.events, 'strike')[0]?.t ?? 0;
  const atStrike = (e: StrokeEvent) =>
    e.type === 'contact' && e.t <= strikeT + 0.05 && ((e.a === 'white' && declared.includes(e.b)) || (e.b === 'white' && declared.includes(e.a)));
  const fc = firstContactSet(touchingOn ? stroke.events : stroke.events.filter((e) => !atStrike(e)), 'white', s.config.tieWindowS);
  if (touchingOn) return { balls: [touchingOn], t: eventsOf(stroke.events, 'strike')[0]?.t ?? 0, conf: 1, touchingOn };
  return { ...fc, touchingOn };
}

function judgeFirstContact(
  c: Ctx,
  F: string[],
  touchingOn: string | null,
  onSet: Set<string>,
  n: { nominated: string | null; nomColour: Colour | null; freeNom: string | null; implicit: Colour | null },
): void {
  const { s } = c;
  if (F.length === 0) {
    addFoul(c, 'NO_CONTACT', 'the cue ball hit no object ball');
    return;
  }
  if (s.phase === 'COLOUR_AFTER_RED') {
    // F20: the striker played at a red (nominated one, or nothing nominated and a red hit first).
    if ((n.nominated && isRed(n.nominated)) || (!n.nominated && F.some(isRed))) {
      addFoul(c, 'RED_AFTER_RED', n.nominated ? `nominated '${n.nominated}' after a red` : 'played a red after a red');
      return;
    }
    const target = n.nomColour ?? n.implicit;
    if (F.length === 1 && F[0] === target) return;
    if (touchingOn && touchingOn === target) return;
    // A colour nominated and a red (or another colour) caught first: F14 at the higher value (commentary to 12.20).
    const concerned = F.reduce((m, b) => (valueOf(b) > valueOf(m) ? b : m), F[0]!);
    // Two colours hit together with no nomination are penalised at the higher value (spec §2).
    addFoul(c, 'WRONG_BALL_FIRST', F.length > 1 ? `simultaneous hit on ${F.join(' and ')}` : `first contact '${F[0]}', nominated '${target ?? 'none'}'`, concerned);
    return;
  }
  const allOn = F.every((b) => onSet.has(b));
  let legal: boolean;
  if (F.length === 1) {
    legal = allOn && (!n.freeNom || F[0] === n.freeNom || touchingOn !== null);
  } else if (n.freeNom) {
    // {free ball + ball on}, or with reds on the free ball plus reds (Part III rules 6 and 10).
    legal = F.includes(n.freeNom) && allOn;
  } else {
    legal = s.phase === 'RED_ON' && F.every(isRed);
  }
  if (legal) return;
  const concerned = F.reduce((m, b) => (valueOf(b) > valueOf(m) ? b : m), F[0]!);
  const detail = F.length > 1 ? `simultaneous hit on ${F.join(' and ')}` : n.freeNom && onSet.has(F[0]!) ? `hit the ball on '${F[0]}' before the nominated free ball '${n.freeNom}'` : `first contact '${F[0]}', which was not on`;
  // A free ball hit after the ordinary ball on is penalised as a wrong ball first at the ball-on value.
  addFoul(c, 'WRONG_BALL_FIRST', detail, n.freeNom && onSet.has(concerned) ? undefined : concerned);
  if (F.length > 1) c.reviews.push(review('SIMULTANEOUS_HIT', `the cue ball met ${F.join(' and ')} at the same time`, 0.7, 'was the contact really simultaneous?'));
}

/** Contacts of the cue ball with another ball just after the first one: the order may be wrong. */
function closeContacts(c: Ctx, F: string[]): void {
  const cc = eventsOf(c.stroke.events, 'contact').filter((e) => e.a === 'white' || e.b === 'white');
  if (cc.length < 2 || F.length !== 1) return;
  const t0 = cc[0]!.t;
  const next = cc.find((e) => (e.a === 'white' ? e.b : e.a) !== F[0] && e.t > t0);
  // Within half a 30 fps frame the order comes from interpolation, not from a frame (τ_tie, spec §3.1).
  if (next && next.t - t0 < 1 / 60) {
    const o = next.a === 'white' ? next.b : next.a;
    c.reviews.push(review('FIRST_CONTACT_CLOSE', `'${F[0]}' was hit ${round1((next.t - t0) * 1000)} ms before '${o}'`, 0.7, 'which ball was hit first?'));
  }
}

/** F11: a ball other than the cue ball still moving at the strike (from `paths`). */
function struckWhileMoving(c: Ctx, strikeT: number): void {
  const paths = c.stroke.paths ?? {};
  for (const [id, samples] of Object.entries(paths)) {
    if (id === 'white') continue;
    const before = samples.filter((p) => p[0] <= strikeT);
    if (before.length < 2) continue;
    const a = before[before.length - 2]!, b = before[before.length - 1]!;
    const dt = b[0] - a[0];
    if (dt <= 0 || strikeT - b[0] > 0.5) continue;
    const v = Math.hypot(b[1] - a[1], b[2] - a[2]) / dt;
    if (v > c.s.config.stopSpeedMmPerS) addFoul(c, 'STRUCK_WHILE_MOVING', `'${id}' was still moving at ${round1(v)} mm/s`, id);
  }
}

/** F15 (TOUCHING_BALL_MOVED): the declared touching ball moved at the stroke. */
function touchingMoved(c: Ctx, pos: Record<string, PointMm>, strikeT: number): void {
  const { stroke } = c;
  for (const id of stroke.touching ?? []) {
    if (!pos[id]) continue;
    const contacts = eventsOf(stroke.events, 'contact').filter((e) => e.a === id || e.b === id);
    const atStrike = contacts.some((e) => (e.a === 'white' || e.b === 'white') && e.t - strikeT <= 0.05);
    const touched = eventsOf(stroke.events, 'touch').some((e) => e.ball === id);
    let displaced = false;
    const restB = stroke.rest?.find((b) => b.id === id);
    if (restB && dist(restB, pos[id]!) > 3 && contacts.length === 0) displaced = true;
    const path = stroke.paths?.[id];
    if (path && path.length >= 2 && contacts.length === 0) {
      const p0 = path[0]!, p1 = path[path.length - 1]!;
      if (Math.hypot(p1[1] - p0[1], p1[2] - p0[2]) > 3) displaced = true;
    }
    if (atStrike || touched || displaced) addFoul(c, 'TOUCHING_BALL_MOVED', `the touching ball '${id}' moved at the stroke`, id);
  }
}

function addManualFoul(c: Ctx, f: Extract<StrokeEvent, { type: 'foul' }>, consultation: boolean): void {
  if (f.code === 'TOUCHED_BALL' && consultation) {
    // F24 (WPBSA-2014): touching a ball during the miss-replacement consultation costs 7.
    c.fouls.push({ code: 'TOUCHED_BALL', penalty: 7, detail: 'touched a ball during the consultation on replacing balls after a miss', ...(f.ball ? { ball: f.ball } : {}) });
    return;
  }
  addFoul(c, f.code, `entered by the referee: ${f.code}`, f.ball);
}

function addTouch(c: Ctx, t: Extract<StrokeEvent, { type: 'touch' }>, consultation: boolean): void {
  if (consultation) {
    c.fouls.push({ code: 'TOUCHED_BALL', penalty: 7, detail: `'${t.ball}' touched (${t.by}) during the consultation on replacing balls after a miss`, ball: t.ball });
    return;
  }
  addFoul(c, 'TOUCHED_BALL', `'${t.ball}' touched by ${t.by}`, t.ball === 'white' ? undefined : t.ball);
  if ((t.conf ?? 1) < 1) c.reviews.push(review('TOUCHED_BALL', `'${t.ball}' moved with no contact`, t.conf ?? 0.6, 'did the striker touch the ball?'));
}

/** Balls on the bed after the stroke: the log's `rest`, else the strike positions less what left. */
function restPositions(c: Ctx, pos: Record<string, PointMm>, potted: string[], offTable: string[], replaced: RespotCall[]): Result<Record<string, PointMm> | undefined, InputErrorInfo> {
  const { stroke, index } = c;
  if (!stroke.rest) return ok(undefined);
  const rest: Record<string, PointMm> = {};
  for (let i = 0; i < stroke.rest.length; i++) {
    const b = stroke.rest[i]!;
    if ((potted.includes(b.id) || offTable.includes(b.id)) && (isRed(b.id) || b.id === 'white')) {
      return err({ code: 'POTTED_BALL_AT_REST', stroke: index, field: `rest[${i}].id`, message: `'${b.id}' is listed at rest but left the table in this stroke` });
    }
    if (potted.includes(b.id) || offTable.includes(b.id)) continue; // a colour already put back: respotted below
    if (!pos[b.id] && !(b.id === 'white')) {
      return err({ code: 'BALL_NOT_ON_TABLE', stroke: index, field: `rest[${i}].id`, message: `'${b.id}' is listed at rest but was not on the table` });
    }
    rest[b.id] = { x: b.x, y: b.y };
  }
  for (const r of replaced) rest[r.ball] = { x: r.x, y: r.y };
  return ok(rest);
}

/** Positions after the stroke (before respots): measured rest, or carried forward. */
function afterPositions(c: Ctx, f: StrokeFacts): Record<string, PointMm> {
  // Balls left resting over a pocket edge wait for a later pot (spec §10.2).
  for (const b of [...f.potted, ...f.offTable, ...(f.replacedHanging ?? []).map((r) => r.ball)]) delete c.s.hanging[b];
  for (const h of eventsOf(c.stroke.events, 'hanging')) if (!f.potted.includes(h.ball)) c.s.hanging[h.ball] = h.pocket;
  if (f.rest) {
    c.s.positionsKnown = true;
    return structuredClone(f.rest);
  }
  const out = structuredClone(f.pos);
  for (const b of [...f.potted, ...f.offTable]) delete out[b];
  for (const r of f.replacedHanging ?? []) out[r.ball] = { x: r.x, y: r.y };
  // Balls that moved have unknown positions: geometry calls are skipped (flagged below).
  const moved = f.first.length > 0 || f.potted.length > 0 || f.offTable.length > 0;
  c.s.positionsKnown = !moved && c.s.positionsKnown;
  return out;
}

function respotsFor(c: Ctx, balls: Record<string, PointMm>, colours: Colour[]): RespotCall[] {
  const { s } = c;
  const list = geoList(balls).filter((b) => !colours.includes(b.id as Colour));
  return respotColours(colours, list, s.table, { R: s.R, placeEpsMm: s.config.placeEpsMm, order: s.config.respotOrder, searchDown: s.config.respotSearchDown });
}

function geoOpts(s: SnookerState, inflateMm = 0): GeoOptions {
  return { R: s.R, inflateMm, jaws: jawPoints(s.table) };
}

/** Snookered for the player to play next, with the ±margin test that makes the call AUTO or ASSISTED. */
function snookerTest(c: Ctx, balls: Record<string, PointMm>, ballsOn: string[], inHand: boolean): SnookerResult & { certain: boolean } {
  const { s } = c;
  const list = geoList(balls);
  const run = (inflate: number) =>
    inHand
      ? snookeredInHand(s.table, ballsOn, list, 'white', geoOpts(s, inflate), s.config.dGridStepMm)
      : balls.white
        ? snookeredAt(balls.white, ballsOn, list, 'white', geoOpts(s, inflate))
        : { snookered: false, effective: [], perBall: [], jaw: false };
  const r = run(0);
  const m = s.config.geometryMarginMm;
  const certain = run(-m).snookered === r.snookered && run(m).snookered === r.snookered;
  return { ...r, certain };
}

/** Ball-on ids for the next stroke, for snooker tests and touching-ball proposals. */
function nextOnIds(s: SnookerState, balls: Record<string, PointMm>): string[] {
  return ballsOnIds({ balls, phase: s.phase, colourOn: s.colourOn }, null);
}

function foulPath(c: Ctx, f: StrokeFacts): Result<StrokeOutcome<SnookerState, SnookerCall>, InputErrorInfo> {
  const { s, player } = c;
  const penalty = Math.max(...c.fouls.map((x) => x.penalty));
  const opp = other(player);
  const phaseBefore = s.phase;
  const snapshot: Snapshot = { balls: structuredClone(f.pos), phase: s.phase, colourOn: s.colourOn, inHand: s.inHand };
  const scoresBefore: [number, number] = [...s.scores];
  const remainingBefore = pointsRemaining({ balls: f.pos, phase: s.phase, colourOn: s.colourOn });
  s.scores[opp] += penalty;
  const endedBreak = s.breakPoints;
  s.breakPoints = 0;

  const balls = afterPositions(c, f);
  // Reds potted or forced off stay off; colours come back (the ball on in the sequence too).
  const toRespot = [...f.potted, ...f.offTable].filter((b): b is Colour => isColour(b));
  const respot = respotsFor(c, balls, [...new Set(toRespot)]);
  for (const r of respot) balls[r.ball] = { x: r.x, y: r.y };
  s.balls = balls;
  s.pendingRespots = respot;
  s.inHand = f.cuePotted || f.cueOff || (s.inHand && !f.strikePos && !eventsOf(c.stroke.events, 'strike').length);
  if (!s.balls.white) s.inHand = true;
  if (s.inHand) delete s.balls.white;

  const reds = redsOnTable(s).length;
  if (s.phase === 'COLOUR_AFTER_RED' || (s.phase === 'RED_ON' && reds === 0)) {
    s.phase = reds > 0 ? 'RED_ON' : 'COLOURS_SEQUENCE';
    if (s.phase === 'COLOURS_SEQUENCE') s.colourOn = lowestColour(s.balls) ?? 'black';
  }

  let frameOver = false;
  let winner: Player | null = null;
  const blackDecides = phaseBefore === 'RESPOTTED_BLACK' || (phaseBefore === 'COLOURS_SEQUENCE' && s.colourOn === 'black' && reds === 0);
  if (blackDecides) {
    // Only the black left: the first score or foul ends the frame (Part III rule 4).
    if (s.scores[0] !== s.scores[1]) {
      frameOver = true;
      winner = s.scores[0] > s.scores[1] ? 0 : 1;
    } else {
      respotBlack(s);
    }
  }

  // Miss (spec §9).
  let miss = false;
  let missCount = 0;
  const firstFoul = c.fouls.some((x) => FIRST_CONTACT_FOULS.has(x.code));
  const missEvent = eventsOf(c.stroke.events, 'miss')[0];
  let fullBall = false;
  if (firstFoul && !blackDecides && f.strikePos) {
    // Balls that are or could be on (after a red: every colour), plus a nominated free ball.
    const ballsOn = ballsOnIds({ balls: f.pos, phase: phaseBefore, colourOn: snapshot.colourOn }, null);
    if (f.freeNom) ballsOn.push(f.freeNom);
    const list = geoList(f.pos);
    const exempt = new Set(['white', ...ballsOn]);
    const o = geoOpts(s);
    const onBalls = list.filter((b) => ballsOn.includes(b.id));
    const clear = onBalls.some((b) => clearPathAny(f.strikePos!, b, list, exempt, o));
    fullBall = onBalls.some((b) => fullBallPath(f.strikePos!, b, list, exempt, o));
    const needBefore = snookersRequired(scoresBefore, remainingBefore).some((n) => n > 0);
    const needAfter = snookersRequired(s.scores, pointsRemaining(s)).some((n) => n > 0);
    const chain = f.restored && s.missChain && s.missChain.offender === player ? s.missChain : null;
    if (missEvent) {
      miss = missEvent.called;
    } else if (chain?.fullBall) {
      miss = true; // a second failure from the restored position is a miss whatever the score (§9.3)
    } else if (clear && !needBefore && !needAfter) {
      miss = true;
    } else if (clear) {
      c.reviews.push(review('MISS_JUDGEMENT', 'a clear path to a ball on, but a player needs snookers: a miss only if the referee is not satisfied the failure was unintentional (default: no miss)', 0.5, 'call a miss?'));
    } else {
      c.reviews.push(review('MISS_JUDGEMENT', 'the striker was snookered: the referee judges whether it was a good enough attempt (default: no miss)', 0.5, 'call a miss?'));
    }
    if (!c.knownAtStrike && !missEvent) {
      c.reviews.push(review('POSITIONS_UNCERTAIN', 'the miss was judged on positions carried from earlier strokes (no before/rest in the log)', 0.5, 'confirm the miss call'));
    }
    if (miss) {
      missCount = chain ? chain.count + 1 : 1;
      const full = chain ? chain.fullBall : fullBall;
      s.missChain = { offender: player, count: missCount, fullBall: full };
      if (full && missCount === 2) s.missWarning = true;
      if (full && missCount >= 3) {
        frameOver = true;
        winner = opp;
        c.reviews.push(review('THREE_MISSES', 'third consecutive foul-and-miss from the same position with a full ball available: frame awarded to the opponent', 0.9, 'confirm the frame award'));
      }
    }
  }
  if (!miss) s.missChain = null;

  s.striker = opp;
  s.frameOver = frameOver;
  s.winner = winner;
  let freeBall = false;
  let snk: (SnookerResult & { certain: boolean }) | null = null;
  if (!frameOver) {
    s.foul = { offender: player, miss, snapshot, stroke: c.index };
    if (c.s.positionsKnown) {
      snk = snookerTest(c, s.balls, nextOnIds(s, s.balls), s.inHand);
      freeBall = snk.snookered;
      if (!snk.certain) c.reviews.push(review('SNOOKER_MARGIN', 'the snooker call changes within the 2 mm measurement margin', 0.6, 'is the incoming player snookered (free ball)?'));
      if (snk.jaw) c.reviews.push(review('SNOOKER_JAW', 'a pocket jaw lies on a path to a ball on', 0.7, 'does the jaw block the path?'));
    } else {
      c.reviews.push(review('NO_REST_POSITIONS', 'the stroke has no rest positions, so free ball and snookers cannot be judged', 0.5, 'is the incoming player snookered?'));
    }
  }
  s.freeBall = freeBall;
  const call = baseCall(c, {
    legal: false,
    summary: f.summary,
    potted: f.potted.filter((b) => b !== 'white'),
    points: 0,
    penalty,
    miss,
    missCount,
    freeBall,
    respot: [...s.pendingRespots, ...(f.replacedHanging ?? [])],
    breakPoints: endedBreak,
    nominated: f.nominated,
    freeNom: f.freeNom,
    first: f.first,
    phaseBefore,
    colourTarget: f.colourTarget,
    snk,
  });
  return ok({ state: done(s, c.index), call });
}

function respotBlack(s: SnookerState): void {
  // Scores level after the black: the black is re-spotted, lots are drawn, the first player plays from hand.
  s.phase = 'RESPOTTED_BLACK';
  const others = geoList(s.balls).filter((b) => b.id !== 'black' && b.id !== 'white');
  const r = respotColours(['black'], others, s.table, { R: s.R, placeEpsMm: s.config.placeEpsMm, order: s.config.respotOrder, searchDown: true })[0]!;
  s.balls = { black: { x: r.x, y: r.y } };
  s.pendingRespots = [r];
  s.inHand = true;
  s.awaitingLots = true;
  s.foul = null;
  s.freeBall = false;
}

function legalPath(c: Ctx, f: StrokeFacts): Result<StrokeOutcome<SnookerState, SnookerCall>, InputErrorInfo> {
  const { s, player } = c;
  const phaseBefore = s.phase;
  const colourOnBefore = s.colourOn;
  let points = 0;
  const toRespot: Colour[] = [];
  const pottedObj = f.potted.filter((b) => b !== 'white');
  switch (phaseBefore) {
    case 'RED_ON':
      points = pottedObj.filter(isRed).length + (f.freeNom && pottedObj.includes(f.freeNom) ? 1 : 0);
      break;
    case 'COLOUR_AFTER_RED':
      points = f.colourTarget && pottedObj.includes(f.colourTarget) ? VALUE[f.colourTarget] : 0;
      break;
    case 'COLOURS_SEQUENCE':
      // The ball on and the free ball together score only the ball on (§6.1).
      points = pottedObj.includes(colourOnBefore) || (f.freeNom && pottedObj.includes(f.freeNom)) ? VALUE[colourOnBefore] : 0;
      break;
    case 'RESPOTTED_BLACK':
      points = pottedObj.includes('black') ? 7 : 0;
      break;
  }
  for (const b of pottedObj) {
    if (!isColour(b)) continue;
    const staysDown = (phaseBefore === 'COLOURS_SEQUENCE' && b === colourOnBefore) || phaseBefore === 'RESPOTTED_BLACK';
    if (!staysDown) toRespot.push(b);
  }

  // Free-ball snooker (F7): only after a non-scoring free-ball stroke; not with only pink and black left.
  if (f.freeNom && points === 0) {
    const balls = afterPositions(c, f);
    const onlyPinkBlack = redsOnTable({ balls }).length === 0 && Object.keys(balls).filter((b) => b !== 'white').every((b) => b === 'pink' || b === 'black');
    const nextPhase = phaseBefore;
    const nextOn = ballsOnIds({ balls, phase: nextPhase, colourOn: colourOnBefore }, null);
    if (!onlyPinkBlack && c.s.positionsKnown && balls.white) {
      const r = snookeredAt(balls.white, nextOn, geoList(balls), 'white', geoOpts(s));
      if (r.snookered && r.effective.includes(f.freeNom)) {
        addFoul(c, 'FREE_BALL_SNOOKER', `the free ball '${f.freeNom}' snookers the opponent on ${nextOn.length > 1 ? 'every ball on' : nextOn[0]}`, undefined);
        return foulPath(c, f);
      }
    }
  }

  s.scores[player] += points;
  s.breakPoints += points;
  const breakNow = s.breakPoints;
  const balls = afterPositions(c, f);
  const respot = respotsFor(c, balls, toRespot);
  for (const r of respot) balls[r.ball] = { x: r.x, y: r.y };
  s.balls = balls;
  s.pendingRespots = respot;
  s.inHand = false;
  s.freeBall = false;

  const reds = redsOnTable(s).length;
  let frameOver = false;
  let winner: Player | null = null;
  switch (phaseBefore) {
    case 'RED_ON':
      if (points > 0) s.phase = 'COLOUR_AFTER_RED';
      else if (reds === 0) {
        s.phase = 'COLOURS_SEQUENCE';
        s.colourOn = lowestColour(s.balls) ?? 'black';
      }
      break;
    case 'COLOUR_AFTER_RED':
      s.phase = reds > 0 ? 'RED_ON' : 'COLOURS_SEQUENCE';
      if (s.phase === 'COLOURS_SEQUENCE') s.colourOn = 'yellow';
      break;
    case 'COLOURS_SEQUENCE':
      if (pottedObj.includes(colourOnBefore)) {
        const next = lowestColour(s.balls);
        if (next === null) {
          if (s.scores[0] === s.scores[1]) respotBlack(s);
          else {
            frameOver = true;
            winner = s.scores[0] > s.scores[1] ? 0 : 1;
          }
        } else s.colourOn = next;
      }
      break;
    case 'RESPOTTED_BLACK':
      if (points > 0) {
        frameOver = true;
        winner = player;
      }
      break;
  }
  if (s.phase === 'COLOURS_SEQUENCE' && !s.balls[s.colourOn] && !frameOver) {
    s.colourOn = lowestColour(s.balls) ?? 'black';
  }
  if (points > 0) {
    s.striker = s.phase === 'RESPOTTED_BLACK' ? s.striker : player;
  } else {
    s.striker = other(player);
    s.breakPoints = 0;
  }
  s.missChain = null;
  s.missWarning = false;
  s.frameOver = frameOver;
  s.winner = winner;

  // EBSA-2004 option: only colours left, cue ball not in hand, a player needs 4+ snookers → frame awarded.
  if (!frameOver && points === 0 && s.config.ebsaFourSnookers && reds === 0 && s.phase === 'COLOURS_SEQUENCE') {
    const divisor = s.config.fourSnookersDivisor === 'seven' ? 7 : Math.max(4, VALUE[s.colourOn]);
    const need = snookersRequired(s.scores, pointsRemaining(s), divisor);
    for (const p of [0, 1] as Player[]) {
      if (need[p] >= 4) {
        s.frameOver = true;
        s.winner = other(p);
        c.reviews.push(review('FOUR_SNOOKERS', `player ${p} needs ${need[p]} snookers (EBSA-2004 option): frame awarded`, 0.9));
      }
    }
  }

  let snk: (SnookerResult & { certain: boolean }) | null = null;
  if (!s.frameOver && c.s.positionsKnown && s.phase !== 'RESPOTTED_BLACK') snk = snookerTest(c, s.balls, nextOnIds(s, s.balls), s.inHand);
  const call = baseCall(c, {
    legal: true,
    summary: f.summary,
    potted: pottedObj,
    points,
    penalty: 0,
    respot: [...s.pendingRespots, ...(f.replacedHanging ?? [])],
    breakPoints: breakNow,
    nominated: f.nominated,
    freeNom: f.freeNom,
    first: f.first,
    phaseBefore,
    colourTarget: f.colourTarget,
    snk,
  });
  return ok({ state: done(s, c.index), call });
}

function finishFrame(c: Ctx, winner: Player, why: string): Result<StrokeOutcome<SnookerState, SnookerCall>, InputErrorInfo> {
  const s = c.s;
  s.frameOver = true;
  s.winner = winner;
  s.foul = null;
  const call = baseCall(c, { legal: true, summary: why, breakPoints: s.breakPoints });
  return ok({ state: done(s, c.index), call });
}

function done(s: SnookerState, index: number): SnookerState {
  s.strokes = index + 1;
  return s;
}

interface CallParts {
  legal: boolean;
  summary: string;
  potted?: string[];
  points?: number;
  penalty?: number;
  miss?: boolean;
  missCount?: number;
  freeBall?: boolean;
  respot?: RespotCall[];
  breakPoints?: number;
  nominated?: string | null;
  freeNom?: string | null;
  first?: string[];
  phaseBefore?: Phase;
  colourTarget?: Colour | null;
  snk?: (SnookerResult & { certain: boolean }) | null;
}

function baseCall(c: Ctx, p: CallParts): SnookerCall {
  const { s } = c;
  const phaseBefore = p.phaseBefore ?? s.phase;
  const ballOn = ballOnNames(phaseBefore, c.colourOnBefore, p.colourTarget ?? null);
  // Touching-ball proposal: the cue ball at rest against a ball that is, or could be, on (§10.3).
  let touching: string[] = [];
  if (!s.frameOver && s.balls.white && s.positionsKnown) {
    const candidates = geoList(s.balls).filter((b) => b.id !== 'white' && (s.freeBall || nextOnIds(s, s.balls).includes(b.id) || (s.phase === 'COLOUR_AFTER_RED' && isColour(b.id))));
    touching = touchingBalls(s.balls.white, candidates, s.R, s.config.touchingGapMm);
    if (touching.length) c.reviews.push(review('TOUCHING_BALL', `the cue ball rests within ${s.config.touchingGapMm} mm of touching ${touching.join(', ')}`, 0.6, 'declare touching ball?'));
  }
  const remaining = s.frameOver ? 0 : pointsRemaining(s);
  const options = s.foul && !s.frameOver ? (s.foul.miss ? ['play', 'playAgain', 'replace'] : ['play', 'playAgain']) : [];
  return {
    stroke: c.index,
    player: c.player,
    ballOn,
    nominated: p.nominated ?? null,
    freeBallPlayed: p.freeNom ?? null,
    firstContact: p.first ?? [],
    legal: p.legal,
    potted: p.potted ?? [],
    points: p.points ?? 0,
    fouls: c.fouls,
    penalty: p.penalty ?? 0,
    miss: p.miss ?? false,
    missCount: p.missCount ?? 0,
    missWarning: s.missWarning,
    freeBall: p.freeBall ?? false,
    touching,
    snookered: p.snk?.snookered ?? false,
    effectiveSnookeringBall: p.snk?.snookered ? p.snk.effective : [],
    respot: p.respot ?? [],
    scores: [s.scores[0], s.scores[1]],
    break: p.breakPoints ?? 0,
    nextPlayer: s.striker,
    nextBallOn: s.frameOver ? [] : ballOnNames(s.phase, s.colourOn, null),
    options,
    inHand: !s.frameOver && s.inHand,
    frameOver: s.frameOver,
    winner: s.winner,
    pointsRemaining: remaining,
    snookersRequired: snookersRequired(s.scores, remaining),
    redsLeft: redsOnTable(s).length,
    phase: s.frameOver ? 'FRAME_OVER' : s.phase,
    review: c.reviews,
    summary: p.summary,
  };
}

function describeStroke(stroke: Stroke, first: string[], potted: string[], off: string[]): string {
  const parts: string[] = [];
  parts.push(first.length ? `white→${first.map(nameOf).join('+')}` : 'white hit nothing');
  const pots = eventsOf(stroke.events, 'pot').filter((e) => potted.includes(e.ball));
  if (pots.length) parts.push(`potted ${pots.map((e) => `${e.ball === 'white' ? 'white (in-off)' : nameOf(e.ball)} ${e.pocket}`).join(', ')}`);
  if (off.length) parts.push(`off table: ${off.map(nameOf).join(', ')}`);
  return parts.join('; ');
}
