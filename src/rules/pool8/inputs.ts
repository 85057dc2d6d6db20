/**
 * Checks of a stroke against the rack (beyond the shared checks of ../validate.ts): balls that are
 * not on the table, positions that moved between strokes, and the pool spellings of a claim.
 */
import type { ReviewEntry } from '../../core/contracts/calls.js';
import type { Stroke } from '../../core/contracts/strokes.js';
import type { InputErrorInfo } from '../../core/errors.js';
import { CUE, OBJECT_BALLS, normaliseId } from './balls.js';
import { onTable, type Pool8State } from './state.js';

/** Balls the stroke mentions must be on the table (or put there by hand during it). */
export function checkBallsOnTable(s: Pool8State, stroke: Stroke, index: number): InputErrorInfo | null {
  const onBed = (id: string) => id === CUE || onTable(s, id);
  for (let i = 0; i < (stroke.before?.length ?? 0); i++) {
    const b = stroke.before![i]!;
    if (!onBed(b.id)) return { code: 'BALL_NOT_ON_TABLE', stroke: index, field: `before[${i}].id`, message: `ball ${b.id} is listed before the stroke but it is ${s.balls[b.id]!.where === 'off' ? 'off the table' : `pocketed${s.balls[b.id]!.pocket ? ` (${s.balls[b.id]!.pocket})` : ''}`}; remove it or log its replacement as a place event` };
  }
  const placed = new Set<string>();
  const gone = new Set<string>();
  for (let i = 0; i < stroke.events.length; i++) {
    const e = stroke.events[i]!;
    if (e.type === 'place') {
      placed.add(e.ball);
      gone.delete(e.ball);
      continue;
    }
    const ids = e.type === 'contact' ? [['a', e.a], ['b', e.b]] : 'ball' in e && typeof e.ball === 'string' && e.type !== 'foul' ? [['ball', e.ball]] : [];
    for (const [field, id] of ids as [string, string][]) {
      if (!onBed(id) && !placed.has(id)) {
        return { code: 'BALL_NOT_ON_TABLE', stroke: index, field: `events[${i}].${field}`, message: `'${e.type}' event for ball ${id}, which is not on the table (it was ${s.balls[id]!.where === 'off' ? 'driven off the table' : 'pocketed'} earlier)` };
      }
      // A ball already pocketed on this stroke cannot be pocketed or driven off again.
      if ((e.type === 'pot' || e.type === 'offTable') && gone.has(id) && !(e.type === 'pot' && hangingFor(stroke, id))) {
        return { code: 'BALL_NOT_ON_TABLE', stroke: index, field: `events[${i}].ball`, message: `ball ${id} is ${e.type === 'pot' ? 'pocketed' : 'driven off the table'} twice on this stroke` };
      }
    }
    if (e.type === 'pot' || e.type === 'offTable') gone.add(e.ball);
  }
  for (const [field, id] of [['calledBall', stroke.calledBall], ['nominated', stroke.nominated]] as const) {
    if (id !== undefined && id !== CUE && !onTable(s, id)) {
      return { code: 'BALL_NOT_ON_TABLE', stroke: index, field, message: `${field} ${id} is not on the table` };
    }
    if (id === CUE) return { code: 'BAD_CALL', stroke: index, field, message: `${field} must be an object ball, not the cue ball` };
  }
  return null;
}

/** Tolerance for a ball's position between one stroke's `rest` and the next one's `before`, mm. */
export const MOVED_BETWEEN_STROKES_MM = 10;

export function compareBefore(s: Pool8State, before: readonly { id: string; x: number; y: number }[]): ReviewEntry[] {
  const out: ReviewEntry[] = [];
  const listed = new Set(before.map((b) => b.id));
  for (const b of before) {
    const known = s.balls[b.id]!;
    // The cue ball in hand is placed by hand: it may be anywhere.
    if (b.id === CUE && s.inHand !== null) continue;
    if (known.x === undefined || known.y === undefined) continue;
    const d = Math.hypot(known.x - b.x, known.y - b.y);
    if (d > MOVED_BETWEEN_STROKES_MM) out.push({ code: 'BALL_MOVED_BETWEEN_STROKES', reason: `ball ${b.id} is ${d.toFixed(0)} mm from where it came to rest`, conf: 0.7 });
  }
  const missing = OBJECT_BALLS.filter((id) => onTable(s, id) && !listed.has(id));
  if (missing.length) out.push({ code: 'BALL_MISSING_BEFORE', reason: `ball ${missing.join(', ')} should be on the table but is not listed in 'before'`, conf: 0.7 });
  return out;
}

/** `nominated: "stripes"` (a group, not a ball) is read as the open-table claim of that group. */
export function withClaim(stroke: Stroke): Stroke {
  const n = stroke.nominated?.toLowerCase();
  if (n !== 'solids' && n !== 'stripes') return stroke;
  const { nominated: _, ...rest } = stroke;
  return { ...rest, claimGroup: stroke.claimGroup ?? n };
}

const hangingFor = (stroke: Stroke, id: string) => stroke.events.some((e) => e.type === 'hanging' && e.ball === id);


/** The stroke with every ball id in the contract's spelling (see `normaliseId`). */
export function withContractIds(stroke: Stroke): Stroke {
  const n = normaliseId;
  const pos = (l?: { id: string; x: number; y: number }[]) => l?.map((b) => ({ ...b, id: n(b.id) }));
  const keys = <V>(r?: Record<string, V>) => (r ? Object.fromEntries(Object.entries(r).map(([k, v]) => [n(k), v])) : r);
  const events = stroke.events.map((e) => {
    const o: Record<string, unknown> = { ...e };
    for (const f of ['ball', 'a', 'b', 'over'] as const) if (typeof o[f] === 'string') o[f] = n(o[f] as string);
    return o as typeof e;
  });
  const out: Stroke = { ...stroke, events };
  if (stroke.before) out.before = pos(stroke.before);
  if (stroke.rest) out.rest = pos(stroke.rest);
  if (stroke.touching) out.touching = stroke.touching.map((id) => n(id));
  if (stroke.frozen) out.frozen = keys(stroke.frozen);
  if (stroke.paths) out.paths = keys(stroke.paths);
  if (stroke.calledBall !== undefined) out.calledBall = n(stroke.calledBall);
  // A called safety written as the called ball (`calledBall: "safety"`) or the nomination.
  for (const k of ['calledBall', 'nominated'] as const) {
    if (out[k]?.toLowerCase() === 'safety' && (out.calledPocket === undefined || out.calledPocket === 'safety')) {
      delete out[k];
      out.calledPocket = 'safety';
    }
  }
  // `nominated` may be a group ("stripes") as well as a ball: only ball spellings change.
  if (stroke.nominated !== undefined) out.nominated = n(stroke.nominated);
  return out;
}
