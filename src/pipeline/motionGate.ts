/**
 * Motion gating: most of a match is balls at rest while a player walks round the table, and the
 * ball detector is by far the dearest stage per frame. When nothing on the bed changed since the
 * last frame the detector saw, its detections from that frame are still the truth, so they are
 * handed to the tracker again instead of running the model.
 *
 * The test is a frame difference on a small grey copy (≈ 320 px wide), restricted to the bed as the
 * calibration draws it (cushions and surround excluded: a player leaning on a rail is not play).
 * The reference is the last frame the detector *ran* on, not the previous frame: a ball creeping
 * to a stop moves less than a threshold per frame but adds up against a fixed reference, so it is
 * still caught. Decisions, in order:
 *   - `view`    the table has just come back into view (or this is the first frame): run;
 *   - `motion`  at least `minChangedPx` small pixels of the bed differ from the reference by more
 *               than `diffLevel` grey levels: run (a strike is detected on its first frame);
 *   - `refresh` `refreshEveryFrames` frames in a row were reused: run anyway (bounds how stale a
 *               detection can get if the gate is ever fooled, e.g. a ball nudged by < 1 small px);
 *   - otherwise reuse.
 * A `motion` frame whose changes lie in a few small places (a stroke moves one or two balls; a
 * player's cue over the bed) comes with `regions`: boxes around the changed pixels, each grown by
 * `regionGrowRadii` ball radii so a ball whose pixels changed has its centre inside. The caller
 * may run the detector on those boxes only and carry the detections elsewhere (vision.ts): the
 * reference is then updated inside the boxes only (`ranRegions`), so whatever changed outside
 * them still differs from it and is caught. At most `fullEveryFrames` frames pass between two
 * whole-frame runs, which bounds how stale a carried detection can get.
 * Pure apart from the state it carries; `state()`/`restore()` let a resumed run rebuild it.
 */
import { inv3, applyH, type Mat3 } from '../core/mat3.js';
import { distortPixel, type RadialLens } from '../core/lens.js';

export interface MotionGateParams {
  /** Width of the grey copy, px. Higher: finer motion is seen (a ball must cover ~1 small px), more cost. */
  smallWidthPx: number;
  /** Grey levels (0–255) a small pixel must change by to count. Lower: more sensitive, noise costs runs. */
  diffLevel: number;
  /** Changed small pixels on the bed that make a frame "moving". 1 catches a lone ball; 2 ignores a lone noisy pixel. */
  minChangedPx: number;
  /** Run the detector at least every this many frames while static. 1 = gating off. */
  refreshEveryFrames: number;
  /**
   * Regions: 0 turns them off (every moving frame runs the detector whole). Otherwise a whole-frame
   * run at least every this many frames, moving or not.
   */
  fullEveryFrames: number;
  /** Changed pixels are gathered in square cells of this many small px before boxing (joins a ball's two positions). */
  regionCellPx: number;
  /** Boxes grow by this many ball radii round their changed cells. */
  regionGrowRadii: number;
  /** When the boxes cover more than this share of the small image, the detector runs whole (a break). */
  regionMaxFrac: number;
}

export const DEFAULT_MOTION_GATE: MotionGateParams = {
  smallWidthPx: 320,
  diffLevel: 14,
  minChangedPx: 2,
  refreshEveryFrames: 15,
  fullEveryFrames: 30,
  regionCellPx: 8,
  regionGrowRadii: 1.5,
  regionMaxFrac: 0.25,
};

/** A box on the small copy: [x0, y0, x1, y1), whole small px. */
export type SmallBox = [number, number, number, number];

export type GateDecision = 'view' | 'motion' | 'refresh' | 'reuse';

export interface SmallGrey {
  width: number;
  height: number;
  /** Block factor from the full frame. */
  factor: number;
  grey: Uint8Array;
}

/**
 * Block-average grey copy. Within each factor×factor block only a sparse grid of pixels is read
 * (step ≈ factor/2): the average still suppresses sensor and compression noise, at a quarter of
 * the memory traffic of reading the frame whole (the gate runs on every frame).
 */
export function smallGrey(f: { width: number; height: number; rgb: Uint8Array }, smallWidthPx: number): SmallGrey {
  const factor = Math.max(1, Math.floor(f.width / smallWidthPx));
  const w = Math.floor(f.width / factor), h = Math.floor(f.height / factor);
  const step = Math.max(1, Math.floor(factor / 2));
  const off = Math.floor((factor - 1 - step * Math.floor((factor - 1) / step)) / 2);
  const grey = new Uint8Array(w * h);
  const W = f.width, rgb = f.rgb;
  if (factor === 4 && step === 2 && off === 0) {
    // The analysis size (1280 px wide → 320): the same four samples and sum, unrolled — 2.6× faster
    // (0.5 against 1.3 ms a frame), and it runs on every frame. round(s / 16) = (s + 8) >> 4 for s ≥ 0.
    const row = W * 3;
    for (let y = 0; y < h; y++) {
      const o = y * w;
      for (let x = 0, i = y * 4 * row, j = i + 2 * row; x < w; x++, i += 12, j += 12) {
        const s = rgb[i]! + 2 * rgb[i + 1]! + rgb[i + 2]! + rgb[i + 6]! + 2 * rgb[i + 7]! + rgb[i + 8]! + rgb[j]! + 2 * rgb[j + 1]! + rgb[j + 2]! + rgb[j + 6]! + 2 * rgb[j + 7]! + rgb[j + 8]!;
        grey[o + x] = (s + 8) >> 4;
      }
    }
    return { width: w, height: h, factor, grey };
  }
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let s = 0, n = 0;
      for (let dy = off; dy < factor; dy += step) {
        let i = ((y * factor + dy) * W + x * factor + off) * 3;
        for (let dx = off; dx < factor; dx += step, i += 3 * step) {
          // Rec. 601-ish luma in integers: (r + 2g + b) / 4.
          s += rgb[i]! + 2 * rgb[i + 1]! + rgb[i + 2]!;
          n++;
        }
      }
      grey[y * w + x] = Math.round(s / (4 * n));
    }
  }
  return { width: w, height: h, factor, grey };
}

/**
 * The bed as a mask on the small copy: small pixels whose centre maps (through the inverse of
 * `imageToTable`, with the lens distortion when there is one) inside the bed, grown by `marginMm`
 * so a ball over a pocket mouth still counts.
 */
export function bedMask(
  cal: { imageToTable: Mat3; table: { bed: { width: number; length: number } }; distortion?: RadialLens | null },
  small: { width: number; height: number; factor: number },
  marginMm = 30,
): Uint8Array {
  const { width: W, length: L } = cal.table.bed;
  const toImage = inv3(cal.imageToTable);
  const poly: [number, number][] = [];
  const corners: [number, number][] = [[-marginMm, -marginMm], [W + marginMm, -marginMm], [W + marginMm, L + marginMm], [-marginMm, L + marginMm]];
  for (let k = 0; k < 4; k++) {
    const [x0, y0] = corners[k]!, [x1, y1] = corners[(k + 1) % 4]!;
    for (let s = 0; s < 16; s++) {
      const [u, v] = applyH(toImage, x0 + ((x1 - x0) * s) / 16, y0 + ((y1 - y0) * s) / 16);
      const [du, dv] = cal.distortion ? distortPixel(cal.distortion, u, v) : [u, v];
      poly.push([du / small.factor - 0.5, dv / small.factor - 0.5]);
    }
  }
  const m = new Uint8Array(small.width * small.height);
  for (let y = 0; y < small.height; y++) {
    for (let x = 0; x < small.width; x++) {
      let inside = false;
      for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
        const [xi, yi] = poly[i]!, [xj, yj] = poly[j]!;
        if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
      }
      m[y * small.width + x] = inside ? 1 : 0;
    }
  }
  return m;
}

/**
 * Small pixels where `a` and `b` differ by more than `level`: inside `mask`, and in the whole image;
 * `at` lists the ones inside the mask (the regions are boxed from them: one pass over the image).
 */
export function changedPixels(a: Uint8Array, b: Uint8Array, mask: Uint8Array, level: number): { inMask: number; all: number; at: number[] } {
  let all = 0;
  const at: number[] = [];
  for (let i = 0; i < a.length; i++) {
    if (Math.abs(a[i]! - b[i]!) > level) {
      all++;
      if (mask[i]) at.push(i);
    }
  }
  return { inMask: at.length, all, at };
}

export interface GateState {
  /** Frames reused in a row since the detector last ran. */
  reusedInRow: number;
  /** Whether the previous frame was in view (false before the first frame). */
  prevInView: boolean;
  /** Frames since the detector last ran on the whole frame. */
  sinceFull?: number;
}

/**
 * Boxes round the changed small pixels inside `mask`: changed pixels are gathered in cells of
 * `cellPx`, 8-connected cells make one box, each box grows by `growPx` (clipped to the image) and
 * boxes that then overlap or touch are merged (one crop costs less than two). Empty when nothing changed.
 */
export function changedRegions(a: Uint8Array, ref: Uint8Array, mask: Uint8Array, width: number, height: number, level: number, cellPx: number, growPx: number): SmallBox[] {
  return boxesAround(changedPixels(a, ref, mask, level).at, width, height, cellPx, growPx);
}

/** `changedRegions` from the changed pixels' indices (`changedPixels(…).at`). */
function boxesAround(changed: readonly number[], width: number, height: number, cellPx: number, growPx: number): SmallBox[] {
  const gw = Math.ceil(width / cellPx), gh = Math.ceil(height / cellPx);
  const cells = new Uint8Array(gw * gh);
  for (const i of changed) {
    const x = i % width, y = (i - x) / width;
    cells[Math.floor(y / cellPx) * gw + Math.floor(x / cellPx)] = 1;
  }
  const boxes: SmallBox[] = [];
  const seen = new Uint8Array(gw * gh);
  for (let c = 0; c < cells.length; c++) {
    if (!cells[c] || seen[c]) continue;
    let x0 = gw, y0 = gh, x1 = -1, y1 = -1;
    const stack = [c];
    seen[c] = 1;
    while (stack.length) {
      const k = stack.pop()!;
      const cx = k % gw, cy = (k - cx) / gw;
      x0 = Math.min(x0, cx); y0 = Math.min(y0, cy); x1 = Math.max(x1, cx); y1 = Math.max(y1, cy);
      for (let dy = -1; dy <= 1; dy++) {
        for (let dx = -1; dx <= 1; dx++) {
          const nx = cx + dx, ny = cy + dy;
          if (nx < 0 || ny < 0 || nx >= gw || ny >= gh) continue;
          const n = ny * gw + nx;
          if (cells[n] && !seen[n]) {
            seen[n] = 1;
            stack.push(n);
          }
        }
      }
    }
    boxes.push([
      Math.max(0, x0 * cellPx - growPx),
      Math.max(0, y0 * cellPx - growPx),
      Math.min(width, (x1 + 1) * cellPx + growPx),
      Math.min(height, (y1 + 1) * cellPx + growPx),
    ]);
  }
  // Merge boxes that overlap or touch after growing, until none do.
  for (let merged = true; merged; ) {
    merged = false;
    for (let i = 0; i < boxes.length && !merged; i++) {
      for (let j = i + 1; j < boxes.length; j++) {
        const p = boxes[i]!, q = boxes[j]!;
        if (p[0] <= q[2] && q[0] <= p[2] && p[1] <= q[3] && q[1] <= p[3]) {
          boxes[i] = [Math.min(p[0], q[0]), Math.min(p[1], q[1]), Math.max(p[2], q[2]), Math.max(p[3], q[3])];
          boxes.splice(j, 1);
          merged = true;
          break;
        }
      }
    }
  }
  return boxes;
}

export class MotionGate {
  private ref: Uint8Array | null = null;
  private mask: Uint8Array | null = null;
  private reusedInRow = 0;
  private prevInView = false;
  private sinceFull = 0;
  readonly params: MotionGateParams;

  /**
   * `ballRadiusPx`: a ball's radius in frame px (from the calibration); without it there are no
   * regions (every moving frame runs whole).
   */
  constructor(
    private readonly cal: Parameters<typeof bedMask>[0],
    params: Partial<MotionGateParams> = {},
    private readonly ballRadiusPx?: number,
  ) {
    this.params = { ...DEFAULT_MOTION_GATE, ...params };
    const p = this.params;
    if (!(p.smallWidthPx >= 16) || !(p.diffLevel >= 0) || !(p.minChangedPx >= 1) || !(p.refreshEveryFrames >= 1) || !(p.fullEveryFrames >= 0) || !(p.regionCellPx >= 1) || !(p.regionGrowRadii >= 0) || !(p.regionMaxFrac >= 0)) {
      throw new RangeError(`motion gate parameters out of range: ${JSON.stringify(p)}`);
    }
  }

  /** Grey copy of a frame at the gate's size (compute once per frame, pass to `decide`). */
  shrink(f: { width: number; height: number; rgb: Uint8Array }): SmallGrey {
    return smallGrey(f, this.params.smallWidthPx);
  }

  /**
   * What to do with a frame (then call `ran`, `reused` or `outOfView`). `changedFrac` is the share
   * of the whole small image that changed against the reference: ball motion changes a few tenths
   * of a percent, a cut to another camera most of it, so the caller re-checks the view only when it
   * is large (the view check costs as much as a detection).
   */
  decide(small: SmallGrey): { decision: GateDecision; changedPx: number; changedFrac: number; regions?: SmallBox[] } {
    if (!this.prevInView || !this.ref || this.ref.length !== small.grey.length) return { decision: 'view', changedPx: NaN, changedFrac: 1 };
    this.mask ??= bedMask(this.cal, small);
    const c = changedPixels(small.grey, this.ref, this.mask, this.params.diffLevel);
    const out = { changedPx: c.inMask, changedFrac: c.all / small.grey.length };
    if (this.params.refreshEveryFrames === 1 || c.inMask >= this.params.minChangedPx) {
      const regions = this.regionsOf(small, c.at);
      return { decision: 'motion', ...out, ...(regions ? { regions } : {}) };
    }
    if (this.reusedInRow + 1 >= this.params.refreshEveryFrames) return { decision: 'refresh', ...out };
    return { decision: 'reuse', ...out };
  }

  /** The boxes a moving frame may be detected in instead of whole, or undefined when it must run whole. */
  private regionsOf(small: SmallGrey, changed: readonly number[]): SmallBox[] | undefined {
    const p = this.params;
    if (!p.fullEveryFrames || !this.ballRadiusPx || this.sinceFull + 1 >= p.fullEveryFrames || p.refreshEveryFrames === 1) return undefined;
    const grow = Math.ceil((p.regionGrowRadii * this.ballRadiusPx) / small.factor);
    const boxes = boxesAround(changed, small.width, small.height, p.regionCellPx, grow);
    const area = boxes.reduce((s, b) => s + (b[2] - b[0]) * (b[3] - b[1]), 0);
    return boxes.length > 0 && area <= p.regionMaxFrac * small.width * small.height ? boxes : undefined;
  }

  /** The detector ran on this whole in-view frame: it becomes the reference. */
  ran(small: SmallGrey): void {
    this.ref = small.grey;
    this.reusedInRow = 0;
    this.sinceFull = 0;
    this.prevInView = true;
  }

  /** The detector ran on these boxes of the frame only: the reference takes the frame inside them. */
  ranRegions(small: SmallGrey, boxes: readonly SmallBox[]): void {
    this.copyRegions(small, boxes);
    this.reusedInRow = 0;
    this.sinceFull++;
    this.prevInView = true;
  }

  reused(): void {
    this.reusedInRow++;
    this.sinceFull++;
    this.prevInView = true;
  }

  private copyRegions(small: SmallGrey, boxes: readonly SmallBox[]): void {
    const ref = this.ref;
    if (!ref || ref.length !== small.grey.length) throw new Error('motion gate: regions need a reference frame of the same size');
    for (const [x0, y0, x1, y1] of boxes) {
      for (let y = y0; y < y1; y++) ref.set(small.grey.subarray(y * small.width + x0, y * small.width + x1), y * small.width + x0);
    }
  }

  /** The table is not in view: the next in-view frame runs the detector. */
  outOfView(): void {
    this.prevInView = false;
  }

  state(): GateState {
    return { reusedInRow: this.reusedInRow, prevInView: this.prevInView, sinceFull: this.sinceFull };
  }

  /**
   * Rebuild after a resume: the reference frame (the last whole run, decoded again) and the
   * counters from the log; then `restoreRegions` for each region run after it, in order.
   */
  restore(ref: SmallGrey | null, s: GateState): void {
    this.ref = ref?.grey ?? null;
    this.reusedInRow = s.reusedInRow;
    this.sinceFull = s.sinceFull ?? 0;
    this.prevInView = s.prevInView && ref !== null;
  }

  /** Resume: a region run after the reference, decoded again, updates it as it did the first time. */
  restoreRegions(small: SmallGrey, boxes: readonly SmallBox[]): void {
    if (this.ref) this.copyRegions(small, boxes);
  }
}
