/**
 * Checks every game shares on a stroke before its rules judge it: known ball ids, events in time
 * order, positions on the bed, no two balls overlapping. Each failure names the stroke, the field
 * and the reason.
 */
import type { BallPos, Stroke, StrokeEvent } from '../core/contracts/strokes.js';
import type { InputErrorInfo } from '../core/errors.js';
import type { TableProfile } from '../core/table.js';

export interface BallCheckContext {
  table: TableProfile;
  knownIds: ReadonlySet<string>;
  /** Radius of a ball by id, mm (the cue ball may differ in size). */
  radiusOf: (id: string) => number;
}

/** Overlap allowed between two balls, mm: tracking noise, not two balls in one place. */
export const OVERLAP_TOLERANCE_MM = 2;
/** How far a centre may sit outside the bed before it is not on the table, mm. */
export const BED_TOLERANCE_MM = 2;

const ballFields = (e: StrokeEvent): [string, string][] => {
  switch (e.type) {
    case 'strike':
    case 'cushion':
    case 'pot':
    case 'offTable':
    case 'place':
    case 'touch':
    case 'hanging':
    case 'cross':
      return [['ball', e.ball]];
    case 'jump':
      return e.over ? [['ball', e.ball], ['over', e.over]] : [['ball', e.ball]];
    case 'contact':
      return [['a', e.a], ['b', e.b]];
    case 'foul':
      return e.ball ? [['ball', e.ball]] : [];
    default:
      return [];
  }
};

export function checkPositions(
  list: readonly BallPos[],
  ctx: BallCheckContext,
  stroke: number,
  field: string,
): InputErrorInfo | null {
  const seen = new Set<string>();
  const { width, length } = ctx.table.bed;
  for (let i = 0; i < list.length; i++) {
    const b = list[i]!;
    const f = `${field}[${i}]`;
    if (!ctx.knownIds.has(b.id)) {
      return { code: 'UNKNOWN_BALL', stroke, field: `${f}.id`, message: `unknown ball id '${b.id}' (known: ${[...ctx.knownIds].join(', ')})` };
    }
    if (seen.has(b.id)) return { code: 'DUPLICATE_BALL', stroke, field: `${f}.id`, message: `ball '${b.id}' is listed twice` };
    seen.add(b.id);
    // A centre beyond a cushion nose is not on the bed (a little slack for tracking noise).
    if (b.x < -BED_TOLERANCE_MM || b.x > width + BED_TOLERANCE_MM || b.y < -BED_TOLERANCE_MM || b.y > length + BED_TOLERANCE_MM) {
      return { code: 'BALL_OFF_BED', stroke, field: f, message: `ball '${b.id}' at (${b.x.toFixed(1)}, ${b.y.toFixed(1)}) mm is outside the bed ${width}×${length} mm` };
    }
    for (let j = 0; j < i; j++) {
      const o = list[j]!;
      const d = Math.hypot(o.x - b.x, o.y - b.y);
      const minD = ctx.radiusOf(b.id) + ctx.radiusOf(o.id) - OVERLAP_TOLERANCE_MM;
      if (d < minD) {
        return { code: 'BALLS_OVERLAP', stroke, field: f, message: `ball '${b.id}' overlaps '${o.id}' (centres ${d.toFixed(1)} mm apart, at least ${(minD + OVERLAP_TOLERANCE_MM).toFixed(1)} needed)` };
      }
    }
  }
  return null;
}

export function checkStrokeCommon(stroke: Stroke, index: number, ctx: BallCheckContext): InputErrorInfo | null {
  let lastT = -Infinity;
  for (let i = 0; i < stroke.events.length; i++) {
    const e = stroke.events[i]!;
    if (e.t < lastT) {
      return { code: 'EVENTS_OUT_OF_ORDER', stroke: index, field: `events[${i}].t`, message: `event '${e.type}' at t=${e.t} s comes after an event at t=${lastT} s: events must be in time order` };
    }
    lastT = e.t;
    for (const [name, id] of ballFields(e)) {
      if (!ctx.knownIds.has(id)) {
        return { code: 'UNKNOWN_BALL', stroke: index, field: `events[${i}].${name}`, message: `unknown ball id '${id}' in '${e.type}' event` };
      }
    }
    if (e.type === 'contact' && e.a === e.b) {
      return { code: 'SELF_CONTACT', stroke: index, field: `events[${i}]`, message: `a ball cannot contact itself ('${e.a}')` };
    }
  }
  if (stroke.before) {
    const bad = checkPositions(stroke.before, ctx, index, 'before');
    if (bad) return bad;
  }
  if (stroke.rest) {
    const bad = checkPositions(stroke.rest, ctx, index, 'rest');
    if (bad) return bad;
  }
  for (const [k, id] of [['nominated', stroke.nominated], ['calledBall', stroke.calledBall]] as const) {
    if (id !== undefined && !ctx.knownIds.has(id)) {
      return { code: 'UNKNOWN_BALL', stroke: index, field: k, message: `unknown ball id '${id}'` };
    }
  }
  for (let i = 0; i < (stroke.touching?.length ?? 0); i++) {
    const id = stroke.touching![i]!;
    if (!ctx.knownIds.has(id)) return { code: 'UNKNOWN_BALL', stroke: index, field: `touching[${i}]`, message: `unknown ball id '${id}'` };
  }
  return null;
}

/** τ_tie: the game's tie window, widened to half the camera's frame interval when the log says it (spec: max(2 ms, 0.5 frame)). */
export const tieWindowS = (gameTieS: number, frameS: number | undefined): number => Math.max(gameTieS, (frameS ?? 0) / 2);

/**
 * The cue ball's first-contact set: its earliest contact(s). Contacts within `tieS` of the earliest
 * are simultaneous (the contract: same `t` = simultaneous; the spec's τ_tie widens it a little).
 */
export function firstContactSet(events: readonly StrokeEvent[], cueId: string, tieS = 0.002): { balls: string[]; t: number; conf: number } {
  let t0 = Infinity;
  for (const e of events) if (e.type === 'contact' && (e.a === cueId || e.b === cueId)) t0 = Math.min(t0, e.t);
  if (t0 === Infinity) return { balls: [], t: NaN, conf: 1 };
  const balls: string[] = [];
  let conf = 1;
  for (const e of events) {
    if (e.type === 'contact' && (e.a === cueId || e.b === cueId) && e.t - t0 <= tieS) {
      const other = e.a === cueId ? e.b : e.a;
      if (!balls.includes(other)) balls.push(other);
      conf = Math.min(conf, e.conf ?? 1);
    }
  }
  return { balls, t: t0, conf };
}

export const eventsOf = <K extends StrokeEvent['type']>(events: readonly StrokeEvent[], type: K) =>
  events.filter((e): e is Extract<StrokeEvent, { type: K }> => e.type === type);
