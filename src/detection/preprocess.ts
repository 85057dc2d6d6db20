/**
 * Frame → network input: letterbox-resize (keeping the aspect ratio) by bilinear sampling into a
 * NCHW float tensor, normalised as the sidecar says. Pure; returns the transform back to frame pixels.
 */
import type { ModelSidecar } from './model.js';

export interface Letterbox {
  /** Network input pixels per frame pixel. */
  scale: number;
  padX: number;
  padY: number;
}

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

export function preprocess(frame: Rgb, side: ModelSidecar['input'], out?: Float32Array): { tensor: Float32Array; box: Letterbox } {
  const { width: W, height: H } = side;
  const box = letterboxFor(frame.width, frame.height, W, H);
  const plane = W * H;
  const tensor = out ?? new Float32Array(3 * plane);
  const inv = 1 / box.scale;
  const { rgb, width: fw, height: fh } = frame;
  const m = side.mean, s = side.std;
  // Padding takes the normalised value of black so the network sees a neutral border.
  const pad = [(0 - m[0]) / s[0], (0 - m[1]) / s[1], (0 - m[2]) / s[2]];
  for (let y = 0; y < H; y++) {
    const fy = (y + 0.5 - box.padY) * inv - 0.5;
    const y0 = Math.floor(fy);
    const wy = fy - y0;
    for (let x = 0; x < W; x++) {
      const o = y * W + x;
      const fx = (x + 0.5 - box.padX) * inv - 0.5;
      if (fx < -0.5 || fy < -0.5 || fx > fw - 0.5 || fy > fh - 0.5) {
        tensor[o] = pad[0]!;
        tensor[plane + o] = pad[1]!;
        tensor[2 * plane + o] = pad[2]!;
        continue;
      }
      const x0 = Math.floor(fx);
      const wx = fx - x0;
      const xa = Math.max(0, x0), xb = Math.min(fw - 1, x0 + 1);
      const ya = Math.max(0, y0), yb = Math.min(fh - 1, y0 + 1);
      for (let c = 0; c < 3; c++) {
        const p00 = rgb[(ya * fw + xa) * 3 + c]!, p01 = rgb[(ya * fw + xb) * 3 + c]!;
        const p10 = rgb[(yb * fw + xa) * 3 + c]!, p11 = rgb[(yb * fw + xb) * 3 + c]!;
        const v = (p00 * (1 - wx) + p01 * wx) * (1 - wy) + (p10 * (1 - wx) + p11 * wx) * wy;
        tensor[c * plane + o] = (v / 255 - m[c]!) / s[c]!;
      }
    }
  }
  return { tensor, box };
}
