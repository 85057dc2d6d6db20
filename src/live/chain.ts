/**
 * The vision chain, one frame at a time: detector → `mapDetections` (pixels → table mm through the
 * calibration) → tracker → stroke segmenter. The detector is injected (the ONNX model in use, a
 * fake in tests), as in src/pipeline/track.ts, whose batch loop this is the incremental twin of.
 *
 * The tracker lives as long as the chain: across a dropped camera it keeps every identity (reds
 * stay red1…red15, pool balls keep their numbers) and re-finds moved balls by its re-identification
 * gate; only the segmenter's window is reset (see segmenter.ts).
 *
 * With `gate` (and a calibration that maps the bed: `imageToTable`) frames pass the motion gate
 * first, as in `analyze` (pipeline/gatedDetection.ts): a still table reuses the last detections and
 * a stroke is detected round the moving balls only, so the 2 cores keep up with the camera.
 */
import type { ClothColour } from '../calibration/cloth.js';
import { bareClothProbe } from '../tracking/bareCloth.js';
import type { RadialLens } from '../core/lens.js';
import type { TrackFrame } from '../core/contracts/tracks.js';
import type { GameId } from '../core/games.js';
import type { Mat3 } from '../core/mat3.js';
import type { TableProfile } from '../core/table.js';
import type { EventParamsInput } from '../events/index.js';
import type { FrameDetector, VideoFrame } from '../pipeline/track.js';
import { createTracker, mapDetections, type TableDetections, type Tracker, type TrackerParamsInput } from '../tracking/index.js';
import { GatedDetection, detectorUseOf } from '../pipeline/gatedDetection.js';
import { viewDetectorFor } from '../pipeline/outlineCentres.js';
import type { MotionGateParams } from '../pipeline/motionGate.js';
import { StrokeSegmenter, type SegmenterFlag, type SegmenterOptions, type SegmenterOutput } from './segmenter.js';

export interface LiveChainOptions {
  game: GameId;
  table: TableProfile;
  /** `cloth`: the cloth's colour model, for telling a ball gone from one hidden (bareCloth.ts). */
  calibration: { ballCentreToTable: Mat3; imageToTable?: Mat3; distortion?: RadialLens | null; cloth?: ClothColour };
  detector: FrameDetector;
  tracker?: TrackerParamsInput;
  events?: EventParamsInput;
  segmenter?: Omit<SegmenterOptions, 'events'>;
  /** Motion gate parameters: gate the detector (needs `calibration.imageToTable`). Absent: the detector runs on every frame. */
  gate?: Partial<MotionGateParams>;
}

export interface ChainStep {
  frame: TrackFrame;
  outputs: SegmenterOutput[];
}

export class LiveChain {
  private readonly tracker: Tracker;
  readonly segmenter: StrokeSegmenter;
  private lastT = -Infinity;
  private readonly gated: GatedDetection | null;
  /** The detector the ungated path runs (with outline centres where they help, as the gated one). */
  private readonly detector: FrameDetector;
  /** Frames by what the detector did: whole-frame runs, region runs, reuses. */
  readonly detectorUse = { whole: 0, regions: 0, reused: 0 };

  constructor(private readonly o: LiveChainOptions) {
    if (o.table.game !== o.game) throw new RangeError(`the table profile is for ${o.table.game}, not ${o.game}`);
    this.tracker = createTracker(o.table, o.tracker ?? {});
    const homographies = { ballCentreToTable: o.calibration.ballCentreToTable, ...(o.calibration.imageToTable ? { imageToTable: o.calibration.imageToTable } : {}) };
    this.segmenter = new StrokeSegmenter(o.table, { ...o.segmenter, calibration: homographies, ...(o.events ? { events: o.events } : {}) });
    const { imageToTable } = o.calibration;
    this.gated = o.gate && imageToTable ? new GatedDetection({ game: o.game, table: o.table, calibration: { ...o.calibration, imageToTable }, detector: o.detector, gate: o.gate }) : null;
    this.detector = viewDetectorFor(o.detector, o.game, o.calibration, o.table);
  }

  /** Start the tracker from a restored table (see Tracker.seed). */
  seed(onTable: readonly { id: string; x: number; y: number }[], gone: readonly string[], tS: number): void {
    this.tracker.seed(onTable, gone, tS);
  }

  /**
   * One frame. `tS` is its stream time in seconds (the session's clock, which keeps increasing
   * across reconnects); frames at or before the previous one are skipped (returns null).
   */
  async push(frame: VideoFrame, tS: number): Promise<ChainStep | null> {
    if (!(tS > this.lastT)) return null;
    this.lastT = tS;
    let detections: TableDetections;
    let inView = true;
    if (this.gated) {
      const { small, d } = this.gated.decide(frame);
      const r = await this.gated.run(frame, small, d);
      detections = r.detections;
      inView = !('view' in r.line);
      // Out of view still asked the detector about the whole frame (it said: no table).
      const use = detectorUseOf(r.line);
      this.detectorUse[use === 'view' ? 'whole' : use]++;
    } else {
      const pixels = await this.detector.detect(frame);
      detections = mapDetections(pixels ?? [], this.o.calibration, this.o.game, frame.index, this.o.table.ballDiameter / 2);
      inView = pixels !== null;
      this.detectorUse.whole++;
    }
    const tf = this.tracker.step({ i: frame.index, t: tS, detections, ...(inView ? { bare: bareClothProbe(frame, this.o.calibration, this.o.table.ballDiameter / 2) } : { view: false }) });
    return { frame: tf, outputs: this.segmenter.push(tf) };
  }

  /** The camera was lost at stream time `tS` (see StrokeSegmenter.interrupt). */
  interrupt(tS: number, why: string): SegmenterFlag | null {
    return this.segmenter.interrupt(tS, why);
  }
}
