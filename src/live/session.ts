/**
 * A live session: feed → chain → referee → disk → listeners (the WebSocket server), with the
 * connection's ups and downs in between.
 *
 * Order of work for a stroke (why: a call the page shows must already be on disk):
 *   segmenter hands out the stroke → referee judges it → strokes.jsonl append (fsync) →
 *   calls.json rewritten atomically → `call` pushed to listeners.
 *
 * Camera lost: a feed that throws, a live feed that ends, a `lost` status from the source, or no
 * frame for `lostAfterMs` while waiting for one. The chain drops a stroke in progress (flagged
 * `STROKE_INTERRUPTED`, never called), the tracker and the referee keep their state, and the feed
 * is reopened with backoff (`backoffMs` of src/video/live.ts). Stream time keeps increasing across
 * feeds (a feed whose clock restarts is shifted to follow the last frame by the wall-clock gap).
 *
 * Restart: `restore()` reads strokes.jsonl back, re-referees it (the same calls, repairs and all)
 * and continues the frame from there; stream time continues after the log's last event.
 */
import type { BaseCall } from '../core/contracts/calls.js';
import { strokeSchema, type FrameStart, type Stroke } from '../core/contracts/strokes.js';
import { InputError } from '../core/errors.js';
import { allBallIds, type GameId } from '../core/games.js';
import type { TableProfile } from '../core/table.js';
import type { EventParamsInput } from '../events/index.js';
import type { FrameDetector } from '../pipeline/track.js';
import type { MotionGateParams } from '../pipeline/motionGate.js';
import type { TrackerParamsInput } from '../tracking/index.js';
import { z } from 'zod';
import { backoffMs } from '../video/live.js';
import type { ReconnectPolicy } from '../video/options.js';
import { LiveChain, type LiveChainOptions } from './chain.js';
import { systemClock, type Clock, type Feed, type FeedItem, type OpenFeed } from './feed.js';
import { idsOf } from '../pipeline/reconcile.js';
import { LiveReferee } from './referee.js';
import { callView, scoreboardOf, type CallView, type Scoreboard } from './scoreboard.js';
import type { SegmenterOptions, SegmenterOutput } from './segmenter.js';
import { LiveStore } from './store.js';

export type LiveStatus = 'connecting' | 'live' | 'lost' | 'reconnecting' | 'ended';

export interface FlagView {
  code: string;
  /** Stream time, s (null: from an earlier run). */
  t: number | null;
  reason: string;
}

/** Everything a page needs to draw itself from scratch (sent to a page that opens late). */
export interface LiveState {
  game: GameId;
  status: { status: LiveStatus; detail: string };
  scoreboard: Scoreboard;
  /** The last calls, oldest first. */
  calls: CallView[];
  flags: FlagView[];
  /** Balls on the bed now, table mm. */
  balls: [string, number, number][];
  /** Stream time of the last frame, s. */
  t: number;
  frames: number;
  /** What the operator entered for the next stroke (cameras cannot see it). */
  next: OperatorInput;
}

/**
 * The next stroke's fields that only a person can give: the striker's nomination (colour after a
 * red, free ball), the called ball and pocket (pool), the incoming player's decision after a foul
 * (play, playAgain, replace…), a declared touching ball. The contract's own field names.
 */
export const operatorInputSchema = strokeSchema.pick({ nominated: true, calledBall: true, calledPocket: true, decision: true, touching: true }).strict();
export type OperatorInput = z.infer<typeof operatorInputSchema>;

export type LiveMessage =
  | { type: 'snapshot'; state: LiveState }
  | { type: 'status'; status: LiveStatus; detail: string }
  | { type: 'balls'; t: number; balls: [string, number, number][] }
  | {
      type: 'call';
      call: CallView;
      scoreboard: Scoreboard;
      /** restT: stream time the last ball stopped; confirmT: of the frame that confirmed it; restFrameWallMs: clock time that frame was processed. */
      timing: { restT: number; confirmT: number; restFrameWallMs: number; pushedWallMs: number };
    }
  | { type: 'flag'; flag: FlagView }
  | { type: 'next'; next: OperatorInput };

export interface LiveSessionOptions {
  game: GameId;
  table: TableProfile;
  calibration: LiveChainOptions['calibration'];
  detector: FrameDetector;
  open: OpenFeed;
  outDir: string;
  players?: [string, string];
  variant?: string;
  /** A frame joined midway (the new frame's header; a restored log keeps its own). */
  start?: FrameStart;
  clock?: Clock;
  tracker?: TrackerParamsInput;
  events?: EventParamsInput;
  segmenter?: Omit<SegmenterOptions, 'events'>;
  /** Gate the detector by motion (see LiveChain); absent: it runs on every frame. */
  gate?: Partial<MotionGateParams>;
  /** Reconnect backoff for reopening the feed (same shape as src/video's). Default 500 ms × 2ⁿ, ≤ 10 s, unlimited. */
  reconnect?: Partial<ReconnectPolicy>;
  /** Ball positions are pushed at most this often, ms (default 200: 5 Hz). */
  ballsIntervalMs?: number;
  /** No frame for this long while live = camera lost, ms (0: off; default 2000). */
  lostAfterMs?: number;
  /** Calls and flags kept in the snapshot. */
  keepCalls?: number;
  log?: (line: string) => void;
}

export class LiveSession {
  readonly store: LiveStore;
  readonly referee: LiveReferee;
  private readonly chain: LiveChain;
  private readonly clock: Clock;
  private readonly listeners = new Set<(m: LiveMessage) => void>();
  private readonly stop = new AbortController();
  private readonly stopped = new Promise<typeof STOPPED>((r) => this.stop.signal.addEventListener('abort', () => r(STOPPED), { once: true }));
  private feed: Feed | null = null;
  private running: Promise<void> | null = null;
  private status: { status: LiveStatus; detail: string } = { status: 'connecting', detail: 'starting' };
  private readonly flags: FlagView[] = [];
  private balls: [string, number, number][] = [];
  private next: OperatorInput = {};
  private lastT = -Infinity;
  private offsetS = 0;
  private frames = 0;
  private lastFrameWall = -Infinity;
  private lastBallsWall = -Infinity;
  private waitingForFrame = false;
  private lastFrameError = '';
  /** (stream t, clock ms when processed) of recent frames, for the call latency. */
  private readonly processed: { t: number; wall: number }[] = [];
  private readonly policy: ReconnectPolicy;
  private readonly log: (line: string) => void;

  constructor(private readonly o: LiveSessionOptions) {
    this.clock = o.clock ?? systemClock;
    this.store = new LiveStore(o.outDir);
    this.referee = new LiveReferee(o.game, o.table, o.players, o.variant, o.start);
    this.chain = new LiveChain({
      game: o.game,
      table: o.table,
      calibration: o.calibration,
      detector: o.detector,
      ...(o.tracker ? { tracker: o.tracker } : {}),
      ...(o.events ? { events: o.events } : {}),
      ...(o.segmenter ? { segmenter: o.segmenter } : {}),
      ...(o.gate ? { gate: o.gate } : {}),
    });
    this.policy = { initialMs: 500, maxMs: 10_000, factor: 2, maxAttempts: Infinity, ...o.reconnect };
    this.log = o.log ?? ((line) => process.stderr.write(`cueref live: ${line}\n`));
  }

  /** Frames by what the detector did (whole-frame runs, region runs, reuses): see LiveChain. */
  detectorUse(): { whole: number; regions: number; reused: number } {
    return { ...this.chain.detectorUse };
  }

  /** Read back what an earlier run wrote (strokes.jsonl): the frame goes on from there. Returns the number of strokes restored. */
  restore(): number {
    const r = this.store.load();
    for (const w of r.warnings) this.log(w);
    for (const f of r.flags) this.flags.push({ code: f.code ?? 'FLAG', t: null, reason: f.detail ?? '' });
    if (!r.header) return 0;
    this.referee.begin(r.header);
    let lastEventT = 0;
    for (const [k, s] of r.strokes.entries()) {
      const res = this.referee.add(s);
      if (!res.ok) this.log(`restore: stroke ${k} of ${this.store.paths.strokes} is refused now (${res.reason}); skipped`);
      for (const e of s.events) lastEventT = Math.max(lastEventT, e.t);
      lastEventT = Math.max(lastEventT, s.t ?? 0);
    }
    // Stream time goes on after the log's last event (times in one log never go backwards).
    this.offsetS = Math.ceil(lastEventT) + 1;
    // The tracker goes on with the same ids: the balls where the last stroke left them, and the
    // ids of those that left the table (a fresh tracker would hand a potted red's id out again).
    const last = r.strokes.at(-1);
    const onTable = last?.rest ?? (Array.isArray(r.header.start?.balls) ? r.header.start.balls : []);
    const known = new Set<string>(r.strokes.flatMap((s) => [...idsOf(s)]));
    if (Array.isArray(r.header.start?.balls)) for (const b of r.header.start.balls) known.add(b.id);
    if (onTable.length) this.chain.seed(onTable, [...known].filter((id) => !onTable.some((b) => b.id === id)), this.offsetS - 0.5);
    this.store.writeCalls(this.referee.callsDoc());
    return this.referee.calls.length;
  }

  subscribe(listener: (m: LiveMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  snapshot(): LiveState {
    const keep = this.o.keepCalls ?? 20;
    return {
      game: this.o.game,
      status: { ...this.status },
      scoreboard: this.scoreboard(),
      calls: this.referee.calls.slice(-keep).map(callView),
      flags: this.flags.slice(-keep),
      balls: this.balls,
      t: Number.isFinite(this.lastT) ? this.lastT : 0,
      frames: this.frames,
      next: { ...this.next },
    };
  }

  /**
   * The operator's input for the next stroke (replaces what was entered before; `{}` clears it).
   * Applied to the next stroke the cameras see, then cleared; kept if the referee refuses that
   * stroke. Throws an InputError naming the field for anything the contract or the game refuses.
   */
  setNext(raw: unknown): OperatorInput {
    const parsed = operatorInputSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new InputError({ code: 'BAD_OPERATOR_INPUT', field: issue.path.join('.') || '(root)', message: `the next stroke's input is refused: ${issue.message}` });
    }
    const known = new Set(allBallIds(this.o.game));
    for (const [field, ids] of [['nominated', [parsed.data.nominated]], ['calledBall', [parsed.data.calledBall]], ['touching', parsed.data.touching ?? []]] as const) {
      for (const id of ids) {
        if (id !== undefined && !known.has(id)) throw new InputError({ code: 'BAD_OPERATOR_INPUT', field, message: `'${id}' is not a ${this.o.game} ball (one of ${[...known].slice(0, 8).join(', ')}…)` });
      }
    }
    this.next = parsed.data;
    this.store.record({ kind: 'next', detail: JSON.stringify(this.next) });
    this.emit({ type: 'next', next: { ...this.next } });
    return { ...this.next };
  }

  scoreboard(): Scoreboard {
    return scoreboardOf(this.o.game, this.referee.playerNames, this.referee.describe());
  }

  /** Run until the feed ends (a file), `close()`, or the reconnect policy gives up. */
  start(): Promise<void> {
    this.running ??= this.loop();
    return this.running;
  }

  /** Stop: close the feed, wait for the loop, write calls.json one last time. Everything is already on disk. */
  async close(): Promise<void> {
    this.stop.abort();
    await this.feed?.close().catch(() => undefined);
    await this.running?.catch(() => undefined);
    if (this.referee.started) this.store.writeCalls(this.referee.callsDoc());
    this.store.record({ kind: 'closed', t: this.lastT });
  }

  private async loop(): Promise<void> {
    this.store.record({ kind: 'opened', detail: `${this.o.game}, ${this.referee.calls.length} call(s) restored` });
    const watchdog = this.startWatchdog();
    let attempt = 0;
    try {
      while (!this.stop.signal.aborted) {
        this.setStatus(attempt === 0 ? 'connecting' : 'reconnecting', attempt === 0 ? 'opening the source' : `reconnect attempt ${attempt}`);
        let why = '';
        let finished = false;
        try {
          try {
            this.feed = await this.o.open();
          } catch (e) {
            // Bad input (a missing file, a bad option) before any frame: not a camera to wait for.
            if (e instanceof InputError && this.frames === 0 && attempt === 0) throw new FatalOpen(e);
            throw e;
          }
          let first = true;
          const it = this.feed[Symbol.asyncIterator]();
          for (;;) {
            this.waitingForFrame = true;
            // close() must not wait on a feed that ignores its own close (a stuck device read).
            const r = await Promise.race([it.next(), this.stopped]);
            this.waitingForFrame = false;
            if (r === STOPPED || r.done || this.stop.signal.aborted) break;
            const item = r.value;
            if (item.type === 'frame') {
              if (this.status.status !== 'live') this.setStatus('live', 'frames arriving');
              await this.onFrame(item, first);
              first = false;
              attempt = 0;
            } else this.onSourceStatus(item);
          }
          if (this.feed.finite) finished = true;
          else why = 'the stream ended';
        } catch (e) {
          if (e instanceof FatalOpen) throw e.cause;
          why = (e as Error).message ?? String(e);
        } finally {
          this.waitingForFrame = false;
          await this.feed?.close().catch(() => undefined);
          this.feed = null;
        }
        if (this.stop.signal.aborted) break;
        if (finished) {
          // A file ends; a camera does not: the stroke still in the window is called now.
          for (const out of this.chain.segmenter.finish()) this.onOutput(out);
          this.setStatus('ended', 'the source ended');
          return;
        }
        attempt++;
        this.cameraLost(why);
        if (attempt > this.policy.maxAttempts) {
          this.setStatus('ended', `gave up after ${this.policy.maxAttempts} reconnect attempt(s): ${why}`);
          return;
        }
        const waitMs = backoffMs(attempt, this.policy);
        this.log(`camera lost (${why}); reconnecting in ${waitMs} ms`);
        await this.clock.sleep(waitMs, this.stop.signal);
      }
      this.setStatus('ended', 'stopped');
    } finally {
      clearInterval(watchdog);
    }
  }

  private startWatchdog(): ReturnType<typeof setInterval> | undefined {
    const lostAfterMs = this.o.lostAfterMs ?? 2000;
    if (lostAfterMs <= 0) return undefined;
    const timer = setInterval(() => {
      // Only while the loop waits for a frame: a slow detector is not a lost camera.
      if (this.waitingForFrame && this.status.status === 'live' && this.clock.now() - this.lastFrameWall > lostAfterMs) {
        this.cameraLost(`no frame for ${lostAfterMs} ms`);
      }
    }, Math.min(250, lostAfterMs / 2));
    timer.unref();
    return timer;
  }

  private onSourceStatus(item: Extract<FeedItem, { type: 'status' }>): void {
    switch (item.status) {
      case 'lost':
        this.cameraLost(item.detail);
        return;
      case 'reconnecting':
        this.setStatus('reconnecting', item.detail);
        return;
      case 'connecting':
        this.setStatus('connecting', item.detail);
        return;
      case 'live':
        // Shown when the first frame arrives.
        return;
    }
  }

  private cameraLost(why: string): void {
    if (this.status.status === 'lost' || this.status.status === 'reconnecting') return;
    this.setStatus('lost', why);
    const flag = this.chain.interrupt(Number.isFinite(this.lastT) ? this.lastT : 0, why);
    if (flag) this.raise(flag.code, flag.t, flag.reason);
  }

  private async onFrame(item: Extract<FeedItem, { type: 'frame' }>, firstOfFeed: boolean): Promise<void> {
    const f = item.frame;
    let t = f.ptsMs / 1000 + this.offsetS;
    if (firstOfFeed && Number.isFinite(this.lastT) && t <= this.lastT) {
      // This feed's clock started again: follow the last frame by the time that really passed.
      const gapS = Math.max(0.001, (this.clock.now() - this.lastFrameWall) / 1000);
      this.offsetS = this.lastT + gapS - f.ptsMs / 1000;
      t = f.ptsMs / 1000 + this.offsetS;
    }
    let step: Awaited<ReturnType<LiveChain['push']>>;
    try {
      step = await this.chain.push({ ...f, index: this.frames }, t);
    } catch (e) {
      // One bad frame (a detection the tracker refuses) is skipped, not taken for a lost camera.
      const msg = (e as Error).message;
      if (msg !== this.lastFrameError) this.log(`frame at ${t.toFixed(3)} s skipped: ${msg}`);
      this.lastFrameError = msg;
      this.lastFrameWall = this.clock.now();
      return;
    }
    const wall = this.clock.now();
    this.lastFrameWall = wall;
    if (!step) return;
    this.frames++;
    this.lastT = t;
    this.processed.push({ t, wall });
    while (this.processed.length > 1 && this.processed[0]!.t < t - 60) this.processed.shift();
    this.balls = step.frame.balls.filter((b) => b.state !== 'pocketed' && b.state !== 'offTable').map((b) => [b.id, b.x, b.y]);
    for (const out of step.outputs) this.onOutput(out);
    const every = this.o.ballsIntervalMs ?? 200;
    if (wall - this.lastBallsWall >= every) {
      this.lastBallsWall = wall;
      this.emit({ type: 'balls', t, balls: this.balls });
    }
  }

  private onOutput(out: SegmenterOutput): void {
    switch (out.type) {
      case 'start':
        if (!this.referee.started) {
          const header = this.referee.headerFor(out.balls);
          this.referee.begin(header);
          this.store.writeHeader(header);
        }
        return;
      case 'flag':
        this.raise(out.code, out.t, out.reason);
        return;
      case 'stroke': {
        for (const n of out.notes) this.log(`events: ${n}`);
        this.judge(out.stroke, out.restT, out.confirmT);
        return;
      }
    }
  }

  private judge(seen: Stroke, restT: number, confirmT: number): void {
    if (!this.referee.started) this.referee.begin(this.referee.headerFor(seen.before ?? []));
    // What the operator entered goes with the stroke (and into the log with it).
    const stroke: Stroke = { ...seen, ...this.next };
    const res = this.referee.add(stroke);
    if (!res.ok) {
      this.store.record({ kind: 'refused', t: confirmT, code: 'STROKE_REFUSED', detail: res.reason, stroke });
      this.raise('STROKE_REFUSED', confirmT, `${res.reason}: not called; review it`, false);
      return;
    }
    this.store.appendStroke(stroke);
    this.store.writeCalls(this.referee.callsDoc());
    if (Object.keys(this.next).length) {
      this.next = {};
      this.emit({ type: 'next', next: {} });
    }
    this.pushCall(res.call, restT, confirmT);
  }

  private pushCall(call: BaseCall, restT: number, confirmT: number): void {
    // The frame where the last ball stopped: the latest processed frame at or before restT.
    let restWall = NaN;
    for (let k = this.processed.length - 1; k >= 0; k--) {
      if (this.processed[k]!.t <= restT + 1e-9) {
        restWall = this.processed[k]!.wall;
        break;
      }
    }
    const pushed = this.clock.now();
    this.emit({ type: 'call', call: callView(call), scoreboard: this.scoreboard(), timing: { restT, confirmT, restFrameWallMs: restWall, pushedWallMs: pushed } });
  }

  private raise(code: string, t: number, reason: string, record = true): void {
    const flag: FlagView = { code, t, reason };
    this.flags.push(flag);
    if (record) this.store.record({ kind: 'flag', t, code, detail: reason });
    this.log(`${code}: ${reason}`);
    this.emit({ type: 'flag', flag });
  }

  private setStatus(status: LiveStatus, detail: string): void {
    if (this.status.status === status && this.status.detail === detail) return;
    this.status = { status, detail };
    this.store.record({ kind: 'status', code: status, detail, ...(Number.isFinite(this.lastT) ? { t: this.lastT } : {}) });
    this.emit({ type: 'status', status, detail });
  }

  private emit(m: LiveMessage): void {
    for (const l of this.listeners) {
      try {
        l(m);
      } catch (e) {
        this.log(`a listener failed: ${(e as Error).message}`);
      }
    }
  }
}

const STOPPED = Symbol('stopped');

/** Carries an error out of the reconnect loop. */
class FatalOpen extends Error {
  constructor(override readonly cause: InputError) {
    super(cause.message);
  }
}
