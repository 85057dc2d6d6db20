/**
 * Where a live session's frames come from, behind one small interface so that the session runs on
 * a camera, a stream, a file paced at recording speed, or a scripted fake in tests.
 *
 * A `Feed` yields frames and connection statuses in order. `OpenFeed` opens a new one: the session
 * calls it again (with backoff) when a feed throws or a non-finite feed ends, which is how a drop is
 * survived whatever the source. A live stream from src/video reconnects by itself too and reports
 * its own `lost`/`reconnecting` statuses in between.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { liveFeed, type LiveStatusItem } from '../video/live.js';
import { parseSourceOptions, type SourceOptionsInput } from '../video/options.js';
import { classifyUri, openSource, type Frame } from '../video/index.js';
import { stderrLog } from '../video/types.js';

export type FeedItem = { type: 'frame'; frame: Frame } | LiveStatusItem;

export interface Feed extends AsyncIterable<FeedItem> {
  /** A finite source (a file): its end is the end of the session, not a drop. */
  readonly finite: boolean;
  close(): Promise<void>;
}

export type OpenFeed = () => Promise<Feed>;

/** Time for the session: wall-clock ms (monotonic) and waiting. Tests inject a manual one. */
export interface Clock {
  now(): number;
  sleep(ms: number, signal?: AbortSignal): Promise<void>;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  sleep: (ms, signal) => delay(ms, undefined, signal ? { signal } : {}).catch(() => undefined),
};

export interface SourceFeedOptions {
  /** Files: deliver frames at recording speed, as a camera would (late frames are dropped, newest first). */
  realtime?: boolean;
  /** Live streams: frames held for a slow consumer before the oldest is dropped. Default 4. */
  queueFrames?: number;
  clock?: Clock;
  /** Options for src/video's openSource (reconnect policy, timeouts, scale…). */
  source?: SourceOptionsInput;
  log?: (line: string) => void;
}

/** A feed factory for a URI: live streams and devices through src/video's live source, files read once. */
export function sourceFeed(uri: string, o: SourceFeedOptions = {}): OpenFeed {
  const log = o.log ?? stderrLog;
  const clock = o.clock ?? systemClock;
  return async () => {
    const kind = classifyUri(uri, false, o.source?.live);
    if (kind === 'live') {
      const opts = parseSourceOptions({ ...o.source, ...(o.queueFrames !== undefined ? { queueFrames: o.queueFrames } : {}) });
      const feed = liveFeed(uri, opts, log);
      return { finite: false, [Symbol.asyncIterator]: () => feed[Symbol.asyncIterator](), close: () => feed.close() };
    }
    const src = await openSource(uri, { ...o.source, log });
    if (!o.realtime) {
      async function* items(): AsyncGenerator<FeedItem> {
        for await (const frame of src) yield { type: 'frame', frame };
      }
      return { finite: true, [Symbol.asyncIterator]: items, close: () => src.close() };
    }
    return pacedFeed(src, clock, (n) => n > 0 && log(`'${uri}': ${n} frame(s) dropped to keep recording speed (the chain is slower than the video)`));
  };
}

/**
 * Frames delivered at their recording times, like a camera: each time the consumer asks, it gets
 * the newest frame whose time has come (waiting for it when the consumer is early); older due
 * frames are decoded and dropped. Pull-based on purpose: a consumer that keeps the event loop busy
 * (detection, tracking) cannot slow the "camera" down, so the stream's clock stays the wall clock
 * and a slow machine shows as dropped frames, not as growing delay.
 */
export function pacedFeed(frames: AsyncIterable<Frame> & { close?(): Promise<void> }, clock: Clock, onDrop?: (dropped: number) => void): Feed {
  const stop = new AbortController();
  async function* items(): AsyncGenerator<FeedItem> {
    const it = frames[Symbol.asyncIterator]();
    let t0Wall = NaN, t0Pts = NaN;
    let pending: Frame | undefined;
    let dropped = 0;
    const read = async (): Promise<Frame | undefined> => {
      if (pending) {
        const f = pending;
        pending = undefined;
        return f;
      }
      const r = await it.next();
      return r.done ? undefined : r.value;
    };
    const dueMs = () => t0Pts + (clock.now() - t0Wall);
    try {
      yield { type: 'status', status: 'live', detail: 'file at recording speed' };
      for (;;) {
        let f = await read();
        if (!f || stop.signal.aborted) break;
        if (Number.isNaN(t0Wall)) {
          t0Wall = clock.now();
          t0Pts = f.ptsMs;
        }
        if (f.ptsMs > dueMs()) await clock.sleep(f.ptsMs - dueMs(), stop.signal);
        else {
          // Late: skip to the newest frame that is due by now.
          for (;;) {
            const g = await read();
            if (!g) break;
            if (g.ptsMs > dueMs()) {
              pending = g;
              break;
            }
            dropped++;
            f = g;
          }
        }
        if (stop.signal.aborted) break;
        yield { type: 'frame', frame: f };
      }
    } finally {
      onDrop?.(dropped);
      await it.return?.();
      await frames.close?.().catch(() => undefined);
    }
  }
  return {
    finite: true,
    [Symbol.asyncIterator]: items,
    close: async () => {
      stop.abort();
      await frames.close?.().catch(() => undefined);
    },
  };
}
