/**
 * `analyze`: the whole chain on one recording — calibrate from the first frames (or a given
 * calibration), detect, track, events, referee, report. Every stage writes its contract file into
 * the output folder as it goes (ARCHITECTURE: "a crash loses nothing already found"):
 *
 *   DIR/calibration.json  cueref.calibration/1   before the first frame is tracked
 *   DIR/tracks.jsonl      cueref.tracks/1        frame by frame (header carries the calibration)
 *   DIR/strokes.json      cueref.strokes/1       when the video ends
 *   DIR/calls.json        cueref.calls/1         right after
 *   DIR/report.html       self-contained report  last
 *
 * One decode: the frames used to calibrate are held and then fed to the tracker, so a live stream
 * loses nothing to calibration and a file is read once.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { toCalibrationJson, type Calibration } from '../calibration/contract.js';
import { betterCalibration, calibrateFrame, type CalibrationFailure } from '../calibration/solve.js';
import type { CallsDoc } from '../core/contracts/calls.js';
import type { StrokeLog } from '../core/contracts/strokes.js';
import { InputError } from '../core/errors.js';
import type { GameId } from '../core/games.js';
import { defaultProfileFor, type TableProfile } from '../core/table.js';
import { renderReport } from '../report/html.js';
import { openSource, type Frame, type FrameSource, type SourceInfo } from '../video/index.js';
import { refereeVisionLog } from './reconcile.js';
import { loadModelDetector, trackFrames, type FrameDetector } from './track.js';

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
  /** The ball detector; default: the ONNX model from `modelsDir` (or `modelPath`). */
  detector?: FrameDetector;
  modelsDir?: string;
  modelPath?: string;
  /** Called once the source is open (for a progress bar: `info.durationMs`, `info.fps`). */
  onStart?: (info: SourceInfo) => void;
  /** Called after each frame is tracked. */
  onFrame?: (index: number) => void;
}

export interface AnalyzeResult {
  calibration: Calibration;
  /** How the calibration was obtained: solved here (and from how many frames tried) or given. */
  calibrationSource: { kind: 'given' } | { kind: 'solved'; tried: number; solved: number };
  frames: number;
  strokes: StrokeLog;
  calls: CallsDoc;
  paths: { calibration: string; tracks: string; strokes: string; calls: string; report: string };
  /** Things a stage could not decide, one sentence each. */
  notes: string[];
  /** Wall time of the whole run and the recording's own length, ms (speed = videoMs / wallMs). */
  timing: { wallMs: number; videoMs: number };
}

const DEFAULT_CAL_FRAMES = 3;
const DEFAULT_CAL_STEP_MS = 500;

export async function analyze(video: string, o: AnalyzeOptions): Promise<AnalyzeResult> {
  const started = performance.now();
  const table = o.table ?? o.calibration?.table ?? defaultProfileFor(o.game);
  if (table.game !== o.game) throw new InputError({ code: 'TABLE_GAME_MISMATCH', field: 'table', message: `the table profile is for ${table.game}, not ${o.game}` });
  if (o.calibration && o.calibration.game !== o.game) {
    throw new InputError({ code: 'BAD_CALIBRATION', field: 'calibration', message: `the calibration is for ${o.calibration.game}, not ${o.game}` });
  }
  // The model first: a missing detector should fail before minutes of decoding.
  const detector = o.detector ?? (await loadModelDetector(o.game, o.modelsDir ?? 'models', o.modelPath));
  const src = await openSource(video);
  const it = src[Symbol.asyncIterator]();
  const held: Frame[] = [];
  let lastPtsMs = 0;
  let ended = false;
  try {
    o.onStart?.(src.info);
    let calibration: Calibration;
    let calibrationSource: AnalyzeResult['calibrationSource'];
    if (o.calibration) {
      calibration = o.calibration;
      calibrationSource = { kind: 'given' };
      const first = await it.next();
      if (first.done) throw noFrames(video);
      held.push(first.value);
      checkImageSize(calibration, first.value);
    } else {
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
      if (!candidates.length) throw noFrames(video);
      const solved = solveBest(candidates, table);
      if (!solved.ok) {
        const e = solved.failure;
        throw new InputError({
          code: `CALIBRATION_${e.code}`,
          field: 'calibration',
          message: `cannot find the ${o.game} table in the first ${candidates.length} frame(s) of '${video}': ${e.message}; found: ${e.found.join(', ') || 'nothing'}. Is the table in view? Solve one by hand (\`cueref calibrate VIDEO --game ${o.game} --corners … --out FILE\`) and pass --calibration FILE`,
        });
      }
      calibration = solved.calibration;
      calibration.source = { uri: video, atSeconds: 0 };
      calibrationSource = { kind: 'solved', tried: candidates.length, solved: solved.count };
    }

    mkdirSync(o.outDir, { recursive: true });
    const paths = {
      calibration: join(o.outDir, 'calibration.json'),
      tracks: join(o.outDir, 'tracks.jsonl'),
      strokes: join(o.outDir, 'strokes.json'),
      calls: join(o.outDir, 'calls.json'),
      report: join(o.outDir, 'report.html'),
    };
    writeFileSync(paths.calibration, JSON.stringify(toCalibrationJson(calibration), null, 2) + '\n');

    async function* frames(): AsyncGenerator<Frame> {
      // Hand the held frames over one by one and drop them: the tracker keeps nothing of the pixels.
      while (held.length) {
        const f = held.shift()!;
        lastPtsMs = f.ptsMs;
        yield f;
      }
      while (!ended) {
        const r = await it.next();
        if (r.done) break;
        lastPtsMs = r.value.ptsMs;
        yield r.value;
      }
    }

    const tracked = await trackFrames(frames(), {
      game: o.game,
      table,
      calibration,
      detector,
      source: { uri: video, ...(src.info.fps ? { fps: src.info.fps } : {}), width: src.info.width, height: src.info.height },
      outDir: o.outDir,
      ...(o.onFrame ? { onFrame: o.onFrame } : {}),
    });
    if (tracked.frames === 0) throw noFrames(video);

    const refereed = refereeVisionLog(tracked.log, table);
    if (!refereed.ok) {
      // The events stage wrote a log the referee refuses even after repairs: a bug between stages,
      // kept on disk to look at.
      throw new Error(`the referee refused the stroke log ${paths.strokes}: ${refereed.error.message} (stroke ${refereed.error.stroke ?? '?'}, ${refereed.error.field ?? ''})`);
    }
    const { calls, log, repairs } = refereed.value;
    const notes = [...tracked.notes, ...repairs.map((r) => `stroke ${r.stroke}: ${r.reason}`)];
    if (repairs.length) {
      // strokes.json is the log the calls judge (stroke indices line up); the events stage's own
      // output is kept beside it.
      writeFileSync(join(o.outDir, 'strokes.events.json'), JSON.stringify(tracked.log, null, 1) + '\n');
      writeFileSync(paths.strokes, JSON.stringify(log, null, 1) + '\n');
    }
    writeFileSync(paths.calls, JSON.stringify(calls, null, 1) + '\n');

    const videoMs = src.info.durationMs ?? lastPtsMs + (src.info.fps ? 1000 / src.info.fps : 0);
    writeFileSync(
      paths.report,
      renderReport({
        calls,
        strokes: log,
        title: basename(video),
        meta: {
          source: video,
          frames: tracked.frames,
          durationS: videoMs / 1000,
          calibration: `${calibrationSource.kind === 'given' ? 'given' : `solved from ${calibrationSource.tried} frame(s)`}, reprojection error ${calibration.reprojectionErrorMm.toFixed(2)} mm, found ${calibration.found.join(', ')}`,
        },
        notes,
      }),
    );
    return {
      calibration,
      calibrationSource,
      frames: tracked.frames,
      strokes: log,
      calls,
      paths,
      notes,
      timing: { wallMs: performance.now() - started, videoMs },
    };
  } finally {
    held.length = 0;
    await it.return?.().catch(() => undefined);
    await closeQuietly(src);
  }
}

type Solved = { ok: true; calibration: Calibration; count: number } | { ok: false; failure: CalibrationFailure };

/** Calibrate each candidate frame; keep the best solve (`betterCalibration`), or the first failure. */
function solveBest(frames: readonly Frame[], table: TableProfile): Solved {
  let best: Calibration | null = null;
  let count = 0;
  let failure: CalibrationFailure | null = null;
  for (const f of frames) {
    const r = calibrateFrame({ width: f.width, height: f.height, rgb: f.rgb }, { table });
    if (!r.ok) {
      failure ??= r.error;
      continue;
    }
    count++;
    best = best ? betterCalibration(r.value.calibration, best) : r.value.calibration;
  }
  return best ? { ok: true, calibration: best, count } : { ok: false, failure: failure! };
}

function checkImageSize(c: Calibration, f: Frame): void {
  if (c.image.width !== f.width || c.image.height !== f.height) {
    throw new InputError({
      code: 'BAD_CALIBRATION',
      field: 'calibration.image',
      message: `the calibration was solved on a ${c.image.width}×${c.image.height} image but the video is ${f.width}×${f.height}`,
    });
  }
}

const noFrames = (video: string) => new InputError({ code: 'NO_FRAMES', message: `no frames could be decoded from '${video}'` });

async function closeQuietly(src: FrameSource): Promise<void> {
  try {
    await src.close();
  } catch {
    // Closing after the end (or after a decode error) has nothing left to free.
  }
}
