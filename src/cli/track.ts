/**
 * `cueref track VIDEO --game G [--table FILE] [--calibration FILE] --out DIR` — video in, tracks
 * (DIR/tracks.jsonl, cueref.tracks/1, written frame by frame as it goes) and strokes
 * (DIR/strokes.json, cueref.strokes/1) out.
 *
 * The composition (frames → detector → `mapDetections` → tracker → JSON Lines → events) is
 * `trackFrames`, written against an injected detector so that it runs and is tested without a
 * model; the command loads the ONNX detector from models/ and says clearly when there is none.
 */
import { createWriteStream, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { loadCalibration } from '../calibration/contract.js';
import { trackFrameLine, tracksHeaderLine, type TrackFrame, type TracksHeader } from '../core/contracts/tracks.js';
import { InputError } from '../core/errors.js';
import { GAMES, type GameId } from '../core/games.js';
import type { Mat3 } from '../core/mat3.js';
import { defaultProfileFor, loadTableProfile, type TableProfile } from '../core/table.js';
import { tracksToStrokes } from '../events/index.js';
import { createTracker, mapDetections, type PixelDetection, type TrackerParamsInput } from '../tracking/index.js';
import { handleError } from './handleError.js';

/** What the command needs of a frame (video/'s `Frame` has these and more). */
export interface VideoFrame {
  index: number;
  ptsMs: number;
  width: number;
  height: number;
  rgb: Uint8Array;
}

/**
 * A ball detector: pixel detections for one frame, or `null` when the table is not in view
 * (a broadcast cut-away). The ONNX detector of src/detection is one; tests inject fakes.
 */
export interface FrameDetector {
  detect(frame: VideoFrame): Promise<PixelDetection[] | null> | PixelDetection[] | null;
}

export interface TrackFramesOptions {
  game: GameId;
  table: TableProfile;
  calibration: { ballCentreToTable: Mat3; imageToTable?: Mat3; reprojectionErrorMm?: number };
  detector: FrameDetector;
  source?: { uri: string; fps?: number; width?: number; height?: number };
  outDir: string;
  tracker?: TrackerParamsInput;
  onFrame?: (index: number) => void;
}

export interface TrackFramesResult {
  frames: number;
  strokes: number;
  tracksPath: string;
  strokesPath: string;
  notes: string[];
}

/** Run the back end over frames, writing DIR/tracks.jsonl as it goes and DIR/strokes.json at the end. */
export async function trackFrames(frames: AsyncIterable<VideoFrame> | Iterable<VideoFrame>, o: TrackFramesOptions): Promise<TrackFramesResult> {
  mkdirSync(o.outDir, { recursive: true });
  const tracksPath = join(o.outDir, 'tracks.jsonl');
  const strokesPath = join(o.outDir, 'strokes.json');
  const header: TracksHeader = {
    format: 'cueref.tracks/1',
    game: o.game,
    ...(o.source ? { source: o.source } : {}),
    calibration: { ballCentreToTable: o.calibration.ballCentreToTable, ...(o.calibration.imageToTable ? { imageToTable: o.calibration.imageToTable } : {}), ...(o.calibration.reprojectionErrorMm !== undefined ? { reprojectionErrorMm: o.calibration.reprojectionErrorMm } : {}) },
    table: o.table,
  };
  const out = createWriteStream(tracksPath);
  const write = (s: string) => new Promise<void>((res, rej) => (out.write(s, (e) => (e ? rej(e) : res()))));
  await write(tracksHeaderLine(header));
  const tracker = createTracker(o.table, o.tracker ?? {});
  const kept: TrackFrame[] = [];
  try {
    for await (const f of frames as AsyncIterable<VideoFrame>) {
      const pixels = await o.detector.detect(f);
      const t = f.ptsMs / 1000;
      const det = mapDetections(pixels ?? [], o.calibration, o.game, f.index);
      const tf = tracker.step({ i: f.index, t, detections: det, ...(pixels === null ? { view: false } : {}) });
      kept.push(tf);
      await write(trackFrameLine(tf));
      o.onFrame?.(f.index);
    }
  } finally {
    await new Promise<void>((res) => out.end(res));
  }
  const { log, notes } = tracksToStrokes({ ...header, frames: kept }, o.table);
  log.table = o.table;
  writeFileSync(strokesPath, JSON.stringify(log, null, 1) + '\n');
  return { frames: kept.length, strokes: log.strokes.length, tracksPath, strokesPath, notes };
}

/** The ONNX ball detector from models/, or a clear InputError saying there is none yet. */
export async function loadModelDetector(game: GameId, modelsDir = 'models', modelPath?: string): Promise<FrameDetector> {
  const onnx = modelPath ?? (existsSync(modelsDir) ? readdirSync(modelsDir).filter((f) => f.endsWith('.onnx')).map((f) => join(modelsDir, f))[0] : undefined);
  if (!onnx || !existsSync(onnx)) {
    throw new InputError({
      code: 'NO_DETECTOR',
      field: 'model',
      message: `no ball detector model found in ${modelsDir}/ (expected a *.onnx with its *.json sidecar): train one (models/training) or pass --model; meanwhile \`cueref events TRACKS\` takes tracks from any tracker`,
    });
  }
  // Loaded by name so that this command works (and fails clearly) while the detection stage is
  // still being built; only detection/ imports onnxruntime-node.
  const spec = (p: string) => new URL(p, import.meta.url).href;
  try {
    const [{ createOnnxRunner }, { loadSidecar }, { BallDetector }, { toRows }] = await Promise.all([
      import(spec('../detection/onnxRunner.js')),
      import(spec('../detection/model.js')),
      import(spec('../detection/detector.js')),
      import(spec('../detection/detections.js')),
    ]);
    const side = loadSidecar(onnx.replace(/\.onnx$/, '.json'));
    const det = new BallDetector(await createOnnxRunner(onnx), side, { game });
    return { detect: async (f) => toRows(await det.detect(f)) as PixelDetection[] };
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError({ code: 'NO_DETECTOR', field: 'model', message: `cannot load the ball detector '${onnx}': ${(e as Error).message}` });
  }
}

const optionsSchema = z.object({
  game: z.enum(GAMES),
  table: z.string().min(1).optional(),
  calibration: z.string().min(1).optional(),
  out: z.string().min(1),
  model: z.string().min(1).optional(),
  json: z.boolean().optional(),
  progress: z.boolean().default(true),
});

export function trackCommand(): Command {
  return new Command('track')
    .description('Track the balls of a video: writes DIR/tracks.jsonl (cueref.tracks/1) as it goes and DIR/strokes.json (cueref.strokes/1) for the referee.')
    .argument('<video>', 'video file, image sequence or stream')
    .requiredOption('--game <game>', `game (${GAMES.join(', ')})`)
    .option('--table <file>', 'table profile (cueref.table/1 JSON, or a built-in name)')
    .option('--calibration <file>', 'camera calibration (cueref.calibration/1), from `cueref calibrate`')
    .requiredOption('--out <dir>', 'output folder')
    .option('--model <file>', 'ball detector model (.onnx with a .json sidecar); default: the first in models/')
    .option('--no-progress', 'no progress bar')
    .option('--json', 'print the summary as JSON')
    .addHelpText('after', '\nExamples:\n  cueref calibrate match.mp4 --game snooker --out calibration/match.json\n  cueref track match.mp4 --game snooker --calibration calibration/match.json --out runs/match\n  cueref referee runs/match/strokes.json\n\nExit codes: 0 ok, 2 bad input (no model, no calibration, bad video), 1 internal error.')
    .action(async (video: string, raw: unknown) => {
      const parsed = optionsSchema.safeParse(raw);
      try {
        if (!parsed.success) throw parsed.error;
        const opts = parsed.data;
        const table = opts.table ? loadTableProfile(opts.table) : defaultProfileFor(opts.game);
        if (table.game !== opts.game) throw new InputError({ code: 'TABLE_GAME_MISMATCH', field: 'table', message: `the table profile is for ${table.game}, not ${opts.game}` });
        const detector = await loadModelDetector(opts.game, 'models', opts.model);
        if (!opts.calibration) throw new InputError({ code: 'NO_CALIBRATION', field: 'calibration', message: 'give --calibration FILE (solve one with `cueref calibrate VIDEO --game G --out FILE`)' });
        const calibration = loadCalibration(opts.calibration);
        if (calibration.game !== opts.game) throw new InputError({ code: 'BAD_CALIBRATION', field: 'calibration', message: `the calibration is for ${calibration.game}, not ${opts.game}` });
        const { openSource } = await import('../video/source.js');
        const src = await openSource(video);
        const { SingleBar, Presets } = await import('cli-progress');
        const total = src.info.frameCount ?? (src.info.durationMs && src.info.fps ? Math.round((src.info.durationMs / 1000) * src.info.fps) : 0);
        const bar = opts.progress && process.stderr.isTTY && total > 0 ? new SingleBar({ format: 'tracking [{bar}] {value}/{total} frames | eta {eta}s', stream: process.stderr }, Presets.shades_classic) : null;
        bar?.start(total, 0);
        let n = 0;
        const res = await trackFrames(src, {
          game: opts.game,
          table,
          calibration,
          detector,
          source: { uri: video, ...(src.info.fps ? { fps: src.info.fps } : {}), width: src.info.width, height: src.info.height },
          outDir: opts.out,
          onFrame: () => bar?.update(++n),
        });
        bar?.stop();
        if (opts.json) process.stdout.write(JSON.stringify(res, null, 2) + '\n');
        else {
          process.stdout.write(`${res.frames} frames → ${res.strokes} strokes\n  tracks:  ${res.tracksPath}\n  strokes: ${res.strokesPath}\n`);
          for (const note of res.notes) process.stdout.write(`  note: ${note}\n`);
        }
      } catch (e) {
        handleError(e, parsed.success ? parsed.data.json : false);
      }
    });
}
