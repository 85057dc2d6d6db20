/**
 * `analyze`: the whole chain on one recording — calibrate from the first frames (or a given
 * calibration), gate (view, motion), detect, track, events, referee, clips, report. Every stage
 * writes into the output folder as it goes (ARCHITECTURE: "a crash loses nothing already found"):
 *
 *   DIR/analyze.json          run manifest: video, settings, state (running/interrupted/complete)
 *   DIR/calibration.json      cueref.calibration/1   before the first frame is tracked
 *   DIR/tracks.jsonl          cueref.tracks/1        frame by frame (header carries the calibration)
 *   DIR/tracker-input.jsonl   what the tracker was given, frame by frame (the resume state)
 *   DIR/strokes.json          cueref.strokes/1       when the video ends (or on Ctrl-C)
 *   DIR/calls.json            cueref.calls/1         right after
 *   DIR/clips/stroke-NNN.mp4  flagged strokes, with the ball paths drawn
 *   DIR/report.html           self-contained report  last
 *
 * Resume (`resume: true`): the calibration comes back from calibration.json, the tracker is rebuilt
 * by replaying tracker-input.jsonl (see vision.ts for why that is exact), and the video is sought
 * to the last frame the detector ran on (the motion gate's reference) and decoded on from there;
 * the events, referee and report stages always run over the whole of tracks.jsonl, so a stroke
 * that straddles the interruption is found once, exactly as in an uninterrupted run.
 *
 * Frames larger than 1280×720 are shrunk by ffmpeg and analysed at that size (analysisSize.ts);
 * every file keeps the calibration in the video's own pixels.
 *
 * One decode on a fresh run: the frames used to calibrate are held and then fed to the tracker.
 * Memory stays flat while frames are tracked (nothing per frame is kept: lines go to disk); the
 * events stage at the end reads tracks.jsonl back whole.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename } from 'node:path';
import { loadCalibration, toCalibrationJson, type Calibration } from '../calibration/contract.js';
import { BestCalibration, type CalibrationFailure } from '../calibration/solve.js';
import { orientCalibration, type ImageSide } from '../calibration/orient.js';
import type { CallsDoc } from '../core/contracts/calls.js';
import type { FrameStart, StrokeLog } from '../core/contracts/strokes.js';
import { InputError } from '../core/errors.js';
import type { GameId } from '../core/games.js';
import { defaultProfileFor, type TableProfile } from '../core/table.js';
import { SeriesBuilder, seriesToStrokes, type SeriesHeader, type Series, type StrokesResult } from '../events/index.js';
import type { TrackFrame } from '../core/contracts/tracks.js';
import { renderReport } from '../report/html.js';
import { openSource, type Frame, type FrameSource, type SourceInfo, type SourceOptions } from '../video/index.js';
import { probeTimeBaseHz } from '../video/timeBase.js';
import { ANALYSIS_MAX_SIZE, analysisSize, scaleCalibration } from './analysisSize.js';
import { replayFrameFilter, strokeReplays, writeFlaggedClips } from './clips.js';
import { DEFAULT_MOTION_GATE, type MotionGateParams } from './motionGate.js';
import { refereeVisionLog } from './reconcile.js';
import { scanTracksJsonl } from './runlog.js';
import { checkResumable, prepareOutDir, readManifest, runPaths, writeManifest, RUN_FORMAT, type RunManifest } from './runDir.js';
import { loadModelDetector, type FrameDetector } from './track.js';
import { heightFromFrames, spotHeightNote } from './spotHeight.js';
import { VisionRun, type ResumePoint, type VisionStats } from './vision.js';

export interface AnalyzeOptions {
  game: GameId;
  outDir: string;
  /** The table profile; default: the game's standard table (or the given calibration's table). */
  table?: TableProfile;
  /** A solved camera (`cueref calibrate --out`); default: solve from the first frames. */
  calibration?: Calibration;
  /**
   * Frames tried for the automatic calibration, `calibrationStepMs` apart from the first; the best
   * solve wins (`betterCalibration`). More frames survive a player over a cushion at the start,
   * but every held frame is a full RGB image in memory (1280×720: 2.8 MB) until tracking starts.
   */
  calibrationFrames?: number;
  calibrationStepMs?: number;
  /**
   * Which side of the picture the head end (pool's breaking end, snooker's baulk) is on, when the
   * markings cannot say (orient.ts); applied to a solved or a given calibration, not to a resumed one.
   */
  head?: ImageSide;
  /** The ball detector; default: the ONNX model from `modelsDir` (or `modelPath`). */
  detector?: FrameDetector;
  /** Names the detector in the run manifest (a resume with another detector is refused). */
  detectorLabel?: string;
  modelsDir?: string;
  modelPath?: string;
  /** Continue the run in outDir (see the module comment). Without it a non-empty outDir is refused. */
  resume?: boolean;
  /** Delete the run files already in outDir and start again. */
  overwrite?: boolean;
  /** Motion gate parameters (`refreshEveryFrames: 1` turns gating off: the detector runs on every frame). */
  gate?: Partial<MotionGateParams>;
  /** Skip frames where the calibrated table is not in view (broadcast cut-aways). Default true. */
  viewGate?: boolean;
  /** Write clips of flagged strokes (default true). */
  clips?: boolean;
  /**
   * Largest frame analysed (default 1280×720, `ANALYSIS_MAX_SIZE`): larger videos are shrunk by
   * ffmpeg (area averaging) before they reach node, and calibrated, gated and detected at that
   * size (analysisSize.ts says why that loses nothing). calibration.json, the tracks header and
   * the result keep the calibration in the video's own pixels. `null`: analyse at the video's size.
   */
  analysisMaxSize?: { width: number; height: number } | null;
  /** Aborting stops after the frame in progress; what was seen is refereed and reported. */
  signal?: AbortSignal;
  /**
   * The frame's state where the recording begins, for a frame joined midway (the stroke log's
   * `start`: scores, the player at the table, snooker's ball on); default: a frame from 0–0,
   * player 0 to play, the ball on what the opening layout says. Only the referee reads it, so a
   * resumed run may change it.
   */
  start?: FrameStart;
  /** Called once the source is open: its info, and the frames already done (resume). */
  onStart?: (info: SourceInfo, alreadyDone: number) => void;
  /** Called after each frame is tracked. */
  onFrame?: (index: number, ptsMs: number) => void;
  /** Called when a slow stage starts after the frames (events, referee, clips, report). */
  onStage?: (stage: string) => void;
}

export interface DetectorUse {
  frames: number;
  inView: number;
  outOfView: number;
  runs: number;
  reused: number;
  /** Runs on the moving parts of a frame only (the motion gate's regions). */
  regionRuns: number;
  /** runs / frames. */
  fraction: number;
  byDecision: VisionStats['byDecision'];
}

export interface AnalyzeResult {
  calibration: Calibration;
  /** How the calibration was obtained: solved here (and from how many frames tried), given, or kept from the run resumed. */
  calibrationSource: { kind: 'given' } | { kind: 'solved'; tried: number; solved: number } | { kind: 'resumed' };
  frames: number;
  strokes: StrokeLog;
  calls: CallsDoc;
  paths: { calibration: string; tracks: string; strokes: string; calls: string; report: string; manifest: string; trackerInput: string };
  /** Clips written for flagged strokes. */
  clips: { stroke: number; path: string }[];
  /** Things a stage could not decide, one sentence each. */
  notes: string[];
  /** Wall time of this invocation and the recording's length, ms (speed = videoMs / wallMs). */
  timing: { wallMs: number; videoMs: number };
  /** How often the detector ran (motion and view gating). */
  detector: DetectorUse;
  /** Stopped early by the signal: the outputs cover the frames up to `lastFrame`. */
  interrupted: boolean;
  lastFrame: number;
  /** Set when this run continued an earlier one. */
  resumed: { fromFrame: number; seek: 'seek' | 'decode' | 'none'; droppedBytes: number } | null;
  /** Size the frames were analysed at (the video's own size unless it was larger than `analysisMaxSize`). */
  analysisSize: { width: number; height: number };
}

const DEFAULT_CAL_FRAMES = 3;
const DEFAULT_CAL_STEP_MS = 500;

/** The events stage as `analyze` runs it: the tracked series' stroke log, carrying the table and the frame's start the user gave. */
export function strokeLogOf(header: SeriesHeader, series: Series, table: TableProfile, start?: FrameStart): StrokesResult {
  const ev = seriesToStrokes(header, series, table);
  ev.log.table = table;
  if (start) ev.log.start = { ...ev.log.start, ...start };
  return ev;
}

/**
 * Threads for one inference in `analyze`: one core is left to ffmpeg, which decodes the next frames
 * while the model runs (and onnxruntime's threads spin while they wait, taking a core from it).
 * Measured on the 2-core machine (1080p bench render, model, 3 alternating pairs): 1 thread ran
 * the frames in the same wall time as 2 (median 16.7 s against 17.1 s) with 30 % less CPU.
 */
export function analyzeInferenceThreads(cores = availableParallelism()): number {
  return Math.max(1, cores - 1);
}

/**
 * Frame times snapped to the stream's time base (every timestamp is a whole number of its ticks),
 * or to 10 µs when it is unknown. ffmpeg hands times over in whole µs, converted from ticks; after
 * a seek it converts a *difference* from the seek point instead, so the same frame can come out a
 * µs or two apart. Snapped, a resumed run sees exactly the times a straight decode sees, and the
 * tracker (which integrates over time steps) gives exactly the same output.
 */
export function snapTimeMs(ptsMs: number, timeBaseHz: number | undefined): number {
  if (timeBaseHz && timeBaseHz <= 10_000_000) return (Math.round((ptsMs * timeBaseHz) / 1000) * 1000) / timeBaseHz;
  return Math.round(ptsMs * 100) / 100;
}

export async function analyze(video: string, o: AnalyzeOptions): Promise<AnalyzeResult> {
  const started = performance.now();
  const table = o.table ?? o.calibration?.table ?? defaultProfileFor(o.game);
  if (table.game !== o.game) throw new InputError({ code: 'TABLE_GAME_MISMATCH', field: 'table', message: `the table profile is for ${table.game}, not ${o.game}` });
  if (o.calibration && o.calibration.game !== o.game) {
    throw new InputError({ code: 'BAD_CALIBRATION', field: 'calibration', message: `the calibration is for ${o.calibration.game}, not ${o.game}` });
  }
  const mode = prepareOutDir(o.outDir, { resume: o.resume === true, overwrite: o.overwrite === true }, `cueref analyze ${video} --game ${o.game} --out ${o.outDir}`);
  // The model first: a missing detector should fail before minutes of decoding.
  const detector = o.detector ?? (await loadModelDetector(o.game, o.modelsDir ?? 'models', o.modelPath, { intraOpThreads: analyzeInferenceThreads() }));
  const detectorLabel = o.detectorLabel ?? (o.detector ? 'injected' : `model:${o.modelPath ?? o.modelsDir ?? 'models'}`);
  const gate = { ...DEFAULT_MOTION_GATE, ...o.gate };
  const settings: Record<string, unknown> = { table, detector: detectorLabel, gate, viewGate: o.viewGate !== false };
  const paths = runPaths(o.outDir);
  const notes: string[] = [];

  let src = await openSource(video);
  // The video's own size and length (what the manifest, the tracks header and calibration.json describe).
  const info = src.info;
  // Frames bigger than the analysis size are shrunk by ffmpeg: reopen the source scaled (the first
  // open was only its probe, ≈ 30 ms; nothing was decoded). Live sources say their size only with
  // their first frame (0 here) and are analysed as they come.
  const analysis = o.analysisMaxSize === null ? null : analysisSize(info, o.analysisMaxSize ?? ANALYSIS_MAX_SIZE);
  const decodeOpts: SourceOptions = analysis ? { scale: { ...analysis, flags: 'area' } } : {};
  if (analysis) {
    await closeQuietly(src);
    src = await openSource(video, decodeOpts);
  }
  const timeBaseHz = info.kind === 'file' ? await probeTimeBaseHz(video) : undefined;
  const normalise = (f: Frame): Frame => ({ ...f, ptsMs: snapTimeMs(f.ptsMs, timeBaseHz) });
  const manifest: RunManifest = {
    format: RUN_FORMAT,
    state: 'running',
    video: { uri: video, ...fileBytes(video), width: info.width, height: info.height, ...(info.fps ? { fps: info.fps } : {}), ...(info.durationMs !== undefined ? { durationMs: info.durationMs } : {}) },
    game: o.game,
    settings,
    startedAt: new Date().toISOString(),
    updatedAt: '',
  };
  // Only when it differs from the video's: a run of a larger video from before analysis sizes
  // existed (full-size frames) must not be resumed at another size.
  if (analysis) settings.analysisSize = analysis;
  const stored = mode === 'resume' ? readManifest(o.outDir) : null;
  if (o.resume && mode === 'fresh') notes.push(`nothing to resume in ${o.outDir}: analysed from the start`);
  if (stored) {
    if (info.kind === 'live') throw new InputError({ code: 'RESUME_LIVE', field: 'resume', message: `'${video}' is a live source: it cannot be sought back to where the run stopped; start a new run in another folder` });
    checkResumable(stored, manifest, o.outDir);
    manifest.startedAt = stored.startedAt;
  }

  const held: Frame[] = [];
  let it: AsyncIterator<Frame> | undefined;
  let lastPtsMs = 0;
  let interrupted = false;
  let run: VisionRun | undefined;
  let resumed: AnalyzeResult['resumed'] = null;
  try {
    let calibration: Calibration;
    let calibrationSource: AnalyzeResult['calibrationSource'];
    let ended = false;
    const storedCal = stored ? tryLoadCalibration(paths.calibration) : null;
    if (storedCal) {
      calibration = storedCal;
      calibrationSource = { kind: 'resumed' };
    } else if (o.calibration) {
      calibrationSource = { kind: 'given' };
      it = src[Symbol.asyncIterator]();
      const first = await it.next();
      if (first.done) throw noFrames(video, src);
      held.push(first.value);
      checkImageSize(o.calibration, analysis ? info : first.value);
      calibration = o.calibration;
    } else {
      it = src[Symbol.asyncIterator]();
      const count = Math.max(1, o.calibrationFrames ?? DEFAULT_CAL_FRAMES);
      const stepMs = o.calibrationStepMs ?? DEFAULT_CAL_STEP_MS;
      const candidates: Frame[] = [];
      let nextMs = -Infinity;
      while (candidates.length < count) {
        const r = await it.next();
        if (r.done) {
          ended = true;
          break;
        }
        held.push(r.value);
        if (r.value.ptsMs + 1e-6 >= nextMs) {
          candidates.push(r.value);
          nextMs = r.value.ptsMs + stepMs;
        }
      }
      if (!candidates.length) throw noFrames(video, src);
      const solved = solveBest(candidates, table);
      if (!solved.ok) {
        const e = solved.failure;
        throw new InputError({
          code: `CALIBRATION_${e.code}`,
          field: 'calibration',
          message: `cannot find the ${o.game} table in the first ${candidates.length} frame(s) of '${video}': ${e.message}; found: ${e.found.join(', ') || 'nothing'}. Is the table in view? Solve one by hand (\`cueref calibrate VIDEO --game ${o.game} --corners … --out FILE\`) and pass --calibration FILE`,
        });
      }
      // A camera looking straight down leaves its height to a prior: the colours on their spots
      // measure it (spotHeight.ts) — the balls' positions depend on it, not the cloth's.
      const height = await heightFromFrames(candidates, solved.calibration, detector, table);
      if (height.ok) notes.push(spotHeightNote(height));
      const cal = height.ok ? height.calibration : solved.calibration;
      // Solved on the analysis-size frames (as good as at full size: analysisSize.ts), written in
      // the video's pixels like any calibration.
      calibration = analysis ? scaleCalibration(cal, { width: info.width, height: info.height }) : cal;
      calibration.source = { uri: video, atSeconds: 0 };
      calibrationSource = { kind: 'solved', tried: candidates.length, solved: solved.count };
    }

    if (!storedCal && o.head) calibration = orientCalibration(calibration, o.head).calibration;
    mkdirSync(o.outDir, { recursive: true });
    writeManifest(o.outDir, manifest);
    if (!storedCal) {
      writeFileSync(paths.calibration, JSON.stringify(toCalibrationJson(calibration), null, 2) + '\n');
      // Track with what is on disk (matrices rounded to 10 digits), so a resumed run, which can
      // only read the file, maps detections with exactly the same numbers.
      calibration = loadCalibration(paths.calibration);
    }
    // What the frames are mapped with: the calibration on disk, composed with the analysis scale
    // (so a resumed run, which can only read the file, derives exactly the same numbers).
    const frameCalibration = analysis ? scaleCalibration(calibration, analysis) : calibration;

    const visionOpts = {
      game: o.game,
      table,
      calibration: frameCalibration,
      headerCalibration: calibration,
      detector,
      outDir: o.outDir,
      source: { uri: video, ...(info.fps ? { fps: info.fps } : {}), width: info.width, height: info.height },
      gate,
      viewGate: o.viewGate !== false,
    };
    let frames: AsyncIterable<Frame>;
    if (stored) {
      const r = VisionRun.resume(visionOpts);
      run = r.run;
      if (r.point.droppedBytes > 0 || r.point.disagreed > 0) notes.push(`resume: dropped ${r.point.droppedBytes} byte(s) of torn or unmatched lines${r.point.disagreed ? ` (${r.point.disagreed} frame(s) whose replay disagreed with tracks.jsonl)` : ''}`);
      // The first source (opened for its info) is replaced by one sought to where the run stopped.
      await closeQuietly(src);
      const resumeSrc = await openResumed(video, decodeOpts, r.point, run, info, normalise);
      src = resumeSrc.src;
      frames = resumeSrc.frames;
      resumed = { fromFrame: r.point.frames, seek: resumeSrc.how, droppedBytes: r.point.droppedBytes };
      o.onStart?.(info, r.point.frames);
    } else {
      run = VisionRun.start(visionOpts);
      const rest = it!;
      frames = (async function* () {
        // Hand the held frames over one by one and drop them: the tracker keeps nothing of the pixels.
        while (held.length) yield held.shift()!;
        while (!ended) {
          const r = await rest.next();
          if (r.done) break;
          yield r.value;
        }
      })();
      o.onStart?.(info, 0);
    }

    for await (const raw of frames) {
      const f = normalise(raw);
      await run.process(f);
      // Nothing keeps the pixels (the gate keeps its own small copy): the next frame may reuse them.
      src.release(raw);
      lastPtsMs = f.ptsMs;
      o.onFrame?.(f.index, f.ptsMs);
      if (o.signal?.aborted) {
        interrupted = true;
        break;
      }
    }
    run.close();
    for (const w of src.warnings) notes.push(`video: ${w}`);
    if (run.stats.frames === 0) throw noFrames(video, src);

    // --- the end stages, always over the whole of tracks.jsonl ---------------------------------
    o.onStage?.('events');
    // Read as a series, a frame at a time: an hour's frames as objects would be ~300 MB of heap.
    const series = new SeriesBuilder(run.stats.frames + 16);
    let lastT = 0, anyBall = false;
    const tracked = await scanTracksJsonl(paths.tracks, (f) => {
      series.add(f);
      lastT = f.t;
      anyBall ||= f.balls.length > 0;
    });
    lastPtsMs = Math.max(lastPtsMs, lastT * 1000);
    if (!anyBall) {
      throw new InputError({
        code: 'NO_BALLS',
        message: `no ball was detected in the ${tracked.frames} frame(s) of '${video}' analysed (${run.stats.outOfView} out of view): check that the video shows the ${o.game} table with balls on it, and the detector model (--model)`,
      });
    }
    const ev = strokeLogOf(tracked.header, series.build(), table, o.start);
    writeFileSync(paths.strokes, JSON.stringify(ev.log, null, 1) + '\n');
    o.onStage?.('referee');
    const refereed = refereeVisionLog(ev.log, table);
    if (!refereed.ok) {
      // The events stage wrote a log the referee refuses even after repairs: a bug between stages,
      // kept on disk to look at.
      throw new Error(`the referee refused the stroke log ${paths.strokes}: ${refereed.error.message} (stroke ${refereed.error.stroke ?? '?'}, ${refereed.error.field ?? ''})`);
    }
    const { calls, log, repairs } = refereed.value;
    notes.push(...ev.notes, ...repairs.map((r) => `stroke ${r.stroke}: ${r.reason}`));
    if (repairs.length) {
      // strokes.json is the log the calls judge (stroke indices line up); the events stage's own
      // output is kept beside it.
      writeFileSync(paths.strokesEvents, JSON.stringify(ev.log, null, 1) + '\n');
      writeFileSync(paths.strokes, JSON.stringify(log, null, 1) + '\n');
    }
    writeFileSync(paths.calls, JSON.stringify(calls, null, 1) + '\n');

    const stats = run.stats;
    const detectorUse: DetectorUse = {
      frames: stats.frames,
      inView: stats.frames - stats.outOfView,
      outOfView: stats.outOfView,
      runs: stats.detectorRuns,
      reused: stats.reused,
      regionRuns: stats.regionRuns,
      fraction: stats.frames ? stats.detectorRuns / stats.frames : 0,
      byDecision: stats.byDecision,
    };
    notes.push(`detector ran on ${detectorUse.runs} of ${detectorUse.frames} frames (${(100 * detectorUse.fraction).toFixed(1)} %; ${stats.regionRuns} of them on the moving parts only): ${stats.reused} static frame(s) reused the last detections, ${stats.outOfView} frame(s) out of view were skipped`);
    // A few displaced outlines are a player over a cushion; most of the checks, the camera moved.
    if (stats.viewMoved >= 10 && stats.viewMoved > stats.viewChecks / 2) {
      notes.push(`the table outline sat away from the calibrated one on ${stats.viewMoved} of ${stats.viewChecks} view checks: if the camera moved, calibrate again from a later frame and pass --calibration`);
    }
    if (analysis) notes.push(`frames analysed at ${analysis.width}×${analysis.height} (the video is ${info.width}×${info.height}): calibration, gates and detector at that size; calibration.json is in the video's pixels`);
    if (o.viewGate !== false) notes.push('replays shown from the calibrated camera angle are not told apart from live play (they are analysed as play); replays from other angles are skipped as cut-aways');

    let clips: AnalyzeResult['clips'] = [];
    if (o.clips !== false && !interrupted && info.kind !== 'live') {
      o.onStage?.('clips');
      const w = await writeFlaggedClips({ video, calls, log, calibration, outDir: o.outDir });
      clips = w.clips;
      notes.push(...w.notes);
    } else if (interrupted) notes.push('interrupted: clips of flagged strokes are written when the run completes (--resume)');

    o.onStage?.('report');
    // The report's top-down replays: a second pass keeps only the frames they show.
    const shown: TrackFrame[] = [];
    const keep = replayFrameFilter(log);
    await scanTracksJsonl(paths.tracks, (f) => {
      if (keep(f)) shown.push(f);
    });
    const videoMs = info.durationMs ?? lastPtsMs + (info.fps ? 1000 / info.fps : 0);
    const calText =
      calibrationSource.kind === 'given' ? 'given' : calibrationSource.kind === 'resumed' ? 'kept from the resumed run' : `solved from ${calibrationSource.tried} frame(s)`;
    writeFileSync(
      paths.report,
      renderReport({
        calls,
        strokes: log,
        title: basename(video),
        meta: {
          source: video,
          frames: stats.frames,
          durationS: videoMs / 1000,
          calibration: `${calText}, reprojection error ${calibration.reprojectionErrorMm.toFixed(2)} mm, found ${calibration.found.join(', ')}`,
          detector: { runs: detectorUse.runs, frames: detectorUse.frames, outOfView: detectorUse.outOfView },
          ...(interrupted ? { status: `interrupted at frame ${run.lastIndex} (${(lastPtsMs / 1000).toFixed(2)} s): partial` } : {}),
        },
        notes,
        table,
        clips: Object.fromEntries(clips.map((c) => [c.stroke, `clips/${basename(c.path)}`])),
        replays: strokeReplays(log, shown),
      }),
    );
    manifest.state = interrupted ? 'interrupted' : 'complete';
    writeManifest(o.outDir, manifest);
    return {
      calibration,
      calibrationSource,
      frames: stats.frames,
      strokes: log,
      calls,
      paths: { calibration: paths.calibration, tracks: paths.tracks, strokes: paths.strokes, calls: paths.calls, report: paths.report, manifest: paths.manifest, trackerInput: paths.inputs },
      clips,
      notes,
      timing: { wallMs: performance.now() - started, videoMs },
      detector: detectorUse,
      interrupted,
      lastFrame: run.lastIndex,
      resumed,
      analysisSize: analysis ?? { width: info.width || calibration.image.width, height: info.height || calibration.image.height },
    };
  } finally {
    held.length = 0;
    run?.close();
    await it?.return?.().catch(() => undefined);
    await closeQuietly(src);
  }
}

/**
 * The frames of a resumed run. Seek to just before the motion gate's reference frame (the last
 * one the detector ran on) and check the first frame decoded is that very frame (same time); the
 * decoded frames are numbered on from its index, re-checked against the stored times until the
 * last tracked frame, and the rest are new. When the seek does not land on the frame (a container
 * whose seeking is inexact), decode from the start instead and skip by index: slower, same frames.
 */
async function openResumed(
  video: string,
  decodeOpts: SourceOptions,
  point: ResumePoint,
  run: VisionRun,
  info: SourceInfo,
  normalise: (f: Frame) => Frame,
): Promise<{ src: FrameSource; frames: AsyncIterable<Frame>; how: 'seek' | 'decode' | 'none' }> {
  const anchor = point.needsReference ?? point.last;
  const lastI = point.last?.i ?? -1;
  if (!anchor) {
    run.restoreGate(null);
    const src = await openSource(video, decodeOpts);
    return { src, frames: src, how: 'none' };
  }
  const frameMs = 1000 / (info.fps ?? 30);
  const tolMs = Math.min(2, frameMs / 4);
  const startMs = Math.max(0, Math.round(anchor.t * 1000 - frameMs / 2));
  const sought = await openSource(video, startMs > 0 ? { ...decodeOpts, startSec: startMs / 1000 } : decodeOpts);
  const sit = sought[Symbol.asyncIterator]();
  const first = await sit.next();
  const firstMs = first.done ? NaN : first.value.ptsMs;
  if (!first.done && Math.abs(firstMs - anchor.t * 1000) <= tolMs) {
    const base = anchor.i - first.value.index;
    // ffmpeg rounds the seek point to the stream's time base, which shifts every timestamp after
    // the seek by the same few µs: take the shift off, measured on the anchor frame whose time the
    // stored run has, so resumed frames carry exactly the times a straight decode gives them.
    const shiftMs = anchor.t * 1000 - first.value.ptsMs;
    const frames = (async function* () {
      let f: Frame | undefined = first.value;
      while (f) {
        const i = f.index + base;
        const g = normalise({ ...f, index: i, ptsMs: f.ptsMs + shiftMs });
        if (i <= lastI) {
          checkTime(video, i, g.ptsMs, i === anchor.i ? anchor.t : point.timesAfterReference.get(i), tolMs);
          if (point.needsReference && i === point.needsReference.i) run.restoreGate(g);
          const boxes = point.regionsAfterReference.get(i);
          if (boxes) run.restoreRegions(g, boxes);
        } else yield g;
        const r = await sit.next();
        f = r.done ? undefined : r.value;
      }
    })();
    return { src: sought, frames, how: 'seek' };
  }
  await sit.return?.(undefined);
  await closeQuietly(sought);
  const src = await openSource(video, decodeOpts);
  const frames = (async function* () {
    for await (const f of src) {
      if (f.index > lastI) {
        yield f;
        continue;
      }
      if (point.needsReference && f.index === point.needsReference.i) run.restoreGate(normalise(f));
      const boxes = point.regionsAfterReference.get(f.index);
      if (boxes) run.restoreRegions(normalise(f), boxes);
    }
  })();
  return { src, frames, how: 'decode' };
}

function checkTime(video: string, i: number, ptsMs: number, storedT: number | undefined, tolMs: number): void {
  if (storedT === undefined) return;
  if (Math.abs(ptsMs - storedT * 1000) > tolMs) {
    throw new InputError({
      code: 'RESUME_MISMATCH',
      frame: i,
      message: `cannot resume: frame ${i} of '${video}' is at ${(ptsMs / 1000).toFixed(4)} s but the stored run has it at ${storedT.toFixed(4)} s; is it the same video? Start again with --overwrite`,
    });
  }
}

function tryLoadCalibration(path: string): Calibration | null {
  try {
    return loadCalibration(path);
  } catch {
    return null;
  }
}

function fileBytes(uri: string): { bytes?: number } {
  try {
    const st = statSync(uri);
    return st.isFile() ? { bytes: st.size } : {};
  } catch {
    return {};
  }
}

type Solved = { ok: true; calibration: Calibration; count: number } | { ok: false; failure: CalibrationFailure };

/** Calibrate each candidate frame; keep the best solve (`betterCalibration`), or the first failure. */
function solveBest(frames: readonly Frame[], table: TableProfile): Solved {
  const pick = new BestCalibration(table);
  for (const f of frames) pick.offer(f);
  return pick.best ? { ok: true, calibration: pick.best, count: pick.solved } : { ok: false, failure: pick.failure! };
}

function checkImageSize(c: Calibration, f: { width: number; height: number }): void {
  if (c.image.width !== f.width || c.image.height !== f.height) {
    throw new InputError({
      code: 'BAD_CALIBRATION',
      field: 'calibration.image',
      message: `the calibration was solved on a ${c.image.width}×${c.image.height} image but the video is ${f.width}×${f.height}`,
    });
  }
}

/** No frame decoded: say so, with the decoder's own complaint when it had one, and what to do. */
function noFrames(video: string, src: FrameSource): InputError {
  const why = src.warnings.find((w) => /problem|stopped|truncated|incomplete/.test(w));
  return new InputError({
    code: 'NO_FRAMES',
    message: `no frames could be decoded from '${video}'${why ? ` (${why.replace(/^'[^']*': /, '')})` : ''}: the file looks damaged; check it plays in a media player, and re-encode or re-export it (e.g. \`ffmpeg -i IN -c:v libx264 OUT.mp4\`)`,
  });
}

async function closeQuietly(src: FrameSource): Promise<void> {
  try {
    await src.close();
  } catch {
    // Closing after the end (or after a decode error) has nothing left to free.
  }
}
