/**
 * The per-frame front end of `analyze`: view gate → motion gate → detector → tracker, appending one
 * line per frame to two files in DIR:
 *
 *   tracks.jsonl         cueref.tracks/1, the contract output (what the tracker says);
 *   tracker-input.jsonl  what the tracker was *given* on each frame (table-mm detections, or "the
 *                        same as the last detected frame", or "not in view"): the resume state.
 *
 * Why a second file: a resumed run must put a fresh tracker into exactly the state the killed one
 * had, and the tracker's state (Kalman filters, class votes, tentative tracks) is not in its output.
 * The tracker is deterministic, so replaying its inputs through a fresh one rebuilds that state
 * bit for bit — numbers are written with JSON's shortest round-trip form, so nothing is lost — and
 * replaying costs no detector time (a few ms a thousand frames). The replayed output is compared
 * with the stored tracks.jsonl line by line: a difference stops the replay there, so a resumed
 * run never continues from a state it cannot vouch for.
 *
 * The motion gate's own state is the reference frame (the last one the detector ran on), which
 * is not stored (a 320×180 image per detected frame would cost more I/O than it saves); the resume
 * decodes that frame again (`needsReference`), and the counters come from the log.
 */
import { existsSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import { buildViewModel, checkView, type ViewModel } from '../calibration/viewGate.js';
import type { Calibration } from '../calibration/contract.js';
import { bareClothProbe } from '../tracking/bareCloth.js';
import { trackFrameLine, tracksHeaderLine, type TracksHeader } from '../core/contracts/tracks.js';
import type { GameId } from '../core/games.js';
import type { TableProfile } from '../core/table.js';
import { createTracker, emptyDetections, makeDetections, type TableDetections, type Tracker, type TrackerParamsInput } from '../tracking/index.js';
import type { GateDecision, GateState, MotionGateParams, SmallBox, SmallGrey } from './motionGate.js';
import { GatedDetection, detectorUseOf, type TrackerInputLine } from './gatedDetection.js';
import { JsonLinesReader, LineAppender } from './runlog.js';
import type { FrameDetector, VideoFrame } from './track.js';

export const TRACKER_INPUT_FORMAT = 'cueref.tracker-input/1';

/**
 * Share of the whole small image that must change against the gate's reference before a moving
 * frame is view-checked again. Balls moving change well under 1 %; a cut to another camera, a
 * wipe or a body in front of the lens most of it.
 */
export const VIEW_RECHECK_FRAC = 0.05;

export type { TrackerInputLine } from './gatedDetection.js';

export interface VisionStats {
  frames: number;
  /** Frames where the table was not in view (not analysed). */
  outOfView: number;
  /** Frames the detector ran on. */
  detectorRuns: number;
  /** In-view frames that reused the last detections (nothing moved on the bed). */
  reused: number;
  /** Of the detector's runs, those on the moving parts of the frame only (the gate's regions). */
  regionRuns: number;
  /** Frames view-checked, and those whose table outline sat away from the calibrated one (camera bumped?). */
  viewChecks: number;
  viewMoved: number;
  byDecision: Record<GateDecision, number>;
}

export interface VisionOptions {
  game: GameId;
  table: TableProfile;
  /** The calibration of the frames as they arrive (analysis-size pixels when `analyze` shrinks them). */
  calibration: Calibration;
  /**
   * The calibration the tracks header carries: the video's own pixels, as the contract and the
   * header's `source` size say (default `calibration`, when frames arrive at the video's size).
   */
  headerCalibration?: Pick<Calibration, 'ballCentreToTable' | 'imageToTable' | 'reprojectionErrorMm' | 'distortion'>;
  detector: FrameDetector;
  outDir: string;
  source: NonNullable<TracksHeader['source']>;
  /** Motion gate parameters (`refreshEveryFrames: 1` turns gating off). */
  gate?: Partial<MotionGateParams>;
  /** Skip frames where the calibrated table is not in view (default true). */
  viewGate?: boolean;
  tracker?: TrackerParamsInput;
}

/** Where a resumed run picks up (from `VisionRun.resume`). */
export interface ResumePoint {
  /** Frames already tracked (lines kept). */
  frames: number;
  /** Last tracked frame, or null when none was. */
  last: { i: number; t: number } | null;
  /** The frame whose pixels the motion gate needs again (the last one the detector ran on whole). */
  needsReference: { i: number; t: number } | null;
  /** Region runs after it: their frames, decoded again, update the reference in these boxes (`restoreRegions`). */
  regionsAfterReference: Map<number, SmallBox[]>;
  /** Times of the frames after `needsReference` (to check the re-decoded frames line up). */
  timesAfterReference: Map<number, number>;
  /** Torn bytes dropped from the two files, for the notes. */
  droppedBytes: number;
  /** Lines dropped because the replay disagreed with tracks.jsonl (should be 0). */
  disagreed: number;
}

const emptyStats = (): VisionStats => ({ frames: 0, outOfView: 0, detectorRuns: 0, reused: 0, regionRuns: 0, viewChecks: 0, viewMoved: 0, byDecision: { view: 0, motion: 0, refresh: 0, reuse: 0 } });

export class VisionRun {
  readonly stats: VisionStats = emptyStats();
  private readonly tracker: Tracker;
  private readonly gated: GatedDetection;
  private readonly viewModel: ViewModel | null;
  private tracks!: LineAppender;
  private inputs!: LineAppender;
  private lastI = -1;

  private constructor(private readonly o: VisionOptions) {
    this.tracker = createTracker(o.table, o.tracker ?? {});
    this.gated = new GatedDetection({ game: o.game, table: o.table, calibration: o.calibration, detector: o.detector, ...(o.gate ? { gate: o.gate } : {}) });
    // Built from the calibration alone (not from a reference frame): a resumed run rebuilds the
    // very same model from calibration.json, so its verdicts match the first run's.
    this.viewModel = o.viewGate === false ? null : buildViewModel(o.calibration);
  }

  static paths(outDir: string): { tracks: string; inputs: string } {
    return { tracks: join(outDir, 'tracks.jsonl'), inputs: join(outDir, 'tracker-input.jsonl') };
  }

  static header(o: VisionOptions): TracksHeader {
    const c = o.headerCalibration ?? o.calibration;
    return {
      format: 'cueref.tracks/1',
      game: o.game,
      source: o.source,
      calibration: { ballCentreToTable: c.ballCentreToTable, imageToTable: c.imageToTable, reprojectionErrorMm: c.reprojectionErrorMm, ...(c.distortion ? { distortion: c.distortion } : {}) },
      table: o.table,
    };
  }

  /** A fresh run: both files created (truncated) with their headers. */
  static start(o: VisionOptions): VisionRun {
    const run = new VisionRun(o);
    const p = VisionRun.paths(o.outDir);
    run.tracks = new LineAppender(p.tracks, 'w');
    run.inputs = new LineAppender(p.inputs, 'w');
    run.tracks.write(tracksHeaderLine(VisionRun.header(o)));
    run.inputs.write(JSON.stringify({ format: TRACKER_INPUT_FORMAT, game: o.game }));
    return run;
  }

  /**
   * Continue the run stored in `o.outDir`: keep the frames both files hold whole, replay their
   * inputs through the tracker (checking the output against tracks.jsonl), truncate both files
   * after the last good frame and reopen them for appending.
   */
  static resume(o: VisionOptions): { run: VisionRun; point: ResumePoint } {
    const p = VisionRun.paths(o.outDir);
    if (!existsSync(p.tracks) || !existsSync(p.inputs)) return { run: VisionRun.start(o), point: { frames: 0, last: null, needsReference: null, regionsAfterReference: new Map(), timesAfterReference: new Map(), droppedBytes: 0, disagreed: 0 } };
    // Both logs are read a line at a time, in step (an hour's logs are ~200 MB).
    const tr = new JsonLinesReader(p.tracks);
    const inp = new JsonLinesReader(p.inputs);
    try {
      const trHead = tr.next();
      const inHead = inp.next();
      const head = inHead?.value as { format?: string; game?: string } | undefined;
      if (!trHead || !inHead || !head || head.format !== TRACKER_INPUT_FORMAT || head.game !== o.game) {
        // Killed before the headers were whole: nothing to keep.
        return { run: VisionRun.start(o), point: { frames: 0, last: null, needsReference: null, regionsAfterReference: new Map(), timesAfterReference: new Map(), droppedBytes: 0, disagreed: 0 } };
      }
      let run = new VisionRun(o);
      let kept = 0;
      let disagreed = 0;
      let lastRun: { i: number; t: number } | null = null;
      let last: { i: number; t: number } | null = null;
      let lastInput: unknown = inHead.value;
      // Frames after the last one the detector ran on whole (they need the reference frame decoded
      // again), the region runs among them, and the reuses since the last run of either kind.
      let sinceRun: [number, number][] = [];
      let regions = new Map<number, SmallBox[]>();
      let reusedInRow = 0;
      let trEnd = trHead.end, inEnd = inHead.end;
      for (;;) {
        const a = inp.next();
        const b = a ? tr.next() : null;
        if (!a || !b) break;
        const line = a.value as TrackerInputLine;
        if (run.replay(line) !== b.text + '\n') {
          // This pair and every later one are dropped.
          disagreed = 1;
          while (inp.next() && tr.next()) disagreed++;
          break;
        }
        kept++;
        last = { i: line.i, t: line.t };
        lastInput = line;
        trEnd = b.end;
        inEnd = a.end;
        if ('d' in line && !line.r) {
          lastRun = { i: line.i, t: line.t };
          sinceRun = [];
          regions = new Map();
          reusedInRow = 0;
        } else {
          sinceRun.push([line.i, line.t]);
          if ('d' in line && line.r) {
            regions.set(line.i, line.r);
            reusedInRow = 0;
          } else reusedInRow++;
        }
      }
      if (disagreed > 0) {
        // The tracker took the first disagreeing frame in already (and counted it): the run goes on
        // from that frame, so it is rebuilt from the kept frames alone. Otherwise that frame comes
        // twice (FRAMES_OUT_OF_ORDER): a run resumed by a newer cueref whose tracker differs.
        run = new VisionRun(o);
        const again = new JsonLinesReader(p.inputs);
        try {
          again.next();
          for (let k = 0; k < kept; k++) run.replay(again.next()!.value as TrackerInputLine);
        } finally {
          again.close();
        }
      }
      const times = new Map<number, number>(lastRun ? sinceRun : []);
      // Cut both files after the last frame kept (torn tail, or lines the other file lacks), then
      // append from there.
      const droppedBytes = tr.size - trEnd + (inp.size - inEnd);
      tr.close();
      inp.close();
      truncateSync(p.tracks, trEnd);
      truncateSync(p.inputs, inEnd);
      run.tracks = new LineAppender(p.tracks, 'a');
      run.inputs = new LineAppender(p.inputs, 'a');
      run.lastI = last?.i ?? -1;
      // The gate is rebuilt once the caller has decoded the reference frame again (`restoreGate`);
      // until then it is told the view was lost, so the first frame after it runs the detector.
      run.gateState = { reusedInRow: lastRun ? reusedInRow : 0, sinceFull: lastRun ? sinceRun.length : 0, prevInView: last !== null && !isOutOfView(lastInput) };
      return {
        run,
        point: { frames: kept, last, needsReference: lastRun, regionsAfterReference: lastRun ? regions : new Map(), timesAfterReference: times, droppedBytes, disagreed },
      };
    } finally {
      tr.close();
      inp.close();
    }
  }

  private gateState: GateState | null = null;

  /** Resumed run: the re-decoded frame the detector last ran on (or null if it cannot be had). */
  restoreGate(reference: VideoFrame | null): void {
    const small: SmallGrey | null = reference ? this.gated.gate.shrink(reference) : null;
    this.gated.gate.restore(small, this.gateState ?? { reusedInRow: 0, prevInView: false });
    this.gateState = null;
  }

  /** Resumed run: a frame after the reference whose boxes the detector ran on (`ResumePoint.regionsAfterReference`). */
  restoreRegions(frame: VideoFrame, boxes: readonly SmallBox[]): void {
    this.gated.gate.restoreRegions(this.gated.gate.shrink(frame), boxes);
  }

  /** Feed one stored input line through the tracker (resume); returns the track line it gives. */
  private replay(line: TrackerInputLine): string {
    this.count(line);
    let detections: TableDetections;
    if ('view' in line) detections = emptyDetections();
    else if (line.g === 'reuse') detections = this.gated.lastDet ?? emptyDetections();
    else {
      detections = makeDetections(line.d.map(([x, y, conf, cls]) => ({ x, y, conf, class: cls })), this.o.game, line.i);
      this.gated.lastDet = detections;
    }
    // The frame's answers about bare cloth, as the first run recorded them (asked the same places).
    const yes = 'view' in line ? undefined : line.b;
    const bare = (x: number, y: number) => yes?.some(([bx, by]) => bx === x && by === y) ?? false;
    const tf = this.tracker.step({ i: line.i, t: line.t, detections, ...('view' in line ? { view: false } : { bare }) });
    return trackFrameLine(tf);
  }

  private count(line: TrackerInputLine): void {
    this.stats.frames++;
    const use = detectorUseOf(line);
    if ('view' in line) this.stats.outOfView++;
    else this.stats.byDecision[line.g]++;
    if (use === 'reused') this.stats.reused++;
    if (use === 'regions' || use === 'whole') this.stats.detectorRuns++;
    if (use === 'regions') this.stats.regionRuns++;
  }

  /** Index of the last frame tracked (−1 before the first). */
  get lastIndex(): number {
    return this.lastI;
  }

  /** Gate, detect (or reuse), track one frame, and append its two lines. */
  async process(f: VideoFrame): Promise<void> {
    if (f.index <= this.lastI) throw new Error(`frame ${f.index} comes after frame ${this.lastI}: frames must be in order`);
    if (this.gateState) this.restoreGate(null);
    const t = f.ptsMs / 1000;
    const { small, d } = this.gated.decide(f);
    let inView = true;
    if (this.viewModel && (d.decision !== 'motion' || d.changedFrac >= VIEW_RECHECK_FRAC) && d.decision !== 'reuse') {
      const c = checkView(f, this.viewModel);
      inView = c.inView;
      this.stats.viewChecks++;
      if (c.moved) this.stats.viewMoved++;
    }
    const { line, detections } = await this.gated.run(f, small, d, inView);
    this.count(line);
    // Bare-cloth answers are recorded in the input line, so that a resumed run's replay agrees.
    const probe = bareClothProbe(f, this.o.calibration, this.o.table.ballDiameter / 2);
    const yes: [number, number][] = [];
    const bare = (x: number, y: number) => {
      const r = probe(x, y);
      if (r) yes.push([x, y]);
      return r;
    };
    const tf = this.tracker.step({ i: f.index, t, detections, ...('view' in line ? { view: false } : { bare }) });
    if (yes.length && !('view' in line)) line.b = yes;
    // Input first: a kill between the two writes leaves one input line more, which the resume drops.
    this.inputs.write(JSON.stringify(line));
    this.tracks.write(trackFrameLine(tf));
    this.lastI = f.index;
  }

  close(): void {
    this.tracks?.close();
    this.inputs?.close();
  }
}

function isOutOfView(v: unknown): boolean {
  return (v as { view?: unknown }).view === false;
}
