/**
 * Frame → network input by bilinear sampling into a NCHW float tensor, normalised as the sidecar
 * says. Two views, both a plane-to-plane map from network-input pixels to frame pixels:
 * - `frame`: the whole frame letterboxed (aspect kept) — no calibration needed;
 * - `table`: the table's bed (plus a margin for the cushions) rectified by the calibration, long
 *   side along the input's width — every input pixel is on or near the table, none on the crowd or
 *   the TV overlay (see `bench/detector-real.ts` for what each costs and finds).
 * Pure; returns the map back to frame pixels (`InputView`) for post-processing.
 */
import { applyH, inv3, mul3, type Mat3 } from '../core/mat3.js';
import type { ModelSidecar } from './model.js';

export interface Letterbox {
  /** Network input pixels per frame pixel. */
  scale: number;
  padX: number;
  padY: number;
}

/** How network-input pixels map to frame pixels (continuous coordinates, pixel centres at +0.5). */
export type InputView =
  | { kind: 'letterbox'; box: Letterbox }
  /** `inputToFrame`: homography from input (x, y) to frame (u, v). */
  | { kind: 'homography'; inputToFrame: Mat3 };

export interface Rgb {
  width: number;
  height: number;
  /** Packed RGB, 3 bytes per pixel, row-major. */
  rgb: Uint8Array;
}

/** A box in frame px: [u0, u1) × [v0, v1). */
export interface FrameBox {
  u0: number;
  v0: number;
  u1: number;
  v1: number;
}

/**
 * A network input showing `box` of the frame (clipped to it) at `scale` input px per frame px —
 * a crop for a second look or a region run. Sizes are rounded up to multiples of `align` (the
 * network's coarsest stride), the box centred in them (the extra input px see a little more frame).
 */
export function cropInput(box: FrameBox, scale: number, frame: { width: number; height: number }, align = 16): { width: number; height: number; inputToFrame: Mat3 } {
  const u0 = Math.max(0, box.u0), v0 = Math.max(0, box.v0);
  const u1 = Math.min(frame.width, box.u1), v1 = Math.min(frame.height, box.v1);
  const width = Math.max(align, Math.ceil(((u1 - u0) * scale) / align) * align);
  const height = Math.max(align, Math.ceil(((v1 - v0) * scale) / align) * align);
  const ou = (u0 + u1) / 2 - width / (2 * scale), ov = (v0 + v1) / 2 - height / (2 * scale);
  return { width, height, inputToFrame: [[1 / scale, 0, ou], [0, 1 / scale, ov], [0, 0, 1]] };
}

export function letterboxFor(frameW: number, frameH: number, inW: number, inH: number): Letterbox {
  const scale = Math.min(inW / frameW, inH / frameH);
  return { scale, padX: (inW - frameW * scale) / 2, padY: (inH - frameH * scale) / 2 };
}

/** A network-input point back in frame pixels, and the input→frame scale there (px per input px). */
export function toFrame(view: InputView, x: number, y: number): { u: number; v: number; scale: number } {
  if (view.kind === 'letterbox') {
    const b = view.box;
    return { u: (x - b.padX) / b.scale, v: (y - b.padY) / b.scale, scale: 1 / b.scale };
  }
  const [u, v] = applyH(view.inputToFrame, x, y);
  // Local scale: the mean of the images of a unit step in x and in y (a ball is round on the input).
  const [ux, vx] = applyH(view.inputToFrame, x + 1, y);
  const [uy, vy] = applyH(view.inputToFrame, x, y + 1);
  return { u, v, scale: (Math.hypot(ux - u, vx - v) + Math.hypot(uy - u, vy - v)) / 2 };
}

/**
 * The `table` view's map: input pixels → table mm → frame pixels. The bed's length runs along the
 * input's width; `marginMm` around the bed keeps cushion tops and pocket mouths (a ball hanging
 * over a pocket, one on its way off the table) in view.
 */
export function tableViewFor(imageToTable: Mat3, bed: { width: number; length: number }, inW: number, inH: number, marginMm = 80): Mat3 {
  const spanX = bed.length + 2 * marginMm; // along the input's x
  const spanY = bed.width + 2 * marginMm; // along the input's y
  const s = Math.min(inW / spanX, inH / spanY); // input px per mm
  const ox = (inW - spanX * s) / 2;
  const oy = (inH - spanY * s) / 2;
  // input (x, y) → table (tx, ty): ty = (x - ox)/s - margin (along the length), tx = (y - oy)/s - margin.
  const inputToTable: Mat3 = [
    [0, 1 / s, -oy / s - marginMm],
    [1 / s, 0, -ox / s - marginMm],
    [0, 0, 1],
  ];
  return mul3(inv3(imageToTable), inputToTable);
}

export function preprocess(frame: Rgb, side: ModelSidecar['input'], out?: Float32Array, inputToFrame?: Mat3): { tensor: Float32Array; view: InputView } {
  return sampleInput(frame, side, out, inputToFrame, true);
}

/**
 * `preprocess` always through the general bilinear loop (no whole-pixel or axis-aligned fast
 * path): the reference the fast paths are tested against.
 */
export function preprocessBilinear(frame: Rgb, side: ModelSidecar['input'], out?: Float32Array, inputToFrame?: Mat3): { tensor: Float32Array; view: InputView } {
  return sampleInput(frame, side, out, inputToFrame, false);
}

function sampleInput(frame: Rgb, side: ModelSidecar['input'], out: Float32Array | undefined, inputToFrame: Mat3 | undefined, fast: boolean): { tensor: Float32Array; view: InputView } {
  const { width: W, height: H } = side;
  const view: InputView = inputToFrame ? { kind: 'homography', inputToFrame } : { kind: 'letterbox', box: letterboxFor(frame.width, frame.height, W, H) };
  const plane = W * H;
  const tensor = out ?? new Float32Array(3 * plane);
  const { rgb, width: fw, height: fh } = frame;
  const m = side.mean, s = side.std;
  // Outside the frame takes the normalised value of black so the network sees a neutral border.
  const pad = [(0 - m[0]) / s[0], (0 - m[1]) / s[1], (0 - m[2]) / s[2]];
  const k = [1 / (255 * s[0]), 1 / (255 * s[1]), 1 / (255 * s[2])];
  const b = [-m[0] / s[0], -m[1] / s[1], -m[2] / s[2]];
  const h = inputToFrame;
  if (fast && view.kind === 'letterbox') {
    const n = wholeLetterbox(view.box, fw, fh, W, H);
    if (n > 0) {
      fillLetterboxFast(frame, n, view.box, W, H, tensor, pad, k, b);
      return { tensor, view };
    }
  }
  if (fast && h && h[2][0] === 0 && h[2][1] === 0 && h[2][2] === 1 && h[0][1] === 0 && h[1][0] === 0) {
    fillAxisAligned(frame, h, W, H, tensor, pad, k, b);
    return { tensor, view };
  }
  const inv = view.kind === 'letterbox' ? 1 / view.box.scale : 0;
  const padX = view.kind === 'letterbox' ? view.box.padX : 0;
  const padY = view.kind === 'letterbox' ? view.box.padY : 0;
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const o = y * W + x;
      let fx: number, fy: number;
      if (h) {
        // Pixel centres: input (x + 0.5, y + 0.5) → frame continuous → frame pixel index space.
        const X = x + 0.5, Y = y + 0.5;
        const wz = h[2][0] * X + h[2][1] * Y + h[2][2];
        fx = (h[0][0] * X + h[0][1] * Y + h[0][2]) / wz - 0.5;
        fy = (h[1][0] * X + h[1][1] * Y + h[1][2]) / wz - 0.5;
      } else {
        fx = (x + 0.5 - padX) * inv - 0.5;
        fy = (y + 0.5 - padY) * inv - 0.5;
      }
      if (!(fx >= -0.5 && fy >= -0.5 && fx <= fw - 0.5 && fy <= fh - 0.5)) {
        tensor[o] = pad[0]!;
        tensor[plane + o] = pad[1]!;
        tensor[2 * plane + o] = pad[2]!;
        continue;
      }
      const x0 = Math.floor(fx), y0 = Math.floor(fy);
      const wx = fx - x0, wy = fy - y0;
      const xa = Math.max(0, x0), xb = Math.min(fw - 1, x0 + 1);
      const ya = Math.max(0, y0), yb = Math.min(fh - 1, y0 + 1);
      const i00 = (ya * fw + xa) * 3, i01 = (ya * fw + xb) * 3, i10 = (yb * fw + xa) * 3, i11 = (yb * fw + xb) * 3;
      const w00 = (1 - wx) * (1 - wy), w01 = wx * (1 - wy), w10 = (1 - wx) * wy, w11 = wx * wy;
      for (let c = 0; c < 3; c++) {
        const v = rgb[i00 + c]! * w00 + rgb[i01 + c]! * w01 + rgb[i10 + c]! * w10 + rgb[i11 + c]! * w11;
        tensor[c * plane + o] = v * k[c]! + b[c]!;
      }
    }
  }
  return { tensor, view };
}

/**
 * The general loop for an axis-aligned scale-and-shift map (the region crops of a moving frame:
 * `cropInput`), with each column's and each row's sample position and weights worked out once
 * instead of per pixel. Bit for bit the general loop (test/detection/preprocess.test.ts): the
 * positions are the same expressions (the zero terms and the division by a w of exactly 1 change
 * no bit), the weights and sums the same products in the same order.
 */
function fillAxisAligned(frame: Rgb, h: Mat3, W: number, H: number, tensor: Float32Array, pad: number[], k: number[], b: number[]): void {
  const { rgb, width: fw, height: fh } = frame;
  const plane = W * H;
  const cx0 = new Int32Array(W), cxa = new Int32Array(W), cxb = new Int32Array(W), cwx = new Float64Array(W), cin = new Uint8Array(W);
  for (let x = 0; x < W; x++) {
    const X = x + 0.5, Y = 0.5;
    const wz = h[2][0] * X + h[2][1] * Y + h[2][2];
    const fx = (h[0][0] * X + h[0][1] * Y + h[0][2]) / wz - 0.5;
    cin[x] = fx >= -0.5 && fx <= fw - 0.5 ? 1 : 0;
    const x0 = Math.floor(fx);
    cx0[x] = x0;
    cwx[x] = fx - x0;
    cxa[x] = Math.max(0, x0) * 3;
    cxb[x] = Math.min(fw - 1, x0 + 1) * 3;
  }
  const k0 = k[0]!, k1 = k[1]!, k2 = k[2]!, b0 = b[0]!, b1 = b[1]!, b2 = b[2]!;
  for (let y = 0; y < H; y++) {
    const X = 0.5, Y = y + 0.5;
    const wz = h[2][0] * X + h[2][1] * Y + h[2][2];
    const fy = (h[1][0] * X + h[1][1] * Y + h[1][2]) / wz - 0.5;
    const rowIn = fy >= -0.5 && fy <= fh - 0.5;
    const y0 = Math.floor(fy);
    const wy = fy - y0;
    const ra = Math.max(0, y0) * fw * 3, rb = Math.min(fh - 1, y0 + 1) * fw * 3;
    for (let x = 0; x < W; x++) {
      const o = y * W + x;
      if (!rowIn || !cin[x]) {
        tensor[o] = pad[0]!;
        tensor[plane + o] = pad[1]!;
        tensor[2 * plane + o] = pad[2]!;
        continue;
      }
      const wx = cwx[x]!;
      const i00 = ra + cxa[x]!, i01 = ra + cxb[x]!, i10 = rb + cxa[x]!, i11 = rb + cxb[x]!;
      const w00 = (1 - wx) * (1 - wy), w01 = wx * (1 - wy), w10 = (1 - wx) * wy, w11 = wx * wy;
      tensor[o] = (rgb[i00]! * w00 + rgb[i01]! * w01 + rgb[i10]! * w10 + rgb[i11]! * w11) * k0 + b0;
      tensor[plane + o] = (rgb[i00 + 1]! * w00 + rgb[i01 + 1]! * w01 + rgb[i10 + 1]! * w10 + rgb[i11 + 1]! * w11) * k1 + b1;
      tensor[2 * plane + o] = (rgb[i00 + 2]! * w00 + rgb[i01 + 2]! * w01 + rgb[i10 + 2]! * w10 + rgb[i11 + 2]! * w11) * k2 + b2;
    }
  }
}

/**
 * The shrink factor n when the letterbox is a whole-pixel one — scale exactly 1/n, whole-pixel
 * padding, the frame exactly n× the content box — else 0. Then every input pixel's sample point
 * (input centre x + ½ → frame n·x + (n − 1)/2) falls at the same place in its n×n block: for odd
 * n on a pixel centre (bilinear = that pixel), for even n on the corner four pixels share
 * (bilinear = their mean, weights ¼). 1280×720 into a 640×384 input is n = 2 (`analyze` decodes
 * at 720p), 640×360 is n = 1, 1920×1080 is n = 3.
 */
export function wholeLetterbox(box: Letterbox, fw: number, fh: number, inW: number, inH: number): number {
  const n = 1 / box.scale;
  if (!Number.isInteger(n) || !Number.isInteger(box.padX) || !Number.isInteger(box.padY)) return 0;
  return fw === n * (inW - 2 * box.padX) && fh === n * (inH - 2 * box.padY) ? n : 0;
}

/**
 * `preprocess` of a whole-pixel letterbox, without the general loop's per-pixel coordinate maths
 * and four weighted reads: a copy of one pixel per block (odd n) or the mean of the 2×2 pixels at
 * the block's centre (even n). The result is bit for bit the general path's
 * (test/detection/preprocess.test.ts checks it): the bilinear weights are exactly 1 (and 0) or ¼
 * there, every product and partial sum of bytes times ¼ is exact in doubles, so (a + b + c + d) · ¼
 * is the very double the general path forms, and the normalisation is the same `v * k + b` in the
 * same order. That matters: the model was trained on tensors from the general path
 * (models/training/dataset.ts), so the fast path must not differ in a single bit.
 */
function fillLetterboxFast(frame: Rgb, n: number, box: Letterbox, W: number, H: number, tensor: Float32Array, pad: number[], k: number[], b: number[]): void {
  const plane = W * H;
  // Whole numbers by `wholeLetterbox`, but they come out of divisions as doubles: `| 0` makes
  // them small integers, so the loops index with integers (twice as fast; the values are the same).
  const x0 = box.padX | 0, y0 = box.padY | 0;
  const cw = W - 2 * x0, ch = H - 2 * y0;
  const fillPad = (from: number, to: number): void => {
    if (to <= from) return;
    tensor.fill(pad[0]!, from, to);
    tensor.fill(pad[1]!, plane + from, plane + to);
    tensor.fill(pad[2]!, 2 * plane + from, 2 * plane + to);
  };
  fillPad(0, y0 * W);
  fillPad((y0 + ch) * W, plane);
  for (let y = y0; y < y0 + ch; y++) {
    fillPad(y * W, y * W + x0);
    fillPad(y * W + x0 + cw, (y + 1) * W);
  }
  const blocks = { rgb: frame.rgb, stride: frame.width * 3, n: n | 0, x0, y0, cw, ch, W, r: tensor.subarray(0, plane), g: tensor.subarray(plane, 2 * plane), b: tensor.subarray(2 * plane), k, off: b };
  if (n % 2 === 1) copyBlocks(blocks);
  else meanBlocks(blocks);
}

interface Blocks {
  rgb: Uint8Array;
  stride: number;
  n: number;
  x0: number;
  y0: number;
  cw: number;
  ch: number;
  W: number;
  /** The tensor's three planes. */
  r: Float32Array;
  g: Float32Array;
  b: Float32Array;
  k: number[];
  off: number[];
}

/** Odd n: the pixel at the centre of each n×n block. Kept apart from `meanBlocks` so each loop stays simple for the JIT. */
function copyBlocks(p: Blocks): void {
  const { rgb, stride, n, x0, y0, cw, ch, W, r, g, b } = p;
  const k0 = p.k[0]!, k1 = p.k[1]!, k2 = p.k[2]!, b0 = p.off[0]!, b1 = p.off[1]!, b2 = p.off[2]!;
  const at = (n - 1) / 2, step = 3 * n;
  for (let yc = 0; yc < ch; yc++) {
    let o = (y0 + yc) * W + x0;
    const end = o + cw;
    for (let i = (n * yc + at) * stride + 3 * at; o < end; o++, i += step) {
      r[o] = rgb[i]! * k0 + b0;
      g[o] = rgb[i + 1]! * k1 + b1;
      b[o] = rgb[i + 2]! * k2 + b2;
    }
  }
}

/** Even n: the mean of the 2×2 pixels at the centre of each n×n block. */
function meanBlocks(p: Blocks): void {
  const { rgb, stride, n, x0, y0, cw, ch, W, r, g, b } = p;
  const k0 = p.k[0]!, k1 = p.k[1]!, k2 = p.k[2]!, b0 = p.off[0]!, b1 = p.off[1]!, b2 = p.off[2]!;
  const at = n / 2 - 1, step = 3 * n;
  for (let yc = 0; yc < ch; yc++) {
    let o = (y0 + yc) * W + x0;
    const end = o + cw;
    for (let i = (n * yc + at) * stride + 3 * at, j = i + stride; o < end; o++, i += step, j += step) {
      const sr = rgb[i]! + rgb[i + 3]! + rgb[j]! + rgb[j + 3]!;
      const sg = rgb[i + 1]! + rgb[i + 4]! + rgb[j + 1]! + rgb[j + 4]!;
      const sb = rgb[i + 2]! + rgb[i + 5]! + rgb[j + 2]! + rgb[j + 5]!;
      r[o] = sr * 0.25 * k0 + b0;
      g[o] = sg * 0.25 * k1 + b1;
      b[o] = sb * 0.25 * k2 + b2;
    }
  }
}
