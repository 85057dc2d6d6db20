/**
 * Per-ball time series from a tracks document, and the rest/moving state of each ball decided
 * from positions alone (a user's tracker may give no `state`, or a noisy one): a ball starts moving
 * when it leaves its rest position by more than `moveThresholdMm` on two frames running, and is at
 * rest again once it stays within `restToleranceMm` of its own mean for `atRestMs`.
 */
import type { TrackFrame } from '../core/contracts/tracks.js';
import type { EventParams } from './params.js';

/** Where a ball is on one frame. `seen`: measured on the bed; `hidden`: on the bed but not measured. */
export const Presence = { Absent: 0, Seen: 1, Hidden: 2, Pocketed: 3, OffTable: 4 } as const;
export type Presence = (typeof Presence)[keyof typeof Presence];

export interface BallSeries {
  id: string;
  presence: Uint8Array;
  x: Float64Array;
  y: Float64Array;
}

export interface Series {
  t: Float64Array;
  /** Frame `i` of each entry (for error messages and the output). */
  frameIndex: Int32Array;
  /** false where the table was not in view. */
  view: Uint8Array;
  balls: Map<string, BallSeries>;
}

/** Longest gap in a ball's sightings that can still be the detector missing it in passing, s. */
export const MISSED_IN_PASSING_S = 0.5;
/** A ball slower than this before the gap was not passing, mm/s. */
const MISSED_IN_PASSING_MIN_SPEED = 150;
/** How far from where its last speed would take it such a ball may be seen again, mm (3 pool-ball radii). */
const MISSED_IN_PASSING_SLACK_MM = 90;

/**
 * Gaps in a ball's sightings that are the detector missing it for a moment — a ball rattling in a
 * jaw, dark against a pocket's shadow, behind a cue — become Hidden (unknown), not gone (whatever
 * the tracker guessed meanwhile: it calls a ball lost at a mouth pocketed): short, and the ball
 * seen again near where its speed before the gap would take it (within 1.5× that roll plus 90 mm;
 * the speed is the fastest over the last 0.25 s: a ball in a jaw may sit still for a frame), and
 * rolling at all (≥ 150 mm/s). Without this a ball
 * lost for a few frames in a jaw and seen rolling out again was potted and then "placed"
 * (Bucharest Task2 clip 13). A ball that really left and was put back (a respot, a replacement)
 * comes back at rest at its spot after the referee fetched it; a false detection of its colour
 * elsewhere (Task2 clip 5: a "black" 1.7 m away 0.4 s after the black dropped) is too far.
 */
function hideMissesInPassing(s: BallSeries, t: Float64Array): void {
  const seen: number[] = []; // the last sightings, for the speed before a gap
  for (let k = 0; k < t.length; k++) {
    if (s.presence[k] !== Presence.Seen) continue;
    const last = seen.at(-1);
    if (last !== undefined && k > last + 1) {
      const gapS = t[k]! - t[last]!;
      const speed = speedBefore(s, t, seen);
      const d = Math.hypot(s.x[k]! - s.x[last]!, s.y[k]! - s.y[last]!);
      // Only a rolling ball: one at rest that is missed (a player over it) and seen again a little
      // off is left to the rest rules as before (it was not in passing).
      if (speed >= MISSED_IN_PASSING_MIN_SPEED && gapS <= MISSED_IN_PASSING_S && d <= 1.5 * speed * gapS + MISSED_IN_PASSING_SLACK_MM) {
        for (let j = last + 1; j < k; j++) s.presence[j] = Presence.Hidden;
      }
    }
    seen.push(k);
    if (seen.length > 12) seen.shift();
  }
}

/**
 * A resting ball's sightings agree within this, mm; one this far off between them is a spike (with
 * 1 mm of noise a frame-to-frame jump over 6 mm comes once in ~8000 frames; over 4 mm, once in 55).
 */
const SPIKE_STILL_MM = 2;
const SPIKE_MIN_MM = 6;

/** Seen on frames k − 2 … k + 1: enough around frame k to judge it against its neighbours. */
const seenAround = (s: { presence: Uint8Array }, k: number) => s.presence[k - 2] === Presence.Seen && s.presence[k - 1] === Presence.Seen && s.presence[k] === Presence.Seen && s.presence[k + 1] === Presence.Seen;

/**
 * One sighting of a resting ball off its place between sightings on it — two before, one after,
 * all within 2 mm — is the detector's centre jumping for a frame (a far-end ball on a broadcast
 * camera: 8 mm), not a touch and back. Left in, it starts the ball a frame early, and the real
 * start — the cue ball's contact — is read as a turn of a ball already moving, which no contact
 * explains (rendered plant-kiss broadcast: the first contact lost, the red's kiss read as first).
 */
function hideRestSpikes(s: BallSeries): void {
  const d = (a: number, b: number) => Math.hypot(s.x[a]! - s.x[b]!, s.y[a]! - s.y[b]!);
  for (let k = 2; k + 1 < s.presence.length; k++) {
    if (!seenAround(s, k)) continue;
    if (d(k - 2, k - 1) <= SPIKE_STILL_MM && d(k - 1, k + 1) <= SPIKE_STILL_MM && d(k, k - 1) > SPIKE_MIN_MM) s.presence[k] = Presence.Hidden;
  }
}

/** A ball that moved more than this between two frames was rolling, mm (≈ 0.25 m/s at 30 fps). */
const ROLLING_STEP_MM = 8;
/** …and one that moved less than this in the next frame was standing still in it, mm. */
const REPEAT_STEP_MM = 1;

/**
 * Frames that repeat the one before (a broadcast's 25 fps picture carried at 30 fps repeats every
 * fifth frame, re-encoded so not to the bit): every ball rolling into the frame stands still in
 * it, to the detector's noise, then goes on the same way at about its pace. Left as sightings they
 * are stops — a rolling cue ball read as set down by hand five times a second (Bucharest Task2
 * clip 6). A ball stopped dead by a contact stays stopped on the next frame, and a detector's
 * centre jumping between two reads of one ball goes back, not on: neither is a repeat
 * (snooker-fine-cut broadcast: a pink read at two places). Needs a rolling ball to tell; where
 * there is none, a repeat changes nothing anyway.
 */
function repeatedFrames(balls: ReadonlyMap<string, { presence: Uint8Array; x: Float64Array; y: Float64Array }>, n: number): number[] {
  const out: number[] = [];
  const step = (s: { x: Float64Array; y: Float64Array }, k: number) => Math.hypot(s.x[k]! - s.x[k - 1]!, s.y[k]! - s.y[k - 1]!);
  for (let k = 2; k + 1 < n; k++) {
    let rolling = 0, repeated = 0;
    for (const s of balls.values()) {
      if (!seenAround(s, k)) continue;
      if (step(s, k - 1) <= ROLLING_STEP_MM) continue;
      rolling++;
      // Standing, then on in the same direction at about its pace (a 25 fps picture's next one is
      // 1/25 s on, whatever the 30 fps clock says).
      const a = step(s, k - 1), c = step(s, k + 1);
      const along = ((s.x[k - 1]! - s.x[k - 2]!) * (s.x[k + 1]! - s.x[k]!) + (s.y[k - 1]! - s.y[k - 2]!) * (s.y[k + 1]! - s.y[k]!)) / (a * c || 1);
      if (step(s, k) < REPEAT_STEP_MM && c > ROLLING_STEP_MM && along > 0.7 && c > 0.5 * a && c < 3 * a) repeated++;
    }
    if (rolling > 0 && repeated === rolling) out.push(k);
  }
  return out;
}

/** The fastest the ball went between consecutive sightings over the last 0.25 s of `seen`, mm/s. */
function speedBefore(s: BallSeries, t: Float64Array, seen: readonly number[]): number {
  let v = 0;
  const tEnd = t[seen.at(-1) ?? 0]!;
  for (let j = seen.length - 1; j > 0; j--) {
    const a = seen[j - 1]!, b = seen[j]!;
    if (tEnd - t[a]! > 0.25) break;
    v = Math.max(v, Math.hypot(s.x[b]! - s.x[a]!, s.y[b]! - s.y[a]!) / Math.max(1e-3, t[b]! - t[a]!));
  }
  return v;
}

export function buildSeries(frames: readonly TrackFrame[]): Series {
  const b = new SeriesBuilder(frames.length);
  for (const f of frames) b.add(f);
  return b.build();
}

/**
 * The series built a frame at a time, so that a long recording's tracks can be read from disk
 * without holding every frame's objects (an hour of tracks.jsonl parsed whole is ~300 MB of heap;
 * its series ~40 MB). Arrays grow by doubling; `build` trims them.
 */
/** How far back a ball's `trail` is looked up, frames (the tracker confirms after a few sightings). */
const TRAIL_LOOKBACK_FRAMES = 30;

export class SeriesBuilder {
  private n = 0;
  private cap: number;
  private t: Float64Array;
  private frameIndex: Int32Array;
  private view: Uint8Array;
  private readonly balls = new Map<string, BallSeries>();

  constructor(capacity = 1024) {
    this.cap = Math.max(16, capacity);
    this.t = new Float64Array(this.cap);
    this.frameIndex = new Int32Array(this.cap);
    this.view = new Uint8Array(this.cap);
  }

  get length(): number {
    return this.n;
  }

  add(f: TrackFrame): void {
    if (this.n === this.cap) this.grow();
    const k = this.n++;
    this.t[k] = f.t;
    this.frameIndex[k] = f.i;
    this.view[k] = f.view === false ? 0 : 1;
    // A ball whose kind the tracker decided again: its frames under the old id are its own.
    for (const b of f.balls) if (b.was !== undefined && b.was !== b.id) this.rename(b.was, b.id);
    for (const b of f.balls) {
      const s = this.ball(b.id);
      s.x[k] = b.x;
      s.y[k] = b.y;
      switch (b.state) {
        case 'pocketed':
          s.presence[k] = Presence.Pocketed;
          break;
        case 'offTable':
          s.presence[k] = Presence.OffTable;
          break;
        case 'occluded':
          // A predicted position is not a measurement: never time an event from it.
          s.presence[k] = Presence.Hidden;
          break;
        default:
          s.presence[k] = Presence.Seen;
      }
      // Its sightings before the tracker gave it an id (a ball first seen flying): its path.
      if (b.trail) {
        for (const [i, x, y] of b.trail) {
          for (let j = k - 1; j >= 0 && j >= k - TRAIL_LOOKBACK_FRAMES; j--) {
            if (this.frameIndex[j] !== i) continue;
            if (s.presence[j] === Presence.Absent) {
              s.x[j] = x;
              s.y[j] = y;
              s.presence[j] = Presence.Seen;
            }
            break;
          }
        }
      }
    }
  }

  build(): Series {
    const n = this.n;
    const t = this.t.slice(0, n), frameIndex = this.frameIndex.slice(0, n), view = this.view.slice(0, n);
    const balls = new Map<string, BallSeries>();
    const repeats = repeatedFrames(this.balls, n);
    for (const [id, s] of this.balls) {
      const out: BallSeries = { id, presence: s.presence.slice(0, n), x: s.x.slice(0, n), y: s.y.slice(0, n) };
      // A ball missing from a frame while the table is out of view is simply unknown (Hidden).
      for (let k = 0; k < n; k++) if (!view[k] && out.presence[k] === Presence.Absent) out.presence[k] = Presence.Hidden;
      hideRestSpikes(out);
      // A repeated picture says nothing new about a rolling ball: its "sighting" there is not one.
      for (const k of repeats) if (out.presence[k] === Presence.Seen && out.presence[k - 1] === Presence.Seen && Math.hypot(out.x[k]! - out.x[k - 1]!, out.y[k]! - out.y[k - 1]!) < REPEAT_STEP_MM) out.presence[k] = Presence.Hidden;
      hideMissesInPassing(out, t);
      balls.set(id, out);
    }
    return { t, frameIndex, view, balls };
  }

  /** The series of `from` becomes `to`'s (merged into the frames `to` was absent from, if it has one). */
  private rename(from: string, to: string): void {
    const old = this.balls.get(from);
    if (!old) return;
    this.balls.delete(from);
    const cur = this.balls.get(to);
    if (!cur) {
      old.id = to;
      this.balls.set(to, old);
      return;
    }
    for (let k = 0; k < this.n; k++) {
      if (cur.presence[k] !== Presence.Absent || old.presence[k] === Presence.Absent) continue;
      cur.presence[k] = old.presence[k]!;
      cur.x[k] = old.x[k]!;
      cur.y[k] = old.y[k]!;
    }
  }

  private ball(id: string): BallSeries {
    let s = this.balls.get(id);
    if (!s) {
      s = { id, presence: new Uint8Array(this.cap), x: new Float64Array(this.cap).fill(NaN), y: new Float64Array(this.cap).fill(NaN) };
      this.balls.set(id, s);
    }
    return s;
  }

  private grow(): void {
    const cap = this.cap * 2;
    const f64 = (a: Float64Array, fill?: number) => {
      const b = new Float64Array(cap);
      if (fill !== undefined) b.fill(fill, a.length);
      b.set(a);
      return b;
    };
    this.t = f64(this.t);
    const fi = new Int32Array(cap);
    fi.set(this.frameIndex);
    this.frameIndex = fi;
    const v = new Uint8Array(cap);
    v.set(this.view);
    this.view = v;
    for (const s of this.balls.values()) {
      const p = new Uint8Array(cap);
      p.set(s.presence);
      s.presence = p;
      s.x = f64(s.x, NaN);
      s.y = f64(s.y, NaN);
    }
    this.cap = cap;
  }
}

/** One stretch of a ball's motion, in frame entries [k0, k1] (k1: the first frame at rest again). */
export interface MotionSpan {
  ball: string;
  k0: number;
  /** Last frame before rest was confirmed (or the last frame the ball was seen before it left). */
  k1: number;
  /** Frame from which the ball was still (the rest window's start); −1 if it never settled. */
  kRest: number;
  /** Rest position before and after (NaN when unknown). */
  from: { x: number; y: number };
  to: { x: number; y: number };
  /** The ball was not seen for part of the motion (lifted or hidden by a hand). */
  hiddenDuring: boolean;
  /** The ball left the bed at the end of the span (pocketed, off the table or lost). */
  left: boolean;
}

/**
 * Motion spans of one ball. The state machine runs over seen frames only; hidden frames neither
 * start nor end a motion (a player leaning over a resting ball changes nothing).
 */
export function motionSpans(s: BallSeries, t: Float64Array, p: EventParams): MotionSpan[] {
  const n = t.length;
  const spans: MotionSpan[] = [];
  const atRestS = p.atRestMs / 1000;
  let resting = true;
  let ax = NaN, ay = NaN, an = 0; // rest anchor (running mean)
  let pending = -1;
  let cur: MotionSpan | null = null;
  // Rest window while moving: indices of recent seen frames.
  let win: number[] = [];
  let lastSeen = -1;
  let everSeen = false;
  let hiddenRun = false;
  for (let k = 0; k < n; k++) {
    const pr = s.presence[k]!;
    if (pr === Presence.Pocketed || pr === Presence.OffTable || (pr === Presence.Absent && everSeen)) {
      // Gone from the bed: close any motion; a resting ball that vanishes also left.
      if (everSeen && (cur || resting) && lastSeen >= 0) {
        const span: MotionSpan = cur ?? { ball: s.id, k0: lastSeen, k1: lastSeen, kRest: -1, from: { x: ax, y: ay }, to: { x: NaN, y: NaN }, hiddenDuring: false, left: true };
        // The span reaches the first entry without the ball, so that the stroke sees it leave.
        span.k1 = k;
        span.left = true;
        span.kRest = -1;
        spans.push(span);
      }
      cur = null;
      resting = true;
      an = 0;
      everSeen = false;
      pending = -1;
      win = [];
      continue;
    }
    if (pr === Presence.Hidden) {
      if (cur) hiddenRun = true;
      continue;
    }
    if (pr !== Presence.Seen) continue;
    const x = s.x[k]!, y = s.y[k]!;
    if (!everSeen) {
      // First sighting (or back on the table after leaving it): starts at rest where it is.
      everSeen = true;
      resting = true;
      ax = x;
      ay = y;
      an = 1;
      lastSeen = k;
      continue;
    }
    if (resting) {
      const d = Math.hypot(x - ax, y - ay);
      if (d > p.moveThresholdMm) {
        if (pending < 0) pending = k;
        else {
          cur = { ball: s.id, k0: pending, k1: k, kRest: -1, from: { x: ax, y: ay }, to: { x: NaN, y: NaN }, hiddenDuring: false, left: false };
          // The motion started before the first frame that showed it clearly: the previous seen frame.
          cur.k0 = lastSeenBefore(s, pending);
          resting = false;
          hiddenRun = false;
          win = [k];
          pending = -1;
        }
      } else {
        pending = -1;
        // Running mean, capped so a very slow creep is still noticed.
        an = Math.min(an + 1, 60);
        ax += (x - ax) / an;
        ay += (y - ay) / an;
      }
    } else if (cur) {
      win.push(k);
      // Keep the window to the last atRestMs of seen frames, then test stillness.
      while (win.length > 1 && t[k]! - t[win[1]!]! >= atRestS - 1e-9) win.shift();
      const span = t[k]! - t[win[0]!]!;
      if (span >= atRestS - 1e-9) {
        let mx = 0, my = 0;
        for (const j of win) {
          mx += s.x[j]!;
          my += s.y[j]!;
        }
        mx /= win.length;
        my /= win.length;
        let still = true;
        for (const j of win) if (Math.hypot(s.x[j]! - mx, s.y[j]! - my) > p.restToleranceMm) still = false;
        if (still) {
          cur.k1 = k;
          cur.kRest = win[0]!;
          cur.to = { x: mx, y: my };
          cur.hiddenDuring = hiddenRun;
          spans.push(cur);
          cur = null;
          resting = true;
          ax = mx;
          ay = my;
          an = win.length;
        }
      }
      if (cur) cur.k1 = k;
    }
    lastSeen = k;
  }
  if (cur) {
    cur.hiddenDuring = hiddenRun;
    spans.push(cur);
  }
  return spans;
}

function lastSeenBefore(s: BallSeries, k: number): number {
  for (let j = k - 1; j >= 0; j--) if (s.presence[j] === Presence.Seen) return j;
  return k;
}

/** Mean of the seen positions of a ball over entries [k0, k1] (its rest position there). */
export function meanPos(s: BallSeries, k0: number, k1: number): { x: number; y: number } | undefined {
  let sx = 0, sy = 0, c = 0;
  for (let k = Math.max(0, k0); k <= k1 && k < s.x.length; k++) {
    if (s.presence[k] !== Presence.Seen) continue;
    sx += s.x[k]!;
    sy += s.y[k]!;
    c++;
  }
  return c ? { x: sx / c, y: sy / c } : undefined;
}
