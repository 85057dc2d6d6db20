/**
 * The camera's height from the colours on their spots in the calibration frames, for `analyze`
 * and `live`: the detector (centres fitted to outlines, as tracking takes them) on each frame, the
 * balls mapped with the solved calibration, `heightFromSpots` (calibration/spotHeight.ts) on each
 * frame, the frame with the most colours on their spots deciding.
 */
import type { Calibration } from '../calibration/contract.js';
import { heightFromSpots, type SpotHeight } from '../calibration/spotHeight.js';
import type { TableProfile } from '../core/table.js';
import { mapDetections } from '../tracking/detections.js';
import type { Frame } from '../video/index.js';
import { viewDetectorFor } from './outlineCentres.js';
import type { FrameDetector } from './track.js';

export async function heightFromFrames(frames: readonly Frame[], cal: Calibration, detector: FrameDetector, table: TableProfile): Promise<SpotHeight> {
  if (!cal.camera || cal.camera.focalMeasured || table.game !== 'snooker') return { ok: false, reason: 'not needed', balls: 0 };
  const det = viewDetectorFor(detector, table.game, cal, table);
  let best: SpotHeight = { ok: false, reason: 'no frame', balls: 0 };
  for (const f of frames) {
    const pixels = await det.detect(f);
    if (!pixels) continue;
    const rows = mapDetections(pixels, cal, table.game, f.index, table.ballDiameter / 2);
    const balls = Array.from({ length: rows.length }, (_, c) => ({ kind: rows.cls[c]!, x: rows.x[c]!, y: rows.y[c]! }));
    const h = heightFromSpots(cal, balls);
    if (h.ok ? !best.ok || h.balls > best.balls || (h.balls === best.balls && h.rmsMm < best.rmsMm) : !best.ok && h.balls >= best.balls) best = h;
  }
  return best;
}

/** The note a run prints when the height was measured. */
export function spotHeightNote(h: Extract<SpotHeight, { ok: true }>): string {
  return `camera height measured from ${h.balls} colours on their spots: ${h.heightMm.toFixed(0)} mm (the focal-length prior put it at ${h.priorHeightMm.toFixed(0)} mm; fit ${h.rmsMm.toFixed(1)} mm rms)`;
}
