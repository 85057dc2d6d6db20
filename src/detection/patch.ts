/**
 * A ball's patch: the square of frame round a ball, resampled so the ball has a fixed radius —
 * what the kind classifier (kinds.ts) looks at, and what its training data (models/training/
 * dataset.ts --patches) is cut with, so training and run time see the same pixels. Pure.
 */
import type { Rgb } from './preprocess.js';

/** Patch side, px. */
export const PATCH_PX = 32;
/** A ball's radius in the patch, px: the patch shows two radii of context each side. */
export const PATCH_BALL_RADIUS_PX = 8;

/**
 * Samples the patch centred on (u, v) (frame px, pixel centres at +0.5) for a ball of `rPx` frame
 * px into `out` (PATCH_PX² × 3 bytes, RGB, row-major). Shrinking averages a grid of samples per
 * patch px (a 1080p close-up ball is four times the patch's), so the patch does not alias; outside
 * the frame reads the nearest edge pixel.
 */
export function ballPatch(frame: Rgb, u: number, v: number, rPx: number, out: Uint8Array = new Uint8Array(PATCH_PX * PATCH_PX * 3)): Uint8Array {
  const { width: W, height: H, rgb } = frame;
  const s = rPx / PATCH_BALL_RADIUS_PX; // frame px per patch px
  const k = Math.max(1, Math.min(4, Math.ceil(s))); // samples per patch px along each axis
  const acc = [0, 0, 0];
  for (let j = 0; j < PATCH_PX; j++) {
    for (let i = 0; i < PATCH_PX; i++) {
      acc[0] = acc[1] = acc[2] = 0;
      for (let b = 0; b < k; b++) {
        for (let a = 0; a < k; a++) {
          // Continuous frame coordinate of this sample; bilinear between pixel centres.
          const x = u + (i + (a + 0.5) / k - PATCH_PX / 2) * s - 0.5;
          const y = v + (j + (b + 0.5) / k - PATCH_PX / 2) * s - 0.5;
          const x0 = Math.floor(x), y0 = Math.floor(y);
          const fx = x - x0, fy = y - y0;
          const xa = Math.min(W - 1, Math.max(0, x0)), xb = Math.min(W - 1, Math.max(0, x0 + 1));
          const ya = Math.min(H - 1, Math.max(0, y0)), yb = Math.min(H - 1, Math.max(0, y0 + 1));
          const p00 = (ya * W + xa) * 3, p10 = (ya * W + xb) * 3, p01 = (yb * W + xa) * 3, p11 = (yb * W + xb) * 3;
          for (let c = 0; c < 3; c++) {
            acc[c]! += (rgb[p00 + c]! * (1 - fx) + rgb[p10 + c]! * fx) * (1 - fy) + (rgb[p01 + c]! * (1 - fx) + rgb[p11 + c]! * fx) * fy;
          }
        }
      }
      const q = (j * PATCH_PX + i) * 3;
      const n = k * k;
      out[q] = Math.round(acc[0]! / n);
      out[q + 1] = Math.round(acc[1]! / n);
      out[q + 2] = Math.round(acc[2]! / n);
    }
  }
  return out;
}
