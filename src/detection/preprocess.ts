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
