/**
 * The view gate and the drift check. Per frame, cheaply: is this the calibrated table view? The
 * cloth mask (with the calibrated cloth colour, on a ≈ 400-px copy) is compared with where the
 * calibration says the cloth must be (bed plus cushions); their intersection-over-union is high
 * for the table view and collapses for cut-aways, replays from other angles, close-ups and a body
 * filling the frame; a close-up of the bed fills the outside with cloth. On a frame that still
 * shows the table, an outline displaced from the calibrated one means the camera moved: re-solve.
 */
import { inv3, type Mat3 } from '../core/mat3.js';
import { fillHoles, findCloth, keepLargestComponent, maskScaleFor, type ClothColour } from './cloth.js';
import type { Calibration } from './contract.js';
import { distortPoint } from './distortion.js';
import { applyH, type Pt } from './geometry.js';
import { downscale, rgbToHsv, type RgbFrame } from './image.js';
import { isCloth } from './cloth.js';

export interface ViewModel {
  width: number;
  height: number;
  scale: number;
  expected: Uint8Array;
  expectedArea: number;
  /** Boundary pixels of the expected region (mask resolution). */
  perimeterPx: number;
  colour: ClothColour | null;
}

export interface ViewCheck {
  /** Intersection over union of the frame's cloth with the calibrated table region (0–1). */
  iou: number;
  /** Share of the frame outside the table region that is cloth-coloured (a close-up: ≈ 1). */
  outsideFrac: number;
  /** Mean displacement of the cloth outline from the expected one, frame pixels. */
  boundaryShiftPx: number;
  /** True when the frame shows the calibrated table view. */
  inView: boolean;
  /** True when the table is there but not where the calibration puts it (camera moved). */
  moved: boolean;
}

/** IoU at or above which a frame counts as the table view (a player over the table costs ≈ 0.1). */
export const MIN_VIEW_IOU = 0.6;
/** Most of the outside that may look like cloth in a table view (a close-up of the bed fills it). */
export const MAX_OUTSIDE_FRAC = 0.2;
/**
 * Outline displacement (frame px) above which a frame in view triggers a re-solve. Measured
 * against the calibration frame's own mask when the model was built from it, so it is ≈ 0 when
 * nothing moved; a player over the cushion raises it too, which only costs a re-solve that then
 * finds the same corners.
 */
export const DRIFT_SHIFT_PX = 2.5;

function pointInPolygon(x: number, y: number, poly: Pt[]): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!, [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function clothMaskOf(frame: RgbFrame, colour: ClothColour | null, w: number, h: number, scale: number): Uint8Array | null {
  if (!colour) return findCloth(frame)?.mask ?? null;
  const small = downscale(frame, scale);
  const m = new Uint8Array(w * h);
  for (let i = 0; i < m.length; i++) {
    const [hh, s, v] = rgbToHsv(small.rgb[3 * i]!, small.rgb[3 * i + 1]!, small.rgb[3 * i + 2]!);
    m[i] = isCloth(colour, hh, s, v) ? 1 : 0;
  }
  keepLargestComponent(m, w, h);
  fillHoles(m, w, h);
  return m;
}

function perimeter(m: Uint8Array, w: number, h: number): number {
  let n = 0;
  for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) {
    const p = y * w + x;
    if (m[p] && (!m[p - 1] || !m[p + 1] || !m[p - w] || !m[p + w])) n++;
  }
  return Math.max(1, n);
}

/**
 * Precompute the expected cloth region of a calibration: from `referenceFrame` (the frame it was
 * solved on: its own cloth mask, exact) or else from the table outline grown by a cushion width.
 */
export function buildViewModel(cal: Calibration, referenceFrame?: RgbFrame, cushionMm?: number): ViewModel {
  const scale = maskScaleFor(cal.image.width, cal.image.height);
  const w = Math.floor(cal.image.width / scale), h = Math.floor(cal.image.height / scale);
  const colour = cal.cloth ?? null;
  if (referenceFrame) {
    const m = clothMaskOf(referenceFrame, colour, w, h, scale);
    if (m) {
      let area = 0;
      for (let i = 0; i < m.length; i++) area += m[i]!;
      return { width: w, height: h, scale, expected: m, expectedArea: area, perimeterPx: perimeter(m, w, h), colour };
    }
  }
  const { width: W, length: L } = cal.table.bed;
  // The mask includes the cushion tops: grow the bed by a cushion width (≈ 2.8 % of a snooker bed).
  const c = cushionMm ?? 0.028 * Math.min(W, L);
  const H: Mat3 = inv3(cal.imageToTable);
  const poly: Pt[] = [];
  const edge = (x0: number, y0: number, x1: number, y1: number) => {
    for (let i = 0; i < 16; i++) {
      const t = i / 16;
      const [u, v] = applyH(H, x0 + (x1 - x0) * t, y0 + (y1 - y0) * t);
      poly.push(cal.distortion ? distortPoint(cal.distortion, u, v) : [u, v]);
    }
  };
  edge(-c, -c, W + c, -c);
  edge(W + c, -c, W + c, L + c);
  edge(W + c, L + c, -c, L + c);
  edge(-c, L + c, -c, -c);
  const expected = new Uint8Array(w * h);
  let area = 0;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      if (pointInPolygon((x + 0.5) * scale, (y + 0.5) * scale, poly)) {
        expected[y * w + x] = 1;
        area++;
      }
    }
  }
  return { width: w, height: h, scale, expected, expectedArea: area, perimeterPx: perimeter(expected, w, h), colour };
}

/** Check one frame against the calibrated view. Cost ≈ one pass over a 400-px copy. */
export function checkView(frame: RgbFrame, model: ViewModel): ViewCheck {
  const scale = maskScaleFor(frame.width, frame.height);
  const none = { iou: 0, outsideFrac: 0, boundaryShiftPx: Infinity, inView: false, moved: false };
  if (scale !== model.scale || Math.floor(frame.width / scale) !== model.width || Math.floor(frame.height / scale) !== model.height) return none;
  const m = clothMaskOf(frame, model.colour, model.width, model.height, scale);
  if (!m) return none;
  let inter = 0, uni = 0, outsideCloth = 0;
  for (let i = 0; i < m.length; i++) {
    const a = m[i]!, b = model.expected[i]!;
    if (a && b) inter++;
    if (a || b) uni++;
    if (a && !b) outsideCloth++;
  }
  const iou = uni ? inter / uni : 0;
  const outsideArea = Math.max(1, m.length - model.expectedArea);
  const outsideFrac = outsideCloth / outsideArea;
  // |A xor B| / perimeter ≈ mean outline displacement (mask px), in frame px.
  const boundaryShiftPx = ((uni - inter) / model.perimeterPx) * scale;
  const inView = iou >= MIN_VIEW_IOU && outsideFrac <= MAX_OUTSIDE_FRAC;
  return { iou, outsideFrac, boundaryShiftPx, inView, moved: inView && boundaryShiftPx > DRIFT_SHIFT_PX };
}

export interface DriftOptions {
  /** Re-verify (full solve) every this many in-view frames even when the IoU looks fine. */
  reverifyEveryFrames?: number;
  /** A re-solve replaces the calibration when a bed corner moved by more than this, px. */
  moveThresholdPx?: number;
  solve: (frame: RgbFrame) => Calibration | null;
}

export interface DriftUpdate extends ViewCheck {
  /** The calibration now in effect, and whether it changed on this frame. */
  calibration: Calibration;
  changed: boolean;
}

/**
 * Keeps a calibration valid through a recording: gate each frame, re-solve when the IoU says the
 * camera moved (or every `reverifyEveryFrames`), and adopt the new solve when the corners moved.
 */
export class DriftMonitor {
  private cal: Calibration;
  private model: ViewModel;
  private sinceVerify = 0;
  private readonly every: number;
  private readonly movePx: number;
  private readonly solve: (frame: RgbFrame) => Calibration | null;

  constructor(initial: Calibration, opts: DriftOptions, referenceFrame?: RgbFrame) {
    this.cal = initial;
    this.model = buildViewModel(initial, referenceFrame);
    this.every = opts.reverifyEveryFrames ?? 300;
    this.movePx = opts.moveThresholdPx ?? 2;
    this.solve = opts.solve;
    if (!(this.every >= 1) || !(this.movePx > 0)) throw new RangeError('reverifyEveryFrames must be ≥ 1 and moveThresholdPx > 0');
  }

  get calibration(): Calibration {
    return this.cal;
  }

  update(frame: RgbFrame): DriftUpdate {
    const check = checkView(frame, this.model);
    let changed = false;
    if (check.inView) this.sinceVerify++;
    const wantSolve = check.moved || (check.inView && this.sinceVerify >= this.every);
    if (wantSolve) {
      this.sinceVerify = 0;
      const next = this.solve(frame);
      if (next && next.cornersPx && this.cal.cornersPx) {
        const shift = Math.max(...next.cornersPx.map((p, i) => Math.hypot(p[0] - this.cal.cornersPx![i]![0], p[1] - this.cal.cornersPx![i]![1])));
        if (shift > this.movePx) {
          this.cal = next;
          this.model = buildViewModel(next, frame);
          changed = true;
          const again = checkView(frame, this.model);
          return { ...again, calibration: this.cal, changed };
        }
      }
    }
    return { ...check, calibration: this.cal, changed };
  }
}
