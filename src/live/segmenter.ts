/**
 * Strokes from tracks as they arrive, for live mode: the batch event stage (`tracksToStrokes`) run
 * on a moving window of frames, at the moment the table comes to rest.
 *
 * Why a window and not an incremental copy of the event stage: the stage's contact timing fits
 * whole paths, and a second implementation would drift from the first. The window holds the frames
 * since the last stroke's rest (plus the stillness before it, which anchors the strike's timing);
 * on every frame the cheap part of the stage (`buildSeries` → `bridgeDropouts` → `motionSpans`,
 * the same functions and parameters `tracksToStrokes` uses, so both agree on what moved) says
 * whether some ball moved since the last call and every ball has been still for `atRestMs` again.
 * Only then the whole stage runs on the window, its strokes are handed out, and the window is cut
 * back to the stillness that ended them. The cost per frame is linear in the window (a few
 * seconds of positions while the table is idle, one stroke's while it plays).
 *
 * Latency: a call is possible `atRestMs` (stream time) after the last ball stopped — that is what
 * "stopped" means — plus one frame and the stage's run on one stroke's window.
 *
 * Camera lost (`interrupt`): the window is dropped. A stroke in progress is NOT judged on the part
 * that was seen (its end is unknown: a pot or a foul may have happened in the dark): it becomes a
 * `STROKE_INTERRUPTED` flag for the referee to review. When frames come back the segmenter resyncs:
 * it waits until every ball has been still for `atRestMs` (a stroke that was still rolling ends
 * unseen) and compares the table with how it was left; a table that changed gives
 * `TABLE_CHANGED_WHILE_LOST`. Strokes are called again from there.
 */
import type { BallPos, Stroke } from '../core/contracts/strokes.js';
import type { TrackFrame } from '../core/contracts/tracks.js';
import type { Mat3 } from '../core/mat3.js';
import type { TableProfile } from '../core/table.js';
import { bridgeDropouts, buildSeries, eventParams, motionSpans, Presence, tracksToStrokes, type EventParams, type EventParamsInput, type MotionSpan, type Series } from '../events/index.js';

export interface SegmenterOptions {
  /** Event-stage parameters (`atRestMs` sets how soon a call can come). */
  events?: EventParamsInput;
  /**
   * Stillness kept in the window while the table is idle, s. The event stage looks back up to 60
   * frames before a strike to time it (2 s at 30 fps). Higher: more memory and work per frame;
   * lower: strikes timed from fewer still frames.
   */
  leadS?: number;
  /**
   * A ball that vanishes away from a pocket may be a detector dropout, and the offline stage would
   * bridge the gap when it is found again: wait this long before ending a stroke without it, ms.
   * Higher: fewer phantom pots/placements from dropouts; the call comes later when a ball really left.
   */
  vanishGraceMs?: number;
  /** Longest window without a call (a motion that never settles), s; then it is dropped and flagged. */
  maxWindowS?: number;
  /** The camera's homographies, as a tracks header carries them (the event stage tells a ball sinking into a pocket from a jaw contact with them). */
  calibration?: { ballCentreToTable: Mat3; imageToTable?: Mat3 };
}

/** Things the segmenter could not call and says so (they become review flags on the scoreboard). */
export type SegmenterFlagCode = 'STROKE_INTERRUPTED' | 'TABLE_CHANGED_WHILE_LOST' | 'WINDOW_OVERFLOW';

export interface SegmenterFlag {
  type: 'flag';
  code: SegmenterFlagCode;
  /** Stream time, s. */
  t: number;
  reason: string;
}

export interface CompletedStroke {
  type: 'stroke';
  stroke: Stroke;
  /** Stream time when the last ball came to rest (the first still frame of the last mover), s. */
  restT: number;
  /** Stream time of the frame that confirmed the rest (when the stroke was handed out), s. */
  confirmT: number;
  notes: string[];
}

/** The opening layout, from the first window (the log's `start.balls`). Emitted once, before the first stroke. */
export interface OpeningLayout {
  type: 'start';
  balls: BallPos[];
}

export type SegmenterOutput = CompletedStroke | OpeningLayout | SegmenterFlag;

const DEFAULTS = { leadS: 3, vanishGraceMs: 400, maxWindowS: 120 };

/** Positions a ball keeps while it is on the bed (the tracker's states that are not "gone"). */
const onBed = (state: TrackFrame['balls'][number]['state']): boolean => state !== 'pocketed' && state !== 'offTable';

export class StrokeSegmenter {
  readonly params: EventParams;
  private readonly o: typeof DEFAULTS;
  private readonly calibration: SegmenterOptions['calibration'];
  private frames: TrackFrame[] = [];
  private mode: 'tracking' | 'resync' = 'tracking';
  /** Motion that ended at or before this stream time has been judged already (hand moves: no stroke). */
  private doneUntilT = -Infinity;
  private startSent = false;
  /** Rest positions when the camera was lost with the table still (to see whether it changed). */
  private lostAt: { t: number; balls: Map<string, { x: number; y: number }> } | null = null;

  constructor(
    readonly table: TableProfile,
    opts: SegmenterOptions = {},
  ) {
    this.params = eventParams(opts.events ?? {});
    this.calibration = opts.calibration;
    const { leadS, vanishGraceMs, maxWindowS } = opts;
    this.o = { ...DEFAULTS, ...stripUndefined({ leadS, vanishGraceMs, maxWindowS }) };
    for (const [k, v] of Object.entries(this.o)) if (!(Number.isFinite(v) && v > 0)) throw new RangeError(`segmenter option ${k} must be a positive number, got ${v}`);
  }

  /** Frames in the window now (for tests and diagnostics). */
  get windowFrames(): number {
    return this.frames.length;
  }

  get resyncing(): boolean {
    return this.mode === 'resync';
  }

  /** Feed one tracked frame (stream time strictly increasing); returns what it completed. */
  push(frame: TrackFrame): SegmenterOutput[] {
    const last = this.frames.at(-1);
    if (last && !(frame.t > last.t)) throw new RangeError(`frame times must increase: ${frame.t} after ${last.t}`);
    this.frames.push(this.frames.length === 0 ? anchorFrame(frame) : frame);
    if (this.frames.length < 2) return [];
    const tNow = frame.t;
    const atRestS = this.params.atRestMs / 1000;
    const { series, spans } = this.motion();
    const open = spans.filter((s) => s.kRest < 0 && !s.left);

    if (this.mode === 'resync') {
      if (open.length > 0 || tNow - this.frames[0]!.t < atRestS) return this.checkOverflow(tNow);
      // Settled: whatever was rolling when the camera came back has stopped unseen.
      const out: SegmenterOutput[] = [];
      const changed = this.lostAt ? tableChanges(this.lostAt.balls, frame, 2 * this.params.moveThresholdMm) : [];
      if (changed.length) {
        out.push({
          type: 'flag',
          code: 'TABLE_CHANGED_WHILE_LOST',
          t: tNow,
          reason: `the table changed while the camera was lost (${changed.join(', ')}): a stroke may have been played unseen; check the score`,
        });
      }
      this.lostAt = null;
      this.mode = 'tracking';
      this.doneUntilT = tNow;
      this.cutTo(tNow - atRestS);
      return out;
    }

    if (open.length > 0) return this.checkOverflow(tNow);
    const fresh = spans.filter((s) => series.t[s.k1]! > this.doneUntilT);
    if (fresh.length === 0) {
      this.idleTrim(tNow, spans.length > 0);
      return [];
    }
    // A ball that just vanished mid-table may come back (a dropout the stage would bridge): wait.
    const graceS = this.o.vanishGraceMs / 1000;
    if (fresh.some((s) => s.left && series.balls.get(s.ball)!.presence[s.k1] === Presence.Absent && tNow - series.t[s.k1]! < graceS)) return [];

    // The last ball to stop: the first still frame of each mover (or the frame it left the bed).
    let restT = -Infinity;
    for (const s of fresh) restT = Math.max(restT, series.t[s.kRest >= 0 ? s.kRest : s.k1]!);
    const out = this.callWindow(restT, tNow);
    this.doneUntilT = tNow;
    if (out.some((o) => o.type === 'stroke')) {
      // Keep only the stillness that ended the stroke: the next window starts at rest. A ball that
      // left during it (after the others stopped) is cut off too, so it cannot "leave" twice.
      let from = tNow - atRestS;
      for (const s of fresh) if (s.left) from = Math.max(from, series.t[s.k1]!);
      this.cutTo(from);
    }
    return out;
  }

  /**
   * The source ended (a file played with `--realtime`): what is still in the window is called as
   * the offline stage calls the end of a recording — a stroke whose balls were still rolling when
   * the file ended, or that had not yet rested `atRestMs`, is not lost. Nothing after it.
   */
  finish(): SegmenterOutput[] {
    const last = this.frames.at(-1);
    if (this.mode === 'resync' || !last || this.frames.length < 2) return [];
    const { series, spans } = this.motion();
    const fresh = spans.filter((s) => series.t[s.k1]! > this.doneUntilT || (s.kRest < 0 && !s.left));
    if (fresh.length === 0) return [];
    const rolling = fresh.some((s) => s.kRest < 0 && !s.left);
    const out = this.callWindow(last.t, last.t, rolling ? 'the source ended before every ball came to rest: called on what was seen' : undefined);
    this.doneUntilT = last.t;
    this.frames = [];
    return out;
  }

  /** The event stage over the window: the opening layout (once) and its strokes, to be called. */
  private callWindow(restT: number, confirmT: number, note?: string): SegmenterOutput[] {
    const { log, notes } = tracksToStrokes({ format: 'cueref.tracks/1', game: this.table.game, ...(this.calibration ? { calibration: this.calibration } : {}), frames: this.frames }, this.table, { params: this.params });
    const out: SegmenterOutput[] = [];
    if (!this.startSent && log.strokes.length > 0) {
      out.push({ type: 'start', balls: Array.isArray(log.start?.balls) ? log.start.balls : [] });
      this.startSent = true;
    }
    const all = note ? [...notes, note] : notes;
    for (const stroke of log.strokes) out.push({ type: 'stroke', stroke, restT, confirmT, notes: all });
    return out;
  }

  /**
   * The camera was lost. A stroke in progress is dropped and flagged (never called on half its
   * frames); the window is emptied and the next frames resync (see the module comment).
   */
  interrupt(t: number, why: string): SegmenterFlag | null {
    if (this.mode === 'resync') {
      this.frames = [];
      return null;
    }
    let flag: SegmenterFlag | null = null;
    if (this.frames.length >= 2) {
      const { series, spans } = this.motion();
      const inProgress = spans.filter((s) => (s.kRest < 0 && !s.left) || series.t[s.k1]! > this.doneUntilT);
      if (inProgress.length) {
        const t0 = Math.min(...inProgress.map((s) => series.t[s.k0]!));
        flag = {
          type: 'flag',
          code: 'STROKE_INTERRUPTED',
          t,
          reason: `camera lost (${why}) during a stroke that started at ${t0.toFixed(2)} s (${[...new Set(inProgress.map((s) => s.ball))].join(', ')} moving): not called; review it and correct the score if needed`,
        };
      }
    }
    const last = this.frames.at(-1);
    this.lostAt = !flag && last ? { t, balls: new Map(last.balls.filter((b) => onBed(b.state)).map((b) => [b.id, { x: b.x, y: b.y }])) } : null;
    this.frames = [];
    this.mode = 'resync';
    return flag;
  }

  private motion(): { series: Series; spans: MotionSpan[] } {
    const series = buildSeries(this.frames);
    bridgeDropouts(series, 2 * this.params.moveThresholdMm);
    const spans = [...series.balls.values()].flatMap((s) => motionSpans(s, series.t, this.params));
    return { series, spans };
  }

  private checkOverflow(tNow: number): SegmenterOutput[] {
    const first = this.frames[0]!;
    if (tNow - first.t <= this.o.maxWindowS) return [];
    this.frames = [];
    this.mode = 'resync';
    this.lostAt = null;
    return [{ type: 'flag', code: 'WINDOW_OVERFLOW', t: tNow, reason: `the balls did not settle for ${this.o.maxWindowS} s (since ${first.t.toFixed(2)} s): that motion was not called` }];
  }

  /** Table idle: keep the last `leadS` of stillness, but not past a ball that appeared (a placement for the next stroke). */
  private idleTrim(tNow: number, pendingMotion: boolean): void {
    const first = this.frames[0]!;
    if (tNow - first.t < 2 * this.o.leadS) return;
    if (pendingMotion) {
      // Hand moves wait in the window for the stroke they belong to (its `place` events).
      if (tNow - first.t > this.o.maxWindowS) this.cutTo(tNow - this.o.leadS);
      return;
    }
    let from = tNow - this.o.leadS;
    // What was there from the start: the balls seen in the first half second with any ball (a
    // tracker confirms balls over a few frames; the event stage reads them as the opening layout).
    const kFirst = this.frames.findIndex((f) => f.balls.some((b) => onBed(b.state)));
    if (kFirst < 0) return this.cutTo(from);
    const atStart = new Set<string>();
    let k = kFirst;
    for (; k < this.frames.length && this.frames[k]!.t <= this.frames[kFirst]!.t + 0.5; k++) for (const b of this.frames[k]!.balls) if (onBed(b.state)) atStart.add(b.id);
    for (k = Math.max(k, 1); k < this.frames.length && this.frames[k]!.t < from; k++) {
      if (this.frames[k]!.balls.some((b) => b.state !== 'occluded' && onBed(b.state) && !atStart.has(b.id))) {
        from = this.frames[k - 1]!.t;
        break;
      }
    }
    this.cutTo(from);
  }

  /** Drop frames before stream time `t` (keeping at least the last one). */
  private cutTo(t: number): void {
    let k = 0;
    while (k < this.frames.length - 1 && this.frames[k]!.t < t - 1e-9) k++;
    if (k === 0) return;
    this.frames = this.frames.slice(k);
    this.frames[0] = anchorFrame(this.frames[0]!);
  }
}

/**
 * The first frame of a window. A resting ball the tracker reports `occluded` there (a player's arm
 * over it) is where the tracker last saw it at rest: without this it would count as "first seen
 * later" and the event stage would take it for a ball put on the table by hand.
 */
function anchorFrame(f: TrackFrame): TrackFrame {
  if (!f.balls.some((b) => b.state === 'occluded')) return f;
  return { ...f, balls: f.balls.map((b) => (b.state === 'occluded' ? { ...b, state: 'rest' as const } : b)) };
}

/** Balls that moved, vanished or appeared between the rest before a loss and `now`. */
function tableChanges(before: Map<string, { x: number; y: number }>, now: TrackFrame, toleranceMm: number): string[] {
  const out: string[] = [];
  const seen = new Map(now.balls.filter((b) => onBed(b.state)).map((b) => [b.id, b]));
  for (const [id, p] of before) {
    const q = seen.get(id);
    if (!q) out.push(`${id} gone`);
    else if (Math.hypot(q.x - p.x, q.y - p.y) > toleranceMm) out.push(`${id} moved ${Math.round(Math.hypot(q.x - p.x, q.y - p.y))} mm`);
  }
  for (const id of seen.keys()) if (!before.has(id)) out.push(`${id} appeared`);
  return out;
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
