/**
 * Scripted live input for the live tests and bench: a snooker frame of several strokes (test/events'
 * simulator, one segment per stroke, each starting from the previous one's rest), a fake detector
 * that returns pixel detections of it with noise, and scripted feeds (frames, drops, gaps) on a
 * manual clock.
 */
import type { TableProfile } from '../../src/core/table.js';
import { builtinProfile } from '../../src/core/table.js';
import type { Mat3 } from '../../src/core/mat3.js';
import type { Clock, Feed, FeedItem, OpenFeed } from '../../src/live/feed.js';
import type { FrameDetector } from '../../src/pipeline/track.js';
import { kindOfId, type PixelDetection } from '../../src/tracking/index.js';
import type { Frame } from '../../src/video/index.js';
import { gaussian, mulberry32, simulateTable, type SynthBall, type SynthRun } from '../events/synth.js';

export const table: TableProfile = builtinProfile('snooker');
const R = table.ballDiameter / 2;

/** Pixels are half millimetres: image (u, v) = table (x, y) / 2. */
export const calibration: { ballCentreToTable: Mat3 } = { ballCentreToTable: [[2, 0, 0], [0, 2, 0], [0, 0, 1]] };

/** A shot on the current layout: which ball, and its velocity (mm/s). */
export type Shot = (layout: Map<string, { x: number; y: number }>) => { ball: string; vx: number; vy: number };

export interface Frame3 {
  /** Whole run: position of each ball at t (s), and the segments' strike and rest times. */
  at(t: number): Map<string, { x: number; y: number }>;
  durationS: number;
  strikes: number[];
  /** When the last ball stopped after each strike (s). */
  restTimes: number[];
  segments: SynthRun[];
}

/** Velocity that pots `ball` in `pocket` off the cue ball (ghost-ball aim), at `speed`. */
export function potShot(ball: string, pocket: { x: number; y: number }, speed: number, cue = 'white'): Shot {
  return (layout) => {
    const b = layout.get(ball)!, c = layout.get(cue)!;
    const d = Math.hypot(pocket.x - b.x, pocket.y - b.y);
    const ghost = { x: b.x - ((pocket.x - b.x) / d) * 2 * R, y: b.y - ((pocket.y - b.y) / d) * 2 * R };
    const g = Math.hypot(ghost.x - c.x, ghost.y - c.y);
    return { ball: cue, vx: ((ghost.x - c.x) / g) * speed, vy: ((ghost.y - c.y) / g) * speed };
  };
}

/** A straight shot of the cue ball in a direction (dx, dy), at `speed`. */
export function pushShot(dx: number, dy: number, speed: number, cue = 'white'): Shot {
  const d = Math.hypot(dx, dy);
  return () => ({ ball: cue, vx: (dx / d) * speed, vy: (dy / d) * speed });
}

/**
 * Strokes one after another: segment k lasts `segmentS` with its strike `strikeAtS` in; the next
 * starts from where the balls stopped (potted balls gone).
 */
export function playFrame(layout: SynthBall[], shots: Shot[], o: { segmentS?: number; strikeAtS?: number; tb?: TableProfile } = {}): Frame3 {
  const tb = o.tb ?? table;
  const segS = o.segmentS ?? 6;
  const strikeAt = o.strikeAtS ?? 1;
  const segments: SynthRun[] = [];
  const strikes: number[] = [];
  const restTimes: number[] = [];
  let cur: SynthBall[] = layout;
  shots.forEach((shot, k) => {
    const pos = new Map(cur.map((b) => [b.id, { x: b.x, y: b.y }]));
    const s = shot(pos);
    const run = simulateTable(tb, cur, [{ t: strikeAt, ...s }], { durationS: segS });
    segments.push(run);
    strikes.push(k * segS + strikeAt);
    // The last instant any ball moved (0.5 ms resolution is plenty at 30 fps).
    let last = strikeAt;
    let prev = run.at(strikeAt);
    for (let t = strikeAt + 0.01; t <= segS; t += 0.01) {
      const now = run.at(t);
      for (const [id, p] of now) {
        const q = prev.get(id);
        if (q && Math.hypot(p.x - q.x, p.y - q.y) > 0.01) last = t;
      }
      prev = now;
    }
    restTimes.push(k * segS + last);
    cur = [...run.rest].map(([id, p]) => ({ id, ...p }));
  });
  return {
    at(t) {
      const k = Math.max(0, Math.min(segments.length - 1, Math.floor(t / segS)));
      return segments[k]!.at(Math.min(segS, t - k * segS));
    },
    durationS: segments.length * segS,
    strikes,
    restTimes,
    segments,
  };
}

/** The test frame: A pots a red (player 0, 1 point), B misses everything (foul), C pots the other red, D a safety. */
export function snookerFrame(): Frame3 {
  const red = { x: 1300, y: 3300 };
  const tr = table.pockets.TR!;
  const d = Math.hypot(tr.x - red.x, tr.y - red.y);
  const white = { x: red.x - ((tr.x - red.x) / d) * 400, y: red.y - ((tr.y - red.y) / d) * 400 };
  return playFrame(
    [{ id: 'white', ...white }, { id: 'red1', ...red }, { id: 'red2', x: 500, y: 2200 }, { id: 'black', x: 889, y: 3245 }, { id: 'yellow', x: 1181, y: 737 }],
    [
      potShot('red1', tr, 1500),
      pushShot(1, -1.2, 1100),
      potShot('red2', table.pockets.ML!, 2200),
      pushShot(-0.15, -1, 900),
    ],
  );
}

export interface FakeDetectorOptions {
  noiseMm?: number;
  seed?: number;
  /** Milliseconds the fake spends per frame (busy wait), to model a real detector's cost. */
  costMs?: number;
}

/** Pixel detections of the scripted balls at the frame's time (`ptsMs`), with noise. */
export function fakeDetector(frame: Pick<Frame3, 'at'>, o: FakeDetectorOptions = {}): FrameDetector {
  const rng = mulberry32(o.seed ?? 7);
  const noise = o.noiseMm ?? 1;
  return {
    detect(f) {
      if (o.costMs) {
        const until = performance.now() + o.costMs;
        while (performance.now() < until);
      }
      const out: PixelDetection[] = [];
      for (const [id, p] of frame.at(f.ptsMs / 1000)) {
        out.push({ u: (p.x + noise * gaussian(rng)) / 2, v: (p.y + noise * gaussian(rng)) / 2, r: R / 2, class: kindOfId('snooker', id), conf: 0.95 });
      }
      return out;
    },
  };
}

/** A frame with no pixels (the fake detector reads only its time). */
export const fakeFrame = (index: number, ptsMs: number): Frame => ({ index, ptsMs, width: 1, height: 1, rgb: new Uint8Array(3) });

/** A clock the test drives: `now()` is the stream time of the last frame fed (ms); sleeping advances it. */
export class ManualClock implements Clock {
  ms = 0;
  now(): number {
    return this.ms;
  }
  async sleep(ms: number): Promise<void> {
    this.ms += ms;
  }
}

/** One connection of a scripted feed: frames at these times (s), then an end or an error. */
export interface Connection {
  fromS: number;
  toS: number;
  fps?: number;
  /** How the connection ends: `error` throws (a dropped stream), `end` ends (a file). */
  end: 'error' | 'end';
}

/**
 * A feed factory that plays `connections` in turn (one per open), advancing `clock` to each
 * frame's time. Opening past the last connection throws (the camera stays away).
 */
export function scriptedFeed(connections: Connection[], clock: ManualClock, opened: { count: number } = { count: 0 }): OpenFeed {
  return async () => {
    const c = connections[opened.count++];
    if (!c) throw new Error('camera unreachable');
    const fps = c.fps ?? 30;
    async function* items(): AsyncGenerator<FeedItem> {
      let i = Math.ceil(c!.fromS * fps - 1e-9);
      for (; i / fps <= c!.toS + 1e-9; i++) {
        clock.ms = (i / fps) * 1000;
        yield { type: 'frame', frame: fakeFrame(i, (i / fps) * 1000) };
      }
      if (c!.end === 'error') throw new Error('stream dropped (scripted)');
    }
    const feed: Feed = { finite: c.end === 'end', [Symbol.asyncIterator]: items, close: async () => undefined };
    return feed;
  };
}
