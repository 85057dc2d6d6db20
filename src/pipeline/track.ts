/**
 * The vision back end shared by `cueref track` and `cueref analyze`: frames → detector →
 * `mapDetections` → tracker → DIR/tracks.jsonl (as it goes) → events → DIR/strokes.json.
 *
 * `trackFrames` is written against an injected detector so that it runs and is tested without a
 * model; `loadModelDetector` loads the ONNX detector from models/ and says clearly when there is none.
 */
import { createWriteStream, existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { trackFrameLine, tracksHeaderLine, type TrackFrame, type TracksHeader } from '../core/contracts/tracks.js';
import { InputError } from '../core/errors.js';
import type { GameId } from '../core/games.js';
import type { Calibration } from '../calibration/contract.js';
import { bareClothProbe } from '../tracking/bareCloth.js';
import type { Mat3 } from '../core/mat3.js';
import type { TableProfile } from '../core/table.js';
import { tracksToStrokes, type StrokesResult } from '../events/index.js';
import { createTracker, mapDetections, type PixelDetection, type TrackerParamsInput } from '../tracking/index.js';
import { viewDetectorFor } from './outlineCentres.js';

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
  detect(frame: VideoFrame, opts?: DetectCallOptions): Promise<PixelDetection[] | null> | PixelDetection[] | null;
  /**
   * Optional: the balls whose centres lie in these boxes (frame px), each seen with `contextPx`
   * of frame around it — a moving frame's changed parts only (vision.ts); `ballRadiusPx` is a
   * ball's radius there. Detectors without it always run on the whole frame.
   */
  detectRegions?(frame: VideoFrame, boxes: readonly { u0: number; v0: number; u1: number; v1: number }[], opts: { contextPx: number; ballRadiusPx?: number } & DetectCallOptions): Promise<PixelDetection[]>;
}

/** What a caller that knows the view asks of one detection (detectors that cannot, ignore it). */
export interface DetectCallOptions {
  /**
   * Which clusters get a second, enlarged look (detection/clusters.ts): `groups` — every group of
   * balls, a pack seen from above (viewDetectorFor) — or `blobs`, only balls the first look merged.
   */
  looks?: 'blobs' | 'groups';
}

export interface TrackFramesOptions {
  game: GameId;
  table: TableProfile;
  calibration: { ballCentreToTable: Mat3; imageToTable?: Mat3; reprojectionErrorMm?: number; distortion?: Calibration['distortion']; cloth?: Calibration['cloth'] };
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
  /** The stroke log written to strokesPath (cueref.strokes/1), for a caller that referees it next. */
  log: StrokesResult['log'];
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
    calibration: { ballCentreToTable: o.calibration.ballCentreToTable, ...(o.calibration.imageToTable ? { imageToTable: o.calibration.imageToTable } : {}), ...(o.calibration.reprojectionErrorMm !== undefined ? { reprojectionErrorMm: o.calibration.reprojectionErrorMm } : {}), ...(o.calibration.distortion ? { distortion: o.calibration.distortion } : {}) },
    table: o.table,
  };
  const out = createWriteStream(tracksPath);
  const write = (s: string) => new Promise<void>((res, rej) => (out.write(s, (e) => (e ? rej(e) : res()))));
  await write(tracksHeaderLine(header));
  const tracker = createTracker(o.table, o.tracker ?? {});
  const kept: TrackFrame[] = [];
  const detector = viewDetectorFor(o.detector, o.game, o.calibration, o.table);
  try {
    for await (const f of frames as AsyncIterable<VideoFrame>) {
      const pixels = await detector.detect(f);
      const t = f.ptsMs / 1000;
      const det = mapDetections(pixels ?? [], o.calibration, o.game, f.index, o.table.ballDiameter / 2);
      const tf = tracker.step({ i: f.index, t, detections: det, ...(pixels === null ? { view: false } : { bare: bareClothProbe(f, o.calibration, o.table.ballDiameter / 2) }) });
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
  return { frames: kept.length, strokes: log.strokes.length, tracksPath, strokesPath, notes, log };
}

/**
 * Video's detector reports peaks down to this confidence; the tracker takes those under its
 * `strongConf` (0.3) only to keep a resting ball seen or to name a free one-ball kind. The dim cue
 * balls of Bucharest Task3 clips 11 and 14 score 0.23–0.31; the false whites there 0.05–0.13.
 */
export const WEAK_CONF = 0.15;

/**
 * The model `analyze`, `track` and `live` load without `--model`: models/detector.onnx, else the
 * first .onnx there (never detector-cloths.onnx while detector.onnx exists: it is the partner its
 * sidecar names, and sorts first).
 */
export function defaultModelPath(modelsDir: string): string | undefined {
  if (existsSync(join(modelsDir, 'detector.onnx'))) return join(modelsDir, 'detector.onnx');
  return existsSync(modelsDir) ? readdirSync(modelsDir).filter((f) => f.endsWith('.onnx')).sort().map((f) => join(modelsDir, f))[0] : undefined;
}

/**
 * The ONNX ball detector from models/, or a clear InputError saying there is none yet.
 * `intraOpThreads`: threads for one inference (default: the cores Node reports, `availableParallelism()`).
 */
export async function loadModelDetector(game: GameId, modelsDir = 'models', modelPath?: string, opts: { intraOpThreads?: number } = {}): Promise<FrameDetector> {
  const onnx = modelPath ?? defaultModelPath(modelsDir);
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
    const [{ openBallDetector }, { toRows }] = await Promise.all([import(spec('../detection/open.js')), import(spec('../detection/detections.js'))]);
    const { detector: det } = await openBallDetector(onnx.replace(/\.onnx$/, ''), { game, weakConf: WEAK_CONF }, opts.intraOpThreads ? { intraOpThreads: opts.intraOpThreads } : {});
    return {
      detect: async (f, o) => toRows(await det.detect(f, o?.looks ? { kind: 'frame', looks: o.looks } : undefined)) as PixelDetection[],
      detectRegions: async (f, boxes, opts) => toRows(await det.detectRegions(f, boxes, opts)) as PixelDetection[],
    };
  } catch (e) {
    if (e instanceof InputError) throw e;
    throw new InputError({ code: 'NO_DETECTOR', field: 'model', message: `cannot load the ball detector '${onnx}': ${(e as Error).message}` });
  }
}
