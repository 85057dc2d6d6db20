/**
 * The referee's decisions on flagged calls, and how they become facts in the stroke log.
 *
 * A decision never edits a call. The calls are the rules' output; the referee corrects their input
 * — the facts the cameras measured or the judgements the contract already has room for — and the
 * rules judge again. So an overrule is a list of corrections to one stroke of cueref.strokes/1:
 *
 *   removeEvent {event, type, t}  the cameras saw something that did not happen (a phantom pot,
 *                                 a contact that was a near miss, an inferred push): the event goes.
 *                                 `type` and `t` must match the event at that index of strokes.json,
 *                                 so a decision cannot silently land on another event.
 *   firstContact {ball}           the cue ball hit `ball` first: its contact moves to (or is added
 *                                 at) the first-contact time, and every other cue-ball contact
 *                                 earlier than 20 ms after it moves to 20 ms after it (beyond the
 *                                 rules' tie and "close" windows), so the rules see one first ball.
 *   addFoul {code, ball?}         a foul the cameras cannot see (a touch, feet off the floor): a
 *                                 `foul {code}` event at the end of the stroke.
 *   miss {called}                 the referee's miss judgement: a `miss {called}` event (replaces
 *                                 any the log had).
 *   declareTouching {balls}       after this stroke the cue ball touches `balls`: the next stroke's
 *                                 `touching` (the contract's field for a declared touching ball).
 *
 * Accepting a call confirms the proposal. Where the proposal is a judgement the contract can
 * record (a miss left to the referee, a touching ball the rules propose), accepting writes it in
 * (`impliedByAccept`), so the reviewed log says what was decided and stays decided when judged again.
 *
 * Pure: a log and decisions in, a log out. `applyDecisions` never mutates its input.
 */
import { z } from 'zod';
import type { BaseCall } from '../core/contracts/calls.js';
import type { Stroke, StrokeEvent, StrokeLog } from '../core/contracts/strokes.js';
import type { InputErrorInfo } from '../core/errors.js';
import type { GameId } from '../core/games.js';
import { err, ok, type Result } from '../core/result.js';

export const DECISIONS_FORMAT = 'cueref.decisions/1';

/** Contacts this close after the chosen first contact are moved past it: beyond the rules' tie (2 ms) and "close" (1/60 s) windows. */
export const FIRST_CONTACT_SEPARATION_S = 0.02;

const ballId = z.string().min(1).max(40).regex(/^[A-Za-z0-9_-]+$/, 'ball ids are letters, digits, _ and -');
const foulCode = z.string().min(1).max(60).regex(/^[A-Z][A-Z0-9_]*$/, 'foul codes are UPPER_SNAKE_CASE');

export const correctionSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('removeEvent'), event: z.number().int().min(0).max(10_000), type: z.string().min(1).max(40), t: z.number().finite().nonnegative() }),
  z.strictObject({ op: z.literal('firstContact'), ball: ballId }),
  z.strictObject({ op: z.literal('addFoul'), code: foulCode, ball: ballId.optional() }),
  z.strictObject({ op: z.literal('miss'), called: z.boolean() }),
  z.strictObject({ op: z.literal('declareTouching'), balls: z.array(ballId).max(22) }),
]);
export type Correction = z.infer<typeof correctionSchema>;

export const ACTIONS = ['accept', 'overrule'] as const;
export type Action = (typeof ACTIONS)[number];

/** What the page sends: the server adds the time and, for an accept, the implied corrections. */
export const decisionInputSchema = z
  .strictObject({
    stroke: z.number().int().min(0).max(100_000),
    action: z.enum(ACTIONS),
    corrections: z.array(correctionSchema).max(50).default([]),
    note: z.string().max(2000).optional(),
  })
  .refine((d) => d.action === 'accept' || d.corrections.length > 0, { message: 'an overrule needs at least one correction', path: ['corrections'] })
  .refine((d) => d.action === 'overrule' || d.corrections.length === 0, { message: 'an accept takes no corrections (overrule instead)', path: ['corrections'] });
export type DecisionInput = z.infer<typeof decisionInputSchema>;

export const decisionSchema = z.strictObject({
  stroke: z.number().int().min(0).max(100_000),
  action: z.enum(ACTIONS),
  corrections: z.array(correctionSchema).max(50),
  note: z.string().max(2000).optional(),
  /** ISO 8601 time the decision was made. */
  at: z.string().max(40),
});
export type Decision = z.infer<typeof decisionSchema>;

export const decisionsDocSchema = z
  .strictObject({
    format: z.literal(DECISIONS_FORMAT),
    decisions: z.array(decisionSchema),
  })
  .refine((d) => new Set(d.decisions.map((x) => x.stroke)).size === d.decisions.length, { message: 'one decision per stroke', path: ['decisions'] });
export type DecisionsDoc = z.infer<typeof decisionsDocSchema>;

/** The ball the player strikes in each game (the one whose contacts decide "first contact"). */
export function cueBallId(game: GameId): string {
  switch (game) {
    case 'snooker':
      return 'white';
    case 'pool8':
      return 'cue';
    case 'novus':
      return 'striker';
  }
}

/** Judgements an accept writes into the log: what the rules proposed and the contract can record. */
export function impliedByAccept(call: BaseCall, hasNextStroke: boolean): Correction[] {
  const out: Correction[] = [];
  const codes = new Set(call.review.map((r) => r.code));
  if (codes.has('MISS_JUDGEMENT')) out.push({ op: 'miss', called: call.miss === true });
  const touching = Array.isArray(call.touching) ? (call.touching as unknown[]).filter((b): b is string => typeof b === 'string') : [];
  if (codes.has('TOUCHING_BALL') && touching.length && hasNextStroke) out.push({ op: 'declareTouching', balls: touching });
  return out;
}

const bad = (stroke: number, field: string, message: string): InputErrorInfo => ({ code: 'BAD_DECISION', stroke, field, message });

const otherBall = (e: Extract<StrokeEvent, { type: 'contact' }>, cue: string): string => (e.a === cue ? e.b : e.a);

/** Stable sort by time: the contract wants events in time order; equal times keep their order. */
const byTime = (events: StrokeEvent[]): StrokeEvent[] =>
  events
    .map((e, k) => ({ e, k }))
    .sort((p, q) => p.e.t - q.e.t || p.k - q.k)
    .map((p) => p.e);

function strikeOf(s: Stroke, cue: string): { ball: string; t: number } | null {
  const strike = s.events.find((e): e is Extract<StrokeEvent, { type: 'strike' }> => e.type === 'strike');
  if (strike) return { ball: strike.ball, t: strike.t };
  // Hand-entered logs may omit the strike: the referee infers it at the cue ball's first movement.
  const first = s.events.find((e) => (e.type === 'contact' && (e.a === cue || e.b === cue)) || ('ball' in e && e.ball === cue && e.type !== 'place'));
  return first ? { ball: cue, t: first.t } : null;
}

function setFirstContact(s: Stroke, index: number, ball: string, game: GameId): Result<StrokeEvent[], InputErrorInfo> {
  const strike = strikeOf(s, cueBallId(game));
  if (!strike) return err(bad(index, 'corrections.firstContact', 'the stroke has no strike, so it has no first contact to correct'));
  const cue = strike.ball;
  if (ball === cue) return err(bad(index, 'corrections.firstContact.ball', `'${ball}' is the ball struck, not an object ball`));
  const isCue = (e: StrokeEvent): e is Extract<StrokeEvent, { type: 'contact' }> => e.type === 'contact' && (e.a === cue || e.b === cue) && e.t >= strike.t;
  const contacts = s.events.filter(isCue);
  const rest = s.events.filter((e) => !(isCue(e) && otherBall(e, cue) === ball));
  let t0: number;
  if (contacts.length) {
    t0 = Math.min(...contacts.map((e) => e.t));
  } else {
    // No contact seen at all (a "no contact" the referee overrules): halfway to the next event, or 0.1 s on.
    const next = s.events.filter((e) => e.t > strike.t).map((e) => e.t);
    t0 = next.length ? (strike.t + Math.min(...next)) / 2 : strike.t + 0.1;
  }
  const later = t0 + FIRST_CONTACT_SEPARATION_S;
  const moved = rest.map((e) => (isCue(e) && e.t < later ? { ...e, t: later } : e));
  moved.push({ t: t0, type: 'contact', a: cue, b: ball, conf: 1 });
  return ok(byTime(moved));
}

/**
 * Apply every decision's corrections to the log. Errors name the decision's stroke and what does
 * not fit (an event index that is not there, a stroke beyond the log).
 */
export function applyDecisions(log: StrokeLog, decisions: readonly Decision[]): Result<StrokeLog, InputErrorInfo> {
  const strokes: Stroke[] = log.strokes.map((s) => ({ ...s, events: [...s.events] }));
  const sorted = [...decisions].sort((a, b) => a.stroke - b.stroke);
  const touchingFor = new Map<number, string[]>();
  for (const d of sorted) {
    const i = d.stroke;
    const original = log.strokes[i];
    if (!original) return err(bad(i, 'stroke', `there is no stroke ${i} in strokes.json (it has ${log.strokes.length})`));
    // Removals first, by the index in strokes.json: the page shows the events as they are there.
    const remove = new Set<number>();
    for (const c of d.corrections) {
      if (c.op !== 'removeEvent') continue;
      const e = original.events[c.event];
      if (!e || e.type !== c.type || Math.abs(e.t - c.t) > 1e-6) {
        return err(bad(i, `corrections.removeEvent.event`, `event ${c.event} of stroke ${i} is not a ${c.type} at ${c.t} s in strokes.json (was the file changed after the decision?)`));
      }
      remove.add(c.event);
    }
    let events = original.events.filter((_, k) => !remove.has(k));
    let s: Stroke = { ...strokes[i]!, events };
    for (const c of d.corrections) {
      switch (c.op) {
        case 'removeEvent':
          break;
        case 'firstContact': {
          const r = setFirstContact(s, i, c.ball, log.game);
          if (!r.ok) return r;
          events = r.value;
          break;
        }
        case 'addFoul': {
          const t = events.length ? Math.max(...events.map((e) => e.t)) : (s.t ?? 0);
          events = [...events, { t, type: 'foul', code: c.code, ...(c.ball ? { ball: c.ball } : {}) }];
          break;
        }
        case 'miss': {
          const kept = events.filter((e) => e.type !== 'miss');
          const t = kept.length ? Math.max(...kept.map((e) => e.t)) : (s.t ?? 0);
          events = [...kept, { t, type: 'miss', called: c.called }];
          break;
        }
        case 'declareTouching': {
          if (i + 1 >= log.strokes.length) return err(bad(i, 'corrections.declareTouching', `stroke ${i} is the last in the log: there is no next stroke for the touching ball`));
          touchingFor.set(i + 1, [...new Set(c.balls)]);
          break;
        }
      }
      s = { ...s, events };
    }
    strokes[i] = s;
  }
  for (const [i, balls] of touchingFor) {
    const s = strokes[i]!;
    if (balls.length) strokes[i] = { ...s, touching: balls };
    else {
      const { touching: _none, ...without } = s;
      strokes[i] = without;
    }
  }
  return ok({ ...log, strokes });
}
