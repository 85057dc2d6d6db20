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
 * Pure apart from the state it carries; `state()`/`restore()` let a resumed run rebuild it.
 */
import { inv3, applyH, type Mat3 } from '../core/mat3.js';
import { distortPixel } from '../core/lens.js';

export interface MotionGateParams {
  /** Width of the grey copy, px. Higher: finer motion is seen (a ball must cover ~1 small px), more cost. */
  smallWidthPx: number;
  /** Grey levels (0–255) a small pixel must change by to count. Lower: more sensitive, noise costs runs. */
  diffLevel: number;
  /** Changed small pixels on the bed that make a frame "moving". 1 catches a lone ball; 2 ignores a lone noisy pixel. */
  minChangedPx: number;
  /** Run the detector at least every this many frames while static. 1 = gating off. */
  refreshEveryFrames: number;
}

export const DEFAULT_MOTION_GATE: MotionGateParams = { smallWidthPx: 320, diffLevel: 14, minChangedPx: 2, refreshEveryFrames: 15 };

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
  cal: { imageToTable: Mat3; table: { bed: { width: number; length: number } }; distortion?: { model: 'radial'; fx: number; fy: number; cx: number; cy: number; k1: number; k2: number } | null },
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

/** Small pixels where `a` and `b` differ by more than `level`: inside `mask`, and in the whole image. */
export function changedPixels(a: Uint8Array, b: Uint8Array, mask: Uint8Array, level: number): { inMask: number; all: number } {
  let inMask = 0, all = 0;
  for (let i = 0; i < a.length; i++) {
    if (Math.abs(a[i]! - b[i]!) > level) {
      all++;
      if (mask[i]) inMask++;
    }
  }
  return { inMask, all };
}

export interface GateState {
  /** Frames reused in a row since the detector last ran. */
  reusedInRow: number;
  /** Whether the previous frame was in view (false before the first frame). */
  prevInView: boolean;
}

export class MotionGate {
  private ref: Uint8Array | null = null;
  private mask: Uint8Array | null = null;
  private reusedInRow = 0;
  private prevInView = false;
  readonly params: MotionGateParams;

  constructor(
    private readonly cal: Parameters<typeof bedMask>[0],
    params: Partial<MotionGateParams> = {},
  ) {
    this.params = { ...DEFAULT_MOTION_GATE, ...params };
    const p = this.params;
    if (!(p.smallWidthPx >= 16) || !(p.diffLevel >= 0) || !(p.minChangedPx >= 1) || !(p.refreshEveryFrames >= 1)) {
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
  decide(small: SmallGrey): { decision: GateDecision; changedPx: number; changedFrac: number } {
    if (!this.prevInView || !this.ref || this.ref.length !== small.grey.length) return { decision: 'view', changedPx: NaN, changedFrac: 1 };
    this.mask ??= bedMask(this.cal, small);
    const c = changedPixels(small.grey, this.ref, this.mask, this.params.diffLevel);
    const out = { changedPx: c.inMask, changedFrac: c.all / small.grey.length };
    if (this.params.refreshEveryFrames === 1 || c.inMask >= this.params.minChangedPx) return { decision: 'motion', ...out };
    if (this.reusedInRow + 1 >= this.params.refreshEveryFrames) return { decision: 'refresh', ...out };
    return { decision: 'reuse', ...out };
  }

  /** The detector ran on this in-view frame: it becomes the reference. */
  ran(small: SmallGrey): void {
    this.ref = small.grey;
    this.reusedInRow = 0;
    this.prevInView = true;
  }

  reused(): void {
    this.reusedInRow++;
    this.prevInView = true;
  }

  /** The table is not in view: the next in-view frame runs the detector. */
  outOfView(): void {
    this.prevInView = false;
  }

  state(): GateState {
    return { reusedInRow: this.reusedInRow, prevInView: this.prevInView };
  }

  /** Rebuild after a resume: the reference frame (decoded again) and the counters from the log. */
  restore(ref: SmallGrey | null, s: GateState): void {
    this.ref = ref?.grey ?? null;
    this.reusedInRow = s.reusedInRow;
    this.prevInView = s.prevInView && ref !== null;
  }
}
