/**
 * Stroke segmentation and the stroke log: tracks (cueref.tracks/1) in, cueref.strokes/1 out.
 *
 * A stroke runs from the first ball leaving rest (the strike: normally the cue ball) until every
 * ball has been still for `atRestMs`. Motion between strokes that is not a stroke is a hand at work:
 * a ball that appears, or is lifted (not seen while it moves), or slides and stops dead with nothing
 * to stop it, was placed — `place {ball, x, y}` on the next stroke, before its strike.
 */
import type { StrokeEvent, StrokeLog, Stroke } from '../core/contracts/strokes.js';
import type { TracksDoc, TracksHeader } from '../core/contracts/tracks.js';
import type { TableProfile } from '../core/table.js';
import { analyseStroke, cueBallOf, frameDt, HAND_STOP_MM_PER_S, radiusOfBall } from './detect.js';
import { imageOfBalls, pixelSpanOf, sinkDirectionOf, type CameraView } from './sinking.js';
import { eventParams, type EventParams, type EventParamsInput } from './params.js';
import { segmentPath, kinksOf } from './segments.js';
import { buildSeries, meanPos, motionSpans, Presence, type BallSeries, type MotionSpan, type Series } from './series.js';

const r2 = (v: number) => Math.round(v * 100) / 100;
const r5 = (v: number) => Math.round(v * 1e5) / 1e5;

/**
 * A ball not measured for a while but found again where it was (a tracker's dropout under a
 * player's arm) never left the table: those entries become Hidden, so no pot or placement is made.
 * Nor did one the tracker called pocketed or off the table and that is seen again on the bed
 * within BACK_WITHIN_S of its last sighting and BACK_WITHIN_MM of it: no hand takes a ball out of
 * a pocket and puts it back that fast — the tracker's prediction carried it away (rendered
 * S26-S27 overhead: the cue ball carried by hand at 9 m/s, lost under the hand, predicted through
 * the baulk cushion and "off the table" 0.1 s before it was seen set down 67 mm from its last
 * sighting), or it rattled in the jaws and stayed out.
 */
export function bridgeDropouts(series: Series, toleranceMm: number): void {
  for (const s of series.balls.values()) {
    let lastSeen = -1;
    for (let k = 0; k < s.presence.length; k++) {
      if (s.presence[k] !== Presence.Seen) continue;
      if (lastSeen >= 0 && k > lastSeen + 1) {
        let allAbsent = true, gone = false;
        for (let j = lastSeen + 1; j < k; j++) {
          const pr = s.presence[j];
          if (pr === Presence.Pocketed || pr === Presence.OffTable) gone = true;
          else if (pr !== Presence.Absent && pr !== Presence.Hidden) allAbsent = false;
        }
        const d = Math.hypot(s.x[k]! - s.x[lastSeen]!, s.y[k]! - s.y[lastSeen]!);
        const back = gone && series.t[k]! - series.t[lastSeen]! <= BACK_WITHIN_S + 1e-9 && d <= BACK_WITHIN_MM;
        if (allAbsent && (gone ? back : d <= toleranceMm)) for (let j = lastSeen + 1; j < k; j++) s.presence[j] = Presence.Hidden;
      }
      lastSeen = k;
    }
  }
}

/** A ball called gone and seen again within this long and this near its last sighting never left (s, mm). */
const BACK_WITHIN_S = 0.5;
const BACK_WITHIN_MM = 150;

interface Activity {
  k0: number;
  /** Last entry of the activity (every mover confirmed at rest, or last frame). */
  k1: number;
  spans: MotionSpan[];
}

function activities(spansByBall: MotionSpan[][]): Activity[] {
  const all = spansByBall.flat().sort((a, b) => a.k0 - b.k0);
  const out: Activity[] = [];
  for (const s of all) {
    const cur = out.at(-1);
    // Motions that overlap (a mover starts before the others are confirmed still) are one stroke.
    if (cur && s.k0 <= cur.k1) {
      cur.k1 = Math.max(cur.k1, s.k1);
      cur.spans.push(s);
    } else out.push({ k0: s.k0, k1: s.k1, spans: [s] });
  }
  return out;
}

/** First sightings after the first frame, and returns after leaving the bed: balls put on by hand. */
interface Appearance {
  ball: string;
  k: number;
  x: number;
  y: number;
}

/**
 * Where a ball that appeared was put down: where it lay at the next strike. First seen in the
 * hand, it may be carried and set down further on (rendered N05 overhead, 60 fps: the striker
 * first read 107 mm from where it was placed, which the referee took for a placement over the line).
 */
function placedAt(before: readonly { id: string; x: number; y: number }[] | undefined, ap: Appearance): { x: number; y: number } {
  return before?.find((b) => b.id === ap.ball) ?? ap;
}

/** A ball just put down is still within this of where it was first seen, mm (noise and settling). */
const PLACED_SPOT_MM = 15;

/** A ball that appears must be seen on this many frames within PLACED_SEEN_WITHIN_S to have been put on the table. */
const PLACED_MIN_SIGHTINGS = 4;
const PLACED_SEEN_WITHIN_S = 1.5;

function sightingsFrom(s: BallSeries, t: Float64Array, k0: number, withinS: number): number {
  let n = 0;
  for (let k = k0; k < s.presence.length && t[k]! - t[k0]! <= withinS; k++) if (s.presence[k] === Presence.Seen) n++;
  return n;
}

function appearances(series: Series, firstK: number): Appearance[] {
  const out: Appearance[] = [];
  for (const s of series.balls.values()) {
    let gone = true; // not yet on the table
    for (let k = 0; k < s.presence.length; k++) {
      const pr = s.presence[k]!;
      if (pr === Presence.Seen || pr === Presence.Hidden) {
        if (gone && pr === Presence.Seen) {
          // A ball put on the table stays there to be seen: one weak sighting and then nothing
          // (the rendered short frame, broadcast: something read once as the potted yellow, at
          // score 0.3) put no ball back.
          if (k > firstK && sightingsFrom(s, series.t, k, PLACED_SEEN_WITHIN_S) >= PLACED_MIN_SIGHTINGS) {
            // Where it was put: its mean position over the next half second of sightings, up to
            // the first that has left the spot (a cue ball uncovered by the hand just before
            // the strike rolls off within that half second).
            let kEnd = k;
            while (kEnd + 1 < s.presence.length && series.t[kEnd + 1]! - series.t[k]! < 0.5) {
              const q = kEnd + 1;
              if (s.presence[q] === Presence.Seen && Math.hypot(s.x[q]! - s.x[k]!, s.y[q]! - s.y[k]!) > PLACED_SPOT_MM) break;
              kEnd = q;
            }
            const m = meanPos(s, k, kEnd)!;
            out.push({ ball: s.id, k, x: m.x, y: m.y });
          }
          gone = false;
        }
      } else if (pr === Presence.Pocketed || pr === Presence.OffTable || pr === Presence.Absent) gone = true;
    }
  }
  return out.sort((a, b) => a.k - b.k);
}

/** A motion that ends dead from speed with nothing in the way: a hand sliding the ball, not a roll. */
function isHandMove(series: Series, span: MotionSpan, p: EventParams): boolean {
  const s = series.balls.get(span.ball)!;
  if (span.hiddenDuring) {
    // Lifted and put down: hardly ever seen in transit. A roll that passed under an arm was.
    let inTransit = 0;
    for (let k = span.k0; k <= span.k1; k++) {
      if (s.presence[k] !== Presence.Seen) continue;
      const dFrom = Math.hypot(s.x[k]! - span.from.x, s.y[k]! - span.from.y);
      const dTo = Number.isFinite(span.to.x) ? Math.hypot(s.x[k]! - span.to.x, s.y[k]! - span.to.y) : Infinity;
      if (dFrom > p.moveThresholdMm && dTo > p.moveThresholdMm) inTransit++;
    }
    if (inTransit < 3) return true;
  }
  const samples = { t: [] as number[], x: [] as number[], y: [] as number[] };
  for (let k = span.k0; k <= span.k1; k++) if (s.presence[k] === Presence.Seen) {
    samples.t.push(series.t[k]!);
    samples.x.push(s.x[k]!);
    samples.y.push(s.y[k]!);
  }
  if (samples.t.length < 4) return true;
  const segs = segmentPath(samples, p.kinkToleranceMm, p.noiseMm);
  const dt = (samples.t.at(-1)! - samples.t[0]!) / (samples.t.length - 1);
  const kinks = kinksOf(segs, dt, samples);
  // How the motion ended: a rolling ball slows smoothly to rest (friction, ~0.1 g); entering
  // rest from above this speed is a hand letting go. Only the last stop counts: a ball set down by
  // hand and then struck ends like a roll.
  const stops = kinks.filter((k) => !k.before.still && k.after.still);
  const stop = stops.at(-1);
  const startsAfter = stop ? kinks.some((k) => k.t > stop.t && k.before.still && !k.after.still) : false;
  return stop !== undefined && !startsAfter && Math.hypot(stop.vIn[0], stop.vIn[1]) > HAND_STOP_MM_PER_S;
}

/** A ball that left the bed after rolling there in sight (a pot), not one lifted from rest. */
function rolledBeforeLeaving(series: Series, span: MotionSpan, p: EventParams, beyondMm = p.moveThresholdMm): boolean {
  const s = series.balls.get(span.ball)!;
  let n = 0, far = 0;
  for (let k = span.k0; k <= span.k1; k++) {
    if (s.presence[k] !== Presence.Seen) continue;
    n++;
    far = Math.max(far, Math.hypot(s.x[k]! - span.from.x, s.y[k]! - span.from.y));
  }
  return n >= 3 && far > beyondMm;
}

/**
 * Balls cannot overlap; measured centres of touching balls (a pack, a ball against the cue ball)
 * can, by the measurement error. Positions written to the log are moved apart along their line of
 * centres until they just touch: the least change that makes them physically possible (the
 * referee refuses overlapping balls). An overlap deeper than `maxShiftMm` is left as it is: that
 * is not noise but two tracks on one ball, which the referee should see.
 */
export function separateOverlaps(balls: { id: string; x: number; y: number }[], radiusOf: (id: string) => number, maxShiftMm = 15): void {
  for (let it = 0; it < 30; it++) {
    let moved = false;
    for (let i = 0; i < balls.length; i++) {
      for (let j = i + 1; j < balls.length; j++) {
        const a = balls[i]!, b = balls[j]!;
        const D = radiusOf(a.id) + radiusOf(b.id);
        const dx = b.x - a.x, dy = b.y - a.y;
        const d = Math.hypot(dx, dy);
        const over = D - d;
        if (over <= 0.005 || over > maxShiftMm || d < 1e-6) continue;
        const ux = dx / d, uy = dy / d, h = over / 2 + 0.005;
        a.x = r2(a.x - ux * h);
        a.y = r2(a.y - uy * h);
        b.x = r2(b.x + ux * h);
        b.y = r2(b.y + uy * h);
        moved = true;
      }
    }
    if (!moved) break;
  }
}

export interface TracksToStrokesOptions {
  params?: EventParamsInput;
  /** Called with (done, total) frames as the work advances (progress bars). */
  onProgress?: (done: number, total: number) => void;
}

export interface StrokesResult {
  log: StrokeLog;
  /** Things the stage could not decide, one sentence each (for the CLI's report). */
  notes: string[];
}

/** The whole stage: a tracks document in, a stroke log out. */
export function tracksToStrokes(doc: TracksDoc, table: TableProfile, opts: TracksToStrokesOptions = {}): StrokesResult {
  return seriesToStrokes(doc, buildSeries(doc.frames), table, opts);
}

/** What the events stage reads of a tracks header (`source` for the frame rate, when known). */
export type SeriesHeader = Pick<TracksHeader, 'game' | 'calibration'> & Partial<Pick<TracksHeader, 'source'>>;

/**
 * The same from a series already built (`SeriesBuilder`: a long recording read from disk a frame
 * at a time) and the tracks header. The series is changed in place (dropouts bridged).
 */
export function seriesToStrokes(header: SeriesHeader, series: Series, table: TableProfile, opts: TracksToStrokesOptions = {}): StrokesResult {
  const res = strokesOfSeries(header, series, table, opts);
  // No cue ball tracked anywhere in the recording (a pool cue ball set down in hand, that the
  // detector reads as a stripe all along: the rendered P24 and P27 clips, struck by "9" and "10"):
  // the ball that starts the first stroke from rest is the cue ball — the only ball a cue strikes.
  const cueId = cueBallOf(table.game);
  const first = res.log.strokes.flatMap((st) => st.events).find((e) => e.type === 'strike');
  if (series.balls.has(cueId) || first?.type !== 'strike' || !series.balls.has(first.ball)) return res;
  const ball = series.balls.get(first.ball)!;
  series.balls.delete(first.ball);
  series.balls.set(cueId, { ...ball, id: cueId });
  const again = strokesOfSeries(header, series, table, opts);
  again.notes.push(`no ${cueId} ball was tracked: '${first.ball}', which started the first stroke, is taken for it`);
  return again;
}

function strokesOfSeries(header: SeriesHeader, series: Series, table: TableProfile, opts: TracksToStrokesOptions): StrokesResult {
  const p = eventParams(opts.params ?? {});
  const notes: string[] = [];
  if (table.game !== header.game) notes.push(`the table profile is for ${table.game} but the tracks are ${header.game}`);
  const view: CameraView = { sink: sinkDirectionOf(header.calibration), pixelMm: pixelSpanOf(header.calibration), imageOf: imageOfBalls(header.calibration) };
  const n = series.t.length;
  bridgeDropouts(series, 2 * p.moveThresholdMm);
  const spansByBall = [...series.balls.values()].map((s) => motionSpans(s, series.t, p));
  const acts = activities(spansByBall);
  const firstK = firstFrameWithBalls(series);
  const appear = appearances(series, firstK);
  const cueId = cueBallOf(table.game);

  const strokes: Stroke[] = [];
  let pending: StrokeEvent[] = [];
  const usedAppear = new Set<Appearance>();
  let prevEnd = firstK;
  const pushStroke = (a: ReturnType<typeof analyseStroke>, act: Activity, ai: number, lastPart: boolean) => {
    const appearedHere = appear.filter((ap) => ap.k >= act.k0 - 1 && ap.k <= act.k1);
    for (const ap of appearedHere) {
      if (usedAppear.has(ap)) continue;
      if (series.t[ap.k]! <= a.strikeT) {
        const at = placedAt(a.before, ap);
        pending.push({ t: r5(series.t[ap.k]!), type: 'place', ball: ap.ball, x: r2(at.x), y: r2(at.y), conf: 0.9 });
        usedAppear.add(ap);
      }
    }
    const events = [...pending.filter((e) => e.t <= a.strikeT || !Number.isFinite(a.strikeT)), ...a.events];
    pending = [];
    events.sort((u, v) => u.t - v.t);
    const stroke: Stroke & { touchingCandidates?: string[] } = { events, before: a.before, rest: a.rest };
    if (Number.isFinite(a.strikeT)) stroke.t = r5(a.strikeT);
    if (p.paths && Object.keys(a.paths).length) stroke.paths = a.paths;
    if (a.touchingCandidates.length) stroke.touchingCandidates = a.touchingCandidates;
    if (a.strikeBall && a.strikeBall !== cueId) notes.push(`stroke ${strokes.length}: the first ball to move was '${a.strikeBall}', not the cue ball`);
    if (lastPart && act.k1 === n - 1 && ai === acts.length - 1 && act.spans.some((s) => s.kRest < 0 && !s.left)) notes.push(`stroke ${strokes.length}: the recording ends before every ball stopped`);
    strokes.push(stroke);
  };
  acts.forEach((act, ai) => {
    opts.onProgress?.(act.k1, n);
    // Placements: every span of this activity is a hand move, or a mover that appeared.
    // A ball left hanging over a pocket that goes in on its own is seen to move into the hole as it
    // drops (the rendered S43 red: 20 mm from above, 69 mm from behind the far cushion, where a
    // sinking ball seems to go up the table): a drop if it went no further than the pocket, not a
    // roll to be struck.
    const hungOver = new Map((strokes.at(-1)?.events ?? []).flatMap((e) => (e.type === 'hanging' ? [[e.ball, e.pocket] as const] : [])));
    const dropping = (s: MotionSpan) => {
      const id = s.left ? hungOver.get(s.ball) : undefined;
      const pk = id ? table.pockets[id] : undefined;
      return !!pk && !rolledBeforeLeaving(series, s, p, Math.hypot(pk.x - s.from.x, pk.y - s.from.y) + radiusOfBall(table, s.ball));
    };
    const visibleRolls = act.spans.filter((s) => (s.left ? rolledBeforeLeaving(series, s, p) && !dropping(s) : !isHandMove(series, s, p)));
    const leaves = act.spans.filter((s) => s.left);
    if (visibleRolls.length === 0) {
      for (const s of act.spans) {
        if (s.left) continue;
        if (Number.isFinite(s.to.x)) pending.push({ t: r5(series.t[s.kRest >= 0 ? s.kRest : s.k1]!), type: 'place', ball: s.ball, x: r2(s.to.x), y: r2(s.to.y), conf: 0.9 });
      }
      // A ball at rest that vanishes between strokes without a stroke: a hanging ball dropping
      // settles the previous stroke's `hanging` (a later pot); anything else was lifted by hand.
      for (const s of leaves) {
        const prev = strokes.at(-1);
        const hanging = prev?.events.find((e) => e.type === 'hanging' && e.ball === s.ball);
        if (prev && hanging && hanging.type === 'hanging') prev.events.push({ t: r5(series.t[s.k1]!), type: 'pot', ball: s.ball, pocket: hanging.pocket, conf: 0.8 });
      }
      return;
    }
    // A stroke: the window reaches back to the previous activity's end (the still pieces before
    // the strike anchor its timing) and on to this activity's end.
    const kOnset = act.k0;
    const k0 = Math.max(prevEnd, kOnset - 60, 0);
    const cuts = new Map<string, number[]>();
    for (const s of act.spans) {
      const list = cuts.get(s.ball) ?? [];
      // Only the start: the rest window's start is too loose a boundary (a stunned cue ball is
      // "within 3 mm" from the frame after its contact).
      list.push(s.k0);
      cuts.set(s.ball, list);
    }
    const movers = new Set(act.spans.map((s) => s.ball));
    // One activity may hold several strokes: the cue ball struck again before all stopped
    // (STRUCK_WHILE_MOVING is the referee's call). Split there and analyse each part.
    let wk0 = k0, wOnset = kOnset;
    let tFrom = -Infinity;
    let carried: StrokeEvent[] = [];
    for (let part = 0; part < 20; part++) {
      const partK0 = wk0;
      const a = analyseStroke(series, { k0: wk0, kOnset: wOnset, k1: act.k1, movers, cuts }, table, p, view);
      let tTo = Infinity;
      let res = a;
      let split = false;
      // (A restrike is after the part's own strike: a split at the strike would repeat itself.)
      if (a.restrikeT !== undefined && !(a.restrikeT <= a.strikeT + 0.05)) {
        const tr = a.restrikeT;
        let kSplit = wk0;
        while (kSplit < act.k1 && series.t[kSplit]! < tr) kSplit++;
        // Only a real new stroke splits: the part after must itself start with the cue ball.
        const next = analyseStroke(series, { k0: Math.max(k0, kSplit - 30), kOnset: kSplit, k1: act.k1, movers, cuts }, table, p, view);
        if (next.strikeBall === cueId && Math.abs(next.strikeT - tr) < 0.1) {
          split = true;
          tTo = tr;
          // The part before the new strike, analysed on its own frames (its rest: where things were).
          res = analyseStroke(series, { k0: wk0, kOnset: wOnset, k1: Math.max(wOnset, kSplit - 1), movers, cuts }, table, p, view);
          wOnset = kSplit;
          wk0 = Math.max(k0, kSplit - 30);
        }
      }
      const from = tFrom;
      // Each part keeps its own events (its strike whatever the two estimates of its time say).
      // Placements between the previous strike and this one (cue ball set down by hand while
      // other balls still rolled) belong to this stroke, before its strike.
      const prevStrike = strokes.at(-1)?.t ?? -Infinity;
      res.events = res.events.filter((e) => (e.type === 'strike' || e.t >= from - 1e-6 || (part > 0 && e.type === 'place' && e.t > prevStrike)) && e.t < tTo - 1e-6);
      if (split) res.events = res.events.filter((e) => !(e.type === 'place' && e.ball === cueId && e.t > res.strikeT && e.t < tTo));
      res.events.push(...carried);
      carried = [];
      // A touch whose ball set off after this part's cue ball had come to rest happened between
      // the strokes: before the next strike, so the next stroke's (rendered S12 broadcast 60 fps:
      // the blue pushed by a sleeve, hidden from 4.70 s, the white at rest since 4.03 s; that hidden
      // push kept the activity open into the next stroke, and the touch went to the stroke before).
      if (split) {
        const cue = act.spans.find((s) => s.ball === cueId && s.k0 >= partK0 && series.t[s.k0]! <= res.strikeT + 0.05);
        const tCueRest = cue && cue.kRest >= 0 && series.t[cue.kRest]! < tTo ? series.t[cue.kRest]! : undefined;
        if (tCueRest !== undefined) {
          const between = (e: StrokeEvent) => e.type === 'touch' && act.spans.some((s) => s.ball === e.ball && series.t[s.k0]! > tCueRest && series.t[s.k0]! <= e.t + 1e-6 && e.t <= series.t[s.k1]! + 1e-6);
          carried = res.events.filter(between);
          res.events = res.events.filter((e) => !between(e));
        }
      }
      pushStroke(res, act, ai, !split);
      if (!split) break;
      tFrom = tTo;
    }
    prevEnd = act.k1;
  });
  // Appearances not covered by an activity (a ball dropped in and never moved).
  for (const ap of appear) {
    if (usedAppear.has(ap)) continue;
    const next = strokes.find((s) => (s.t ?? Infinity) > series.t[ap.k]!);
    if (!next) {
      notes.push(`'${ap.ball}' was put on the table at ${r5(series.t[ap.k]!)} s after the last stroke: not in the log`);
      continue;
    }
    if (next.events.some((e) => e.type === 'place' && e.ball === ap.ball)) continue;
    const at = placedAt(next.before, ap);
    next.events.push({ t: r5(series.t[ap.k]!), type: 'place', ball: ap.ball, x: r2(at.x), y: r2(at.y), conf: 0.9 });
    next.events.sort((u, v) => u.t - v.t);
  }
  if (pending.length) notes.push(`${pending.length} placement(s) after the last stroke are not in the log`);
  opts.onProgress?.(n, n);

  const startBalls: { id: string; x: number; y: number }[] = [];
  if (firstK < n) {
    for (const s of series.balls.values()) {
      if (s.presence[firstK] !== Presence.Seen) continue;
      let kEnd = firstK;
      while (kEnd + 1 < n && series.t[kEnd + 1]! - series.t[firstK]! < 0.3) kEnd++;
      const m = meanPos(s, firstK, kEnd)!;
      startBalls.push({ id: s.id, x: r2(m.x), y: r2(m.y) });
    }
  }
  // The opening position: every ball found before the first strike (a tracker confirms balls
  // over a few frames, so the first frame may hold only some). Object balls that "appear" then are
  // not placements: they were there; the cue ball put down in hand still is one.
  const first = strokes[0];
  if (first?.before && first.t !== undefined && firstK < n) {
    // Only what appeared within the first half second: a tracker still confirming its balls.
    const early = new Set(appear.filter((ap) => ap.ball !== cueId && series.t[ap.k]! - series.t[firstK]! <= 0.5).map((ap) => ap.ball));
    const have = new Set(startBalls.map((b) => b.id));
    for (const b of first.before) if (!have.has(b.id) && early.has(b.id)) startBalls.push({ ...b });
    first.events = first.events.filter((e) => !(e.type === 'place' && early.has(e.ball)));
  }
  const radiusOf = (id: string) => radiusOfBall(table, id);
  separateOverlaps(startBalls, radiusOf);
  for (const st of strokes) {
    if (st.before) separateOverlaps(st.before, radiusOf);
    if (st.rest) separateOverlaps(st.rest, radiusOf);
    // The referee's declaration, made here from the measurement: the balls touching the cue ball
    // as it is struck (rules-snooker §10.3; the rules decide what playing away from them means).
    const touching = st.before ? touchingCueBall(st.before, cueId, radiusOf, p.touchingGapMm) : [];
    if (touching.length) st.touching = touching;
  }
  const log: StrokeLog = { format: 'cueref.strokes/1', game: header.game, start: { balls: startBalls }, strokes };
  // The frame interval, for the referee's tie window (contract: `frameS`).
  const frameS = header.source?.fps ? 1 / header.source.fps : series.t.length >= 2 ? frameDt(series.t, 0, series.t.length - 1) : undefined;
  if (frameS !== undefined) log.frameS = Math.round(frameS * 1e6) / 1e6;
  return { log, notes };
}

/** Balls whose centres are within their two radii plus `gapMm` of the cue ball's. */
export function touchingCueBall(balls: readonly { id: string; x: number; y: number }[], cueId: string, radiusOf: (id: string) => number, gapMm: number): string[] {
  const cue = balls.find((b) => b.id === cueId);
  if (!cue) return [];
  return balls.filter((b) => b.id !== cueId && Math.hypot(b.x - cue.x, b.y - cue.y) <= radiusOf(cueId) + radiusOf(b.id) + gapMm).map((b) => b.id);
}

function firstFrameWithBalls(series: Series): number {
  for (let k = 0; k < series.t.length; k++) for (const s of series.balls.values()) if (s.presence[k] === Presence.Seen) return k;
  return series.t.length;
}
