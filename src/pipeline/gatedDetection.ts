/**
 * The motion gate and the detector together, one frame at a time — what `analyze` (vision.ts) and
 * `live` (live/chain.ts) run before the tracker. Per frame the gate says (motionGate.ts):
 *   - reuse:   nothing moved on the bed: the last detections again, no model run;
 *   - regions: a few places changed: the detector runs in boxes round them only and the balls
 *              elsewhere are carried from the last detections (a stroke moves one or two balls;
 *              a 128×128 crop costs ~1 ms where the whole 640×384 input costs ~15);
 *   - else:    the detector runs on the whole frame.
 * The result says which, as the tracker-input line a resumed run replays.
 */
import { ballRadiusPx } from '../calibration/ballSize.js';
import type { RadialLens } from '../core/lens.js';
import { distortPixel } from '../core/lens.js';
import { applyH, inv3, type Mat3 } from '../core/mat3.js';
import type { GameId } from '../core/games.js';
import type { TableProfile } from '../core/table.js';
import { emptyDetections, makeDetections, mapDetections, type TableDetections } from '../tracking/index.js';
import { viewDetectorFor } from './outlineCentres.js';
import { MotionGate, type GateDecision, type MotionGateParams, type SmallBox, type SmallGrey } from './motionGate.js';
import type { FrameDetector, VideoFrame } from './track.js';

/** Frame around each region the detector sees, in ball radii (a ball at a region's edge is whole, with cloth round it). */
export const REGION_CONTEXT_RADII = 4;

/**
 * What the tracker was given on one frame. `d` rows: [x mm, y mm, conf, class] — all the balls.
 * `r`: the detector ran only in these boxes of the gate's small copy (the rest of `d` carried from
 * the frame before); a resume replays them onto the gate's reference.
 */
export type TrackerInputLine =
  | { i: number; t: number; view: false }
  | ({ i: number; t: number; g: 'reuse' } & BareAnswers)
  | ({ i: number; t: number; g: Exclude<GateDecision, 'reuse'>; d: [number, number, number, string][]; r?: SmallBox[] } & BareAnswers);

/** Places (table mm) where the tracker asked whether the cloth was bare and the frame said yes: a replay answers from these. */
export interface BareAnswers {
  b?: [number, number][];
}

export interface GatedDetectionOptions {
  game: GameId;
  table: TableProfile;
  /** The calibration of the frames as they arrive. */
  calibration: { imageToTable: Mat3; ballCentreToTable: Mat3; distortion?: RadialLens | null };
  detector: FrameDetector;
  /** Motion gate parameters (`refreshEveryFrames: 1` turns gating off). */
  gate?: Partial<MotionGateParams>;
}

/** What the detector did on a frame, read from its line: nothing (out of view), reuse, boxes, or the whole frame. */
export function detectorUseOf(line: TrackerInputLine): 'view' | 'reused' | 'regions' | 'whole' {
  if ('view' in line) return 'view';
  if (line.g === 'reuse') return 'reused';
  return line.r ? 'regions' : 'whole';
}

export const rowsOf = (d: TableDetections): [number, number, number, string][] => Array.from({ length: d.length }, (_, k) => [d.x[k]!, d.y[k]!, d.conf[k]!, d.cls[k]!]);

export class GatedDetection {
  readonly gate: MotionGate;
  /** The detections the last run gave (what a reuse hands on); set by a resume's replay too. */
  lastDet: TableDetections | null = null;
  private readonly ballRadiusPx: number;
  private readonly tableToImage: Mat3;
  private readonly detector: FrameDetector;

  constructor(private readonly o: GatedDetectionOptions) {
    this.ballRadiusPx = ballRadiusPx(o.calibration, o.table);
    this.detector = viewDetectorFor(o.detector, o.game, o.calibration, o.table);
    // Regions only with a detector that can run on parts of a frame (the ONNX one can).
    this.gate = new MotionGate({ ...o.calibration, table: o.table }, o.gate ?? {}, o.detector.detectRegions ? this.ballRadiusPx : undefined);
    this.tableToImage = inv3(o.calibration.ballCentreToTable);
  }

  /** The gate's look at a frame (a caller may check the view between this and `run`). */
  decide(f: VideoFrame): { small: SmallGrey; d: ReturnType<MotionGate['decide']> } {
    const small = this.gate.shrink(f);
    return { small, d: this.gate.decide(small) };
  }

  /** Reuse, detect in regions or detect whole, as decided; `inView: false` skips the frame. */
  async run(f: VideoFrame, small: SmallGrey, d: ReturnType<MotionGate['decide']>, inView = true): Promise<{ line: TrackerInputLine; detections: TableDetections }> {
    const t = f.ptsMs / 1000;
    const { game, table, calibration } = this.o;
    const detector = this.detector;
    if (inView && d.decision === 'reuse' && this.lastDet) {
      this.gate.reused();
      return { line: { i: f.index, t, g: 'reuse' }, detections: this.lastDet };
    }
    if (inView && d.regions && this.lastDet && detector.detectRegions) {
      // Only parts of the bed changed: detect there, carry the balls elsewhere.
      const cores = d.regions.map(([x0, y0, x1, y1]) => ({ u0: x0 * small.factor, v0: y0 * small.factor, u1: x1 * small.factor, v1: y1 * small.factor }));
      const pixels = await detector.detectRegions(f, cores, { contextPx: REGION_CONTEXT_RADII * this.ballRadiusPx, ballRadiusPx: this.ballRadiusPx });
      const fresh = mapDetections(pixels, calibration, game, f.index, table.ballDiameter / 2);
      const detections = this.carryOutside(this.lastDet, fresh, cores, f.index);
      this.lastDet = detections;
      this.gate.ranRegions(small, d.regions);
      return { line: { i: f.index, t, g: 'motion', d: rowsOf(detections), r: d.regions }, detections };
    }
    const pixels = inView ? await detector.detect(f) : null;
    if (pixels === null) {
      this.gate.outOfView();
      return { line: { i: f.index, t, view: false }, detections: emptyDetections() };
    }
    const detections = mapDetections(pixels, calibration, game, f.index, table.ballDiameter / 2);
    this.lastDet = detections;
    this.gate.ran(small);
    return { line: { i: f.index, t, g: d.decision === 'reuse' ? 'refresh' : d.decision, d: rowsOf(detections) }, detections };
  }

  /** The balls of `prev` outside every box (mapped back to the frame), with the balls found in the boxes. */
  private carryOutside(prev: TableDetections, fresh: TableDetections, cores: readonly { u0: number; v0: number; u1: number; v1: number }[], frame: number): TableDetections {
    const lens = this.o.calibration.distortion;
    const inBox = (x: number, y: number) => {
      const [iu, iv] = applyH(this.tableToImage, x, y);
      const [u, v] = lens ? distortPixel(lens, iu, iv) : [iu, iv];
      return cores.some((c) => u >= c.u0 && u < c.u1 && v >= c.v0 && v < c.v1);
    };
    return mergeRegionRun(prev, fresh, inBox, this.o.table.ballDiameter / 2, this.o.game, frame);
  }
}

/**
 * The detections of a region run: the balls of `prev` not in a box (`inBox`, table mm), with the
 * balls found in the boxes (`fresh`). A carried ball within a radius of a fresh one is that ball
 * seen again, not another: a ball straddling a box's edge (a cue ball as the cue comes over it,
 * rendered short frame, broadcast 25 fps) is found fresh just inside the box while its stale
 * centre lies just outside, and the two read as two balls 9 mm apart — the second became a potted
 * colour come back. The fresh look is the newer.
 */
export function mergeRegionRun(prev: TableDetections, fresh: TableDetections, inBox: (xMm: number, yMm: number) => boolean, ballRadiusMm: number, game: GameId, frame: number): TableDetections {
  const rows: { x: number; y: number; conf: number; class: string }[] = [];
  const seenFresh = (x: number, y: number) => {
    for (let j = 0; j < fresh.length; j++) if (Math.hypot(fresh.x[j]! - x, fresh.y[j]! - y) < ballRadiusMm) return true;
    return false;
  };
  for (let k = 0; k < prev.length; k++) {
    if (inBox(prev.x[k]!, prev.y[k]!) || seenFresh(prev.x[k]!, prev.y[k]!)) continue;
    rows.push({ x: prev.x[k]!, y: prev.y[k]!, conf: prev.conf[k]!, class: prev.cls[k]! });
  }
  for (let k = 0; k < fresh.length; k++) rows.push({ x: fresh.x[k]!, y: fresh.y[k]!, conf: fresh.conf[k]!, class: fresh.cls[k]! });
  return makeDetections(rows, game, frame);
}
