/**
 * Live sources (RTSP/RTMP/HTTP/UDP/SRT streams, /dev/video* devices).
 *
 * A camera does not wait for us, so live sources do NOT apply backpressure to ffmpeg: holding back a
 * live stream only moves the backlog into socket buffers, raises latency without bound and ends with
 * the server dropping us. Instead a reader drains ffmpeg continuously into a bounded queue.
 *
 * Drop policy: the queue holds at most `queueFrames` frames (default 4). When a frame arrives and
 * the queue is full, the OLDEST queued frame is dropped — a referee wants the newest picture, not a
 * growing delay — and one log line says which frame went and the running counts. Dropped frames
 * leave gaps in `index`, so consumers can see them too.
 *
 * Reconnect: when the connection ends (EOF, error, `ioTimeoutMs` without data inside ffmpeg, or
 * `stallTimeoutMs` without frames here), we log why and reconnect after min(maxMs, initialMs *
 * factor^(n-1)) ms for the n-th attempt in a row; a connection that delivers a frame resets n.
 * The consumer's loop is not interrupted: it simply waits for the next frame.
 *
 * Timestamps: frame times follow the stream's own clock (camera capture times survive network
 * jitter), anchored on the wall clock when each connection's first frame arrives, so ptsMs is time
 * since the source was opened, keeps increasing across reconnects, and an outage shows as a gap.
 * Frames without a timestamp (some MJPEG streams) or after a clock jump take their arrival time.
 *
 * Status: `liveFeed` yields the same frames interleaved with what happened to the connection
 * (`connecting`, `live` on a connection's first frame, `lost` when it ends, `reconnecting` before
 * each new attempt), in order with the frames: a consumer sees `lost` after the last frame of the
 * connection that ended. Live mode shows these as "camera lost"; `liveSource` drops them.
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import { InputError } from '../core/errors.js';
import { decodeArgs, liveInputArgs } from './args.js';
import { decodeProcess, inventsTimestamps, type DecodeEnd } from './decode.js';
import { ffmpegPath } from './ffmpegPath.js';
import { makeFrameSource } from './frameSource.js';
import { BufferPool } from './splitter.js';
import { DEFAULT_IO_TIMEOUT_MS, DEFAULT_LIVE_STALL_MS, DEFAULT_QUEUE_FRAMES, DEFAULT_RECONNECT, type ReconnectPolicy, type SourceOptions } from './options.js';
import { ffmpegCaps } from './probe.js';
import type { Frame, FrameSource, SourceInfo, VideoLog } from './types.js';

/** Delay before the n-th consecutive reconnect attempt (n ≥ 1). Pure. */
export function backoffMs(attempt: number, policy: Pick<ReconnectPolicy, 'initialMs' | 'maxMs' | 'factor'>): number {
  return Math.min(policy.maxMs, policy.initialMs * policy.factor ** Math.max(0, attempt - 1));
}

/** A FIFO of bounded size that makes room by evicting its oldest item. */
export class DropOldestQueue<T> {
  private items: T[] = [];
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }
  get size(): number {
    return this.items.length;
  }
  /** Add an item; returns the item evicted to make room, if any. */
  push(item: T): T | undefined {
    this.items.push(item);
    return this.items.length > this.capacity ? this.items.shift() : undefined;
  }
  shift(): T | undefined {
    return this.items.shift();
  }
}

/** What happened to a live connection, in order with its frames. */
export interface LiveStatusItem {
  type: 'status';
  status: 'connecting' | 'live' | 'lost' | 'reconnecting';
  /** One line for a person: why the connection ended, which attempt this is. */
  detail: string;
  /** Reconnect attempt (1-based) for `reconnecting`; the wait before it for `lost`. */
  attempt?: number;
  retryInMs?: number;
}

export type LiveItem = { type: 'frame'; frame: Frame } | LiveStatusItem;

/**
 * A FIFO of frames and status items, bounded in frames only: a frame that finds it full evicts the
 * oldest FRAME (the newest picture wins, as in DropOldestQueue); status items are never dropped.
 */
export class FeedQueue {
  private items: LiveItem[] = [];
  private frames = 0;
  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError(`capacity must be a positive integer, got ${capacity}`);
  }
  get size(): number {
    return this.items.length;
  }
  /** Add an item; returns the frame evicted to make room, if any. */
  push(item: LiveItem): Frame | undefined {
    this.items.push(item);
    if (item.type !== 'frame') return undefined;
    if (++this.frames <= this.capacity) return undefined;
    const k = this.items.findIndex((x) => x.type === 'frame');
    const [old] = this.items.splice(k, 1);
    this.frames--;
    return old?.type === 'frame' ? old.frame : undefined;
  }
  shift(): LiveItem | undefined {
    const item = this.items.shift();
    if (item?.type === 'frame') this.frames--;
    return item;
  }
}

/**
 * Maps a connection's stream timestamps onto session time. Pure state machine (the caller passes
 * arrival times), so the anchoring rules are tested without sockets.
 */
export class LiveClock {
  private anchorMs: number | undefined;
  private lastMs = -Infinity;
  /** A stream timestamp further than this from arrival time is a clock jump: re-anchor. */
  constructor(readonly resyncMs = 2000) {}

  /** Call at each new connection: its stream clock starts from scratch. */
  newConnection(): void {
    this.anchorMs = undefined;
  }

  /** Session time (ms) for a frame with stream time `streamMs` (null: none) that arrived at `arrivalMs`. */
  place(streamMs: number | null, arrivalMs: number): { ptsMs: number; resynced: boolean } {
    let resynced = false;
    let t: number;
    if (streamMs === null) {
      t = arrivalMs;
    } else {
      if (this.anchorMs === undefined) this.anchorMs = arrivalMs - streamMs;
      t = this.anchorMs + streamMs;
      if (Math.abs(t - arrivalMs) > this.resyncMs) {
        resynced = true;
        this.anchorMs = arrivalMs - streamMs;
        t = arrivalMs;
      }
    }
    // Strictly increasing: trackers divide by time steps.
    if (t <= this.lastMs) t = this.lastMs + 0.001;
    this.lastMs = t;
    return { ptsMs: t, resynced };
  }
}

/** Why a connection ended, in a few words for the log. */
export function describeEnd(end: DecodeEnd, stallTimeoutMs: number): string {
  if (end.spawnError) return `ffmpeg could not start (${end.spawnError.message})`;
  if (end.stalled) return `no data for ${stallTimeoutMs} ms`;
  const last = end.stderrTail.slice(-1)[0];
  if (end.exitCode === 0) return 'stream ended';
  return `${end.signal ? `ffmpeg killed by ${end.signal}` : `ffmpeg exit ${end.exitCode}`}${last ? `: ${last}` : ''}`;
}

/** A live source's frames interleaved with its connection status (see the module comment). */
export interface LiveFeed extends AsyncIterable<LiveItem> {
  readonly info: SourceInfo;
  readonly warnings: readonly string[];
  close(): Promise<void>;
  /** As `FrameSource.release`: the caller is done with this frame's pixels. */
  release(frame: Frame): void;
}

export function liveSource(uri: string, opts: SourceOptions, log: VideoLog): FrameSource {
  const feed = liveFeed(uri, opts, log);
  async function* frames(): AsyncGenerator<Frame, void, void> {
    for await (const item of feed) if (item.type === 'frame') yield item.frame;
  }
  return makeFrameSource(feed.info, feed.warnings as string[], frames, () => void feed.close(), (f) => feed.release(f));
}

export function liveFeed(uri: string, opts: SourceOptions, log: VideoLog): LiveFeed {
  const binary = ffmpegPath();
  const caps = ffmpegCaps(binary);
  const policy: ReconnectPolicy = { ...DEFAULT_RECONNECT, ...opts.reconnect };
  const capacity = opts.queueFrames ?? DEFAULT_QUEUE_FRAMES;
  const stallTimeoutMs = opts.stallTimeoutMs ?? DEFAULT_LIVE_STALL_MS;
  const ioTimeoutMs = opts.ioTimeoutMs ?? DEFAULT_IO_TIMEOUT_MS;
  const inputArgs = liveInputArgs(uri, caps, { ioTimeoutMs, ...(opts.inputFormat !== undefined ? { inputFormat: opts.inputFormat } : {}) });
  // Streams without timestamps of their own (HTTP MJPEG cameras: ffmpeg makes up a 25 fps clock)
  // are stamped with their arrival time here. Format detection and stream probing would hold back
  // the first frames and release them in a burst, squeezing their arrival times, so once we know
  // the format we reopen with it named and probing cut to the first picture.
  const quickProbeArgs = ['-analyzeduration', '0', '-probesize', '32', '-fpsprobesize', '0'];
  let untimedFormat = opts.inputFormat !== undefined && inventsTimestamps(opts.inputFormat) ? opts.inputFormat : undefined;
  const argsFor = (): string[] => {
    if (untimedFormat === undefined) return decodeArgs(uri, caps, { inputArgs, scale: opts.scale });
    const named = opts.inputFormat !== undefined ? [] : ['-f', untimedFormat];
    return decodeArgs(uri, caps, { inputArgs: [...quickProbeArgs, ...inputArgs, ...named], scale: opts.scale });
  };
  const endMs = opts.endSec !== undefined ? opts.endSec * 1000 : Infinity;
  const info: SourceInfo = { kind: 'live', uri, width: 0, height: 0 };
  const warnings: string[] = [];
  const stop = new AbortController();
  const pool = new BufferPool();

  async function* items(): AsyncGenerator<LiveItem, void, void> {
    const queue = new FeedQueue(capacity);
    let wake: (() => void) | undefined;
    const notify = (): void => {
      const w = wake;
      wake = undefined;
      w?.();
    };
    let producerDone = false;
    let failure: Error | undefined;
    let decoded = 0;
    let dropped = 0;
    let restartedForClock = false;
    const t0 = performance.now();
    const clock = new LiveClock();

    const status = (item: Omit<LiveStatusItem, 'type'>): void => {
      queue.push({ type: 'status', ...item });
      notify();
    };
    const produce = async (): Promise<void> => {
      let failedInARow = 0;
      let connection = 0;
      while (!stop.signal.aborted) {
        connection++;
        clock.newConnection();
        if (connection === 1) status({ status: 'connecting', detail: `opening ${uri}` });
        else if (!restartedForClock) status({ status: 'reconnecting', detail: `reconnect attempt ${failedInARow}`, attempt: failedInARow });
        restartedForClock = false;
        const restart = new AbortController();
        let restartForClock = false;
        const gen = decodeProcess({
          binary,
          args: argsFor(),
          stallTimeoutMs,
          signal: AbortSignal.any([stop.signal, restart.signal]),
          pool,
          onInputFormat: (demuxer) => {
            if (untimedFormat === undefined && inventsTimestamps(demuxer)) {
              untimedFormat = demuxer;
              restartForClock = true;
              log(`live '${uri}': the ${demuxer} stream has no timestamps; reopening it to stamp frames on arrival`);
              restart.abort();
            }
          },
        });
        let framesThisConnection = 0;
        let end: DecodeEnd | undefined;
        try {
          for (;;) {
            const r = await gen.next();
            if (r.done) {
              end = r.value;
              break;
            }
            const f = r.value;
            const { ptsMs, resynced } = clock.place(untimedFormat !== undefined ? null : f.streamPtsMs, performance.now() - t0);
            if (resynced) log(`live '${uri}': stream clock jumped at frame #${decoded}; timestamps re-anchored to arrival time`);
            if (ptsMs >= endMs) {
              stop.abort();
              break;
            }
            framesThisConnection++;
            if (framesThisConnection === 1) status({ status: 'live', detail: `connection ${connection}: frames arriving` });
            if (info.width === 0) {
              info.width = f.width;
              info.height = f.height;
            }
            const frame: Frame = { index: decoded++, ptsMs, width: f.width, height: f.height, rgb: f.rgb };
            const evicted = queue.push({ type: 'frame', frame });
            if (evicted) {
              pool.give(evicted.rgb); // never handed out: nobody else holds it
              dropped++;
              log(`live '${uri}': consumer behind, dropped frame #${evicted.index} (${evicted.ptsMs.toFixed(0)} ms), queue full at ${capacity}; ${dropped} dropped of ${decoded} decoded`);
            }
            notify();
          }
        } finally {
          await gen.return(undefined as never);
        }
        if (stop.signal.aborted || !end) break;
        if (restartForClock) {
          restartedForClock = true;
          continue; // straight away: nothing failed
        }
        failedInARow = framesThisConnection > 0 ? 1 : failedInARow + 1;
        const why = describeEnd(end, stallTimeoutMs);
        if (policy.maxAttempts === 0 && framesThisConnection > 0) {
          // Reconnecting is off and the stream gave us pictures: its end is the end of the source.
          const msg = `live '${uri}': connection ended after ${framesThisConnection} frame(s) (${why}); reconnecting is off, source finished`;
          warnings.push(msg);
          log(msg);
          break;
        }
        if (failedInARow > policy.maxAttempts) {
          status({ status: 'lost', detail: why });
          const tried = policy.maxAttempts === 0 ? 'reconnecting is off (reconnect.maxAttempts 0)' : `${policy.maxAttempts} reconnect attempt(s) failed`;
          failure = new InputError({
            code: 'LIVE_SOURCE_LOST',
            message: `live source '${uri}' lost after ${decoded} frame(s): ${tried}, last: ${why}. Check the camera/stream and the network`,
          });
          break;
        }
        const waitMs = backoffMs(failedInARow, policy);
        status({ status: 'lost', detail: why, retryInMs: waitMs });
        log(`live '${uri}': connection ${connection} ended after ${framesThisConnection} frame(s) (${why}); reconnect attempt ${failedInARow} in ${waitMs} ms`);
        await delay(waitMs, undefined, { signal: stop.signal }).catch(() => {});
      }
    };

    const producer = produce()
      .catch((e: unknown) => {
        failure = e instanceof Error ? e : new Error(String(e));
      })
      .finally(() => {
        producerDone = true;
        notify();
      });

    try {
      for (;;) {
        const item = queue.shift();
        if (item) {
          yield item;
          continue;
        }
        if (producerDone) break;
        await new Promise<void>((r) => (wake = r));
      }
      if (failure) throw failure;
    } finally {
      stop.abort();
      await producer;
      if (dropped > 0) {
        const msg = `live '${uri}': ${dropped} of ${decoded} decoded frame(s) dropped because the consumer fell behind (queue of ${capacity})`;
        warnings.push(msg);
      }
    }
  }

  let active: AsyncGenerator<LiveItem, void, void> | undefined;
  let used = false;
  return {
    info,
    warnings,
    [Symbol.asyncIterator](): AsyncIterator<LiveItem> {
      if (used) throw new Error(`live source '${uri}' can be iterated only once: open it again`);
      used = true;
      if (stop.signal.aborted) return (async function* () {})();
      active = items();
      return active;
    },
    release(frame: Frame): void {
      pool.give(frame.rgb);
    },
    async close(): Promise<void> {
      stop.abort();
      await active?.return(undefined);
    },
  };
}
