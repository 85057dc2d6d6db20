/**
 * Events of one stroke from the balls' fitted paths: strike, ball–ball contacts timed between
 * frames, cushions with side, pots with pocket, off-table, touches without contact, line crossings,
 * hanging balls, rest positions and touching candidates. Pure: series and table in, events out.
 *
 * How a contact is called (rules-snooker §3.1 CONTACT_BALL): every impulse on a ball shows as a
 * kink of its path. A kink of ball b is explained by ball a when, at the kink's time, a's path
 * (the piece before or after its own kink) is 2R from b's, and b's change of velocity points away
 * from a along the line of centres (an impulse between smooth balls acts along that line; the
 * deflections must agree). The time then comes from geometry: the first instant the fitted paths
 * before the contact are exactly 2R apart. The confidence falls as the geometry time and the kink
 * time disagree, as the distance misses 2R, and when another ball could explain the same kink.
 */
import type { StrokeEvent } from '../core/contracts/strokes.js';
import { cueBallId, POCKETS, type CushionSide, type PocketId } from '../core/games.js';
import { pocketHoleUnder, pocketHungOver, type TableProfile } from '../core/table.js';
import { buildTableGeom, depthPastMouth, type Segment as TableSegment, type TableGeom } from '../core/tableGeometry.js';
import { evalPos, fitLineRange, fitPoly, timeAtCoord, timeAtDistance } from './fit.js';
import type { EventParams } from './params.js';
import { kinksOf, posAt, segmentPath, segmentsNear, type Kink, type PathSamples, type Segment } from './segments.js';
import { Presence, type Series } from './series.js';
import { overlapInImage, type CameraView } from './sinking.js';

export interface BallPath {
  id: string;
  radiusMm: number;
  samples: PathSamples;
  segs: Segment[];
  kinks: Kink[];
  moved: boolean;
  /** How the ball left the bed during the stroke, if it did: the last seen sample and the first gone entry. */
  left?: { kLastSeen: number; kGone: number; how: 'pocketed' | 'offTable' | 'vanished' | 'unresolved' };
  /** Hidden (not measured) at the stroke's end: its last position stands. */
  hiddenAtEnd: boolean;
}

export interface StrokeAnalysis {
  strikeT: number;
  strikeBall: string | null;
  events: StrokeEvent[];
  before: { id: string; x: number; y: number }[];
  rest: { id: string; x: number; y: number }[];
  paths: Record<string, [number, number, number][]>;
  touchingCandidates: string[];
  /** The cue ball started again on its own before everything stopped: a new stroke begins there. */
  restrikeT?: number;
}

export interface StrokeWindow {
  /** First and last entry of the stroke window (inclusive); kOnset: the first motion's frame. */
  k0: number;
  kOnset: number;
  k1: number;
  /** Balls that moved in this window (from the motion spans). */
  movers: Set<string>;
  /** Per ball, entries where a motion started (the last rest entry) or rest began: forced piece boundaries. */
  cuts?: Map<string, number[]>;
}

const r2 = (v: number) => Math.round(v * 100) / 100;
const r5 = (v: number) => Math.round(v * 1e5) / 1e5;
const r3 = (v: number) => Math.round(v * 1000) / 1000;
const clamp01 = (v: number) => Math.max(0, Math.min(1, v));
const dot = (a: readonly number[], b: readonly number[]) => a[0]! * b[0]! + a[1]! * b[1]!;
const sub = (a: readonly number[], b: readonly number[]): [number, number] => [a[0]! - b[0]!, a[1]! - b[1]!];

export function cueBallOf(game: TableProfile['game']): string {
  return cueBallId(game);
}

export function radiusOfBall(table: TableProfile, id: string): number {
  return (id === cueBallOf(table.game) ? table.cueBallDiameter : table.ballDiameter) / 2;
}

/** A rest's sightings span at least two 25 fps frame intervals, s (see `restBefore`). */
const REST_MIN_SPAN_S = 0.079;

/**
 * Where a ball rested just before t: the mean of its last samples before t that stay together
 * (within twice the rest tolerance of their mean), walking back from t. Averaging the whole
 * stretch matters for touching balls (a pack, a ball against the cue ball): the referee refuses
 * centres closer than 2R − 2 mm, and one noisy frame can be that close.
 */
function restBefore(b: BallPath, t: number, p: EventParams): [number, number] | undefined {
  const { t: ts, x, y } = b.samples;
  let k = ts.length - 1;
  while (k >= 0 && ts[k]! > t + 1e-9) k--;
  if (k < 0) return undefined;
  let sx = 0, sy = 0, n = 0, jFirst = k;
  for (let j = k; j >= 0 && n < 60; j--) {
    if (n >= 3 && Math.hypot(x[j]! - sx / n, y[j]! - sy / n) > 2 * p.restToleranceMm) break;
    sx += x[j]!;
    sy += y[j]!;
    n++;
    jFirst = j;
  }
  // At least three samples over two 25 fps frame intervals: at 60 fps three samples of a ball
  // rolling at 300 mm/s stay within the tolerance (rendered S40 broadcast: a red still rolling
  // at the second strike read as resting, so no STRUCK_WHILE_MOVING).
  if (n < 3 || ts[k]! - ts[jFirst]! < REST_MIN_SPAN_S) return undefined;
  const mx = sx / n, my = sy / n;
  // A ball moving at t has no rest position.
  if (Math.hypot(x[k]! - mx, y[k]! - my) > 2 * p.restToleranceMm) return undefined;
  return [mx, my];
}

/** How far back from a piece's end `trulyAtRest` looks for rest when the piece began with a creep, s. */
const REST_TAIL_S = 0.5;

/**
 * A piece the fit calls still that really was rest, not the last creep of a roll: long enough
 * (`MIN_REST_BEFORE_TOUCH_S`) and not drifting (two points of its body, averaged in threes,
 * within the rest tolerance). Only from real rest is a start with no contact a touch.
 */
function trulyAtRest(b: BallPath, sg: Segment, p: EventParams): boolean {
  if (sg.t1 - sg.t0 < MIN_REST_BEFORE_TOUCH_S || sg.s1 - sg.s0 < 5) return false;
  const { x, y } = b.samples;
  const m = (from: number) => [(x[from]! + x[from + 1]! + x[from + 2]!) / 3, (y[from]! + y[from + 1]! + y[from + 2]!) / 3];
  // Its ends may hold the last millimetres of a creep and the first of the start: compare its
  // body, 20 % and 70 % in.
  const n = sg.s1 - sg.s0;
  const [ax, ay] = m(sg.s0 + Math.floor(0.2 * n)), [bx, by] = m(Math.min(sg.s1 - 2, sg.s0 + Math.floor(0.7 * n)));
  if (Math.hypot(bx! - ax!, by! - ay!) <= p.restToleranceMm) return true;
  // Or still over its last REST_TAIL_S (its last two samples left out): a long piece whose
  // first part was the end of a slow creep (rendered S40 broadcast 60 fps: the white drawn back
  // 18 mm over 0.7 s, then at rest 1 s before it is struck again).
  const { t } = b.samples;
  let j0 = sg.s0;
  while (j0 < sg.s1 && t[j0]! < t[sg.s1]! - REST_TAIL_S) j0++;
  const j1 = sg.s1 - 4; // the last triple starts here, two samples before the end
  if (j1 - j0 < 3 || t[j1 + 2]! - t[j0]! < MIN_REST_BEFORE_TOUCH_S) return false;
  const [cx, cy] = m(j0), [dx, dy] = m(j1);
  return Math.hypot(dx! - cx!, dy! - cy!) <= p.restToleranceMm;
}

/**
 * A rest the fits cut into short still pieces (the cue's tip coming over the ball moves its read
 * a few mm: rendered S12 broadcast 60 fps, still 4.03–4.95, 4.97–5.35, 5.37–5.40 s, then struck):
 * one of the still pieces just before `sg`, back to back, was truly at rest and the run stays
 * within a few rest tolerances of it.
 */
function restedInPieces(b: BallPath, sg: Segment, dt: number, p: EventParams): boolean {
  let i = b.segs.indexOf(sg);
  const [ex, ey] = evalPos(sg.fit, sg.t1);
  while (i > 0) {
    const cur = b.segs[i]!, prev = b.segs[i - 1]!;
    if (!prev.still || cur.t0 - prev.t1 > 2 * dt) return false;
    const [px, py] = evalPos(prev.fit, prev.t1);
    if (Math.hypot(px - ex, py - ey) > 3 * p.restToleranceMm) return false;
    if (trulyAtRest(b, prev, p)) return true;
    i--;
  }
  return false;
}

/**
 * Never more than a ball's width away and back on the very spot later in the stroke: the
 * detector's centre jumping between two estimates (a ball in a touching pair, one half hidden by
 * a player's arm: rendered S43 broadcast, the green read 6–18 mm off for 0.3 s before the strike),
 * not a ball that moved — a touched ball does not come back to where it lay.
 */
function backOnSpot(b: BallPath, k: Kink, dt: number, p: EventParams): boolean {
  const { t: st, x: sx, y: sy } = b.samples;
  for (let j = 0; j < st.length; j++) {
    if (st[j]! <= k.t) continue;
    const d = Math.hypot(sx[j]! - k.x, sy[j]! - k.y);
    if (d > 2 * b.radiusMm) return false;
    if (st[j]! > k.tHi + dt && d <= Math.max(2, 2 * p.noiseMm)) return true;
  }
  return false;
}

/** Two rests, `a` before `b`, nearer than TOUCH_NET_MM where one ends and the other begins: the same place. */
const sameRest = (a: Segment, b: Segment): boolean => a.still && b.still && Math.hypot(...sub(evalPos(b.fit, b.t0), evalPos(a.fit, a.t1))) < TOUCH_NET_MM;

/** A rest of `segs` up to `i` and a rest after it at the same place: the read went off and came back. */
function returnsToEarlierRest(segs: readonly Segment[], i: number): boolean {
  return segs.slice(i + 1).some((b) => segs.slice(0, i + 1).some((a) => sameRest(a, b)));
}

/** Remove, in place, the events `drop` picks. */
function dropEvents(events: StrokeEvent[], drop: (e: StrokeEvent) => boolean): void {
  for (let i = events.length - 1; i >= 0; i--) if (drop(events[i]!)) events.splice(i, 1);
}

/** A ball at rest, hidden, and at rest again this far off was moved while hidden, mm (well above the noise of two fitted rests). */
const HIDDEN_MOVE_MM = 12;
/** A ball seen starting and at rest again nearer than this to where it lay was not moved, its read changed, mm. */
const TOUCH_NET_MM = 6;
/** …hidden at least this long, s, and no faster across the gap than a nudge, mm/s… */
const HIDDEN_MIN_S = 0.2;
const HIDDEN_MAX_MM_PER_S = 400;
/** A ball seen pushed from one rest to another is judged only with no ball within touching distance plus this, mm (a ball radius). */
const LONE_GAP_MM = 26;
/** …unless a moving ball came within touching distance plus this of it meanwhile, mm. */
const HIDDEN_PASS_MM = 20;

/**
 * Picture discs within this many times their radii's sum: one ball's centre is read off beside the
 * other (rendered S16 broadcast: the blue read 14 mm off towards the white rolling up behind it,
 * their discs 1.4–1.5 radii-sums apart, and called touched; S33: the blue 13–20 mm off).
 */
const COVER_REACH = 1.6;
/** A neighbour explains a read's shift only within 45° of the line through it (either way). */
const COVER_ALONG_COS = Math.SQRT1_2;

/** A still piece and the still one before it, across a gap, this close: the same rest, mm. */
const SAME_REST_MM = 15;

/**
 * At rest, though hidden for part of it: the player addressing the cue ball covers it (rendered
 * S40: the white unseen under the cue for 1.3 s, seen again 6 mm off — the partly covered ball's
 * centre — on three frames, and struck). A still piece after a gap in the sightings, the piece
 * before the gap still too and at the same place, the two with the gap lasting
 * MIN_REST_BEFORE_TOUCH_S.
 */
function restedHidden(b: BallPath, sg: Segment, dt: number): boolean {
  // (A kink's pieces are copies: find this one by its span.)
  const i = b.segs.findIndex((q) => Math.abs(q.t0 - sg.t0) < 1e-9 && Math.abs(q.t1 - sg.t1) < 1e-9);
  const prev = i > 0 ? b.segs[i - 1] : undefined;
  if (!sg.still || !prev?.still || sg.t0 - prev.t1 <= 2 * dt) return false;
  const [ax, ay] = evalPos(prev.fit, prev.t1), [bx, by] = evalPos(sg.fit, sg.t0);
  return Math.hypot(bx - ax, by - ay) <= SAME_REST_MM && sg.t1 - prev.t0 >= MIN_REST_BEFORE_TOUCH_S;
}

/** The `n` samples before index `end` lie together (within 3 noise widths, at least 3 mm, of their mean): a ball at rest. */
function stillTail(p: PathSamples, n: number, noiseMm: number, end = p.t.length): boolean {
  const m = end;
  let mx = 0, my = 0;
  for (let j = m - n; j < m; j++) (mx += p.x[j]! / n), (my += p.y[j]! / n);
  for (let j = m - n; j < m; j++) if (Math.hypot(p.x[j]! - mx, p.y[j]! - my) > Math.max(3, 3 * noiseMm)) return false;
  return true;
}

/** Median spacing of the frames in the window, s (the time a frame leaves unseen). */
export function frameDt(t: Float64Array, k0: number, k1: number): number {
  const d: number[] = [];
  for (let k = k0 + 1; k <= k1; k++) d.push(t[k]! - t[k - 1]!);
  d.sort((a, b) => a - b);
  return d[Math.floor(d.length / 2)] ?? 1 / 30;
}

/** Where a ball that started at kink `k` next came to rest: that stop, and how far it lies from the rest before, mm. */
function nextRest(b: BallPath, k: Kink): { stop: Kink; movedMm: number } | undefined {
  const stop = b.kinks.find((q) => q.t > k.t && q.after.still);
  return stop && { stop, movedMm: Math.hypot(...sub(evalPos(stop.after.fit, stop.after.t0), evalPos(k.before.fit, k.before.t1))) };
}

/** Hidden on every entry after `k` to the end of the recording: never seen again, never reported gone. */
function hiddenToEnd(presence: ArrayLike<number>, k: number): boolean {
  for (let j = k + 1; j < presence.length; j++) if (presence[j] !== Presence.Hidden) return false;
  return true;
}

export function buildPaths(series: Series, w: StrokeWindow, table: TableProfile, p: EventParams): BallPath[] {
  const out: BallPath[] = [];
  const dt = frameDt(series.t, w.k0, w.k1);
  for (const s of series.balls.values()) {
    const samples: PathSamples = { t: [], x: [], y: [] };
    let kLastSeen = -1;
    const entryCuts = w.cuts?.get(s.id) ?? [];
    const cuts: number[] = [];
    for (let k = w.k0; k <= w.k1; k++) {
      if (s.presence[k] === Presence.Seen) {
        // Hidden a while from rest: no piece spans the gap (a fit across it would invent a slow
        // slide where the ball was hidden and moved, or not: rendered P27, the 5 under the
        // placing hand for 0.7 s, seen again 20 mm off — a "move" read as still going at the strike).
        const n = samples.t.length;
        if (n >= 3 && series.t[k]! - samples.t[n - 1]! >= HIDDEN_MIN_S && stillTail(samples, 3, p.noiseMm)) cuts.push(n - 1);
        samples.t.push(series.t[k]!);
        samples.x.push(s.x[k]!);
        samples.y.push(s.y[k]!);
        kLastSeen = k;
      }
      if (entryCuts.includes(k) && samples.t.length > 0) cuts.push(samples.t.length - 1);
    }
    if (samples.t.length === 0) continue;
    // Left the bed: everything after the last sighting in the window is gone (not merely hidden).
    let left: BallPath['left'];
    // Gone for a while and back later in the window (a colour respotted, a ball replaced): it left
    // the table in this stroke all the same; its return is a placement.
    let kLastBeforeGone = -1;
    {
      let run = 0, seenBefore = -1;
      for (let k = w.k0; k <= w.k1; k++) {
        const pr = s.presence[k]!;
        if (pr === Presence.Seen) {
          if (run >= 3 && seenBefore >= 0) {
            kLastBeforeGone = seenBefore;
            break;
          }
          seenBefore = k;
          run = 0;
        } else if (pr !== Presence.Hidden) run++;
      }
    }
    // Back before this stroke began (a cue ball in hand or a ball replaced, set down in the
    // player's shadow and struck at once): the stroke is played from where it came back; what it
    // did before it went belongs to the placement (the rendered S28–S29 white, replaced under the
    // player's arm and struck 0.1 s after it is first seen again: its whole roll was cut away).
    if (kLastBeforeGone >= 0) {
      let kBack = kLastBeforeGone + 1;
      while (kBack <= w.k1 && s.presence[kBack] !== Presence.Seen) kBack++;
      // The cue ball picked up from rest and put back later in the window (in hand from the D
      // while a respotted colour started the window): likewise, the stroke is played from where
      // it came back (rendered S26-S27: the white lifted at 4.5 s, back in the D at 5.24 s and
      // struck at 5.28 s — the stroke had no strike and its in-off was lost).
      const after = samples.t.findIndex((tt) => tt > series.t[kLastBeforeGone]! + 1e-9);
      const nBefore = after < 0 ? samples.t.length : after;
      // (Lying there since the window began — left by the last stroke — not just set down in it:
      // a Novus striker placed and adjusted under the hand before its strike is not picked up.)
      const pickedUp = s.id === cueBallOf(table.game) && samples.t[0]! <= series.t[w.k0]! + 2 * dt && nBefore >= 3 && stillTail(samples, 3, p.noiseMm, nBefore);
      if (kBack <= w.kOnset || (pickedUp && kBack <= w.k1)) {
        const from = samples.t.findIndex((t) => t >= series.t[kBack]! - 1e-9);
        samples.t.splice(0, from);
        samples.x.splice(0, from);
        samples.y.splice(0, from);
        for (let j = cuts.length - 1; j >= 0; j--) {
          cuts[j]! -= from;
          if (cuts[j]! < 0) cuts.splice(j, 1);
        }
        kLastBeforeGone = -1;
      }
    }
    if (kLastBeforeGone >= 0) {
      let kGone = kLastBeforeGone + 1;
      while (kGone <= w.k1 && s.presence[kGone] === Presence.Hidden) kGone++;
      const pr = s.presence[kGone]!;
      left = { kLastSeen: kLastBeforeGone, kGone, how: pr === Presence.Pocketed ? 'pocketed' : pr === Presence.OffTable ? 'offTable' : 'vanished' };
      // This stroke's path ends where it left; the return belongs to the placements.
      const keep = samples.t.findIndex((t) => t > series.t[kLastBeforeGone]! + 1e-9);
      if (keep >= 0) {
        samples.t.length = keep;
        samples.x.length = keep;
        samples.y.length = keep;
        for (let j = cuts.length - 1; j >= 0; j--) if (cuts[j]! >= keep - 1) cuts.splice(j, 1);
      }
    } else if (hiddenToEnd(s.presence, kLastSeen) && (w.k1 - kLastSeen >= 2 || (kLastSeen === w.k1 && w.movers.has(s.id) && series.t.length - 1 - kLastSeen >= 2))) {
      // Hidden from a sighting to the end of the recording (a tracker that had not yet given up
      // on a ball gone into a pocket): a pot if its path went into a mouth; nothing otherwise.
      // The stroke may end before the recording does: on the others' rest, a hidden ball not
      // moving (rendered S13 broadcast 60 fps, the sunk yellow coasted on unseen for the last
      // 0.15 s), or at this ball's own last sighting (rendered S26-S27 broadcast 25 fps, the in-off
      // white followed "rolling" back out of the far corner to 6.48 s and coasted on unseen to the
      // clip's end at 6.76 s: its drop read as two jaw contacts).
      left = { kLastSeen, kGone: kLastSeen + 1, how: 'unresolved' };
    } else if (kLastSeen < w.k1) {
      let how: 'pocketed' | 'offTable' | 'vanished' | null = null;
      let kGone = -1;
      for (let k = kLastSeen + 1; k <= w.k1; k++) {
        const pr = s.presence[k]!;
        if (pr === Presence.Seen) break;
        if (kGone < 0 && pr !== Presence.Hidden) kGone = k;
        if (pr === Presence.Pocketed) how ??= 'pocketed';
        else if (pr === Presence.OffTable) how ??= 'offTable';
        else if (pr === Presence.Absent) how ??= 'vanished';
      }
      const lastPr = s.presence[w.k1]!;
      if (how && lastPr !== Presence.Hidden && kGone >= 0) left = { kLastSeen, kGone, how };
    }
    const moved = w.movers.has(s.id) || left !== undefined;
    const segs = moved
      ? segmentPath(samples, p.kinkToleranceMm, p.noiseMm, cuts)
      : [{ s0: 0, s1: samples.t.length - 1, t0: samples.t[0]!, t1: samples.t.at(-1)!, fit: { t0: samples.t[0]!, x: [mean(samples.x), 0, 0], y: [mean(samples.y), 0, 0] }, still: true } as Segment];
    const kinks = moved ? kinksOf(segs, dt, samples) : [];
    const path: BallPath = { id: s.id, radiusMm: radiusOfBall(table, s.id), samples, segs, kinks, moved, hiddenAtEnd: s.presence[w.k1] === Presence.Hidden };
    if (left) path.left = left;
    out.push(path);
  }
  return out;
}

const mean = (v: readonly number[]) => v.reduce((a, b) => a + b, 0) / v.length;

interface ContactCandidate {
  t: number;
  /** Timed from the struck ball's start from rest. */
  fromRest: boolean;
  a: string;
  b: string;
  conf: number;
  residualMm: number;
  /** Missed 2R by more than the tolerance, accepted only because both balls kinked: its clock is poor. */
  loose?: boolean;
}

/**
 * Entering rest faster than this, with nothing in the way, is a hand letting go of the ball, mm/s.
 * A rolling or sliding ball slows to rest (on a powdered Novus board it does so within a few
 * frames, reaching ~200 mm/s at the last fitted frame); a hand slides a ball at 0.5–2 m/s and stops.
 */
export const HAND_STOP_MM_PER_S = 400;
/** A stop from above this, mm/s, is dead beyond any read's noise: only a hand (or a ball in the way) stops a ball so. */
const DEAD_STOP_MM_PER_S = 1500;
/** A cue ball "started" and at rest again within this, s, and this near where it lay, mm, was not struck: its read was bumped. */
const JITTER_S = 0.1;
const JITTER_REST_MM = 3;

/** A ball must have rested this long, and then move this fast, for a start with no contact to be a touch. */
const MIN_REST_BEFORE_TOUCH_S = 0.25;
const MIN_TOUCH_SPEED_MM_PER_S = 100;

/** The cue ball starting again on its own faster than this, mid-stroke, is a new stroke, mm/s. */
const MIN_RESTRIKE_SPEED_MM_PER_S = 300;
const RESTRIKE_SPAN_S = 0.2;

/** Mean speed over the first `spanS` after t, from the sightings (the ball's straight-line ground), mm/s. */
function speedOver(b: BallPath, t: number, spanS: number): number {
  const { t: ts, x, y } = b.samples;
  const j0 = ts.findIndex((q) => q >= t - 1e-9);
  if (j0 < 0) return 0;
  let j1 = j0;
  while (j1 + 1 < ts.length && ts[j1 + 1]! - ts[j0]! <= spanS + 1e-9) j1++;
  const span = ts[j1]! - ts[j0]!;
  return span > 0 ? Math.hypot(x[j1]! - x[j0]!, y[j1]! - y[j0]!) / span : 0;
}

/** A piece slower than this, mm/s, no longer than CREEP_MAX_S, between a rest and a kink is the rest blurred. */
const CREEP_MAX_MM_PER_S = 60;
const CREEP_MAX_S = 0.5;

/** The piece before kink `k` is a short creep straight after a true rest: that rest piece, else undefined. */
function restBeforeCreep(b: BallPath, k: Kink, p: EventParams): Segment | undefined {
  const i = b.segs.indexOf(k.before);
  const prev = i > 0 ? b.segs[i - 1]! : undefined;
  if (!prev?.still || !trulyAtRest(b, prev, p)) return undefined;
  const sg = k.before;
  if (sg.t1 - sg.t0 > CREEP_MAX_S) return undefined;
  const [x0, y0] = evalPos(prev.fit, prev.t1), [x1, y1] = evalPos(sg.fit, sg.t1);
  return Math.hypot(x1 - x0, y1 - y0) / Math.max(sg.t1 - prev.t1, 1e-3) < CREEP_MAX_MM_PER_S ? prev : undefined;
}

/** Speed change a kink must show to be an impulse rather than noise or a friction transition, mm/s. */
const MIN_IMPULSE_MM_PER_S = 60;

/** A ball within this gap of another when struck lies in a pack (see `contactFor`), mm. */
const PACKED_GAP_MM = 3;
/** …and its change of velocity need only point this much away from the striker (cos), not 0.75. */
const PACKED_AGREE_COS = 0.3;
/** A still ball's score as the striker is worse by this much (see `contactFor`). */
const PASSIVE_SCORE = 1;

/** A contact both balls' kinks corroborate may miss 2R by this many times the usual tolerance. */
const CORROBORATED_TOL_X = 2;

function dv(k: Kink): [number, number] {
  return [k.vOut[0] - k.vIn[0], k.vOut[1] - k.vIn[1]];
}

/** Explain a kink of `b` by a contact with another ball. */
function contactFor(b: BallPath, kink: Kink, all: readonly BallPath[], dt: number, p: EventParams): ContactCandidate | undefined {
  const dV = dv(kink);
  const dVmag = Math.hypot(dV[0], dV[1]);
  if (dVmag < MIN_IMPULSE_MM_PER_S) return undefined;
  const cands: (ContactCandidate & { score: number })[] = [];
  // Struck from rest while touching another ball (in a pack): the balls around it steer it, and
  // its departure need not follow the line of centres (rendered S01 overhead 25 fps: the apex red
  // left 54° off the line from the white that struck it).
  const packed = kink.before.still && all.some((o) => o.id !== b.id && o.samples.t.length > 0 && Math.hypot(...sub(posAt(o.segs, kink.tLo), [kink.x, kink.y])) < o.radiusMm + b.radiusMm + PACKED_GAP_MM);
  for (const a of all) {
    if (a.id === b.id) continue;
    if (kink.t < a.samples.t[0]! - dt || kink.t > a.samples.t.at(-1)! + dt * 3) continue;
    const D = a.radiusMm + b.radiusMm;
    // Where was a at the kink? Any piece of a near that time may be the right one (a may have
    // been deflected in the same frame interval, before or after this contact).
    const near = segmentsNear(a.segs, kink.t, dt);
    // A piece of two samples across the moment is a chord through a's own turn (a fast cue ball's
    // last sample before a contact and first after, taken for one straight piece: rendered S01
    // overhead 25 fps, the white at 4 m/s into the pack, its chord 82 mm from where it met the
    // apex red): where a was then is on the pieces either side, extrapolated.
    // (The piece before may end a frame or two early, and a fast ball's centre is read 5–9 mm
    // off: its last sample, carried on at the piece's final velocity, is where a was.) Only for a
    // ball struck in a pack and when no fitted piece comes within the tolerance: one sample's
    // extrapolation times a contact worse than a fitted piece (simulated strokes, everywhere:
    // contact time error p95 1.8 → 2.1 ms), and outside a pack the struck ball's own start from
    // rest times it.
    if (near.length === 0) continue;
    const anchored: Segment[] = [];
    if (packed) for (const sg of near) {
      if (sg.s1 - sg.s0 !== 1 || !(a.samples.t[sg.s0]! <= kink.t && a.samples.t[sg.s1]! >= kink.t)) continue;
      const prev = a.segs[a.segs.indexOf(sg) - 1];
      if (!prev || prev.still) continue;
      const [vx, vy] = posVel(prev, prev.t1);
      const t0 = a.samples.t[sg.s0]!;
      anchored.push({ ...sg, s1: sg.s0, t1: t0, fit: { t0, x: [a.samples.x[sg.s0]!, vx, 0], y: [a.samples.y[sg.s0]!, vy, 0] } });
    }
    type Nearest = { seg: Segment; res: number; n: [number, number] };
    const nearest = (segs: readonly Segment[], prior?: Nearest): Nearest | undefined => {
      let out = prior;
      for (const sg of segs) {
        const [ax, ay] = evalPos(sg.fit, kink.t);
        const d = Math.hypot(kink.x - ax, kink.y - ay);
        const res = Math.abs(d - D);
        if (!out || res < out.res) out = { seg: sg, res, n: [(kink.x - ax) / d, (kink.y - ay) / d] };
      }
      return out;
    };
    let best = nearest(near);
    if (!best || best.res > p.contactToleranceMm) best = nearest(anchored, best);
    if (!best) continue;
    // Relative speed widens the tolerance: a timing error of δt moves the balls apart by v·δt.
    const [vax, vay] = posVel(best.seg, kink.t);
    const vRel = Math.hypot(kink.vIn[0] - vax, kink.vIn[1] - vay);
    const tol = p.contactToleranceMm + vRel * 0.002;
    // Both balls kinked at once, each pushed away from the other along the line of centres: the
    // pair corroborates itself, and a worse fit is allowed (a one-frame misread beside the other
    // ball throws a short piece's fit off by several mm — rendered S24's black, 10 mm at 1.38 s).
    const n0 = best.n;
    const mutual = best.res <= CORROBORATED_TOL_X * tol && a.kinks.some((k) => {
      if (Math.abs(k.t - kink.t) > dt) return false;
      const [ux, uy] = dv(k);
      const m = Math.hypot(ux, uy);
      return m >= MIN_IMPULSE_MM_PER_S && (ux * n0[0] + uy * n0[1]) / m < -0.75;
    });
    if (best.res > tol && !mutual) continue;
    // Deflections agree: b pushed away from a along the line of centres.
    const along = dot(dV, best.n) / dVmag;
    if (along < (packed ? PACKED_AGREE_COS : 0.75)) continue;
    // Geometry time: the first instant the paths before the contact were exactly D apart.
    const aBefore = beforeSeg(a.segs, kink.t, dt) ?? best.seg;
    const bBefore = kink.before;
    const lo = kink.tLo - dt, hi = kink.tHi;
    let tGeo = timeAtDistance((t) => evalPos(aBefore.fit, t), (t) => evalPos(bBefore.fit, t), D, lo, hi);
    if (tGeo === undefined || Math.abs(tGeo - kink.t) > dt) {
      // a's path after its own kink may be the one that reached b (two contacts in one frame interval).
      const alt = timeAtDistance((t) => evalPos(best.seg.fit, t), (t) => evalPos(bBefore.fit, t), D, lo, hi);
      if (alt !== undefined && (tGeo === undefined || Math.abs(alt - kink.t) < Math.abs(tGeo - kink.t))) tGeo = alt;
    }
    // When the struck ball was still, its own start is the precise clock (a fixed point and a
    // long fitted piece after it); the striking ball's path may be a sliver between two contacts.
    // When both were moving, the geometry of the two long pieces before the contact is better.
    const haveGeo = tGeo !== undefined && Math.abs(tGeo - kink.t) <= dt;
    // Each clock's error is about the noise over the speed it measures: a slow, thinly cut object
    // ball times its own start badly; the cue ball's long path into it times the touch well.
    let t = kink.t;
    if (haveGeo) {
      const vb = Math.hypot(kink.vOut[0] - kink.vIn[0], kink.vOut[1] - kink.vIn[1]);
      const vClose = Math.abs((kink.vIn[0] - vax) * best.n[0] + (kink.vIn[1] - vay) * best.n[1]);
      const sK = (kink.before.still ? 1 : 2) / Math.max(vb, 50);
      const sG = 1 / Math.max(vClose, 50);
      const wK = 1 / (sK * sK), wG = 1 / (sG * sG);
      t = (kink.t * wK + tGeo! * wG) / (wK + wG);
    }
    const confGeom = Math.exp(-((best.res / (p.contactToleranceMm + 1e-9)) ** 2) * 0.7);
    // Two clocks that agree confirm each other; one clock alone is good but unconfirmed.
    const confTime = haveGeo ? clamp01(1 - Math.abs(tGeo! - kink.t) / (dt * 0.6)) : 0.85;
    const dtAgree = haveGeo ? Math.abs(tGeo! - kink.t) : dt / 4;
    const confDir = clamp01((along - 0.75) / 0.2);
    const conf = Math.min(1, 0.35 + 0.65 * Math.min(confGeom, Math.max(confTime, 0.4), Math.max(confDir, 0.5)));
    // A ball lying still, with no turn of its own then, only passes on an impulse that another
    // ball gave it: where a moving ball explains the kink too, that ball struck (in a pack the
    // struck ball touches several that lie still).
    const passive = best.seg.still && !a.kinks.some((k) => Math.abs(k.t - kink.t) <= dt);
    cands.push({ t, fromRest: kink.before.still, a: a.id, b: b.id, conf, residualMm: best.res, score: best.res / tol + dtAgree / dt + (passive ? PASSIVE_SCORE : 0), ...(best.res > tol ? { loose: true } : {}) });
  }
  if (cands.length === 0) return undefined;
  cands.sort((x, y) => x.score - y.score);
  const top = cands[0]!;
  // Another ball explains the kink about as well: the call is doubtful (a cluster, a kiss).
  if (cands.length > 1 && cands[1]!.score < top.score + 0.3) top.conf = Math.min(top.conf, 0.6);
  const { score: _s, ...c } = top;
  void _s;
  return c;
}

/**
 * Last resort for a ball that started from rest with no ball found at 2R on the fitted paths (a
 * cue ball that hit it one frame after the strike, so that no piece of its path is long enough to
 * extrapolate): the striker's centre was then on the line of centres, D behind the struck ball,
 * against its direction of departure. Any ball whose sampled path (straight between samples, from
 * its rest position) passes that point around that time is taken, doubtfully.
 */
function contactByDeparture(b: BallPath, kink: Kink, all: readonly BallPath[], dt: number, p: EventParams): ContactCandidate | undefined {
  const v = Math.hypot(kink.vOut[0], kink.vOut[1]);
  if (!kink.before.still || v < MIN_IMPULSE_MM_PER_S) return undefined;
  let best: { a: string; d: number } | undefined;
  for (const a of all) {
    if (a.id === b.id) continue;
    const D = a.radiusMm + b.radiusMm;
    const cx = kink.x - (kink.vOut[0] / v) * D, cy = kink.y - (kink.vOut[1] / v) * D;
    // a's polyline over [t − 2dt, t + 2dt], starting from where it rested if it started in there.
    const pts: [number, number][] = [];
    const { t, x, y } = a.samples;
    for (let k = 0; k < t.length; k++) if (t[k]! >= kink.t - 2 * dt && t[k]! <= kink.t + 2 * dt) pts.push([x[k]!, y[k]!]);
    if (pts.length < 2) continue;
    let moved = 0;
    for (let k = 1; k < pts.length; k++) moved = Math.max(moved, Math.hypot(pts[k]![0] - pts[0]![0], pts[k]![1] - pts[0]![1]));
    if (moved < p.moveThresholdMm) continue;
    let dMin = Infinity;
    for (let k = 0; k + 1 < pts.length; k++) dMin = Math.min(dMin, distToSegment(cx, cy, pts[k]!, pts[k + 1]!));
    if (dMin <= p.contactToleranceMm * 2 && (!best || dMin < best.d)) best = { a: a.id, d: dMin };
  }
  return best ? { t: kink.t, fromRest: true, a: best.a, b: b.id, conf: 0.55, residualMm: best.d } : undefined;
}

/** A ball struck from rest and never seen moving: who struck it, when, and which way it went. */
interface StruckUnseen {
  contact: ContactCandidate;
  /** Unit direction the struck ball left in, on the bed. */
  dir: [number, number];
}

/** How far from the struck ball's rest place the striker's sampled path may pass, in D (= R₁ + R₂): both are smears at such speeds. */
const UNSEEN_STRIKE_REACH_D = 2;
/** The striker's exit over this long after the touch gives the struck ball's direction, s. */
const EXIT_SPAN_S = 0.2;

/**
 * A ball that left the table straight from rest, with no sighting of it moving (a hard pot of a
 * colour off its spot: its smear too faint for the detector, Bucharest Task2 clips 6 and 12): a
 * ball whose sampled path went past its place as it disappeared struck it. Which way it went
 * comes from the striker's exit, by the 90° rule (a struck ball leaves along the line of centres,
 * the striker square to it, whatever the spin at first), on the striker's forward side; a striker
 * that stopped dead sent it straight on. Positions of a smear are coarse, so the pass is allowed
 * 2D and the contact is reported doubtfully (0.5).
 */
function struckUnseen(b: BallPath, all: readonly BallPath[], series: Series, dt: number, p: EventParams, stroke: { strikeT: number; cueId: string; events: readonly StrokeEvent[] }, known?: { a: string; t: number }): StruckUnseen | undefined {
  const left = b.left;
  // Seen gone (bare cloth where it lay), not merely unseen since: a hidden ball may be anywhere.
  if (!left || left.how !== 'vanished') return undefined;
  // Still to the end of its sightings, or one or two sightings past its rest place (starting).
  const { t: bt, x: bx, y: by } = b.samples;
  const n = bt.length;
  const restSeg = [...b.segs].reverse().find((sg) => sg.still);
  if (!restSeg) return undefined;
  const [rx, ry] = evalPos(restSeg.fit, restSeg.t1);
  let after = 0;
  for (let j = 0; j < n; j++) if (bt[j]! > restSeg.t1 + 1e-9) after++;
  if (after > 2 || Math.hypot(bx[n - 1]! - rx, by[n - 1]! - ry) > 2 * b.radiusMm) return undefined;
  // On the table, at rest, before the stroke began: not a ball first seen mid-stroke (a read of
  // pocket clutter, a second track on a ball).
  if (!(bt[0]! <= stroke.strikeT + dt / 2)) return undefined;
  const tLast = series.t[left.kLastSeen]!;
  // A known contact: the moment it disappeared, with it still at rest (not a contact it made rolling).
  if (known && (known.t < restSeg.t1 - dt || known.t < tLast - 2 * dt || known.t > tLast + 4 * dt)) return undefined;
  // A credible striker: the cue ball, or a ball already set moving by a contact in this stroke.
  const credible = (a: BallPath, tc: number) => a.id === stroke.cueId || stroke.events.some((e) => e.type === 'contact' && e.t < tc && (e.a === a.id || e.b === a.id));
  let best: { a: BallPath; d: number; tc: number; k: number } | undefined;
  for (const a of all) {
    if (a.id === b.id || (known && a.id !== known.a)) continue;
    // Never closer than touching to where b rested while it rested: the same ball seen twice.
    if (!known && a.samples.t.some((ta, j) => ta >= restSeg.t0 && ta <= tLast && Math.hypot(a.samples.x[j]! - rx, a.samples.y[j]! - ry) < 0.8 * (a.radiusMm + b.radiusMm))) continue;
    const D = a.radiusMm + b.radiusMm;
    const { t, x, y } = a.samples;
    for (let k = 0; k + 1 < t.length; k++) {
      if (known) {
        // The contact is known (the striker's own kink showed it): the piece of its path then.
        if (t[k]! <= known.t && t[k + 1]! >= known.t) best = { a, d: 0, tc: known.t, k };
        continue;
      }
      // A piece of a's path spanning the moment b was last seen (or the frames just after).
      if (t[k + 1]! < tLast - dt / 2 || t[k]! > tLast + 3 * dt) continue;
      const p0: [number, number] = [x[k]!, y[k]!], p1: [number, number] = [x[k + 1]!, y[k + 1]!];
      const len = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
      if (len < p.moveThresholdMm) continue;
      const d = distToSegment(rx, ry, p0, p1);
      if (d > UNSEEN_STRIKE_REACH_D * D || (best && d >= best.d)) continue;
      const u = Math.max(0, Math.min(1, ((rx - p0[0]) * (p1[0] - p0[0]) + (ry - p0[1]) * (p1[1] - p0[1])) / (len * len)));
      best = { a, d, tc: Math.max(tLast, t[k]! + u * (t[k + 1]! - t[k]!)), k };
    }
  }
  if (!best || (!known && !credible(best.a, best.tc))) return undefined;
  const { a, k, tc } = best;
  const contact: ContactCandidate = { t: tc, fromRest: true, a: a.id, b: b.id, conf: 0.5, residualMm: best.d };
  // The striker rolling into the touch with its turn there fitted: the impulse it took is the
  // struck ball's, reversed — the best measure of where that went.
  const turn = a.kinks.find((q) => Math.abs(q.t - tc) <= 2 * dt && !q.before.still);
  if (turn) {
    const [dx, dy] = dv(turn);
    const m = Math.hypot(dx, dy);
    if (m >= MIN_IMPULSE_MM_PER_S) return { contact, dir: [-dx / m, -dy / m] };
  }
  const { t, x, y } = a.samples;
  // Otherwise from its samples. Its way in: from a few frames before the piece to the piece's end.
  let j0 = k;
  while (j0 > 0 && t[k]! - t[j0 - 1]! <= 3 * dt) j0--;
  const inX = x[k + 1]! - x[j0]!, inY = y[k + 1]! - y[j0]!;
  const inLen = Math.hypot(inX, inY);
  if (inLen < p.moveThresholdMm) return undefined;
  const uIn: [number, number] = [inX / inLen, inY / inLen];
  // Its way out: from the piece's end over the next EXIT_SPAN_S.
  let j1 = k + 1;
  while (j1 + 1 < t.length && t[j1 + 1]! - t[k + 1]! <= EXIT_SPAN_S) j1++;
  const outX = x[j1]! - x[k + 1]!, outY = y[j1]! - y[k + 1]!;
  const outLen = Math.hypot(outX, outY);
  let dir: [number, number];
  if (j1 > k + 1 && outLen > b.radiusMm) {
    dir = [-outY / outLen, outX / outLen];
    if (dot(dir, uIn) < 0) dir = [-dir[0], -dir[1]];
  } else dir = uIn;
  return { contact, dir };
}

/** A struck ball's pocket: the one its direction points at most nearly (`within` radians), if any. */
function pocketAlong(table: TableProfile, from: readonly [number, number], dir: readonly [number, number], within: number): PocketId | undefined {
  let best: { id: PocketId; ang: number } | undefined;
  for (const id of POCKETS) {
    const pk = table.pockets[id];
    if (!pk) continue;
    const dx = pk.x - from[0], dy = pk.y - from[1];
    const ang = Math.acos(Math.max(-1, Math.min(1, (dx * dir[0] + dy * dir[1]) / Math.max(1e-9, Math.hypot(dx, dy)))));
    if (ang <= within && (!best || ang < best.ang)) best = { id, ang };
  }
  return best?.id;
}

function distToSegment(px: number, py: number, a: [number, number], b: [number, number]): number {
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const L2 = dx * dx + dy * dy;
  const u = L2 > 0 ? Math.max(0, Math.min(1, ((px - a[0]) * dx + (py - a[1]) * dy) / L2)) : 0;
  return Math.hypot(px - (a[0] + u * dx), py - (a[1] + u * dy));
}

function posVel(s: Segment, t: number): [number, number] {
  if (s.still) return [0, 0];
  const d = t - s.fit.t0;
  return [s.fit.x[1] + 2 * s.fit.x[2] * d, s.fit.y[1] + 2 * s.fit.y[2] * d];
}

/** The piece of a path that was in force just before t. */
function beforeSeg(segs: readonly Segment[], t: number, dt: number): Segment | undefined {
  let out: Segment | undefined;
  for (const s of segs) if (s.t0 <= t + dt * 0.01) out = s;
  return out;
}

interface Edge {
  side: CushionSide;
  /** Coordinate axis (0 = x, 1 = y), the cushion's coordinate and the outward normal's sign. */
  axis: 0 | 1;
  at: number;
  sign: 1 | -1;
}

function edges(table: TableProfile): Edge[] {
  const { width: W, length: L } = table.bed;
  return [
    { side: 'left', axis: 0, at: 0, sign: -1 },
    { side: 'right', axis: 0, at: W, sign: 1 },
    { side: 'bottom', axis: 1, at: 0, sign: -1 },
    { side: 'top', axis: 1, at: L, sign: 1 },
  ];
}

/** The pocket whose opening holds a point on an edge (a jaw, not the straight cushion). */
function jawAt(table: TableProfile, e: Edge, along: number, R: number): PocketId | undefined {
  for (const id of POCKETS) {
    const pk = table.pockets[id];
    if (!pk) continue;
    const pkAt = e.axis === 0 ? pk.x : pk.y;
    const pkAlong = e.axis === 0 ? pk.y : pk.x;
    if (Math.abs(pkAt - e.at) > 1) continue;
    if (Math.abs(along - pkAlong) < pk.mouth / 2 + R * 0.5) return id;
  }
  return undefined;
}

/** The pieces between the two halves of one rebound last at most this long, s. */
const SPLIT_TURN_S = 0.2;

/**
 * One rebound the fit split into two or three kinks: a moving ball whose path turns at a cushion
 * through short pieces — a stop for a frame or two (over so few samples a still piece only says the
 * speed could not be told from the noise: `isStill` allows ~200 mm/s on two samples a frame
 * apart), or a short slow piece along the line. A ball slowing into a cushion and read a few mm off
 * looks just like that (rendered P19: the cue ball at 190 mm/s into the top cushion, "still" for a
 * frame, back at 70 mm/s; S20: the white at 230 mm/s, two one-frame stops; S40 broadcast: a red at
 * 160 mm/s stops on the line, runs along it for 0.17 s, then comes away at 90 mm/s). For each later
 * kink `n` within SPLIT_TURN_S of `k`, the kink from the piece before `k` to the piece after `n`
 * (the whole turn), with the kinks in between.
 */
function splitTurns(b: BallPath, k: Kink, dt: number): { kink: Kink; inner: Kink[] }[] {
  if (k.before.still) return [];
  const out: { kink: Kink; inner: Kink[] }[] = [];
  const i = b.kinks.indexOf(k);
  for (let j = i + 1; j < b.kinks.length; j++) {
    const n = b.kinks[j]!;
    if (n.before.t1 - k.after.t0 > SPLIT_TURN_S + dt * 0.01) break;
    // A rebound goes on moving: a turn that ends in a rest is a creep (cushionsFor's own rule).
    if (!n.after.still) out.push({ kink: { ...k, tHi: n.tHi, vOut: n.vOut, after: n.after }, inner: b.kinks.slice(i + 1, j + 1) });
  }
  return out;
}

/** How far a ball of radius R whose centre's coordinate across edge `e` is `c` is from touching that cushion: its distance to the line R from the nose, mm (< 0 beyond it). */
const edgeGap = (e: Edge, c: number, R: number) => (e.sign === 1 ? e.at - c : c - e.at) - R;

/** `edgeGap` for a ball centred at (x, y) and a cushion named by its side. */
function gapToLine(table: TableProfile, side: CushionSide, x: number, y: number, R: number): number {
  const e = edges(table).find((q) => q.side === side)!;
  return edgeGap(e, e.axis === 0 ? x : y, R);
}

/** Whether the ball's measured centre came within `tolMm` of a cushion's line between t0 and t1. */
function seenOnLine(b: BallPath, side: CushionSide, t0: number, t1: number, table: TableProfile, tolMm: number): boolean {
  const { t, x, y } = b.samples;
  for (let j = 0; j < t.length; j++) if (t[j]! >= t0 - 1e-9 && t[j]! <= t1 + 1e-9 && Math.abs(gapToLine(table, side, x[j]!, y[j]!, b.radiusMm)) <= tolMm) return true;
  return false;
}

/** Two cushion events of one ball on one side within 0.15 s: one contact (the bench's matching window). */
const sameCushionHit = (a: StrokeEvent, e: StrokeEvent) => a.type === 'cushion' && e.type === 'cushion' && a.ball === e.ball && a.side === e.side && Math.abs(a.t - e.t) < 0.15;

/**
 * Cushions that explain a kink: for each cushion, the ball was moving towards it before (> 40 mm/s
 * normal speed), lost most of that after (rebounding, or stopping dead against it), and its path
 * before reached the cushion line (centre R from the nose) inside the kink's interval. Two cushions
 * can share one kink (a corner, both within a frame): both are reported.
 */
function cushionsFor(b: BallPath, kink: Kink, table: TableProfile, dt: number, p: EventParams, tLeft: number | undefined, view: CameraView): StrokeEvent[] {
  const R = b.radiusMm;
  const out: StrokeEvent[] = [];
  const speedIn = Math.hypot(kink.vIn[0], kink.vIn[1]);
  const speedOut = Math.hypot(kink.vOut[0], kink.vOut[1]);
  const stopped = speedOut < 0.35 * speedIn;
  const sinking = (t: number, pk: { x: number; y: number; mouth: number }, noRebound = true): boolean => {
    if (Math.hypot(kink.x - pk.x, kink.y - pk.y) > pk.mouth / 2 + R || tLeft === undefined || !(tLeft - t < JAW_DROP_S && tLeft - t > -dt)) return false;
    // Going on the way it came, only slower: a ball dropping over the edge of the bed (its centre
    // seems to slow and bend as it falls), not one turned by a jaw — a jaw or cushion turns a
    // ball by far more (the S03 jaw contacts: 60–70°; the S07 in-off white under v8: 20°).
    const turn = speedIn > 0 && speedOut > 0 ? Math.acos(Math.max(-1, Math.min(1, (kink.vIn[0] * kink.vOut[0] + kink.vIn[1] * kink.vOut[1]) / (speedIn * speedOut)))) : Math.PI;
    // Stopped there: the drop — unless it still runs on clearly, turned far off its way, with a
    // share of its speed a jaw leaves (it reverses the normal part, keeps the tangential): a jaw
    // sent it on (rendered short frame, 25 fps: the green into the middle pocket, 420 → 147 mm/s,
    // turned 85° off the far jaw 0.13 s before it dropped). A drop's "speed after" is the noise of
    // a centre falling from sight, a small share of a fast ball's (rendered P18 overhead 30 fps: a
    // stripe into the corner at 1296 mm/s, read on at 133 mm/s turned 84°).
    const sentOn = speedOut > JAW_SENT_ON_MM_PER_S && speedOut > JAW_SENT_ON_SHARE * speedIn && turn > 2 * DROP_TURN_RAD;
    if (stopped && noRebound && !sentOn) return true;
    if (noRebound && speedOut < speedIn && turn < DROP_TURN_RAD) return true;
    // A turn the way a sinking ball seems to go is a drop only where the ball can drop: its centre
    // at the mouth, not still out on the bed in front of it, where the same turn is a jaw's (the
    // rendered S03 broadcast black meets the corner's jaw 60 mm from the pocket and runs along it
    // into the pocket, which from behind the top cushion is also the way a sinking ball goes; the
    // drops seen so far kink within 48 mm).
    if (Math.hypot(kink.x - pk.x, kink.y - pk.y) > pk.mouth / 2 + R / 2) return false;
    // The sightings after it, when the pieces miss the fall's way (its apparent speed grows from
    // nothing: rendered S07 broadcast 30 fps, the in-off white turned in TR's mouth, was read
    // straight up the picture for 0.17 s and lost — a false jaw contact before).
    return leavesSinkingWay(kink, view) || (sinkingReach(b, kink.x, kink.y, t, view) ?? 0) >= R;
  };
  if (kink.after.still) {
    // Rolled up to a cushion and came to rest touching it: it touched that cushion, when it first
    // got there. Only after real progress towards it (rendered plant-kiss: a red creeping 60 mm/s
    // into the top cushion), and either at rest within the noise of the line, or seen within a
    // pixel or so of the line and then coming back off it — a creep rebounds a few mm (rendered
    // S03: the white meets the left cushion at 60 mm/s, is seen 1.7 mm off it, 3.5 mm from the
    // broadcast camera, and comes back to rest 4–7 mm off). A ball that merely slows to a stop
    // near a cushion ends nearest it.
    const { t: st, x: sx, y: sy } = b.samples;
    const rest = evalPos(kink.after.fit, kink.after.t0);
    for (const e of edges(table)) {
      const gapAt = (v: number) => edgeGap(e, v, R);
      if (jawAt(table, e, rest[1 - e.axis]!, R)) continue;
      const restGap = gapAt(rest[e.axis]!);
      const touch = Math.max(3, 2 * p.noiseMm);
      const seenTouch = Math.max(touch, TOUCH_PIXELS * (view.pixelMm?.(rest[0]!, rest[1]!, e.axis) ?? 0));
      if (restGap > CREEP_REST_TOUCHES * seenTouch) continue;
      let tReach: number | undefined;
      let closest = Infinity;
      let tClosest = kink.t;
      // Through the first moments of the rest too: a creep slow enough to rebound only a few mm is
      // slow enough for its last approach and rebound to be read as part of the rest (rendered S03
      // broadcast: the white meets the left cushion at 60 mm/s, within a piece of rest that starts
      // 0.16 s before and drifts 6 mm back off it over the next second).
      for (let j = 0; j < st.length; j++) {
        if (st[j]! < kink.before.t0 || st[j]! > kink.t + CREEP_SETTLE_S + 1e-9) continue;
        const g = gapAt(e.axis === 0 ? sx[j]! : sy[j]!);
        if (tReach === undefined && Math.abs(g) <= seenTouch) tReach = st[j]!;
        if (g < closest) (closest = g), (tClosest = st[j]!);
      }
      const cameBack = closest <= seenTouch && restGap - closest >= Math.max(MIN_COME_BACK_MM, 2 * p.noiseMm);
      if (tReach === undefined || !(Math.abs(restGap) <= touch || cameBack)) continue;
      const gap0 = gapAt(evalPos(kink.before.fit, kink.before.t0)[e.axis]!);
      const span = (cameBack ? tClosest : kink.t) - kink.before.t0;
      // Real progress, at a real speed: a ball jittering at rest by the line makes short "creeps"
      // of a few mm (the rendered S03 white's last piece of path ran 14 mm to the line).
      const run = gap0 - (cameBack ? closest : restGap);
      if (!(span > 0) || run < MIN_CREEP_RUN_MM || run / span < 40) continue;
      // Come to rest against it: it got there when its approach reached where it rests, not when
      // a sample first fell within a touch of the line — slow as it is, a creep's last few mm take
      // a few tenths of a second, and its centre is read a mm or two off (rendered plant-kiss: a
      // red read within 3.8 mm of the top cushion's line at 3.44 s, there at 3.61 s).
      if (!cameBack) {
        const restC = rest[e.axis]!;
        const fitC = (t: number) => evalPos(kink.before.fit, t)[e.axis];
        const tFit = timeAtCoord(fitC, restC + e.sign * -CREEP_ARRIVED_MM, tReach, kink.t);
        if (tFit !== undefined) tReach = tFit;
      }
      out.push({ t: r5(tReach), type: 'cushion', ball: b.id, side: e.side, conf: 0.55 });
    }
    if (out.length) return out;
  }
  const missedMouthEdge = new Set<StrokeEvent>();
  for (const e of edges(table)) {
    const vInN = kink.vIn[e.axis] * e.sign;
    const vOutN = kink.vOut[e.axis] * e.sign;
    if (!(vInN > 40 && vOutN < 0.3 * vInN)) continue;
    const target = e.sign === 1 ? e.at - R : e.at + R;
    const fitC = (t: number) => evalPos(kink.before.fit, t)[e.axis];
    const tGeo = timeAtCoord(fitC, target, kink.tLo - dt, kink.tHi + dt * 0.5);
    const coord = e.axis === 0 ? kink.x : kink.y;
    const gap = edgeGap(e, coord, R); // ≈ 0 at contact
    // The path before must reach the line, or the kink must sit on it (a slow ball stopping there).
    // A clear rebound no ball explains (contacts are tried first), or a ball that goes on running
    // along the line (only a cushion holds a ball to it), may sit twice as far off: the
    // calibration's scale at the far end of a perspective view is off by that much (the rendered
    // pool broadcast's top cushion: every position 7–8 mm short there; a 240 mm/s rebound read
    // 9 mm off it, a cue ball running along it into the corner 8.4 mm).
    const vOutAlong = Math.abs(kink.vOut[1 - e.axis]!);
    const rebound = vOutN < -0.2 * vInN;
    const sliding = vOutAlong > 100 && Math.abs(vOutN) < 0.15 * vOutAlong;
    if (tGeo === undefined && Math.abs(gap) > (rebound || sliding ? 2 : 1) * p.cushionToleranceMm) continue;
    if (tGeo === undefined && vOutN >= 0 && !sliding && Math.abs(gap) > p.cushionToleranceMm / 2) continue;
    if (againstLineBefore(b, e, kink.t, p)) continue;
    const t = tGeo ?? kink.t;
    const at = evalPos(kink.before.fit, t);
    const along = e.axis === 0 ? at[1] : at[0];
    const jaw = jawAt(table, e, along, R);
    // In a pocket's mouth (the centre within R of the mouth line) and gone from sight right after:
    // the ball dropped in if it stopped there (no rebound off the jaw, little speed left), or if it
    // went on the way a sinking ball seems to go in this camera's picture (towards the point under
    // the camera: see sinking.ts) — what a path-fitter reads as a rebound off the jaw. The drop is
    // the pot, not a contact with the jaw; a ball that meets the jaw and slides along it into the
    // pocket keeps its contact. The pocket is the jaw's where the path met the line, else the one
    // whose mouth the kink is in (the path may reach the line a little before the jaw begins: the
    // rendered S07 in-off white under v8 met the right cushion's line 20 mm short of its jaw).
    const pk = jaw ? table.pockets[jaw] : pocketAtMouth(table, kink.x, kink.y, R);
    if (pk && sinking(t, pk, vOutN > -0.2 * vInN)) continue;
    // A clear rebound on the line is sure; a stop against it or a kink off the line less so.
    const ev: StrokeEvent = { t: r5(t), type: 'cushion', ball: b.id, side: e.side, ...(jaw ? { jaw } : {}), conf: cushionConf(vOutN, gap, tGeo !== undefined, p) };
    out.push(ev);
    if (jaw && !meetsMouthEdge(table, jaw, e.side, at, kink, R, stopped, p)) missedMouthEdge.add(ev);
  }
  // Both jaws of one pocket at one kink: every pocket's mouth is wider than its ball by 28 mm or
  // more, so no ball meets both jaws at once unless it is already falling in. Lost soon after, it
  // is the drop, where the camera makes the fall look like a rebound off the corner (rendered
  // far-corner pots from the broadcast camera at 60 fps: S07's white, S26-S27's black, the fine
  // cut's red); the pot is found from the loss. Otherwise the kink is something else that the
  // paths extrapolated to both lines (rendered N05 broadcast 25 fps: the striker slowed by a pawn
  // 150 mm short of the corner), and which jaw, if either, cannot be told. Neither is a contact;
  // the library's truth has no such pair.
  const jaws = out.flatMap((e) => (e.type === 'cushion' && e.jaw ? [e.jaw] : []));
  if (jaws.length >= 2 && jaws.every((j) => j === jaws[0])) return [];
  // (Tested after the pair: a kink read against both jaws is no contact with either, met or not.
  // And not for a kink that turned off two cushions at a corner: its speeds in and out changed
  // twice, so neither edge's normal sees one rebound, and where its path met the second line is
  // extrapolated past the first (the synthetic suite: 30 ms apart at 30 fps). Two more than two
  // frames apart are separate turns the fits merged — rendered S26-S27 overhead 30 fps: the
  // black's drop into TR read as the top cushion and, 84 ms later, TR's right jaw 200 mm from
  // where the merged kink began.)
  const corner = out.length === 2 && Math.abs(out[0]!.t - out[1]!.t) <= Math.max(2 * dt, CORNER_PAIR_S);
  if (!corner && missedMouthEdge.size) out.splice(0, out.length, ...out.filter((ev) => !missedMouthEdge.has(ev)));
  if (out.length === 0) out.push(...jawContactsFor(b, kink, table, dt, p, sinking));
  return out;
}

/**
 * Past a jaw's nose there is no straight cushion, only the nose and the jaw's face: the kink there
 * is a contact only if the ball's centre (`at`, where its path met the cushion's line) was within
 * reach of that edge — R from the nearest point of the jaw, give or take the cushion tolerance —
 * and, if the kink took most of its speed, it ran into the edge (its normal) and came off no
 * faster than it came in. A ball turning in the mouth away from the jaw, or stopping there moving
 * along the jaw or "rebounding" faster than it arrived, dropped: the fall's apparent motion, or
 * the bed giving way under it (rendered S26-S27 overhead 25 fps: the black into TR at 540 mm/s
 * along the pocket's axis, read 17 mm past the top cushion's line as it fell, then drifting
 * towards the camera — a false top jaw contact before). One that keeps its speed may only graze
 * the face (rendered short frame, broadcast 30 fps: the pink along TR's jaw at 117 mm/s, turned
 * 60° by a touch 2 mm/s into it).
 */
function meetsMouthEdge(table: TableProfile, jaw: PocketId, side: CushionSide, at: readonly number[], kink: Kink, R: number, stopped: boolean, p: EventParams): boolean {
  const s = geomOf(table).segments.find((q) => q.jaw === jaw && q.side === side);
  if (!s) return true;
  const [px, py] = [at[0]!, at[1]!];
  const lenX = s.x1 - s.x0, lenY = s.y1 - s.y0;
  // Still short of the nose along the cushion (or a middle pocket's jaw, square to it): the
  // straight cushion's business.
  const alongSide = side === 'left' || side === 'right';
  if ((alongSide ? (py - s.y0) * lenY : (px - s.x0) * lenX) <= 0) return true;
  const len2 = lenX * lenX + lenY * lenY;
  const u = Math.max(0, Math.min(1, ((px - s.x0) * lenX + (py - s.y0) * lenY) / len2));
  const nx0 = px - (s.x0 + u * lenX), ny0 = py - (s.y0 + u * lenY);
  const d = Math.hypot(nx0, ny0);
  if (!(d > 0)) return true;
  if (d - R > p.cushionToleranceMm) return false;
  if (!stopped) return true;
  const vIn = (kink.vIn[0] * nx0 + kink.vIn[1] * ny0) / d, vOut = (kink.vOut[0] * nx0 + kink.vOut[1] * ny0) / d;
  return vIn < -MIN_MOUTH_APPROACH_MM_PER_S && vOut <= -vIn;
}

/** The kink sends the ball off within SINKING_COS of the way a sinking ball seems to go in this camera's picture (sinking.ts). */
function leavesSinkingWay(k: Kink, view: CameraView): boolean {
  const v = Math.hypot(k.vOut[0], k.vOut[1]);
  const down = view.sink?.(k.x, k.y);
  return !!down && v > 0 && (k.vOut[0] * down[0] + k.vOut[1] * down[1]) / v >= SINKING_COS;
}

/** The pocket whose mouth a ball centred at (x, y) is in: within half the mouth plus `R` of the pocket. */
function pocketAtMouth(table: TableProfile, x: number, y: number, R: number): { x: number; y: number; mouth: number } | undefined {
  return Object.values(table.pockets).find((pk) => pk && Math.hypot(x - pk.x, y - pk.y) <= pk.mouth / 2 + R);
}

const cushionConf = (vOutN: number, gap: number, timedOnLine: boolean, p: EventParams) =>
  r3(Math.min(1, (vOutN < 0 ? 0.6 : 0.45) + 0.4 * Math.exp(-((Math.min(Math.abs(gap), 3 * p.cushionToleranceMm) / p.cushionToleranceMm) ** 2)) + (timedOnLine ? 0.1 : 0)));

const geoms = new WeakMap<TableProfile, TableGeom>();
const geomOf = (table: TableProfile): TableGeom => {
  let g = geoms.get(table);
  if (!g) geoms.set(table, (g = buildTableGeom(table)));
  return g;
};

/** A graze: the fitted normal speed towards a cushion at least this at a piece's start, and away at least GRAZE_AWAY at its end, mm/s. */
const GRAZE_TOWARDS_MM_PER_S = 30;
const GRAZE_AWAY_MM_PER_S = 15;
/** …while running along it at least this fast, mm/s. */
const GRAZE_MIN_ALONG_MM_PER_S = 100;

/**
 * Cushion contacts a piece of fitted path hides. A ball that grazes a cushion at a shallow angle
 * loses only ~100 mm/s across it (rendered S20: the black at 630 mm/s along the top cushion, 80
 * mm/s into it and 25 out), which the segmenter does not split at — the piece's parabola bends
 * through the contact instead. Rolling friction acts along the motion and cannot turn a ball
 * from going into a cushion to going away from it; only the cushion (or a ball: contacts are
 * found first) can. So a moving piece that starts into a cushion and ends away from it, its
 * fitted centre reaching the cushion's line (within the tolerance) in between, met that cushion
 * where it came nearest. Pocket mouths are left to the jaw and pot logic.
 */
function grazesFor(b: BallPath, table: TableProfile, dt: number, p: EventParams, taken: readonly StrokeEvent[]): StrokeEvent[] {
  const R = b.radiusMm;
  const out: StrokeEvent[] = [];
  for (const sg of b.segs) {
    if (sg.still || sg.s1 - sg.s0 < 4) continue;
    for (const e of edges(table)) {
      const vN0 = posVel(sg, sg.t0)[e.axis] * e.sign;
      const vN1 = posVel(sg, sg.t1)[e.axis] * e.sign;
      if (!(vN0 >= GRAZE_TOWARDS_MM_PER_S && vN1 <= -GRAZE_AWAY_MM_PER_S)) continue;
      // Nearest approach on the fit: where the normal speed is zero (the parabola's vertex).
      const c = sg.fit[e.axis === 0 ? 'x' : 'y'];
      const a2 = 2 * c[2]!;
      if (!(a2 !== 0)) continue;
      const tm = sg.fit.t0 - c[1]! / a2;
      if (!(tm > sg.t0 + dt / 2 && tm < sg.t1 - dt / 2)) continue;
      // Running along the cushion there: a graze. (A ball that rolls straight up to a cushion and
      // stops has its piece's vertex where it stopped: a creep, for the creep rules in cushionsFor.)
      const vAlong = Math.abs(posVel(sg, tm)[1 - e.axis]!);
      if (vAlong < GRAZE_MIN_ALONG_MM_PER_S) continue;
      const at = evalPos(sg.fit, tm);
      const gap = edgeGap(e, at[e.axis]!, R);
      if (Math.abs(gap) > p.cushionToleranceMm) continue;
      if (jawAt(table, e, at[1 - e.axis]!, R)) continue;
      const sameCushion = (x: StrokeEvent) => x.type === 'cushion' && x.ball === b.id && x.side === e.side && Math.abs(x.t - tm) < 0.15;
      if (taken.some(sameCushion) || out.some(sameCushion)) continue;
      if (taken.some((x) => x.type === 'contact' && (x.a === b.id || x.b === b.id) && x.t > sg.t0 - dt && x.t < sg.t1 + dt)) continue;
      if (againstLineBefore(b, e, tm, p)) continue;
      out.push({ t: r5(tm), type: 'cushion', ball: b.id, side: e.side, conf: cushionConf(vN1, gap, false, p) });
    }
  }
  return out;
}

/** A ball seen against a cushion's line for this long up to a contact there was already on it, s. */
const ALREADY_ON_LINE_S = 0.3;

/**
 * Seen against the cushion's line (within a touch: 3 mm, or twice the noise) on every sample of
 * the ALREADY_ON_LINE_S up to `t0`, three at least: the ball was already running along it (or lay
 * against it before it set off) — a ball that really comes into a cushion at the 30–40 mm/s the
 * graze and kink rules ask for is within a touch of it for the last 0.1 s at most. So a path that
 * seems to bend into the line there, and off it or to a stop across it, is the reads' jitter, not
 * a contact (rendered N02 broadcast, a pawn pushed out of its row along the bottom cushion, read
 * 1–2 mm either side of the line: at 30 fps a "graze" 2 mm deep at 360 mm/s, at 60 fps a kink
 * 73 mm/s into the line and 3 out; the simulator reports no contact for a ball rolling along a
 * cushion it lies against).
 */
function againstLineBefore(b: BallPath, e: Edge, t0: number, p: EventParams): boolean {
  const { t, x, y } = b.samples;
  const c = e.axis === 0 ? x : y;
  const touch = Math.max(3, 2 * p.noiseMm);
  let n = 0;
  for (let j = 0; j < t.length && t[j]! <= t0 + 1e-9; j++) {
    if (t[j]! < t0 - ALREADY_ON_LINE_S) continue;
    if (Math.abs(edgeGap(e, c[j]!, b.radiusMm)) > touch) return false;
    n++;
  }
  return n >= 3;
}

/** The normal speed into a cushion before a reversal and away from it after, at least, mm/s (see `reversalsFor`). */
const REVERSAL_IN_MM_PER_S = 40;
const REVERSAL_OUT_MM_PER_S = 8;
/** Each side of a reversal is measured over this long, s, and on at least REVERSAL_MIN_SAMPLES. */
const REVERSAL_WINDOW_S = 0.3;
const REVERSAL_MIN_SAMPLES = 4;
/** The change of normal speed must exceed this many of its standard errors (from the fits' residuals). */
const REVERSAL_SIGMAS = 4;

/**
 * Cushion contacts the pieces do not show: the ball's measured centre came to the cushion's line,
 * going into it before and away from it after — straight lines fitted to the coordinate across
 * the cushion over REVERSAL_WINDOW_S on each side. As in `grazesFor`, only a cushion (or a ball,
 * whose contacts are found first) turns a ball from going into a cushion to going away; this test
 * does not depend on where the segmenter cut the path. A slow ball whose centres are read 2–5 mm
 * off is cut into short pieces whose quadratics chase the noise (rendered S24: the black at 95 mm/s
 * into the top cushion and 25 mm/s out, in pieces of 9, 2, 1 and 5 samples whose fits put its
 * speed in at 36 mm/s), or is taken for still through the turn (rendered S03 broadcast: the white
 * at 60 mm/s into the left cushion, 10 mm/s out). The speed out need only be small when it is
 * clearly not zero: three of its standard errors.
 */
function reversalsFor(b: BallPath, table: TableProfile, p: EventParams, taken: readonly StrokeEvent[]): StrokeEvent[] {
  const R = b.radiusMm;
  const { t, x, y } = b.samples;
  const n = t.length;
  const out: StrokeEvent[] = [];
  for (const e of edges(table)) {
    const c = e.axis === 0 ? x : y;
    const gap = (j: number) => edgeGap(e, c[j]!, R);
    for (let j = 1; j + 1 < n; j++) {
      // The nearest the measured centre came to the line, on it within the tolerance.
      if (!(Math.abs(gap(j)) <= p.cushionToleranceMm && gap(j) <= gap(j - 1) && gap(j) < gap(j + 1))) continue;
      const along = (e.axis === 0 ? y : x)[j]!;
      if (jawAt(table, e, along, R)) continue;
      let a = j, z = j;
      while (a > 0 && t[a - 1]! >= t[j]! - REVERSAL_WINDOW_S - 1e-9) a--;
      while (z + 1 < n && t[z + 1]! <= t[j]! + REVERSAL_WINDOW_S + 1e-9) z++;
      if (j - a + 1 < REVERSAL_MIN_SAMPLES || z - j + 1 < REVERSAL_MIN_SAMPLES) continue;
      // Another ball in the window could have turned it: contacts are the contact rules' business.
      if (taken.some((q) => q.type === 'contact' && (q.a === b.id || q.b === b.id) && q.t > t[a]! && q.t < t[z]!)) continue;
      // Normal speed (into the cushion > 0) and its standard error, the noise floored at half the nominal.
      const line = (lo: number, hi: number) => {
        const f = fitLineRange(t, c, lo, hi);
        return { f, v: f.c1 * e.sign, se: Math.max(f.residualSd, 0.5 * p.noiseMm) / (f.timeSpread || 1e-9) };
      };
      const bef = line(a, j), aft = line(j, z);
      if (!(bef.v >= REVERSAL_IN_MM_PER_S && aft.v <= -REVERSAL_OUT_MM_PER_S && aft.v <= -3 * aft.se)) continue;
      if (bef.v - aft.v < REVERSAL_SIGMAS * Math.hypot(bef.se, aft.se)) continue;
      // When: where the line in reaches the cushion's line, within a frame of the nearest sample.
      const target = e.sign === 1 ? e.at - R : e.at + R;
      const dtS = Math.min(t[j]! - t[j - 1]!, t[j + 1]! - t[j]!);
      const tHit = Math.max(t[j]! - dtS, Math.min(t[j]! + dtS, bef.f.t0 + (target - bef.f.c0) / bef.f.c1));
      // Already found over the same window (a creep's arrival is timed from its first sample within
      // a touch of the line, up to a few tenths of a second before this: rendered S03 overhead
      // 60 fps, the white at 10.12 s by the creep rule and 10.28 s here, truly 10.21 s).
      const sameCushion = (q: StrokeEvent) => q.type === 'cushion' && q.ball === b.id && q.side === e.side && Math.abs(q.t - tHit) < REVERSAL_WINDOW_S;
      if (taken.some(sameCushion) || out.some(sameCushion)) continue;
      out.push({ t: r5(tHit), type: 'cushion', ball: b.id, side: e.side, conf: cushionConf(aft.v, gap(j), false, p) });
    }
  }
  return out;
}

/**
 * Contacts with a pocket's jaw, the short cushion that runs from the mouth into the pocket at an
 * angle to the rail (tableGeometry.ts): the ball, moving into the jaw, lost most of its speed
 * across it with its centre R from the jaw's face, or from its nose (the rounded end where the
 * face meets the rail). Seen against the straight cushion's line, such a rebound sends the ball on
 * in the direction it came (deeper into the corner) and was missed.
 */
function jawContactsFor(b: BallPath, kink: Kink, table: TableProfile, dt: number, p: EventParams, sinking: (t: number, pk: { x: number; y: number; mouth: number }) => boolean): StrokeEvent[] {
  const R = b.radiusMm;
  let best: { s: TableSegment; t: number; gap: number; vOutN: number; timed: boolean } | undefined;
  for (const s of geomOf(table).segments) {
    if (!s.jaw) continue;
    const len = Math.hypot(s.x1 - s.x0, s.y1 - s.y0);
    const along = ((kink.x - s.x0) * (s.x1 - s.x0) + (kink.y - s.y0) * (s.y1 - s.y0)) / len;
    // Short of the jaw's face, the ball meets its nose, a rounded end (tableGeometry's `ends`):
    // the normal there runs from the nose to the ball's centre, between the rail's and the face's
    // (rendered S03 overhead 30 fps: the black into TL's nose at 350 mm/s, 13.6 mm short of the
    // face, lost 96 % of its speed along that normal and ran on along the face into the pocket;
    // against the rail's normal it kept a third, against the face's it "rebounded"). Beyond the
    // face's far end by more than half a ball it is not this jaw's.
    if (along > len + R / 2) continue;
    const dNose = Math.hypot(kink.x - s.x0, kink.y - s.y0);
    for (const nose of along < -R / 2 ? [true] : along < 0 ? [false, true] : [false]) {
      if (nose && !(dNose > 0)) continue;
      const [nx, ny] = nose ? [(kink.x - s.x0) / dNose, (kink.y - s.y0) / dNose] : [s.nx, s.ny];
      const vInN = kink.vIn[0] * nx + kink.vIn[1] * ny;
      const vOutN = kink.vOut[0] * nx + kink.vOut[1] * ny;
      if (!(vInN < -40 && vOutN > 0.3 * vInN)) continue;
      const gap = nose ? dNose - R : (kink.x - s.x0) * s.nx + (kink.y - s.y0) * s.ny - R;
      const onFace = (t: number) => {
        const [x, y] = evalPos(kink.before.fit, t);
        return nose ? Math.hypot(x - s.x0, y - s.y0) : (x - s.x0) * s.nx + (y - s.y0) * s.ny;
      };
      const tGeo = timeAtCoord(onFace, R, kink.tLo - dt, kink.tHi + dt * 0.5);
      // The path before reaching the face inside the kink's interval is the contact, though the
      // kink itself (timed 20 ms early, at 330 mm/s) sits 10 mm off the face (rendered short frame,
      // the green rattled off the middle pocket's jaw 0.13 s before it dropped). A clear rebound may
      // sit twice as far off, as on the straight cushions: the same green measured with the overhead
      // camera's height (calibration/spotHeight.ts) turns 8.01 mm off the face.
      if (tGeo === undefined && Math.abs(gap) > (vOutN > -0.2 * vInN ? 2 : 1) * p.cushionToleranceMm) continue;
      // A nose is a point: only a path that reached it, with the kink within twice the tolerance
      // of it (as a clear rebound off a straight cushion), and came off no faster than it came in.
      // (Rendered S24 broadcast 25 fps: the black rolling along the top cushion at 190 mm/s slowed
      // 7 mm short of TR's nose, 50 mm/s into it; S26-S27 overhead 60 fps: the black dropping
      // into TR "bounced" off its nose at 130 mm/s from 90.)
      if (nose && (tGeo === undefined || Math.abs(gap) > 2 * p.cushionToleranceMm || vOutN > -vInN)) continue;
      const t = tGeo ?? kink.t;
      if (sinking(t, table.pockets[s.jaw]!)) continue;
      if (!best || Math.abs(gap) < Math.abs(best.gap)) best = { s, t, gap, vOutN, timed: tGeo !== undefined };
    }
  }
  return best ? [{ t: r5(best.t), type: 'cushion', ball: b.id, side: best.s.side, jaw: best.s.jaw!, conf: cushionConf(best.vOutN, best.gap, best.timed, p) }] : [];
}

/** How far a straight path must cut into a jaw's face (its centre nearer than R by this) to have met it, mm: a graze within the calibration's error is no contact. */
const JAW_CUT_MM = 3;
/** A ball meets a jaw's nose or face only moving into it at this speed or more, mm/s (the straight cushion's test: 40). */
const MIN_MOUTH_APPROACH_MM_PER_S = 40;
/** Two cushions of one kink this close in time (or two frames) are one corner's, s. */
const CORNER_PAIR_S = 0.05;

/**
 * A potted ball's meeting with a jaw after it was last seen. Between the last sighting and the
 * drop a ball going into a pocket at an angle can meet a jaw's face (rendered short frame: the
 * black met the middle pocket's jaw 49 ms before it dropped, a frame after it was last seen;
 * S20: the black met the corner's jaw 33 ms before). The path from the last sighting, straight
 * on, cuts into the face of one of that pocket's jaws before the centre is past the fall line
 * (tableGeometry's `dropDepthMm`): it met that jaw where its centre was R from the face.
 */
export function unseenJawContact(table: TableProfile, pocket: PocketId, ball: string, R: number, from: readonly [number, number], v: readonly [number, number], tFrom: number, tGone: number): StrokeEvent | undefined {
  const g = geomOf(table);
  const pk = g.pockets.find((q) => q.id === pocket);
  const speed = Math.hypot(v[0], v[1]);
  if (!pk || !(speed > MIN_IMPULSE_MM_PER_S)) return undefined;
  const jaws = g.segments.filter((sg) => sg.jaw === pocket);
  const faceGap = (sg: TableSegment, x: number, y: number): number | undefined => {
    const len = Math.hypot(sg.x1 - sg.x0, sg.y1 - sg.y0);
    const along = ((x - sg.x0) * (sg.x1 - sg.x0) + (y - sg.y0) * (sg.y1 - sg.y0)) / len;
    if (along < 0 || along > len) return undefined;
    return (x - sg.x0) * sg.nx + (y - sg.y0) * sg.ny - R;
  };
  // Already against a face when last seen: that is a seen contact's business, not this.
  if (jaws.some((sg) => { const d = faceGap(sg, from[0], from[1]); return d !== undefined && d < 1; })) return undefined;
  const stepS = 0.0005;
  let touch: { sg: TableSegment; t: number } | undefined;
  for (let tau = 0; tau <= tGone - tFrom + 1e-9; tau += stepS) {
    const x = from[0] + v[0] * tau, y = from[1] + v[1] * tau;
    if (depthPastMouth(pk, x, y) >= pk.dropDepthMm) return undefined; // fell first
    for (const sg of jaws) {
      const d = faceGap(sg, x, y);
      if (d === undefined || v[0] * sg.nx + v[1] * sg.ny >= 0) continue;
      if (!touch && d <= 0) touch = { sg, t: tFrom + tau };
      if (touch?.sg === sg && d <= -JAW_CUT_MM) return { t: r5(touch.t), type: 'cushion', ball, side: sg.side, jaw: pocket, conf: 0.5 };
    }
  }
  return undefined;
}

/** A ball that appeared after the strike must be seen on this many frames before its loss is a pot or a ball off. */
const MIN_SIGHTINGS_TO_LEAVE = 6;
/** A ball in a pocket's mouth moving within 35° of the way a sinking ball seems to go is sinking. */
const SINKING_COS = Math.cos((35 * Math.PI) / 180);
/** A ball in a pocket's opening, lost soon after, that slowed and turned less than this was dropping in. */
const DROP_TURN_RAD = (30 * Math.PI) / 180;
/** A ball turned by more than twice DROP_TURN_RAD that runs on faster than this was sent on by a jaw, not dropping, mm/s. */
const JAW_SENT_ON_MM_PER_S = 100;
/** …and keeps at least this share of its speed. */
const JAW_SENT_ON_SHARE = 0.25;
/** A ball stopping in a pocket's opening and lost within this is dropping in, not on the jaw, s. */
const JAW_DROP_S = 0.4;
/** A ball struck unseen went into the pocket within this of its direction (sure-ish), or this (rough), degrees. */
const UNSEEN_POT_DEG = 25;
const UNSEEN_POT_ROUGH_DEG = 60;
/** Fastest ball worth considering (a power break), mm/s. */
const MAX_BALL_SPEED_MM_PER_S = 9000;
/** How long before its loss a sighting over a pocket's hole still says where it dropped, s. */
const DROP_SEEN_S = 0.5;

/**
 * Where a ball lost from sight sank, by the way it went last: it turned in a pocket's mouth (the
 * centre within half the mouth plus R/2 of the pocket, as `cushionsFor`'s drop) onto the way a
 * sinking ball seems to go in this camera's picture (sinking.ts), went on that way on every
 * piece after, and was lost within JAW_DROP_S of the turn. A broadcast camera sees a ball
 * dropping into a far corner "roll" back down the table from the mouth, faster and faster, and a
 * tracker may follow that and then coast it on unseen: the path never reaches a pocket (rendered
 * S13 broadcast, 25 and 60 fps: the yellow into the far corner, last seen 130 mm from it going
 * away at 0.9 m/s, and no pot).
 */
function sankInMouth(b: BallPath, table: TableProfile, tLast: number, view: CameraView): { pocket: PocketId; t: number } | undefined {
  if (!view.sink) return undefined;
  let from = b.kinks.length;
  while (from > 0 && !b.kinks[from - 1]!.after.still && leavesSinkingWay(b.kinks[from - 1]!, view)) from--;
  let k = b.kinks[from];
  // Stalled in the mouth first (a still piece, then off the sinking way): the drop began with
  // the stall (rendered S26-S27 broadcast 25 fps: the in-off white "still" in the corner's mouth
  // for 0.12 s, then away up the cushion at 1 m/s).
  const stall = k?.before.still ? b.kinks[from - 1] : undefined;
  if (stall && !stall.before.still) k = stall;
  if (!k || k.before.still || tLast - k.t > JAW_DROP_S) return sankInMouthSeen(b, table, tLast, view);
  const pocket = POCKETS.find((id) => {
    const pk = table.pockets[id];
    return pk && Math.hypot(k.x - pk.x, k.y - pk.y) <= pk.mouth / 2 + b.radiusMm / 2;
  });
  return pocket ? { pocket, t: k.t } : undefined;
}

/**
 * The same read from the sightings themselves, for a drop the pieces do not show: a falling ball's
 * apparent speed grows from nothing (gravity), so the piece fitted after the mouth, with its
 * acceleration, leaves the mouth slowly or even backwards, and a broadcast camera's far end
 * cuts what follows into pieces too short to meet in kinks (rendered S26-S27 broadcast 60 fps:
 * the in-off white reached (26, 30) in the corner's mouth, then was read 100 mm up the cushion
 * within 0.18 s and lost; its first piece after the mouth left it at 57 mm/s backwards). The
 * earliest sighting in a mouth, reached moving, from which every later sighting that is more
 * than R/2 away (the centres' noise) lies within SINKING_COS of the sinking way, at least R away
 * in the end, and lost within JAW_DROP_S of it. A ball rattling out of the jaws is seen for
 * longer, or comes back onto the bed another way.
 */
function sankInMouthSeen(b: BallPath, table: TableProfile, tLast: number, view: CameraView): { pocket: PocketId; t: number } | undefined {
  const { t, x, y } = b.samples;
  const R = b.radiusMm;
  let found: { pocket: PocketId; t: number } | undefined;
  for (let j = t.length - 2; j >= 0 && tLast - t[j]! <= JAW_DROP_S; j--) {
    const seg = b.segs.find((s) => s.s0 <= j && j <= s.s1);
    if (!view.sink?.(x[j]!, y[j]!) || !seg || seg.still) continue;
    const far = sinkingReach(b, x[j]!, y[j]!, t[j]!, view);
    // Walking back, the first sighting off the sinking way ends the search: the drop began later.
    if (far === undefined) break;
    const pocket = POCKETS.find((id) => {
      const pk = table.pockets[id];
      return pk && Math.hypot(x[j]! - pk.x, y[j]! - pk.y) <= pk.mouth / 2 + R / 2;
    });
    if (pocket && far >= R) found = { pocket, t: t[j]! };
  }
  return found;
}

/**
 * How far the ball was seen to go the way a sinking ball seems to go from (x0, y0) after tFrom:
 * the farthest sighting after tFrom, mm, when every one more than R/2 away (the centres' noise)
 * lies within SINKING_COS of that way; undefined when one does not (or the camera shows no way there).
 */
function sinkingReach(b: BallPath, x0: number, y0: number, tFrom: number, view: CameraView): number | undefined {
  const down = view.sink?.(x0, y0);
  if (!down) return undefined;
  const { t, x, y } = b.samples;
  let far = 0;
  for (let m = 0; m < t.length; m++) {
    if (t[m]! <= tFrom) continue;
    const dx = x[m]! - x0, dy = y[m]! - y0, d = Math.hypot(dx, dy);
    if (d < b.radiusMm / 2) continue;
    if ((dx * down[0] + dy * down[1]) / d < SINKING_COS) return undefined;
    far = Math.max(far, d);
  }
  return far;
}

/** Pocket a vanishing ball went into: the pocket its path (extrapolated over the gap) reached. */
function potFor(b: BallPath, table: TableProfile, series: Series, dt: number, p: EventParams, events: readonly StrokeEvent[], cueId: string, view: CameraView, struck?: StruckUnseen): StrokeEvent | undefined {
  const left = b.left!;
  if (struck && left.how !== 'offTable') {
    // Struck from rest and never seen moving: the pocket it was sent at; one roughly that way
    // (a cut is measured coarsely from the striker's smear), more doubtfully.
    const from: [number, number] = [b.samples.x.at(-1)!, b.samples.y.at(-1)!];
    const close = pocketAlong(table, from, struck.dir, UNSEEN_POT_DEG * (Math.PI / 180));
    const rough = close ?? pocketAlong(table, from, struck.dir, UNSEEN_POT_ROUGH_DEG * (Math.PI / 180));
    if (rough) return { t: r5(struck.contact.t + dt / 2), type: 'pot', ball: b.id, pocket: rough, conf: close ? 0.6 : 0.4 };
  }
  const tLast = series.t[left.kLastSeen]!;
  const tGone = series.t[left.kGone]!;
  const last = b.segs.at(-1)!;
  // Leaving the bed over a cushion takes speed; something rolling off it slower was not a ball
  // (a hand on the cloth read as pink, then slid off over the rail: Bucharest Task2 clips 10 and 24,
  // a foul called for a ball off the table). Unless a contact sent it off unseen at speed.
  // A ball the stroke set moving (the cue ball struck, a ball hit) may leave slower: it was
  // airborne (rendered S39: the white, jumped, goes over the top cushion at 1.1 m/s); the hand
  // read as a ball started on its own.
  const played = events.some((e) => (e.type === 'strike' && e.ball === b.id && b.id === cueId) || (e.type === 'contact' && (e.a === b.id || e.b === b.id) && e.t <= tLast));
  const offTable = (t: number, conf: number): StrokeEvent | undefined => {
    const v = leavingSpeed(b, tLast);
    return v >= MIN_LEAVE_MM_PER_S || (played && v >= MIN_PLAYED_LEAVE_MM_PER_S) || events.some((e) => e.type === 'contact' && (e.a === b.id || e.b === b.id) && e.t >= tLast - 0.3 && e.t <= tGone + dt)
      ? { t: r5(t), type: 'offTable', ball: b.id, conf }
      : undefined;
  };
  let pathAt = (t: number) => evalPos(last.still ? last.fit : { ...last.fit, x: [last.fit.x[0], last.fit.x[1], 0], y: [last.fit.y[0], last.fit.y[1], 0] }, t);
  const [lx, ly] = evalPos(last.fit, tLast);
  const { t: ts, x: xs, y: ys } = b.samples;
  const n = ts.length;
  if (last.s1 - last.s0 < 2 && n >= 2) {
    // Seen once or twice since its last impulse: go on in a straight line from the last two
    // sightings (from the contact, when one came between them: the ball was at rest before it).
    let t0 = ts[n - 2]!;
    const hit = events.filter((e) => e.type === 'contact' && (e.a === b.id || e.b === b.id) && e.t > t0 && e.t < ts[n - 1]!).at(-1);
    if (hit) t0 = hit.t;
    const span = Math.max(1e-3, ts[n - 1]! - t0);
    const vx = (xs[n - 1]! - xs[n - 2]!) / span, vy = (ys[n - 1]! - ys[n - 2]!) / span;
    const px = xs[n - 1]!, py = ys[n - 1]!;
    pathAt = (t: number) => [px + vx * (t - ts[n - 1]!), py + vy * (t - ts[n - 1]!)];
  }
  // Seen over a pocket's hole shortly before it was lost: it dropped there, whatever the camera
  // reported after (a ball falling in slides off the bed plane in the picture, away from the
  // pocket on a broadcast camera's far end).
  for (let j = n - 1; j >= 0 && ts[n - 1]! - ts[j]! <= DROP_SEEN_S; j--) {
    const hole = pocketHoleUnder(table, xs[j]!, ys[j]!, b.radiusMm, p.overHoleMarginMm);
    if (hole && left.how !== 'offTable') return { t: r5(ts[j]!), type: 'pot', ball: b.id, pocket: hole, conf: left.how === 'pocketed' || j === n - 1 ? 0.95 : 0.85 };
  }
  const sank = left.how !== 'offTable' ? sankInMouth(b, table, tLast, view) : undefined;
  if (sank) return { t: r5(sank.t), type: 'pot', ball: b.id, pocket: sank.pocket, conf: 0.8 };
  let best: { id: PocketId; d: number; t: number } | undefined;
  for (const id of POCKETS) {
    const pk = table.pockets[id];
    if (!pk) continue;
    // Closest approach over the gap (plus one frame: the ball may leave sight just before the mouth).
    let dMin = Infinity, tMin = tLast;
    let tEnter: number | undefined;
    const hi = tGone + dt;
    for (let k = 0; k <= 60; k++) {
      const t = tLast + ((hi - tLast) * k) / 60;
      const [x, y] = pathAt(t);
      const d = Math.hypot(x - pk.x, y - pk.y);
      if (d < dMin) {
        dMin = d;
        tMin = t;
      }
      if (tEnter === undefined && d <= pk.mouth / 2) tEnter = t;
    }
    if (dMin <= pk.mouth / 2 + b.radiusMm + p.potCaptureMm && (!best || dMin < best.d)) best = { id, d: dMin, t: Math.min(tEnter ?? tMin, tGone) };
  }
  if (left.how === 'unresolved') {
    if (!best || last.still) return undefined;
    return { t: r5(Math.max(tLast, best.t)), type: 'pot', ball: b.id, pocket: best.id, conf: 0.7 };
  }
  // A path that meets a cushion (centre R from the nose, outside every pocket's opening) before it
  // reaches a mouth would have rebounded: a ball that vanished there flew off the table.
  if (best && left.how === 'vanished') {
    const tMouth = best.t;
    const hi = tGone + dt;
    for (let k = 0; k <= 60; k++) {
      const t = tLast + ((hi - tLast) * k) / 60;
      if (t >= tMouth) break;
      const [x, y] = pathAt(t);
      const hit = edges(table).find((e) => {
        const c = e.axis === 0 ? x : y;
        return (e.sign === 1 ? e.at - c : c - e.at) < b.radiusMm - 1 && !jawAt(table, e, e.axis === 0 ? y : x, b.radiusMm);
      });
      if (hit) return offTable(Math.max(tLast, t), 0.6);
    }
  }
  // Deflected by a contact after its second-to-last sighting (an in-off straight after a contact,
  // a ball struck from rest and gone within a frame): its speed over the gap is unknown, its
  // direction is not. A pocket on that ray, within what the fastest ball covers in the gap, takes
  // it, with less confidence.
  const deflected = n >= 2 && events.some((e) => e.type === 'contact' && (e.a === b.id || e.b === b.id) && e.t > ts[n - 2]! - dt / 2 && e.t <= tGone);
  if (!best && left.how !== 'offTable' && deflected) {
    const dx = xs[n - 1]! - xs[n - 2]!, dy = ys[n - 1]! - ys[n - 2]!;
    const len = Math.hypot(dx, dy);
    if (len > p.moveThresholdMm) {
      const ux = dx / len, uy = dy / len;
      const reach = MAX_BALL_SPEED_MM_PER_S * (tGone - tLast + dt * 0.5);
      for (const id of POCKETS) {
        const pk = table.pockets[id];
        if (!pk) continue;
        const along = (pk.x - lx) * ux + (pk.y - ly) * uy;
        const off = Math.abs((pk.x - lx) * uy - (pk.y - ly) * ux);
        if (along >= -b.radiusMm && along <= reach && off <= pk.mouth / 2 + b.radiusMm + p.potCaptureMm && (!best || off < best.d)) best = { id, d: off, t: (tLast + tGone) / 2 };
      }
      if (best) return { t: r5(best.t), type: 'pot', ball: b.id, pocket: best.id, conf: 0.75 };
    }
  }
  if (left.how === 'offTable' && (!best || best.d > table.pockets[best.id]!.mouth / 2)) {
    // Leaving the bed takes reaching a cushion: a ball last seen out on the cloth, further from
    // every cushion than two frames of its own speed, was lost there (among other balls, under a
    // player) and coasted off the bed in the producer's prediction only — a red leaving a broken
    // pack, lost 630 mm from the nearest cushion at 1.3 m/s, was called off the table (rendered
    // S39 overhead, 30 fps). The library's true flights leave within 141 mm at 4.7 m/s (P24 at
    // 25 fps) and within 60 mm at every slower speed. Nothing is called on a guess.
    const gap = Math.min(...edges(table).map((e) => edgeGap(e, e.axis === 0 ? lx : ly, b.radiusMm)));
    if (gap > 2 * b.radiusMm + LEAVE_REACH_FRAMES * leavingSpeed(b, tLast) * dt) return undefined;
    return offTable(tLast, 0.9);
  }
  if (best) {
    const pk = table.pockets[best.id]!;
    const lastD = Math.hypot(lx - pk.x, ly - pk.y);
    // Seen right at the mouth: sure. Reached only by extrapolation: less so.
    const conf = left.how === 'pocketed' ? 0.98 : lastD <= pk.mouth / 2 + b.radiusMm * 2 + p.potCaptureMm ? 0.95 : 0.8;
    return { t: r5(Math.max(tLast, best.t)), type: 'pot', ball: b.id, pocket: best.id, conf };
  }
  if (left.how === 'pocketed') {
    // The producer says pocketed but the path reached no pocket: name the nearest, doubtfully.
    const id = nearestPocket(table, lx, ly);
    return id ? { t: r5(tLast), type: 'pot', ball: b.id, pocket: id, conf: 0.5 } : undefined;
  }
  // Gone from rest with nothing seen to send it anywhere (no contact, no start): lifted off the
  // bed by hand, or never a ball (a hand on the cloth read as pink until it moved away,
  // Bucharest Task2 clip 3). Nothing to report: a foul is not called on a guess.
  if (left.how === 'vanished' && last.still && b.kinks.every((k) => k.t < last.t0 || k.after.still) && !events.some((e) => e.type === 'contact' && (e.a === b.id || e.b === b.id))) return undefined;
  // Vanished away from every pocket: it left the bed (or the tracker lost it): doubtful.
  return offTable(tLast, left.how === 'offTable' ? 0.9 : 0.5);
}

/**
 * A ball at rest whose edge is this close to a pocket's mouth line, between the jaws, hangs over it
 * (may go in on its own), mm. The lip is not a line: the S43 scenario's red left "on the edge" of a
 * corner stands 7 mm short of the jaws' line and drops a second after everything stopped.
 */
const HANGING_MARGIN_MM = 10;

/** A ball seen within this many pixels of a cushion's line may be touching it (centres are read to about a pixel, with biases of one near the edges). */
const TOUCH_PIXELS = 1.5;

/** A creep that touched a cushion comes to rest within this many touch distances of it (it rebounds a little). */
const CREEP_REST_TOUCHES = 3;
/** A creep to a cushion covers at least this much of the way to it in its last piece of path, mm. */
const MIN_CREEP_RUN_MM = 10;
/** A creep seen at least this much nearer a cushion than where it came to rest came back off it, mm. */
const MIN_COME_BACK_MM = 2;
/** A creep has arrived where it rests when its fitted approach is this near that spot, mm (its last mm are its slowest). */
const CREEP_ARRIVED_MM = 1;
/** The first this-many seconds of a rest after a creep may still hold its arrival at a cushion. */
const CREEP_SETTLE_S = 0.3;

/** A ball leaves the bed within this many frames of its speed (plus a diameter) of a cushion's line: see `potFor`. */
const LEAVE_REACH_FRAMES = 2;
/** A cushion met this shortly before a ball left the table over it was gone over, not met, s. */
const OVER_CUSHION_S = 0.25;

/** Slowest a ball leaves the bed over a cushion (it has to jump the nose; the rendered S37 red flies off at 2.8 m/s, a hand read as pink slid off the rail at 1.3), mm/s. */
const MIN_LEAVE_MM_PER_S = 1800;
/** …and a ball the stroke itself set moving (struck or hit), mm/s. */
const MIN_PLAYED_LEAVE_MM_PER_S = 800;

/** The fastest a ball went between consecutive sightings over the 0.25 s up to `tLast`, mm/s. */
function leavingSpeed(b: BallPath, tLast: number): number {
  const { t, x, y } = b.samples;
  let v = 0;
  for (let j = t.length - 1; j > 0 && tLast - t[j - 1]! <= 0.25; j--) {
    if (t[j]! > tLast + 1e-9) continue;
    v = Math.max(v, Math.hypot(x[j]! - x[j - 1]!, y[j]! - y[j - 1]!) / Math.max(1e-3, t[j]! - t[j - 1]!));
  }
  return v;
}

function nearestPocket(table: TableProfile, x: number, y: number): PocketId | undefined {
  let best: PocketId | undefined, bd = Infinity;
  for (const id of POCKETS) {
    const pk = table.pockets[id];
    if (!pk) continue;
    const d = Math.hypot(x - pk.x, y - pk.y);
    if (d < bd) {
      bd = d;
      best = id;
    }
  }
  return best;
}

type Line = { name: 'baulkLine' | 'headString' | 'centreLine' | 'zone0' | 'zone1' | 'centreCircle'; value: (x: number, y: number) => number; level: number; zone: boolean };

/** Marking lines per game. Zones: the value is below the level inside the zone. */
export function linesOf(table: TableProfile): Line[] {
  const L = table.bed.length;
  const out: Line[] = [];
  if (table.game === 'snooker' && table.baulkLineY !== undefined) out.push({ name: 'baulkLine', value: (_x, y) => y, level: table.baulkLineY, zone: false });
  if (table.game === 'pool8' && table.headStringY !== undefined) out.push({ name: 'headString', value: (_x, y) => y, level: table.headStringY, zone: false });
  if (table.game === 'novus') {
    const z = table.zoneLineMm ?? 100;
    out.push({ name: 'zone0', value: (_x, y) => y, level: z, zone: true });
    out.push({ name: 'zone1', value: (_x, y) => L - y, level: z, zone: true });
    const c = table.spots['centre'] ?? { x: table.bed.width / 2, y: L / 2 };
    out.push({ name: 'centreCircle', value: (x, y) => Math.hypot(x - c.x, y - c.y), level: table.centreCircleRadiusMm ?? 100, zone: true });
  }
  return out;
}

function crossings(b: BallPath, lines: readonly Line[], p: EventParams): StrokeEvent[] {
  const out: StrokeEvent[] = [];
  const { t, x, y } = b.samples;
  for (const ln of lines) {
    // Side with hysteresis: −1 below level − h, +1 above level + h, unchanged in the band.
    let side = 0;
    let lastK = -1;
    for (let k = 0; k < t.length; k++) {
      const v = ln.value(x[k]!, y[k]!) - ln.level;
      const s = v > p.lineHysteresisMm ? 1 : v < -p.lineHysteresisMm ? -1 : 0;
      if (s === 0) continue;
      if (side !== 0 && s !== side && lastK >= 0) {
        // Interpolate the crossing between the last sample on the old side and this one.
        const v0 = ln.value(x[lastK]!, y[lastK]!) - ln.level;
        const f = v0 / (v0 - v);
        const tc = t[lastK]! + (t[k]! - t[lastK]!) * f;
        const dir = ln.zone ? (s < 0 ? 'in' : 'out') : s > 0 ? 'up' : 'down';
        out.push({ t: r5(tc), type: 'cross', ball: b.id, line: ln.name, dir, conf: 0.95 });
      }
      side = s;
      lastK = k;
    }
  }
  return out;
}

/**
 * Where a path came nearest a point between t0 and t1, sampled every `stepS` (gaps bridged by the
 * nearest piece), stopping at the first time within `stopWithinMm` if given.
 */
function nearestApproach(segs: readonly Segment[], P: readonly [number, number], t0: number, t1: number, stepS: number, stopWithinMm = -Infinity): { t: number; d: number } {
  let best = { t: t0, d: Infinity };
  for (let t = t0; t <= t1; t += stepS) {
    const d = Math.hypot(...sub(posAt(segs, t), P));
    if (d < best.d) best = { t, d };
    if (d <= stopWithinMm) break;
  }
  return best;
}

/** Whether a ball was sighted within `withinS` of t (its path there measured, not bridged). */
const seenWithin = (ts: readonly number[], t: number, withinS: number): boolean => ts.some((q) => Math.abs(q - t) <= withinS);

/**
 * The striker's first contact, when it was missed but what followed shows it. The earliest
 * contact is between two balls that lay at rest at the strike; one of them was set moving first,
 * and only the striker was moving then. If the striker's measured path came within touching
 * distance (plus twice the tolerance: the contact was missed because the fits are that far off)
 * of one of them before that contact, it struck that one there (rendered S09 overhead: the white
 * full on red1, which met the pink 44 ms later, in the same frame interval; the contact read was
 * red→pink). Doubtful (conf 0.5); nothing when the striker was not seen near then.
 */
export function strikerContactInferred(events: readonly StrokeEvent[], paths: readonly BallPath[], strikeBall: string | null, strikeT: number, dt: number, p: EventParams, movingAtStrike: (id: string) => boolean): Extract<StrokeEvent, { type: 'contact' }> | undefined {
  const striker = paths.find((b) => b.id === strikeBall);
  if (!striker || !Number.isFinite(strikeT)) return undefined;
  const contacts = events.filter((e): e is Extract<StrokeEvent, { type: 'contact' }> => e.type === 'contact').sort((u, v) => u.t - v.t);
  const first = contacts[0];
  if (!first || first.a === striker.id || first.b === striker.id || movingAtStrike(first.a) || movingAtStrike(first.b)) return undefined;
  const ts = striker.samples.t;
  let best: { id: string; t: number; d: number } | undefined;
  for (const id of [first.a, first.b]) {
    const x = paths.find((b) => b.id === id);
    if (!x || !x.segs[0]?.still) continue;
    const P = evalPos(x.segs[0].fit, x.segs[0].t1);
    const D = x.radiusMm + striker.radiusMm;
    // From the strike to the contact: the first time the striker was within D (else its nearest).
    const hit = nearestApproach(striker.segs, P, strikeT, first.t + 1e-9, 0.001, D);
    if (hit.d > D + 2 * p.contactToleranceMm) continue;
    if (seenWithin(ts, hit.t, 2 * dt) && (!best || hit.d < best.d)) best = { id, t: hit.t, d: hit.d };
  }
  return best ? { t: r5(Math.min(best.t, first.t - 1e-4)), type: 'contact', a: striker.id, b: best.id, conf: 0.5 } : undefined;
}

/** A striker unseen at a possible contact counts as seen there when sighted this close before and after it, s. */
const HIDDEN_CONTACT_S = 0.3;

/** The striker's measured path within touching distance plus this of a ball that then set off: a possible contact, mm. */
const POSSIBLE_CONTACT_MM = 40;

/**
 * No contact of the striker found at all, yet a ball that lay at rest set off after the striker's
 * path came near it: the contact was there but the measurement could not place it (a broadcast
 * camera reads the ball behind the striker up to 20 mm off as the striker comes over it: S38, S16,
 * S41, the short frame's brown). Without this the referee calls NO_CONTACT outright; with it, a
 * contact with the first such ball at conf 0.3, which the referee sends to review. The earliest
 * ball to set off (seen a radius from its place), the striker within 2R + 40 mm of its place
 * before then, seen near then or hidden between sightings just before and after.
 */
export function possibleFirstContact(events: readonly StrokeEvent[], paths: readonly BallPath[], onsets: readonly { b: BallPath; k: Kink }[], strikeBall: string | null, strikeT: number, dt: number): Extract<StrokeEvent, { type: 'contact' }> | undefined {
  const striker = paths.find((b) => b.id === strikeBall);
  if (!striker || !Number.isFinite(strikeT)) return undefined;
  if (events.some((e) => e.type === 'contact' && (e.a === striker.id || e.b === striker.id))) return undefined;
  const ts = striker.samples.t;
  for (const o of [...onsets].sort((u, v) => u.k.t - v.k.t)) {
    if (o.b.id === striker.id || o.k.t <= strikeT || !o.b.segs[0]?.still) continue;
    const P = evalPos(o.b.segs[0].fit, o.b.segs[0].t1);
    const D = o.b.radiusMm + striker.radiusMm;
    // Until the ball is seen a radius from its place (or gone from the bed): the same camera that
    // misplaces it as the striker comes over it makes it seem to set off early, while the striker
    // is still on its way (rendered S16 broadcast: the blue read 14 mm towards the white, coming
    // straight at it from the camera's side, while the white was 160 mm off; the white got there
    // 0.4 s later). A ball never seen that far off did not set off: it jittered (rendered S41
    // broadcast: the green on the baulk line, 13 mm either way).
    const { t: bt, x: bx, y: by } = o.b.samples;
    let tAway = o.b.left ? bt[bt.length - 1]! : Infinity;
    for (let j = 0; j < bt.length; j++) {
      if (bt[j]! > o.k.t && Math.hypot(bx[j]! - P[0], by[j]! - P[1]) > o.b.radiusMm) {
        tAway = bt[j]!;
        break;
      }
    }
    if (!Number.isFinite(tAway)) continue;
    const near = nearestApproach(striker.segs, P, strikeT, Math.max(o.k.t, tAway) + 2 * dt, 0.002, D);
    // Seen near then — or hidden then, between sightings on both sides (the striker over the ball
    // is one blob: S16's white, unseen for 0.2 s as it met the blue). Timed at the striker's
    // arrival within touching distance, else at its nearest approach before the ball went.
    const seen = seenWithin(ts, near.t, 2 * dt) || (ts.some((q) => q < near.t && q >= near.t - HIDDEN_CONTACT_S) && ts.some((q) => q > near.t && q <= near.t + HIDDEN_CONTACT_S));
    if (seen && near.d <= D + POSSIBLE_CONTACT_MM) return { t: r5(near.d <= D ? near.t : Math.min(near.t, tAway)), type: 'contact', a: striker.id, b: o.b.id, conf: 0.3 };
  }
  return undefined;
}

/** The striker's centre this much nearer than R₁ + R₂ to a ball that never moved: it passed over it, mm (positions are good to a few mm; a near miss cannot overlap by this). */
const JUMP_OVERLAP_MM = 10;
/** A ball back within this of where it lay was not struck (a struck ball, even thinly cut, goes much further), mm. */
const JUMP_STILL_MM = 8;
/** The striker seen this near in time either side of its pass over a ball, s (or two frames). */
const JUMP_SEEN_S = 0.05;
/** A ball this close to another or to a cushion may be held by it and stay put when struck, mm. */
const HELD_GAP_MM = 3;

/**
 * Jumps. A ball at rest that is struck moves — unless something holds it (a ball or a cushion
 * against it). So when the striker's path runs through the place of a ball that never moved, by
 * more than any measurement error, and nothing held that ball, the striker went over it: a jump
 * (rendered S42: the white over the pink; the detector sees one blob and the fit a contact at 2R).
 * Returns the jumps, at the striker's nearest approach, for the contacts with those balls to go,
 * and the passes: a fitted path through such a ball's place where the straight line through the
 * reads either side passes clear of it (`lineThrough`) — no jump, and no contact either.
 */
export function jumpsOver(paths: readonly BallPath[], strikerId: string | null, strikeT: number, dt: number, table: TableProfile, contacts: readonly Extract<StrokeEvent, { type: 'contact' }>[] = []): { jumps: Extract<StrokeEvent, { type: 'jump' }>[]; passes: Extract<StrokeEvent, { type: 'jump' }>[] } {
  const striker = paths.find((b) => b.id === strikerId);
  const out: Extract<StrokeEvent, { type: 'jump' }>[] = [];
  const passes: Extract<StrokeEvent, { type: 'jump' }>[] = [];
  if (!striker || !Number.isFinite(strikeT)) return { jumps: out, passes };
  // Where a ball lay all stroke: unmoved, or back where it was by the end (a ball behind the
  // striker in a broadcast view is read a few mm off while the striker covers it — S42's pink).
  const placeOf = (b: BallPath): [number, number] | undefined => {
    if (b.left || b.samples.t.length === 0) return undefined;
    if (!b.moved && b.segs.length === 1 && b.segs[0]!.still) return evalPos(b.segs[0]!.fit, b.segs[0]!.t1);
    const first = b.segs[0]!, last = b.segs.at(-1)!;
    if (!first.still || !last.still) return undefined;
    const p0 = evalPos(first.fit, first.t1), p1 = evalPos(last.fit, last.t1);
    return Math.hypot(p1[0] - p0[0], p1[1] - p0[1]) <= JUMP_STILL_MM ? p0 : undefined;
  };
  const { width: W, length: L } = table.bed;
  for (const x of paths) {
    if (x.id === striker.id) continue;
    const P = placeOf(x);
    if (!P) continue;
    const D = x.radiusMm + striker.radiusMm;
    const held = P[0] - x.radiusMm < HELD_GAP_MM || W - P[0] - x.radiusMm < HELD_GAP_MM || P[1] - x.radiusMm < HELD_GAP_MM || L - P[1] - x.radiusMm < HELD_GAP_MM ||
      paths.some((o) => o !== x && o !== striker && o.samples.t.length > 0 && Math.hypot(...sub(posAt(o.segs, x.samples.t[0]!), P)) < o.radiusMm + x.radiusMm + HELD_GAP_MM);
    if (held) continue;
    // Over the striker's whole path, gaps included (it is lost over the ball it jumps: one blob).
    const best = nearestApproach(striker.segs, P, strikeT, striker.samples.t.at(-1)!, 0.002);
    // Only where the path is measured, not extrapolated over a long gap (a player in the way):
    // seen within two frames, or 50 ms, either side (at 60 fps the white over S42's pink was lost
    // for three frames, its nearest approach in the middle).
    const ts = striker.samples.t;
    const reach = Math.max(2 * dt, JUMP_SEEN_S) + 1e-6;
    const seenNear = ts.some((q) => q <= best.t && best.t - q <= reach) && ts.some((q) => q >= best.t && q - best.t <= reach);
    // The ball seen there then (not a stale place: a ball struck off the table earlier whose id
    // stayed behind), and not struck before the pass (the rendered P24 cue ball met the 8, which
    // flew off, and rolled over its place 0.4 s later).
    const xSeen = x.samples.t.some((q) => Math.abs(q - best.t) <= 3 * dt);
    const struckBefore = contacts.some((c) => (c.a === x.id || c.b === x.id) && c.t < best.t - 3 * dt);
    if (!(seenNear && xSeen && !struckBefore && best.d < D - JUMP_OVERLAP_MM)) continue;
    // Its path through that ball's place — or past it, the fit pulled by a read: then neither a
    // jump nor a contact (the ball never moved), only a pass.
    const jump: Extract<StrokeEvent, { type: 'jump' }> = { t: r5(best.t), type: 'jump', ball: striker.id, over: x.id, conf: 0.6 };
    if (lineThrough(striker, best.t, dt, P) < D - JUMP_OVERLAP_MM) out.push(jump);
    else passes.push(jump);
  }
  return { jumps: out, passes };
}

/** The straight line through a jump's reads either side is fitted over this much of each side, s. */
const JUMP_LINE_S = 0.15;

/**
 * How near `P` the straight line through the striker's reads within JUMP_LINE_S either side of
 * `t` passes, leaving out those within 1.5 frames of it — a ball in flight goes straight, and one
 * read pulled towards the ball it passes (the two discs run together in the picture) is not its
 * path (rendered S39 overhead 60 fps: the white passing the blue 60 mm off, read 13 mm towards
 * it for a frame: a jump over it). With under two reads a side it returns −∞: the fitted path's
 * approach stands.
 */
function lineThrough(b: BallPath, t: number, dt: number, P: readonly [number, number]): number {
  const ts: number[] = [], xs: number[] = [], ys: number[] = [];
  let before = 0, after = 0;
  b.samples.t.forEach((q, j) => {
    if (Math.abs(q - t) > JUMP_LINE_S || Math.abs(q - t) < 1.5 * dt) return;
    ts.push(q);
    xs.push(b.samples.x[j]!);
    ys.push(b.samples.y[j]!);
    if (q < t) before++;
    else after++;
  });
  if (before < 2 || after < 2) return -Infinity;
  const line = fitPoly(ts, xs, ys, Infinity, 1);
  const [x0, y0] = evalPos(line, line.t0), vx = line.x[1], vy = line.y[1];
  const v2 = vx * vx + vy * vy;
  const tau = v2 > 0 ? ((P[0] - x0) * vx + (P[1] - y0) * vy) / v2 : 0;
  return Math.hypot(x0 + vx * tau - P[0], y0 + vy * tau - P[1]);
}

/** A moving ball turning within this of a hand-like stop (or two frames), beside it, met the stopped ball, s. */
const MEETING_S = 0.05;

/** A ball setting off within two frames of a hand-like stop, its centre within 2R plus this of where the mover stopped, was struck by it, mm. */
const STUN_REACH_MM = 30;

/** How far a contact between balls at rest may be timed before the striker's first contact and still be re-timed (one frame at 10 fps), s. */
export const CAUSAL_SLACK_S = 0.1;

/**
 * Causality. At the strike only the striking ball moves (and any ball still rolling from before),
 * so two balls that lay at rest cannot meet before the striker has touched something. A contact
 * inside a pack timed before the striker's first contact is a timing artefact (at the break a
 * dozen balls start within one frame and their fits are that rough — the rendered snooker break
 * had red3→red11 18 ms before white→red2), and it would be read as the first contact. Such a
 * contact is moved to just after the striker's first, in its order, with its confidence capped.
 * One timed far earlier than that is left as measured: the striker's own contact was then missed,
 * and moving the other by seconds would misplace it; the first contact stays doubtful.
 * Mutates `events`' contact times; `events` are not assumed sorted.
 */
export function retimeBeforeStriker(events: StrokeEvent[], strikeBall: string | null, strikeT: number, dt: number, movingAtStrike: (id: string) => boolean): void {
  if (!strikeBall || !Number.isFinite(strikeT)) return;
  type Contact = Extract<StrokeEvent, { type: 'contact' }>;
  const contacts = events.filter((e): e is Contact => e.type === 'contact');
  const firstOfStriker = Math.min(...contacts.filter((c) => c.a === strikeBall || c.b === strikeBall).map((c) => c.t));
  if (!Number.isFinite(firstOfStriker)) return;
  const early = contacts
    .filter((c) => c.a !== strikeBall && c.b !== strikeBall && c.t < firstOfStriker && firstOfStriker - c.t <= Math.max(CAUSAL_SLACK_S, 3 * dt))
    .filter((c) => !movingAtStrike(c.a) && !movingAtStrike(c.b))
    .sort((u, v) => u.t - v.t);
  early.forEach((c, k) => {
    c.t = r5(firstOfStriker + 1e-4 * (k + 1));
    c.conf = Math.min(c.conf ?? 1, 0.6);
  });
}

/** All events of one stroke window. */
export function analyseStroke(series: Series, w: StrokeWindow, table: TableProfile, p: EventParams, view: CameraView = {}): StrokeAnalysis {
  const dt = frameDt(series.t, w.k0, w.k1);
  const paths = buildPaths(series, w, table, p);
  const cueId = cueBallOf(table.game);
  const events: StrokeEvent[] = [];

  // Strike: the earliest start from rest that no contact explains (normally the cue ball's).
  const onsets: { b: BallPath; k: Kink }[] = [];
  for (const b of paths) for (const k of b.kinks) if (k.before.still && !k.after.still) onsets.push({ b, k });
  onsets.sort((u, v) => u.k.t - v.k.t);
  // Balls already moving at the window's start (no rest piece first): their first sample is the start.
  // A start that ends dead from speed with nothing in the way is a hand putting the ball down
  // (cue ball in hand, a respot, a replacement): a placement, not the strike.
  const handMoves = new Map<Kink, StrokeEvent>();
  const impulseCanBe = (b: BallPath, k: Kink): boolean => {
    const reach = Math.max(Math.hypot(...k.vIn), Math.hypot(...k.vOut)) * dt;
    if (edges(table).some((e) => Math.abs(edgeGap(e, e.axis === 0 ? k.x : k.y, b.radiusMm)) <= p.cushionToleranceMm + reach)) return true;
    return paths.some((a) => a.id !== b.id && Math.hypot(...sub(posAt(a.segs, k.t), [k.x, k.y])) < a.radiusMm + b.radiusMm + p.contactToleranceMm + reach);
  };
  for (const o of onsets) {
    // The first stop after the start, with no real impulse on the way (a fit split is no impulse).
    const stopIdx = o.b.kinks.findIndex((k) => k.t > o.k.t && k.after.still);
    const stop = o.b.kinks[stopIdx];
    if (!stop || Math.hypot(stop.vIn[0], stop.vIn[1]) <= HAND_STOP_MM_PER_S) continue;
    // A "stop" against a cushion (or a jaw) that moves off again within SPLIT_TURN_S is a rebound the
    // fits split (see splitTurns), not a hand: a ball put down against a cushion is not struck
    // within a fifth of a second (rendered S25, overhead 60 fps: the cue ball at 400 mm/s into the
    // left cushion by the middle pocket, "still" for three samples, read as placed there and struck).
    const goesOn = o.b.kinks[stopIdx + 1];
    const [sx, sy] = evalPos(stop.after.fit, stop.after.t0);
    const onCushion = edges(table).some((e) => Math.abs(edgeGap(e, e.axis === 0 ? sx : sy, o.b.radiusMm)) <= p.kinkToleranceMm);
    if (onCushion && goesOn && !goesOn.after.still && goesOn.t - stop.t <= SPLIT_TURN_S + dt * 0.01) continue;
    // (Where it stopped dead from a speed no read's noise gives, an impulse on the way needs
    // something to give it: a cushion or another ball within reach of the kink. A turn with
    // neither is the fit's, from reads under the carrying hand — rendered S26-S27 overhead: the
    // cue ball carried to the D at 9 m/s, its first read 22 mm from rest, the fit "slowing" it
    // 1.2 m/s in mid-bed. Not below that speed: a slow roll's noisy reads, seen from a low camera,
    // turn it every way and stop it "dead" from 470 mm/s — rendered S43 broadcast 30 fps, the
    // struck white taken for placed.)
    const deadStop = Math.hypot(stop.vIn[0], stop.vIn[1]) > DEAD_STOP_MM_PER_S;
    const between = o.b.kinks.filter((k) => k.t > o.k.t && k.t < stop.t);
    if (between.some((k) => Math.hypot(...dv(k)) > 300 && (!deadStop || impulseCanBe(o.b, k)))) continue;
    // A stop in a pocket's mouth, the ball gone within JAW_DROP_S: it dropped (no hand puts a ball
    // down there). Rendered S26-S27 overhead 25 fps: the white in-off into BL at 700 mm/s, read at
    // rest in the mouth for two frames as it fell, then "rolling" up the cushion and lost — a
    // placement there, and a strike from it after the pot.
    if (o.b.left && series.t[o.b.left.kLastSeen]! - stop.t < JAW_DROP_S && pocketAtMouth(table, sx, sy, o.b.radiusMm)) continue;
    // (A stop on a cushion's line that moves off again was let through above; one that stays is a
    // hand: a ball rolling into a cushion that fast rebounds, it does not stop dead.)
    // Nothing in the way: no ball within touching distance of where it stopped, from 0.1 s (or
    // three frames) before to 40 ms (or half a frame) after (a stun shot stops the cue ball dead
    // against the ball it sends off; at 60 fps a stop's time is off by more than half a frame —
    // rendered S42 overhead: the black "stopped" 28 ms before it met the white coming at it).
    const before = Math.max(3 * dt, 0.1), after = Math.max(dt / 2, 0.04);
    const when = [0, 0.25, 0.5, 0.75, 1].map((f) => stop.t - before * f).concat([stop.t + after / 2, stop.t + after]);
    const inTheWay = paths.some((a) => a.id !== o.b.id && when.some((tt) => Math.hypot(...sub(posAt(a.segs, tt), [stop.x, stop.y])) < a.radiusMm + o.b.radiusMm + p.contactToleranceMm));
    if (inTheWay) continue;
    // Another ball setting off from beside it as it stops: it was struck into that ball (a stun),
    // though the two are read over a ball's width apart (rendered short frame, broadcast: the white
    // stopped 67 mm from the yellow it sent off, seen from behind it).
    const sentOff = onsets.some((q) => q.b.id !== o.b.id && Math.abs(q.k.t - stop.t) <= 2 * dt && Math.hypot(q.k.x - stop.x, q.k.y - stop.y) < q.b.radiusMm + o.b.radiusMm + STUN_REACH_MM);
    if (sentOff) continue;
    // …or a moving ball turning beside it then: the two met (rendered S42 overhead, 60 fps: the
    // black back off the top cushion met the white coming up, "stopped" read 62 mm from it; the
    // white turned back 30 ms later).
    const turnedBeside = paths.some((a) => a.id !== o.b.id && a.kinks.some((k) => !k.before.still && Math.abs(k.t - stop.t) <= Math.max(2 * dt, MEETING_S) && Math.hypot(k.x - stop.x, k.y - stop.y) < a.radiusMm + o.b.radiusMm + STUN_REACH_MM));
    if (turnedBeside) continue;
    handMoves.set(o.k, { t: r5(stop.t), type: 'place', ball: o.b.id, x: r2(sx), y: r2(sy), conf: 0.8 });
  }
  let strikeT = Infinity;
  let strikeBall: string | null = null;
  const explainedByStrike = new Set<Kink>();
  // A "start" that is back at rest within JITTER_S a few mm from where it lay is a read bumped
  // by a hand or a cue passing over the ball, not the strike (rendered S38 broadcast 25 fps: the
  // white read 9 mm off for a frame as the respotting hand went by, then at rest 1.8 mm from its
  // old place; the strike 0.16 s later — the blue set down in between was taken as struck
  // before it was respotted).
  const bumped = (o: { b: BallPath; k: Kink }): boolean => {
    const r = nextRest(o.b, o.k);
    return !!r && r.stop.t - o.k.t <= JITTER_S + 1e-9 && r.movedMm < Math.max(JITTER_REST_MM, 3 * p.noiseMm);
  };
  const cueOnset = onsets.find((o) => o.b.id === cueId && !handMoves.has(o.k) && !bumped(o));
  // The cue ball's start is the strike whenever it starts from rest; anything that moved before
  // it was touched (a sleeve, a hand). Another ball is the striker only when the cue ball never
  // starts on its own (WRONG_CUE_BALL is then the referee's call).
  if (cueOnset) {
    strikeT = cueOnset.k.t;
    strikeBall = cueId;
    // A creep first (the tip or an arm over the ball blurs the rest), then off at a strike's
    // speed within CREEP_MAX_S: the strike is the second kink (rendered S40 overhead 25 fps).
    const off = cueOnset.b.kinks.find((q) => q.before === cueOnset.k.after && Math.hypot(q.vOut[0], q.vOut[1]) > MIN_RESTRIKE_SPEED_MM_PER_S);
    // (Or a creep of under half a radius however its piece was fitted: rendered S33 broadcast 30
    // fps, the white read 6 mm off over 0.17 s as the cue was addressed, its piece fitted at
    // 137 mm/s, then off at 714 mm/s — struck 0.17 s early, while a pack ball's read still moved.)
    const creepMm = off ? Math.hypot(off.x - cueOnset.k.x, off.y - cueOnset.k.y) : Infinity;
    if (off && (Math.hypot(cueOnset.k.vOut[0], cueOnset.k.vOut[1]) < CREEP_MAX_MM_PER_S || creepMm < cueOnset.b.radiusMm / 2) && restBeforeCreep(cueOnset.b, off, p)) strikeT = off.t;
  } else {
    // From rest: a "ball" first seen a moment before it "starts" is a hand or a cue over the bed
    // (rendered F21 broadcast 30 fps: a red read over the bottom rail for 0.07 s, then "struck" —
    // the red the cue really struck 0.28 s later was called touched, and no wrong cue ball).
    const firstReal = onsets.find((o) => !handMoves.has(o.k) && trulyAtRest(o.b, o.k.before, p));
    const cue = paths.find((b) => b.id === cueId);
    if (firstReal && cue) {
      // A ball touching the cue ball that leaves straight away from it, the cue ball hardly
      // moving: the cue ball was struck into its touching ball (a push through it).
      const [cx, cy] = posAt(cue.segs, firstReal.k.t);
      const d = Math.hypot(firstReal.k.x - cx, firstReal.k.y - cy);
      const D = cue.radiusMm + firstReal.b.radiusMm;
      const v = Math.hypot(...firstReal.k.vOut);
      const away = v > 0 ? ((firstReal.k.x - cx) * firstReal.k.vOut[0] + (firstReal.k.y - cy) * firstReal.k.vOut[1]) / (d * v) : 0;
      if (d <= D + p.touchingGapMm + 3 * p.noiseMm && away > 0.9) {
        strikeT = firstReal.k.t;
        strikeBall = cueId;
        events.push({ t: r5(strikeT), type: 'contact', a: cueId, b: firstReal.b.id, conf: 0.7 });
        explainedByStrike.add(firstReal.k);
      }
    }
    if (!strikeBall && firstReal) {
      strikeT = firstReal.k.t;
      strikeBall = firstReal.b.id;
    }
  }
  // Hand placements before the strike are `place` events; the strike's own ball included.
  for (const [k, e] of handMoves) if (k.t < strikeT) events.push(e);
  if (strikeBall) events.push({ t: r5(strikeT), type: 'strike', ball: strikeBall, conf: strikeBall === cueId ? 0.99 : 0.6 });

  // Contacts and cushions: explain every kink after the strike.
  const contacts: ContactCandidate[] = [];
  const restrikes: number[] = [];
  const restrikeCands: { b: BallPath; k: Kink }[] = [];
  const unexplainedStarts: { b: BallPath; k: Kink }[] = [];
  const bridged: StrokeEvent[] = [];
  for (const b of paths) {
    for (const k of b.kinks) {
      if ((b.id === strikeBall && k.t === strikeT) || explainedByStrike.has(k)) continue;
      if (k.t < strikeT - dt) {
        // Before the strike nothing can explain a start but a hand, a sleeve or the cue: a touch
        // (a ball being set down by hand is a placement, above).
        if (k.before.still && !k.after.still && b.id !== cueId && b.id !== strikeBall && !handMoves.has(k) && trulyAtRest(b, k.before, p) && !backOnSpot(b, k, dt, p)) events.push({ t: r5(k.t), type: 'touch', ball: b.id, by: 'other', conf: 0.6 });
        continue;
      }
      const c = contactFor(b, k, paths, dt, p) ?? contactByDeparture(b, k, paths, dt, p);
      if (c) {
        contacts.push(c);
        // A ball and a cushion at once: the ball's centre on a cushion's line, going into it,
        // and the kink takes that speed away. No ball can sit between a ball on the line and
        // its cushion, so no contact takes the speed into a cushion away: the cushion did
        // (rendered N02: the striker meets a pawn and the bottom cushion 0.8 ms apart).
        if (!k.before.still) events.push(...cushionsFor(b, k, table, dt, p, b.left ? series.t[b.left.kLastSeen] : undefined, view).filter((e) => e.type === 'cushion' && !e.jaw && Math.abs(gapToLine(table, e.side, k.x, k.y, b.radiusMm)) <= p.cushionToleranceMm / 2));
        continue;
      }
      // The cue ball off again at a strike's speed after a rest the tracker blurred into a creep
      // (the tip covering it, an arm over it): the next stroke, as from rest (rendered S40
      // overhead 25 fps: still to 2.96 s, a 33 mm/s "piece" over a gap to 3.24, 535 mm/s from 3.28).
      // (A rest that began after this stroke's strike: not the strike's own blurred start.)
      if (b.id === cueId && strikeBall === cueId && !k.before.still && !k.after.still && (restBeforeCreep(b, k, p)?.t0 ?? -Infinity) > strikeT + dt && Math.hypot(k.vOut[0], k.vOut[1]) > MIN_RESTRIKE_SPEED_MM_PER_S) {
        restrikeCands.push({ b, k });
        continue;
      }
      if (k.before.still && !k.after.still) {
        const hand = handMoves.get(k);
        if (hand) {
          // Set down by hand after the strike (the next stroke's cue ball in hand, a respot):
          // a placement, whatever else is still rolling.
          events.push(hand);
          continue;
        }
        // Straight after being set down by hand, a short rest is enough for a new strike.
        const prevStop = b.kinks.filter((q) => q.t < k.t && q.after.still).at(-1);
        const afterHand = prevStop !== undefined && [...handMoves.values()].some((e) => e.type === 'place' && e.ball === b.id && Math.abs(e.t - prevStop.t) < 1e-4);
        const rested = trulyAtRest(b, k.before, p) || (afterHand && k.before.t1 - k.before.t0 >= 0.1) || (b.id === cueId && (restedHidden(b, k.before, dt) || restedInPieces(b, k.before, dt, p)));
        // A start from a real rest (not a slow roll that the fit called still) with real speed.
        if (rested && Math.hypot(k.vOut[0], k.vOut[1]) > MIN_TOUCH_SPEED_MM_PER_S) {
          // The cue ball starting again on its own: the next stroke, played before all stopped.
          if (b.id === cueId && strikeBall === cueId) {
            // A new strike sends the cue ball off properly; a creep or a nudge is not one.
            // Its speed just after the start, or over the next RESTRIKE_SPAN_S: a start the cue's
            // approach blurs (the ball read a few mm off as the tip covers it, the fit's first piece
            // then slow) still covers the ground of a strike (rendered S12 broadcast: 188 mm/s at
            // the kink, 400 mm/s over the next 0.2 s).
            if (Math.max(Math.hypot(k.vOut[0], k.vOut[1]), speedOver(b, k.t, RESTRIKE_SPAN_S)) > MIN_RESTRIKE_SPEED_MM_PER_S) restrikeCands.push({ b, k });
          } else unexplainedStarts.push({ b, k });
        }
        continue;
      }
      const tLeft = b.left ? series.t[b.left.kLastSeen] : undefined;
      const own = cushionsFor(b, k, table, dt, p, tLeft, view);
      // (Not for a ball about to drop: a ball rattling in the jaws and falling in turns every
      // way, read by the fits as anything; cushionsFor's sinking rules judge those kinks one by one.)
      if (own.length === 0 && !(tLeft !== undefined && tLeft - k.t < JAW_DROP_S)) {
        // A rebound the fit split (`splitTurns`): the cushion, once, from the whole turn — unless
        // a ball explains a kink on the way, or a later kink shows that cushion on its own.
        for (const turn of splitTurns(b, k, dt)) {
          if (turn.inner.some((n) => contactFor(b, n, paths, dt, p) ?? contactByDeparture(b, n, paths, dt, p))) break;
          const seenLater = turn.inner.flatMap((n) => cushionsFor(b, n, table, dt, p, tLeft, view));
          // Only where the ball was seen on the line during the turn: the piece before `k`,
          // extrapolated over the whole turn, can reach a line the ball never came near (rendered
          // S42: a black bouncing back off the white 130 mm short of the top cushion). A jaw's too
          // (the ball does not drop: see above; rendered S25 overhead 60 fps, the cue ball off the
          // middle pocket's jaw, "still" on it for three samples).
          const found = cushionsFor(b, turn.kink, table, dt, p, tLeft, view).filter(
            (e) => e.type === 'cushion' && seenOnLine(b, e.side, k.tLo, turn.kink.tHi, table, p.cushionToleranceMm) && !seenLater.some((o) => o.type === 'cushion' && o.side === e.side) && !bridged.some((o) => sameCushionHit(o, e)),
          );
          if (found.length) {
            bridged.push(...found);
            break;
          }
        }
      }
      events.push(...own);
    }
  }
  // One contact seen from both balls: keep one, named with the ball that was moving first as `a`.
  contacts.sort((u, v) => u.t - v.t);
  const merged: ContactCandidate[] = [];
  for (const c of contacts) {
    const dup = merged.find((m) => ((m.a === c.a && m.b === c.b) || (m.a === c.b && m.b === c.a)) && Math.abs(m.t - c.t) < dt);
    if (dup) {
      // Both balls kinked: that is corroboration. The struck ball's start from rest (with the
      // geometry) is the better clock; between two moving balls, the view that agrees best.
      // (A loose fit's clock never replaces a good one's.)
      const better = c.loose && !dup.loose ? false : !c.loose && dup.loose ? true : (c.fromRest && !dup.fromRest) || (c.fromRest === dup.fromRest && c.conf > dup.conf);
      if (better) {
        dup.t = c.t;
        dup.fromRest = c.fromRest;
        if (!c.loose) delete dup.loose;
      }
      dup.conf = Math.max(dup.conf, c.conf);
      continue;
    }
    merged.push({ ...c });
  }
  const byId = new Map(paths.map((b) => [b.id, b]));
  const movingBefore = (id: string, t: number) => {
    const sg = beforeSeg(byId.get(id)!.segs, t - 1e-6, dt);
    return sg ? !sg.still : false;
  };
  for (const c of merged) {
    // `a` is the striking ball: the cue ball when it is involved, else the one moving before.
    let a = c.a, b = c.b;
    if (b === cueId || (a !== cueId && !movingBefore(a, c.t) && movingBefore(b, c.t))) [a, b] = [b, a];
    events.push({ t: r5(c.t), type: 'contact', a, b, conf: r3(c.conf) });
  }
  // Balls struck from rest and gone without one sighting moving: their contact, and where they went.
  const struck = new Map<string, StruckUnseen>();
  const stroke = { strikeT, cueId, events };
  for (const b of paths) {
    if (!b.left) continue;
    const seen = events.find((e): e is Extract<StrokeEvent, { type: 'contact' }> => e.type === 'contact' && (e.a === b.id || e.b === b.id));
    if (seen) {
      // Its contact was seen (the striker's turn): only where it went is wanted.
      const s = struckUnseen(b, paths, series, dt, p, stroke, { a: seen.a === b.id ? seen.b : seen.a, t: seen.t });
      if (s) struck.set(b.id, s);
      continue;
    }
    const s = struckUnseen(b, paths, series, dt, p, stroke);
    // (Struck by the striking ball before its fitted start: that start is late — a cue ball
    // gone at speed within a frame of leaving rest — the contact is not before the strike.)
    if (!s || (s.contact.t < strikeT - dt && s.contact.a !== strikeBall)) continue;
    if (s.contact.t < strikeT) s.contact.t = strikeT + 1e-3;
    struck.set(b.id, s);
    events.push({ t: r5(s.contact.t), type: 'contact', a: s.contact.a, b: b.id, conf: s.contact.conf });
  }
  // Jumps over balls that never moved, and passes by them: no contact with them.
  const overs = jumpsOver(paths, strikeBall, strikeT, dt, table, events.filter((e): e is Extract<StrokeEvent, { type: 'contact' }> => e.type === 'contact'));
  for (const j of [...overs.jumps, ...overs.passes]) dropEvents(events, (e) => e.type === 'contact' && ((e.a === j.ball && e.b === j.over) || (e.b === j.ball && e.a === j.over)));
  events.push(...overs.jumps);
  for (const b of paths) if (b.moved) events.push(...grazesFor(b, table, dt, p, events).filter((e) => e.t > strikeT));
  for (const b of paths) if (b.moved) events.push(...reversalsFor(b, table, p, events).filter((e) => e.t > strikeT));
  // Split rebounds last: a cushion the usual rules show near the turn (a kink of its own, a graze) is theirs.
  const shown = (c: StrokeEvent) => c.type === 'cushion' && events.some((e) => e.type === 'cushion' && e.ball === c.ball && e.side === c.side && Math.abs(e.t - c.t) < 2 * SPLIT_TURN_S);
  events.push(...bridged.filter((c) => !shown(c)));
  // One contact found twice (a creep's arrival seen from two kinks of one split turn: rendered S39
  // broadcast 60 fps, the white into the top cushion): within half a frame is the same contact.
  for (let i = events.length - 1; i >= 0; i--) {
    const c = events[i]!;
    if (c.type === 'cushion' && events.some((o, j) => j < i && o.type === 'cushion' && o.ball === c.ball && o.side === c.side && Math.abs(o.t - c.t) < dt / 2)) events.splice(i, 1);
  }
  retimeBeforeStriker(events, strikeBall, strikeT, dt, (id) => byId.has(id) && movingBefore(id, strikeT));
  const inferred = strikerContactInferred(events, paths, strikeBall, strikeT, dt, p, (id) => byId.has(id) && movingBefore(id, strikeT)) ?? possibleFirstContact(events, paths, onsets, strikeBall, strikeT, dt);
  if (inferred) {
    events.push(inferred);
    // Causality again, with the striker's inferred contact: two balls at rest met only after it
    // (rendered Novus two-strokes overhead 30 fps: b2→b4 inside a row of pawns read 16 ms before
    // the striker's contact, which only the row's far end setting off showed).
    retimeBeforeStriker(events, strikeBall, strikeT, dt, (id) => byId.has(id) && movingBefore(id, strikeT));
  }
  // First-contact order the measurement cannot resolve: doubt both (the call becomes ASSISTED).
  const cueContacts = events.filter((e): e is Extract<StrokeEvent, { type: 'contact' }> => e.type === 'contact' && (e.a === cueId || e.b === cueId)).sort((u, v) => u.t - v.t);
  if (cueContacts.length >= 2) {
    const sepS = cueContacts[1]!.t - cueContacts[0]!.t;
    const resolvableS = Math.max(0.002, 4 * p.noiseMm / 1000); // ~4σ of the timing at 1 m/s
    if (sepS < resolvableS) {
      // Closer than the timing can separate: simultaneous (same t, as the contract reads it), and
      // doubtful — the call that depends on it is ASSISTED (rules-snooker §3.1 FIRST_CONTACT).
      const tMid = r5((cueContacts[0]!.t + cueContacts[1]!.t) / 2);
      for (const e of cueContacts.slice(0, 2)) {
        e.t = tMid;
        e.conf = Math.min(e.conf ?? 1, 0.6);
      }
    }
  }
  // A moving ball passing close at that moment makes a start a contact timed badly (a pack at
  // the break), not a touch or a new strike: report nothing rather than a foul that did not happen.
  const movingBallNear = (b: BallPath, k: Kink) =>
    paths.some((a) => {
      if (a.id === b.id) return false;
      const D = a.radiusMm + b.radiusMm;
      // ±0.1 s whatever the frame rate: the start of a ball in a cluster can be timed that badly.
      for (const sg of segmentsNear(a.segs, k.t, 0.1)) {
        if (sg.still) continue;
        for (let j = -4; j <= 4; j++) {
          const tt = k.t + j * 0.025;
          if (tt < sg.t0 - dt || tt > sg.t1 + dt) continue;
          const [ax, ay] = evalPos(sg.fit, tt);
          const [bx, by] = posAt(b.segs, tt);
          if (Math.hypot(ax - bx, ay - by) < D + p.contactToleranceMm + Math.hypot(...posVel(sg, tt)) * Math.max(dt, 0.025)) return true;
        }
      }
      return false;
    });
  for (const { b, k } of restrikeCands) if (!movingBallNear(b, k)) restrikes.push(k.t);
  // Another ball over this one in the picture, or all but touching it, when it "started": its
  // centre was read off (rendered S33 broadcast: the blue read 13–20 mm nearer the camera while
  // the white rolled up in front of it, 150 mm away on the bed, their discs 3 px apart) — not a
  // touch.
  // With `shift` (a rest-to-rest move, mm), a neighbour explains it only if the move is a radius
  // or less — a read pulled by a neighbour is off by part of its radius (S16, S33: 0.5–0.8 R) —
  // and along the line through the neighbour in the picture, towards or away from it (rendered
  // N30 overhead: a pawn pushed 26 mm, 1.6 R, out of its row by a hand, its neighbours 27 and
  // 35 mm either side along the row — covered by the reach alone, and the touch was lost).
  const coveredNear = (b: BallPath, at: readonly [number, number], t: number, shift?: readonly [number, number]): boolean => {
    const imageOf = view.imageOf;
    if (!imageOf) return false;
    if (shift && Math.hypot(...shift) > b.radiusMm) return false;
    const ia = imageOf(at[0], at[1]);
    const is = shift && sub(imageOf(at[0] + shift[0], at[1] + shift[1]), ia);
    return paths.some((a) => a.id !== b.id && [t - dt, t, t + dt, t + 2 * dt].some((tt) => {
      if (tt < a.samples.t[0]! - dt || tt > a.samples.t.at(-1)! + dt) return false;
      const pa = posAt(a.segs, tt);
      if (!overlapInImage(imageOf, at, b.radiusMm, pa, a.radiusMm, COVER_REACH)) return false;
      if (!is) return true;
      const toA = sub(imageOf(pa[0], pa[1]), ia);
      return Math.abs(is[0] * toA[0] + is[1] * toA[1]) >= COVER_ALONG_COS * Math.hypot(...is) * Math.hypot(...toA);
    }));
  };
  const coveredAt = (b: BallPath, k: Kink): boolean => coveredNear(b, [k.x, k.y], k.t);
  // Balls first seen after the strike, not set down by hand: the detector missed them before (a
  // ball in a pack, one behind a player). Once the cue ball has hit something, a ball starting
  // with no seen cause was most likely hit by one of those: not a touch.
  const unseenBalls = paths.some((b) => b.samples.t[0]! > strikeT + dt && ![...handMoves.values()].some((e) => e.type === 'place' && e.ball === b.id));
  const firstCueContactT = cueContacts[0]?.t ?? Infinity;
  // Moved while hidden: at rest, hidden (a sleeve, an arm over it), and at rest again elsewhere,
  // with nothing that could have struck it passing by (rendered S12: the blue under a sleeve for
  // 0.6 s, seen again 23 mm off — no frame of it moving, so no start to explain).
  for (const b of paths) {
    if (b.id === cueId) continue; // the cue ball moved by hand is a placement (strokes.ts)
    for (let i = 0; i + 1 < b.segs.length; i++) {
      const s0 = b.segs[i]!, s1 = b.segs[i + 1]!;
      if (!s0.still || !s1.still) continue;
      const from = evalPos(s0.fit, s0.t1), to = evalPos(s1.fit, s1.t0);
      const moved = Math.hypot(to[0] - from[0], to[1] - from[1]);
      const seenAllAlong = s1.t0 - s0.t1 <= 2 * dt;
      if (seenAllAlong) {
        // Seen all along, at rest and at rest again elsewhere before the strike: pushed slowly
        // enough that the pieces took the creep for two rests (rendered P27 broadcast 30 fps: the
        // 5 pushed 19 mm over 0.4 s by the hand setting the cue ball down). Only a hand or a cue
        // moves a ball before the strike. Only a lone ball, its rest well held before: a pack
        // ball's read jitters by more (S33 broadcast without its calibration: two reds 12+ mm).
        if (moved < HIDDEN_MOVE_MM || s1.t0 >= strikeT - dt || !trulyAtRest(b, s0, p)) continue;
        const crowded = paths.some((a) => a !== b && a.samples.t[0]! <= s0.t1 && a.samples.t.at(-1)! >= s0.t1 && Math.hypot(...sub(posAt(a.segs, s0.t1), from)) < a.radiusMm + b.radiusMm + LONE_GAP_MM);
        if (crowded) continue;
      } else if (moved < HIDDEN_MOVE_MM || s1.t0 - s0.t1 < HIDDEN_MIN_S || moved / (s1.t0 - s0.t1) > HIDDEN_MAX_MM_PER_S) {
        // A nudge under a hand, not a track that jumped to another ball (S33 broadcast: a red's id
        // moved 146 mm across 0.1 s unseen): hidden a while, and slow across the gap.
        continue;
      }
      if (events.some((e) => (e.type === 'contact' && (e.a === b.id || e.b === b.id) && e.t > s0.t1 - dt && e.t < s1.t0 + dt) || (e.type === 'touch' && e.ball === b.id))) continue;
      // Back at rest where it lay before this move (at this rest or an earlier one), later: a ball
      // does not come back by itself — its read was shifted for a while, in one hop or several
      // (rendered S39 overhead 60 fps: the green on the baulk line read 12.4 mm off for 0.25 s with
      // the cue beside it, then 0.7 mm from where it lay; S42 broadcast 60 fps: the blue read
      // 10 mm off, then 16 mm the other way, then 1.5 mm from where it lay, under the striker's
      // arm). A ball disturbed and put back by hand is lost with it: nothing on the table changed.
      if (returnsToEarlierRest(b.segs, i)) continue;
      // (Not a ball whose read went off and came back meanwhile: at rest before and after on the
      // same spot, it went nowhere — rendered N30 broadcast 60 fps: b6 read over the rail and back
      // beside b5 while a hand pushed b5.)
      const wentNowhere = (a: BallPath) => {
        const pre = a.segs.filter((sg) => sg.still && sg.t1 <= s0.t1 + dt).at(-1), post = a.segs.find((sg) => sg.still && sg.t0 >= s1.t0 - dt);
        return !!pre && !!post && sameRest(pre, post);
      };
      const passedBy = paths.some((a) => a.id !== b.id && a.moved && !wentNowhere(a) && Array.from({ length: 11 }, (_, j) => s0.t1 + ((s1.t0 - s0.t1) * j) / 10).some((tt) => Math.hypot(...sub(posAt(a.segs, tt), from)) < a.radiusMm + b.radiusMm + HIDDEN_PASS_MM));
      // (Nor read off beside another ball in the picture when seen again: S33 broadcast's blue.)
      const shift = sub(to, from);
      if (passedBy || coveredNear(b, to, s1.t0, shift) || coveredNear(b, from, s0.t1, shift)) continue;
      // Put down by hand just before it was hidden: the hand still over it settled it (rendered
      // S26-S27: the respotted black read 27 mm off under the hand, then on its spot): the
      // placement ends where it was seen again, not a touch.
      // (Or it appeared in this window with that first rest: a placement the stroke builder
      // reports from its sightings.)
      const placed = events.find((e): e is Extract<StrokeEvent, { type: 'place' }> => e.type === 'place' && e.ball === b.id && e.t >= s0.t0 - 2 * dt && e.t <= s0.t1 + dt);
      if (placed) {
        placed.x = r2(to[0]);
        placed.y = r2(to[1]);
        continue;
      }
      if (i === 0 && b.samples.t[0]! > series.t[w.k0]! + 2 * dt) continue;
      // Timed when it is seen moved (when in the gap it was, no frame says). Seen all along, it
      // is as sure as a start seen before the strike (0.6, called); hidden, only proposed.
      events.push({ t: r5(s1.t0), type: 'touch', ball: b.id, by: 'other', conf: seenAllAlong ? 0.6 : 0.5 });
    }
  }
  // At rest again within a few mm of where it started, never a radius away on the way: its read
  // changed (a player moving off it, the light on it), it was not moved (rendered S41 broadcast
  // 30 fps: the green on its spot read 742, then 733 for a frame as the player left the table,
  // then at rest at 737 — the truth — and called touched). A ball that moves on, or ends well
  // away, was (TOUCH_NET_MM: under half of HIDDEN_MOVE_MM's margin for two rests; or 3 pixels).
  const settledBeside = (b: BallPath, k: Kink): boolean => {
    const r = nextRest(b, k);
    if (!r) return false;
    const from = evalPos(k.before.fit, k.before.t1);
    const { t: st, x: sx, y: sy } = b.samples;
    for (let j = 0; j < st.length; j++) if (st[j]! > k.t && st[j]! < r.stop.t && Math.hypot(sx[j]! - from[0], sy[j]! - from[1]) > b.radiusMm) return false;
    const px = Math.max(view.pixelMm?.(from[0], from[1], 0) ?? 0, view.pixelMm?.(from[0], from[1], 1) ?? 0);
    return r.movedMm < Math.max(TOUCH_NET_MM, 3 * px);
  };
  for (const { b, k } of unexplainedStarts) {
    const near = movingBallNear(b, k);
    const contactAround = events.some((e) => e.type === 'contact' && (e.a === b.id || e.b === b.id) && Math.abs(e.t - k.t) < 3 * dt);
    const byUnseen = unseenBalls && k.t >= firstCueContactT - 3 * dt;
    const returns = backOnSpot(b, k, dt, p);
    // Stopped in a pocket's mouth and gone within JAW_DROP_S of starting again: it was dropping
    // in (a ball that hangs in the jaws for a frame or two), not set off by anyone.
    const tLeft = b.left ? series.t[b.left.kLastSeen]! : undefined;
    const drops = tLeft !== undefined && tLeft - k.t < JAW_DROP_S && pocketAtMouth(table, k.x, k.y, b.radiusMm) !== undefined;
    if (!near && !contactAround && !byUnseen && !returns && !drops && !coveredAt(b, k) && !settledBeside(b, k)) events.push({ t: r5(k.t), type: 'touch', ball: b.id, by: 'other', conf: 0.5 });
  }

  // Pots and balls off the table. A "ball" first seen after the strike, on a handful of frames,
  // and gone again without being seen over a pocket's hole is the detector reading something
  // else (on a Bucharest clip a player's arm sweeping over the bed was read as pink: a phantom pot),
  // not a ball leaving the table.
  const tStrikeOrOnset = Number.isFinite(strikeT) ? strikeT : series.t[w.kOnset]!;
  const flicker = (b: BallPath) =>
    b.samples.t[0]! > tStrikeOrOnset + dt / 2 && b.samples.t.length < MIN_SIGHTINGS_TO_LEAVE && !b.samples.t.some((_, j) => pocketHoleUnder(table, b.samples.x[j]!, b.samples.y[j]!, b.radiusMm, p.overHoleMarginMm));
  for (const b of paths) if (b.left && !flicker(b)) {
    const e = potFor(b, table, series, dt, p, events, cueId, view, struck.get(b.id));
    if (!e) continue;
    events.push(e);
    // Off the table over a cushion it "rebounded" from just before: it went over it, not off it —
    // a rebound sends a ball away from the cushion, not past it. A flying ball is read where its
    // raised image falls on the bed, which can jump back along the picture for a frame (rendered
    // S39 broadcast 60 fps: the white leaving over the top cushion, read 110 mm back down the
    // table for a frame, was given a top-cushion contact 0.17 s before it was last seen beyond it).
    if (e.type === 'offTable') {
      const n = b.samples.t.length;
      const lx = b.samples.x[n - 1]!, ly = b.samples.y[n - 1]!;
      const over = edges(table).filter((g) => edgeGap(g, g.axis === 0 ? lx : ly, b.radiusMm) < -p.cushionToleranceMm).map((g) => g.side);
      dropEvents(events, (c) => c.type === 'cushion' && c.ball === b.id && !c.jaw && over.includes(c.side) && c.t > e.t - OVER_CUSHION_S && c.t <= e.t);
    }
    // Once dropped it meets no cushion: one read after the drop (beyond a frame) is the fall seen
    // sliding up the cushion on a broadcast camera's far end (rendered S26-S27 broadcast 60 fps:
    // the in-off white "came off" the left cushion 0.08 s after it sank), or something else in the
    // corner read as the ball. A jaw is given half a frame more: the drop's time is the fall's,
    // a jaw met just before it may be timed a little after (rendered short frame, broadcast 30 fps:
    // the yellow's reads went on 0.3 s after its drop, one turn 65 ms after it 6.5 mm off BR's nose).
    if (e.type === 'pot') dropEvents(events, (c) => c.type === 'cushion' && c.ball === b.id && c.t > e.t + (c.jaw ? 1.5 : 1) * dt);
    // A jaw met between the last sighting and the drop, unless a seen jaw contact has it.
    const tLast = series.t[b.left.kLastSeen]!;
    if (e.type !== 'pot' || events.some((c) => c.type === 'cushion' && c.ball === b.id && c.jaw === e.pocket && c.t >= tLast - JAW_DROP_S)) continue;
    const last = b.segs.at(-1)!;
    const n = b.samples.t.length;
    if (last.still || n < 2) continue;
    const v = last.s1 - last.s0 >= 2 ? posVel(last, tLast) : [(b.samples.x[n - 1]! - b.samples.x[n - 2]!) / (b.samples.t[n - 1]! - b.samples.t[n - 2]!), (b.samples.y[n - 1]! - b.samples.y[n - 2]!) / (b.samples.t[n - 1]! - b.samples.t[n - 2]!)] as [number, number];
    const jaw = unseenJawContact(table, e.pocket, b.id, b.radiusMm, evalPos(last.fit, tLast), v, tLast, Math.max(e.t, series.t[b.left.kGone]!));
    if (!jaw) continue;
    events.push(jaw);
    // It dropped after meeting the jaw.
    if (e.t <= jaw.t) e.t = r5(jaw.t + 0.001);
  }
  // Marking lines crossed by moving balls.
  const lines = linesOf(table);
  for (const b of paths) if (b.moved && !(b.left && b.samples.t.length < 2)) events.push(...crossings(b, lines, p));

  // Positions at the strike and at rest.
  const before: StrokeAnalysis['before'] = [];
  const rest: StrokeAnalysis['rest'] = [];
  const tStrikeRef = Number.isFinite(strikeT) ? strikeT : series.t[w.kOnset]!;
  for (const b of paths) {
    // A ball that never moved has one place: the fit over the whole stroke for both (two estimates,
    // before and after, differ by the noise, and the referee reads a difference as a push — the
    // rendered S33 red touching the white, seen 3.3 mm apart while the white lay against it).
    const unmoved = !b.moved && !b.left && b.segs.length === 1 && b.segs[0]!.still;
    if (b.samples.t[0]! <= tStrikeRef + 1e-9) {
      const [x, y] = unmoved ? evalPos(b.segs[0]!.fit, b.segs[0]!.t1) : (restBefore(b, tStrikeRef, p) ?? posAt(b.segs, Math.min(tStrikeRef, b.samples.t.at(-1)!)));
      before.push({ id: b.id, x: r2(x), y: r2(y) });
    }
    // Still on the table for the referee: a ball that never left, and one that went from sight with
    // no pot or flight called — hidden to the end, gone from rest with nothing to send it anywhere,
    // too slow to have jumped a cushion — if it was on the table at the strike (else the referee
    // would have it gone with no call, and refuse it when it is seen again).
    const leftCalled = events.some((e) => (e.type === 'pot' || e.type === 'offTable') && e.ball === b.id);
    const atStrike = b.samples.t[0]! <= tStrikeRef + 1e-9;
    if (!b.left || (!leftCalled && (b.left.how === 'unresolved' || atStrike))) {
      const last = b.segs.at(-1)!;
      const [x, y] = last.still ? evalPos(last.fit, last.t1) : [b.samples.x.at(-1)!, b.samples.y.at(-1)!];
      rest.push({ id: b.id, x: r2(x), y: r2(y) });
    }
  }
  // Hanging: at rest between a pocket's jaws with its edge at the mouth (a later pot settles it).
  const endT = series.t[w.k1]!;
  for (const r of rest) {
    const id = pocketHungOver(table, r.x, r.y, radiusOfBall(table, r.id), HANGING_MARGIN_MM);
    if (id) events.push({ t: r5(endT), type: 'hanging', ball: r.id, pocket: id, conf: 0.7 });
  }
  // Touching candidates: the cue ball at rest within 2R + gap of another ball (rules-snooker §10.3).
  const touchingCandidates: string[] = [];
  const cueRest = rest.find((r) => r.id === cueId);
  if (cueRest) {
    for (const r of rest) {
      if (r.id === cueId) continue;
      const D = radiusOfBall(table, cueId) + radiusOfBall(table, r.id);
      if (Math.hypot(r.x - cueRest.x, r.y - cueRest.y) <= D + p.touchingGapMm) touchingCandidates.push(r.id);
    }
  }
  // Paths of the balls that moved, sampled from the fitted pieces (smoothed, from their start).
  const pathsOut: Record<string, [number, number, number][]> = {};
  if (p.paths) {
    for (const b of paths) {
      if (!b.moved) continue;
      // From its start from rest, or from the window's start if it was already moving then.
      const firstMove = b.segs[0]!.still ? b.kinks.find((k) => k.before.still && !k.after.still) : undefined;
      let t0 = firstMove ? firstMove.t : b.samples.t[0]!;
      // A ball moved before the strike (a touch, a placement) that was still again at the strike:
      // its path starts at the strike, so that it does not read as struck while moving.
      if (t0 < tStrikeRef && Number.isFinite(strikeT)) {
        const at = segmentsNear(b.segs, tStrikeRef, 0).find((sg) => sg.t0 <= tStrikeRef && sg.t1 >= tStrikeRef) ?? beforeSeg(b.segs, tStrikeRef, dt);
        // Still by its fitted piece, or by its last samples (a slow slide's piece may run on past
        // the stop): the ball rested at the strike.
        if (at?.still || restBefore(b, tStrikeRef, p)) t0 = tStrikeRef;
      }
      const pts: [number, number, number][] = [];
      const [sx, sy] = posAt(b.segs, t0);
      pts.push([r5(t0), r2(sx), r2(sy)]);
      // Up to where it came to rest (the start of a final still piece).
      const lastSeg = b.segs.at(-1)!;
      const tEnd = lastSeg.still && b.segs.length > 1 ? lastSeg.t0 : Infinity;
      for (const t of b.samples.t) {
        if (t <= t0) continue;
        if (t > tEnd) break;
        const [x, y] = posAt(b.segs, t);
        pts.push([r5(t), r2(x), r2(y)]);
      }
      pathsOut[b.id] = pts;
    }
  }
  // A ball leaves the table after whatever sent it there: never before its own last contact.
  for (const e of events) {
    if (e.type !== 'pot' && e.type !== 'offTable') continue;
    for (const c of events) if (c.type === 'contact' && (c.a === e.ball || c.b === e.ball) && c.t >= e.t) e.t = r5(c.t + 0.001);
  }
  events.sort((u, v) => u.t - v.t || (u.type === 'strike' ? -1 : v.type === 'strike' ? 1 : 0));
  restrikes.sort((u, v) => u - v);
  return { strikeT, strikeBall, events, before, rest, paths: pathsOut, touchingCandidates, ...(restrikes.length ? { restrikeT: restrikes[0]! } : {}) };
}
