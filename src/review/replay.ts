/**
 * What the top-down replay of a stroke shows, from the best source there is:
 *   1. tracks.jsonl — every frame the cameras saw inside the stroke's time window;
 *   2. the stroke's `paths` (sampled paths the events stage kept), with `before` for the balls
 *      that did not move;
 *   3. `before` and `rest` alone — two pictures, no paths.
 * Pure: log (and tracks) in, frames and paths for `topDownSvg` out.
 */
import type { BallPos, StrokeLog } from '../core/contracts/strokes.js';
import type { TrackFrame } from '../core/contracts/tracks.js';
import type { ReplayFrame, TopDownPath } from '../report/topdown.js';
import { positionsAfter, positionsBefore } from './measure.js';

export type ReplaySource = 'tracks' | 'paths' | 'positions' | 'none';

export interface StrokeReplay {
  source: ReplaySource;
  frames: ReplayFrame[];
  paths: TopDownPath[];
}

/** Seconds shown before the strike: the balls at rest and the cue ball's address. */
export const LEAD_IN_S = 0.5;
/** Without a next stroke, seconds shown after the last event (balls rolling to rest). */
export const TAIL_S = 3;
/** Longest window shown, s: a stroke that "lasts" longer is a gap in the log, not a stroke. */
export const MAX_WINDOW_S = 20;
/**
 * Most frames sent to the page per stroke. The replay is drawn from these; more costs page weight
 * (a 30 fps, 10 s stroke is 300 frames of every ball) and buys nothing a referee can see.
 */
export const MAX_REPLAY_FRAMES = 240;
/** Path points closer than this to the previous one are dropped (tracking jitter at rest), mm. */
const PATH_STEP_MM = 2;
/** A ball whose path is shorter than this did not move: no path is drawn, mm. */
const MIN_PATH_MM = 10;

/** First and last time of a stroke from its events (and `t`); null for a stroke with neither. */
function strokeTimes(log: StrokeLog, index: number): { start: number; last: number } | null {
  const s = log.strokes[index];
  if (!s) return null;
  const ts = s.events.map((e) => e.t);
  if (s.t !== undefined) ts.push(s.t);
  if (!ts.length) return null;
  const strike = s.events.find((e) => e.type === 'strike');
  return { start: strike?.t ?? s.t ?? Math.min(...ts), last: Math.max(...ts) };
}

/** The stroke's window on the recording's clock: a little before the strike to the next stroke. */
export function strokeWindow(log: StrokeLog, index: number): { start: number; end: number } | null {
  const own = strokeTimes(log, index);
  if (!own) return null;
  const start = Math.max(0, own.start - LEAD_IN_S);
  const next = strokeTimes(log, index + 1);
  // The next stroke's lead-in belongs to it; a next stroke with no events leaves the tail.
  let end = next && next.start > own.last ? Math.min(next.start - LEAD_IN_S, own.last + MAX_WINDOW_S) : own.last + TAIL_S;
  if (end <= own.last) end = own.last + 0.1;
  return { start, end: Math.min(end, start + MAX_WINDOW_S) };
}

/** Keep at most `max` frames, evenly spread, always keeping the first and the last. */
export function thin<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  const out: T[] = [];
  for (let k = 0; k < max; k++) out.push(items[Math.round((k * (items.length - 1)) / (max - 1))]!);
  return out;
}

function pathsFrom(series: Map<string, [number, number][]>): TopDownPath[] {
  const out: TopDownPath[] = [];
  for (const [id, pts] of series) {
    const kept: [number, number][] = [];
    let length = 0;
    for (const p of pts) {
      const q = kept[kept.length - 1];
      if (!q) kept.push(p);
      else {
        const d = Math.hypot(p[0] - q[0], p[1] - q[1]);
        if (d >= PATH_STEP_MM) {
          kept.push(p);
          length += d;
        }
      }
    }
    if (length >= MIN_PATH_MM) out.push({ id, points: thin(kept, 400) });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

/** Frames of tracks.jsonl inside the stroke's window (balls on the bed only). */
export function replayFromTracks(frames: readonly TrackFrame[], window: { start: number; end: number }, maxFrames = MAX_REPLAY_FRAMES): StrokeReplay | null {
  const inside = frames.filter((f) => f.t >= window.start && f.t < window.end && f.view !== false);
  if (inside.length < 2) return null;
  const series = new Map<string, [number, number][]>();
  const all: ReplayFrame[] = inside.map((f) => {
    const balls: Record<string, [number, number]> = {};
    for (const b of f.balls) {
      if (b.state === 'pocketed' || b.state === 'offTable') continue;
      balls[b.id] = [b.x, b.y];
      if (!series.has(b.id)) series.set(b.id, []);
      series.get(b.id)!.push([b.x, b.y]);
    }
    return { t: f.t, balls };
  });
  return { source: 'tracks', frames: thin(all, maxFrames), paths: pathsFrom(series) };
}

function interpolate(samples: readonly (readonly [number, number, number])[], t: number): [number, number] {
  const first = samples[0]!;
  if (t <= first[0]) return [first[1], first[2]];
  for (let k = 1; k < samples.length; k++) {
    const b = samples[k]!;
    if (t <= b[0]) {
      const a = samples[k - 1]!;
      const u = b[0] > a[0] ? (t - a[0]) / (b[0] - a[0]) : 1;
      return [a[1] + u * (b[1] - a[1]), a[2] + u * (b[2] - a[2])];
    }
  }
  const last = samples[samples.length - 1]!;
  return [last[1], last[2]];
}

/** From the stroke log alone: its `paths`, or `before` then `rest`. */
export function replayFromLog(log: StrokeLog, index: number, maxFrames = MAX_REPLAY_FRAMES): StrokeReplay {
  const s = log.strokes[index];
  const times = strokeTimes(log, index);
  if (!s || !times) return { source: 'none', frames: [], paths: [] };
  const before = new Map<string, [number, number]>((positionsBefore(log, index) ?? []).map((b: BallPos) => [b.id, [b.x, b.y]]));
  const rest = positionsAfter(log, index);
  const gone = new Map<string, number>();
  const placed: { ball: string; t: number; at: [number, number] }[] = [];
  for (const e of s.events) {
    if ((e.type === 'pot' || e.type === 'offTable') && !gone.has(e.ball)) gone.set(e.ball, e.t);
    if (e.type === 'place') placed.push({ ball: e.ball, t: e.t, at: [e.x, e.y] });
  }
  const at = (t: number): Record<string, [number, number]> => {
    const balls: Record<string, [number, number]> = {};
    for (const [id, p] of before) balls[id] = p;
    for (const p of placed) if (p.t <= t) balls[p.ball] = p.at;
    for (const [id, samples] of Object.entries(s.paths ?? {})) if (samples.length) balls[id] = interpolate(samples, t);
    for (const [id, tg] of gone) if (tg <= t) delete balls[id];
    return balls;
  };
  const paths = Object.entries(s.paths ?? {}).filter(([, samples]) => samples.length >= 2);
  if (paths.length) {
    const ts = [...new Set([times.start, ...paths.flatMap(([, samples]) => samples.map((p) => p[0]))])].filter((t) => t >= times.start - LEAD_IN_S).sort((a, b) => a - b);
    const frames = ts.map((t) => ({ t, balls: at(t) }));
    if (rest) frames.push({ t: Math.max(times.last, ts[ts.length - 1] ?? times.last) + 0.5, balls: Object.fromEntries(rest.map((b) => [b.id, [b.x, b.y] as [number, number]])) });
    const series = new Map<string, [number, number][]>(paths.map(([id, samples]) => [id, samples.map((p) => [p[1], p[2]] as [number, number])]));
    return { source: 'paths', frames: thin(frames, maxFrames), paths: pathsFrom(series) };
  }
  const frames: ReplayFrame[] = [];
  if (before.size || placed.length) frames.push({ t: times.start, balls: at(times.start) });
  if (rest) frames.push({ t: Math.max(times.last, times.start) + 0.5, balls: Object.fromEntries(rest.map((b) => [b.id, [b.x, b.y] as [number, number]])) });
  return { source: frames.length ? 'positions' : 'none', frames, paths: [] };
}

/** The replay of stroke `index`: tracks when they cover the stroke, else the log. */
export function strokeReplay(log: StrokeLog, index: number, tracks: readonly TrackFrame[] | null, maxFrames = MAX_REPLAY_FRAMES): StrokeReplay {
  const window = strokeWindow(log, index);
  if (tracks && window) {
    const r = replayFromTracks(tracks, window, maxFrames);
    if (r) return r;
  }
  return replayFromLog(log, index, maxFrames);
}
