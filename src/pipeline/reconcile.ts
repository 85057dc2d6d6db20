/**
 * Between the vision stages and the referee: a stroke log from the cameras can say things the
 * rules refuse as impossible (a red that was never on the table appears and is potted: a detector
 * false positive; a ball listed in `before` after it was potted). The referee is right to refuse
 * such a log from a person; from the cameras it means "the vision got this wrong", and one bad
 * detection must not cost the whole match its calls.
 *
 * So the pipeline repairs the log as little as it can and says what it did: every repair becomes a
 * review entry on that stroke's call (`VISION_*`, conf 0) and a note. Nothing is invented: repairs
 * only remove what the rules cannot accept — with two exceptions, steps 00 and 0, which give a
 * ball back what the tracker lost of it.
 *  00. One ball tracked as two: a ball whose path ends in a doubtful pot (conf < 0.8) while a ball
 *      of its kind the opening layout lacks is first seen where it was, right after, is the same
 *      ball under a new id (the tracker split its track as it was struck): the newcomer takes the
 *      ball's id again in that stroke and the later ones, and the pot goes (`VISION_TRACK_JOINED`,
 *      conf 0.7). Before steps 0 and 1, which would otherwise admit or drop the newcomer.
 *   0. A ball of a many-ball kind (a red, a solid or stripe, a pawn) missing from the opening
 *      layout that the cameras then follow for a while, first seen right beside a ball of the
 *      layout (or followed for a second wherever first seen: a break sends a hidden ball off too
 *      fast to be seen leaving the pack), was hidden at the start — in the pack, or behind another
 *      ball from a broadcast camera — not invented: when the game's set has room for it, it is put
 *      in the opening layout where it was first seen (nudged clear of the others), and a review
 *      entry (`VISION_HIDDEN_BALL`, conf 0.8) says so. Dropping it, as step 1 would, loses every
 *      event it had: its pots, cushions and contacts.
 *   1. Balls that were not in the opening layout (when the log lists it), other than the cue ball
 *      (put in hand after the recording started), are dropped from every stroke: `before`,
 *      `rest`, `paths` and any event that names them.
 *   2. If the referee still refuses stroke i: a refusal about `before` drops that stroke's `before`
 *      (the referee then uses the previous rest with its own respots); a refusal about events drops
 *      the events naming the ball the refusal names; otherwise the stroke's events are emptied;
 *      a stroke still refused with no events left (no strike: the cameras saw balls move but not
 *      who struck) is dropped from the log, the only stroke too — a note, with the time it was
 *      seen, says so.
 *      A refused opening layout (two balls overlapping: one ball detected twice) loses the ball the
 *      refusal names, and that ball goes from every stroke as in 1.
 *   3. A free ball played with no nomination (cameras cannot hear one) takes the ball hit first,
 *      when it is not on, as the nomination: a review entry (conf 0.7) asks the referee to confirm.
 */
import type { BaseCall, CallsDoc, ReviewEntry } from '../core/contracts/calls.js';
import type { Stroke, StrokeEvent, StrokeLog } from '../core/contracts/strokes.js';
import type { InputErrorInfo } from '../core/errors.js';
import type { Result } from '../core/result.js';
import type { TableProfile } from '../core/table.js';
import { refereeLog } from '../rules/registry.js';
import { cueBallOf } from '../events/index.js';
import { idsOfKind, kindOfId } from '../tracking/index.js';

export interface Repair {
  stroke: number;
  code: 'VISION_TRACK_JOINED' | 'VISION_HIDDEN_BALL' | 'VISION_UNKNOWN_BALL' | 'VISION_BEFORE_DROPPED' | 'VISION_EVENTS_DROPPED' | 'VISION_STROKE_DROPPED' | 'VISION_IMPLICIT_FREE_BALL';
  reason: string;
  /** The review entry's confidence (0 when absent: the vision got something wrong). */
  conf?: number;
  ask?: string;
}

export interface ReconciledCalls {
  /** The log the referee judged (what DIR/strokes.json holds). */
  log: StrokeLog;
  calls: CallsDoc;
  repairs: Repair[];
}

const BALL_KEYS = ['ball', 'a', 'b', 'over'] as const;

function eventNames(e: StrokeEvent, id: string): boolean {
  const r = e as Record<string, unknown>;
  return BALL_KEYS.some((k) => r[k] === id);
}

function dropBall(s: Stroke, id: string): { stroke: Stroke; changed: boolean } {
  const events = s.events.filter((e) => !eventNames(e, id));
  const before = s.before?.filter((b) => b.id !== id);
  const rest = s.rest?.filter((b) => b.id !== id);
  const changed = events.length !== s.events.length || before?.length !== s.before?.length || rest?.length !== s.rest?.length || (s.paths !== undefined && id in s.paths);
  const out: Stroke = { ...s, events };
  if (before) out.before = before;
  if (rest) out.rest = rest;
  if (s.paths && id in s.paths) {
    const { [id]: _gone, ...paths } = s.paths;
    out.paths = paths;
  }
  return { stroke: out, changed };
}

/** Every ball a stroke names: in `before`, `rest` and its events. */
export function idsOf(s: Stroke): Set<string> {
  const ids = new Set<string>();
  for (const b of [...(s.before ?? []), ...(s.rest ?? [])]) ids.add(b.id);
  for (const e of s.events) {
    for (const k of BALL_KEYS) {
      const v = (e as Record<string, unknown>)[k];
      if (typeof v === 'string') ids.add(v);
    }
  }
  return ids;
}

/** Below this confidence a pot may be a track that split (step 00). */
export const SPLIT_POT_CONF = 0.8;
const doubtfulPot = (e: StrokeEvent): e is Extract<StrokeEvent, { type: 'pot' }> => e.type === 'pot' && (e.conf ?? 1) < SPLIT_POT_CONF;

/**
 * The ids of a listed opening layout, and the cue ball: always a real ball, it may be missing from
 * the layout because it was put in hand after the recording started (a snooker break from the D).
 */
function layoutIds(log: StrokeLog, start: readonly { id: string }[]): Set<string> {
  return new Set([...start.map((b) => b.id), cueBallOf(log.game)]);
}
/** The newcomer is first seen within this long after the ball's last sample, s, … */
export const SPLIT_GAP_S = 0.5;
/** … and within this many ball diameters of where it was last seen. */
export const SPLIT_REACH_DIAMETERS = 2;

/** A stroke with ball `from` called `to`: in its events, paths, `before` and `rest`. */
function renameBall(s: Stroke, from: string, to: string): Stroke {
  const events = s.events.map((e) => {
    const r = { ...e } as Record<string, unknown>;
    for (const k of BALL_KEYS) if (r[k] === from) r[k] = to;
    return r as StrokeEvent;
  });
  const out: Stroke = { ...s, events };
  const rename = <T extends { id: string }>(xs: T[] | undefined) => xs?.map((b) => (b.id === from ? { ...b, id: to } : b));
  if (s.before) out.before = rename(s.before)!;
  if (s.rest) out.rest = rename(s.rest)!;
  if (s.paths && from in s.paths) {
    const { [from]: moved, ...paths } = s.paths;
    out.paths = { ...paths, [to]: [...(paths[to] ?? []), ...moved!].sort((a, b) => a[0] - b[0]) };
  }
  return out;
}

/** Step 00: one ball tracked as two (see the module comment). */
export function joinSplitTracks(log: StrokeLog, table: TableProfile): { log: StrokeLog; repairs: Repair[] } {
  const start = log.start?.balls;
  if (!Array.isArray(start)) return { log, repairs: [] };
  const known = layoutIds(log, start);
  // Where each ball the layout lacks starts its path in a stroke (its first sample there): the
  // tracker may give a new track an id a ghost had before, so not only its first stroke counts.
  const startsIn = (i: number) =>
    Object.entries(log.strokes[i]?.paths ?? {}).flatMap(([id, pts]) => (known.has(id) || !pts.length ? [] : [{ id, stroke: i, t: pts[0]![0], x: pts[0]![1], y: pts[0]![2] }]));
  const taken = new Set<string>();
  let strokes = log.strokes;
  const repairs: Repair[] = [];
  for (let i = 0; i < strokes.length; i++) {
    // Each join removes a pot, so looking at the stroke again until none joins ends.
    for (let again = true; again; ) {
      again = false;
      for (const e of strokes[i]!.events) {
        if (!doubtfulPot(e)) continue;
        const id = e.ball;
        const path = strokes[i]!.paths?.[id];
        if (!path?.length || strokes.slice(i + 1).some((s) => s.paths?.[id]?.length)) continue;
        const [tLast, xLast, yLast] = path.at(-1)!;
        const kind = kindOfId(log.game, id);
        const f = [...startsIn(i), ...startsIn(i + 1)].find((c) => !taken.has(c.id) && kindOfId(log.game, c.id) === kind && c.t >= tLast - 0.1 && c.t - tLast <= SPLIT_GAP_S && Math.hypot(c.x - xLast, c.y - yLast) <= SPLIT_REACH_DIAMETERS * table.ballDiameter);
        if (!f) continue;
        const nid = f.id;
        taken.add(nid);
        strokes = strokes.map((s, k) => (k < i ? s : renameBall(k === i ? { ...s, events: s.events.filter((x) => x !== e) } : s, nid, id)));
        repairs.push({ stroke: i, code: 'VISION_TRACK_JOINED', reason: `'${id}' was lost at ${tLast.toFixed(2)} s and '${nid}' first seen ${Math.round(Math.hypot(f.x - xLast, f.y - yLast))} mm from it at ${f.t.toFixed(2)} s: one ball tracked as two, so not potted (the pot read had confidence ${e.conf})`, conf: 0.7 });
        again = true;
        break;
      }
    }
  }
  return repairs.length ? { log: { ...log, strokes }, repairs } : { log, repairs };
}

/** Path samples a hidden ball must have in the stroke it is first seen in: a ghost detection lasts a frame or three. */
export const HIDDEN_MIN_SIGHTINGS = 5;
/**
 * How near a ball of the layout (or of the stroke's `before`) a hidden ball is first seen, in ball
 * diameters. On the rendered library's logs, the reds hidden in the pack were first seen 19–65 mm
 * from a ball of the layout (≤ 1.3 D); the balls that were not there (a red read as the brown, a
 * ghost by a cushion, an identity swap) 184–1536 mm away.
 */
export const HIDDEN_REACH_DIAMETERS = 2;
/** Path samples (1 s at 30 fps) that make a ball real wherever it was first seen: no ghost is followed that long. */
export const HIDDEN_LONG_SIGHTINGS = 30;

/**
 * The nearest point to (x, y) clear of every ball of `layout` (a diameter apart) and on the bed,
 * searched on rings 5 mm apart out to three diameters, or undefined. In a pack there is no room
 * right where a hidden red was first seen (the pack had moved by then): it goes to the nearest gap.
 */
function placeClear(layout: readonly { x: number; y: number }[], x: number, y: number, table: TableProfile): [number, number] | undefined {
  const D = table.ballDiameter, R = D / 2;
  const clear = (px: number, py: number) => px >= R && py >= R && px <= table.bed.width - R && py <= table.bed.length - R && layout.every((b) => Math.hypot(px - b.x, py - b.y) >= D + 0.5);
  if (clear(x, y)) return [x, y];
  for (let r = 5; r <= 3 * D; r += 5) {
    for (let k = 0; k < 24; k++) {
      const a = (k * Math.PI) / 12;
      const [px, py] = [x + r * Math.cos(a), y + r * Math.sin(a)];
      if (clear(px, py)) return [px, py];
    }
  }
  return undefined;
}

/** Step 0: balls hidden at the start, put in the opening layout (see the module comment). */
export function admitHiddenBalls(log: StrokeLog, table: TableProfile): { log: StrokeLog; repairs: Repair[] } {
  const start = log.start?.balls;
  if (!Array.isArray(start)) return { log, repairs: [] };
  const layout = [...start];
  const known = layoutIds(log, start);
  const repairs: Repair[] = [];
  const judged = new Set<string>();
  log.strokes.forEach((s, i) => {
    for (const [id, pts] of Object.entries(s.paths ?? {})) {
      // Judged once, on the stroke it first appears in: a ghost that comes back later is still a ghost.
      if (known.has(id) || judged.has(id) || !pts.length) continue;
      judged.add(id);
      if (pts.length < HIDDEN_MIN_SIGHTINGS) continue;
      const kind = kindOfId(log.game, id);
      const ids = idsOfKind(log.game, kind);
      // Only kinds with many balls (reds, solids, stripes, pawns): one of many is easily hidden in a
      // pack, and its id is the tracker's own. A lone colour missing at the start is more often
      // another ball misread as it (on the Bucharest broadcast clips, a "yellow" first seen beside
      // a red made two false fouls when admitted).
      if (ids.length < 2 || !ids.includes(id) || layout.filter((b) => kindOfId(log.game, b.id) === kind).length >= ids.length) continue;
      const [t, x, y] = pts[0]!;
      // A ball of its kind lost in a doubtful pot while this one was seen may be this very ball
      // under a second id (step 00 joins the clear cases): admitting it would pot one ball twice
      // (the rendered S03/S11/S12/S41 at 60 fps: red1 "potted" at conf 0.6 at 1.42 s, a "red3"
      // seen 1.10–2.25 s, then potted in the same pocket).
      const tEnd = pts.at(-1)![0];
      if (s.events.some((e) => doubtfulPot(e) && kindOfId(log.game, e.ball) === kind && e.t >= t - SPLIT_GAP_S && e.t <= tEnd)) continue;
      let beside: { id: string; d: number } | undefined;
      for (const b of [...layout, ...(s.before ?? [])]) {
        const d = Math.hypot(b.x - x, b.y - y);
        if (b.id !== id && d <= HIDDEN_REACH_DIAMETERS * table.ballDiameter && (!beside || d < beside.d)) beside = { id: b.id, d };
      }
      if (!beside && pts.length < HIDDEN_LONG_SIGHTINGS) continue;
      const at = placeClear(layout, x, y, table);
      if (!at) continue;
      layout.push({ id, x: Math.round(at[0] * 100) / 100, y: Math.round(at[1] * 100) / 100 });
      known.add(id);
      repairs.push({ stroke: i, code: 'VISION_HIDDEN_BALL', reason: `'${id}' was not seen at the start: first seen at ${t.toFixed(2)} s ${beside ? `beside '${beside.id}'` : `and followed for ${pts.length} frames`}, so taken as hidden and on the table from the start`, conf: 0.8 });
    }
  });
  return repairs.length ? { log: { ...log, start: { ...log.start, balls: layout } }, repairs } : { log, repairs };
}

/** Step 1: balls absent from a listed opening layout. */
export function dropUnknownBalls(log: StrokeLog): { log: StrokeLog; repairs: Repair[] } {
  const start = log.start?.balls;
  if (!Array.isArray(start)) return { log, repairs: [] };
  const known = layoutIds(log, start);
  const repairs: Repair[] = [];
  const strokes = log.strokes.map((s, i) => {
    let out = s;
    for (const id of idsOf(s)) {
      if (known.has(id)) continue;
      const r = dropBall(out, id);
      out = r.stroke;
      if (r.changed) repairs.push({ stroke: i, code: 'VISION_UNKNOWN_BALL', reason: `'${id}' was not on the table at the start: taken for a false detection and left out of this stroke` });
    }
    return out;
  });
  // Unchanged logs stay the same object: the caller can tell nothing was repaired.
  return repairs.length ? { log: { ...log, strokes }, repairs } : { log, repairs };
}

/**
 * Referee the log, repairing what the rules refuse (see the module comment). Every repair removes
 * something, so the loop ends; `maxRepairs` only bounds the work. It grows with the log: an hour's
 * recording has hundreds of strokes, and a fixed 50 left one refused (a looped 60-minute render,
 * 389 strokes, failed at its end with every call lost).
 */
export function refereeVisionLog(raw: StrokeLog, table: TableProfile, maxRepairs = 50 + 4 * raw.strokes.length, opts: { admitHidden?: boolean } = {}): Result<ReconciledCalls, InputErrorInfo> {
  const joined = joinSplitTracks(raw, table);
  const hidden = opts.admitHidden === false ? { log: joined.log, repairs: [] } : admitHiddenBalls(joined.log, table);
  const first = dropUnknownBalls(hidden.log);
  let log = first.log;
  const repairs = [...joined.repairs, ...hidden.repairs, ...first.repairs];
  for (let n = 0; ; n++) {
    const res = refereeLog(log, table);
    if (res.ok) {
      const nom = implicitFreeBallIn(log, res.value);
      if (nom) {
        repairs.push(nom.repair);
        log = nom.log;
        continue;
      }
      return { ok: true, value: { log, calls: withRepairs(res.value, repairs), repairs } };
    }
    const i = res.error.stroke;
    const startBalls = log.start?.balls;
    if (i === undefined && n < maxRepairs && Array.isArray(startBalls) && (res.error.field ?? '').startsWith('start')) {
      // The opening layout refused (two balls overlapping: one ball detected twice): the ball the
      // refusal names first is left out of the layout and, through step 1, of every stroke.
      const ids = new Set(startBalls.map((b) => b.id));
      const named = [...res.error.message.matchAll(/'([^']+)'/g)].map((m) => m[1]!).find((id) => ids.has(id));
      if (named) {
        const dropped = dropUnknownBalls({ ...log, start: { ...log.start, balls: startBalls.filter((b) => b.id !== named) } });
        repairs.push({ stroke: 0, code: 'VISION_UNKNOWN_BALL', reason: `'${named}' was refused in the opening layout (${res.error.message}): taken for a ball detected twice and left out` }, ...dropped.repairs);
        log = dropped.log;
        continue;
      }
    }
    if (i === undefined || n >= maxRepairs || !log.strokes[i]) return res;
    const s = log.strokes[i]!;
    const field = res.error.field ?? '';
    let next: Stroke;
    let repair: Repair;
    const named = [...idsOf(s)].find((id) => res.error.message.includes(`'${id}'`) || new RegExp(`\\bball ${id}\\b`).test(res.error.message));
    if (field.startsWith('before') && s.before) {
      const { before: _dropped, ...rest } = s;
      next = rest;
      repair = { stroke: i, code: 'VISION_BEFORE_DROPPED', reason: `the balls seen before the stroke were refused by the rules (${res.error.message}): the previous rest was used instead` };
    } else if (named && dropBall(s, named).changed) {
      next = dropBall(s, named).stroke;
      repair = { stroke: i, code: 'VISION_EVENTS_DROPPED', reason: `events naming '${named}' were refused by the rules (${res.error.message}) and left out` };
    } else if (s.events.length) {
      next = { ...s, events: [] };
      repair = { stroke: i, code: 'VISION_EVENTS_DROPPED', reason: `the stroke's events were refused by the rules (${res.error.message}) and left out` };
    } else {
      // Nothing left to remove but the stroke itself — even the log's only stroke: a recording
      // whose one "stroke" shows balls moving but no strike is a log with no strokes, not a run
      // that ends in an internal error and loses its tracks' report (rendered broadcast F21 with
      // second looks at every pack, 2026-12-04). Repairs already made to later strokes move down
      // one index with them; this one is a note only (there is no call to attach it to).
      for (const r of repairs) if (r.stroke > i) r.stroke--;
      repairs.push({ stroke: i, code: 'VISION_STROKE_DROPPED', reason: `a stroke seen at ${s.t !== undefined ? `${s.t.toFixed(2)} s` : 'an unknown time'} was refused by the rules even with no events (${res.error.message}) and left out of the log` });
      log = { ...log, strokes: log.strokes.filter((_, k) => k !== i) };
      continue;
    }
    repairs.push(repair);
    log = { ...log, strokes: log.strokes.map((x, k) => (k === i ? next : x)) };
  }
}

/**
 * Step 3: a free ball played with no nomination in the log. Cameras cannot hear the striker name
 * the free ball, so a snooker log from them never has one; the referee would then judge the
 * stroke as played at the ball on. When a free ball was awarded (`prev`, the call before) and the
 * cue ball's first contact (`call`, this stroke's call without a nomination) is a single ball that
 * is not on, that ball was the one nominated — as the rules' commentary has the referee take the
 * colour hit first after a red (rules-snooker §7, F23) — and the call says so for the referee to
 * confirm. Returns the stroke with the nomination and the repair saying so, or undefined.
 */
export function implicitFreeBall(game: string, prev: BaseCall | undefined, stroke: Stroke, call: BaseCall, index: number): { stroke: Stroke; repair: Repair } | undefined {
  if (game !== 'snooker' || !prev || prev['freeBall'] !== true) return undefined;
  if (stroke.nominated != null || stroke.decision === 'playAgain' || stroke.decision === 'replace') return undefined;
  const first = call['firstContact'];
  const on = prev['nextBallOn'];
  if (!Array.isArray(first) || first.length !== 1 || !Array.isArray(on)) return undefined;
  const ball = String(first[0]);
  if (ball === 'white' || on.includes(kindOfId('snooker', ball))) return undefined;
  return {
    stroke: { ...stroke, nominated: ball },
    repair: { stroke: index, code: 'VISION_IMPLICIT_FREE_BALL', reason: `a free ball was awarded and no nomination was heard: '${ball}', hit first, taken as the free ball`, conf: 0.7, ask: 'did the striker nominate that ball as the free ball?' },
  };
}

function implicitFreeBallIn(log: StrokeLog, doc: CallsDoc): { log: StrokeLog; repair: Repair } | undefined {
  for (let i = 1; i < doc.calls.length; i++) {
    const r = implicitFreeBall(log.game, doc.calls[i - 1], log.strokes[i]!, doc.calls[i]!, i);
    if (r) return { log: { ...log, strokes: log.strokes.map((s, k) => (k === i ? r.stroke : s)) }, repair: r.repair };
  }
  return undefined;
}

function withRepairs(doc: CallsDoc, repairs: readonly Repair[]): CallsDoc {
  if (!repairs.length) return doc;
  const calls = doc.calls.map((c) => {
    const mine = repairs.filter((r) => r.stroke === c.stroke && r.code !== 'VISION_STROKE_DROPPED');
    if (!mine.length) return c;
    const review: ReviewEntry[] = [...c.review, ...mine.map((r) => ({ code: r.code, reason: r.reason, conf: r.conf ?? 0, ...(r.ask ? { ask: r.ask } : {}) }))];
    return { ...c, review };
  });
  return { ...doc, calls };
}
