/**
 * A stand-in ball detector that "detects" what a cueref.tracks/1 document says was on each frame
 * (typically the simulator's truth.tracks.json), projected into the image through the inverse of
 * that document's `ballCentreToTable` (and scaled to the frame when the frame is smaller than the
 * document's `source` size: `analyze` shrinks a 1080p video to 720p). It makes `analyze` deterministic and fast where the ONNX
 * model would make a test slow or its outcome depend on the model of the day: the reliability
 * tests (kill -9 then --resume through the CLI), motion-gating tests, the report and clip tests.
 * Exposed on the CLI as the hidden `--replay-detections FILE` (docs/analyze.md, "Testing aids").
 */
import { readFileSync } from 'node:fs';
import { parseTracksText, type TracksDoc } from '../core/contracts/tracks.js';
import { InputError } from '../core/errors.js';
import type { GameId } from '../core/games.js';
import { applyH, inv3, type Mat3 } from '../core/mat3.js';
import { defaultProfileFor } from '../core/table.js';
import { imageBallRadius } from '../core/ballImage.js';
import { kindOfId, type PixelDetection } from '../tracking/index.js';
import { scalePx } from './analysisSize.js';
import type { FrameDetector, VideoFrame } from './track.js';

export interface ReplayDetectorOptions {
  /** Wait this long per frame (simulates a slow model, so a test can interrupt a run mid-way). */
  delayMs?: number;
  /**
   * Radius reported for every ball, px. Default: the ball's own image radius where it lies (from
   * the header's table, else a snooker ball's), as a real detector would report it — the pipeline
   * drops a white or colour much larger than a ball as not one.
   */
  radiusPx?: number;
  /** Called with each frame index the detector is asked about (tests count calls). */
  onDetect?: (index: number) => void;
}

const SEEN_STATES = new Set(['rest', 'moving', undefined]);

/** Detection class of a ball id: pool balls by number (the model "can tell"), else the id's kind. */
export function classOfId(game: GameId, id: string): string {
  return game === 'pool8' ? id : kindOfId(game, id);
}

export function replayDetector(doc: TracksDoc, opts: ReplayDetectorOptions = {}): FrameDetector & { calls: number } {
  const m = doc.calibration?.ballCentreToTable as Mat3 | undefined;
  if (!m) throw new InputError({ code: 'BAD_TRACKS', field: 'calibration.ballCentreToTable', message: 'replayed detections need the tracks header to carry calibration.ballCentreToTable (the simulator\'s truth.tracks.json does)' });
  const toImage = inv3(m);
  const srcW = doc.source?.width, srcH = doc.source?.height;
  const byIndex = new Map(doc.frames.map((f) => [f.i, f]));
  const ballRadiusMm = ballDiameterOf(doc) / 2;
  const det = {
    calls: 0,
    async detect(f: VideoFrame): Promise<PixelDetection[]> {
      det.calls++;
      opts.onDetect?.(f.index);
      if (opts.delayMs) await new Promise((res) => setTimeout(res, opts.delayMs));
      const tf = byIndex.get(f.index);
      if (!tf || tf.view === false) return [];
      return tf.balls
        .filter((b) => SEEN_STATES.has(b.state))
        .map((b) => {
          let [u, v] = applyH(toImage, b.x, b.y);
          const scaled = !!srcW && !!srcH && (f.width !== srcW || f.height !== srcH);
          if (scaled) [u, v] = [scalePx(u, f.width / srcW!), scalePx(v, f.height / srcH!)];
          const r = opts.radiusPx ?? imageBallRadius(m, b.x, b.y, ballRadiusMm) * (scaled ? f.width / srcW! : 1);
          // Through a homography: pixels of the undistorted frame.
          return { u, v, r, class: classOfId(doc.game, b.id), conf: 0.95, ideal: true };
        })
        .filter((p) => p.u >= 0 && p.v >= 0 && p.u < f.width && p.v < f.height);
    },
    /** The balls whose centres lie in the boxes, as the ONNX detector's region runs report them. */
    async detectRegions(f: VideoFrame, boxes: readonly { u0: number; v0: number; u1: number; v1: number }[]): Promise<PixelDetection[]> {
      const all = await det.detect(f);
      return all.filter((p) => boxes.some((b) => p.u >= b.u0 && p.u < b.u1 && p.v >= b.v0 && p.v < b.v1));
    },
  };
  return det;
}

/** The header's table ball diameter when it has a valid one, else the game's standard ball. */
function ballDiameterOf(doc: TracksDoc): number {
  const d = (doc.table as { ballDiameter?: unknown } | undefined)?.ballDiameter;
  return typeof d === 'number' && d > 0 ? d : defaultProfileFor(doc.game).ballDiameter;
}

export function loadReplayDetector(path: string, opts: ReplayDetectorOptions = {}): FrameDetector & { calls: number } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError({ code: 'FILE_NOT_FOUND', field: 'replay-detections', message: `cannot read '${path}' (${(e as NodeJS.ErrnoException).code ?? 'error'}): give a cueref.tracks/1 file such as a simulator's truth.tracks.json` });
  }
  return replayDetector(parseTracksText(text, `'${path}'`), opts);
}
