/**
 * The whole-pixel letterbox fast path of `preprocess` (a copy at 640×360, a 2×2 block mean at
 * 1280×720, one pixel in nine at 1920×1080) against the general bilinear loop it replaces: the model was trained on tensors from
 * the general path, so the two must agree bit for bit, not approximately.
 */
import { describe, expect, test } from 'vitest';
import type { ModelSidecar } from '../../src/detection/model.js';
import { cropInput, letterboxFor, preprocess, preprocessBilinear, wholeLetterbox } from '../../src/detection/preprocess.js';
import { mulberry32 } from '../../src/core/random.js';

// The shipped model's input: 640×384 with ImageNet normalisation (fractions that are not exact in
// binary, so any change in the order of operations would show up in the last bits).
const INPUT: ModelSidecar['input'] = { width: 640, height: 384, mean: [0.485, 0.456, 0.406], std: [0.229, 0.224, 0.225] };

function noiseFrame(width: number, height: number, seed: number): { width: number; height: number; rgb: Uint8Array } {
  const rnd = mulberry32(seed);
  const rgb = new Uint8Array(width * height * 3);
  for (let i = 0; i < rgb.length; i++) rgb[i] = Math.floor(rnd() * 256);
  // Saturated corners: 0 and 255 are where a wrong rounding would first show.
  rgb.fill(255, 0, 3 * 7);
  rgb.fill(0, rgb.length - 3 * 7);
  return { width, height, rgb };
}

/** Index of the first element where the two tensors differ as bits (NaN-safe), or -1. */
function firstBitDifference(a: Float32Array, b: Float32Array): number {
  const ua = new Uint32Array(a.buffer, a.byteOffset, a.length), ub = new Uint32Array(b.buffer, b.byteOffset, b.length);
  if (ua.length !== ub.length) return 0;
  for (let i = 0; i < ua.length; i++) if (ua[i] !== ub[i]) return i;
  return -1;
}

describe('preprocess whole-pixel letterbox fast path', () => {
  test.each([
    ['1280×720 (2×2 mean, 12 rows of padding top and bottom)', 1280, 720, 2],
    ['640×360 (copy, 12 rows of padding)', 640, 360, 1],
    ['640×384 (copy, no padding)', 640, 384, 1],
    ['1280×768 (2×2 mean, no padding)', 1280, 768, 2],
    ['960×768 (2×2 mean, 80 columns of padding left and right)', 960, 768, 2],
    ['1920×1080 (the centre pixel of each 3×3 block)', 1920, 1080, 3],
    ['2560×1440 (the 2×2 at the centre of each 4×4 block)', 2560, 1440, 4],
  ])('%s is bit-identical to the bilinear loop', (_name, w, h, n) => {
    expect(wholeLetterbox(letterboxFor(w, h, INPUT.width, INPUT.height), w, h, INPUT.width, INPUT.height)).toBe(n);
    for (const seed of [1, 2]) {
      const f = noiseFrame(w, h, seed);
      const fast = preprocess(f, INPUT);
      const ref = preprocessBilinear(f, INPUT);
      expect(fast.view).toEqual(ref.view);
      expect(firstBitDifference(fast.tensor, ref.tensor)).toBe(-1);
    }
  });

  test.each([
    ['a region crop at half scale, off the pixel grid', 1280, 720, { u0: 301.3, v0: 97.6, u1: 377.9, v1: 170.2 }, 0.5],
    ['a region crop at the frame edge (padded outside)', 1280, 720, { u0: -20, v0: 650, u1: 60, v1: 735 }, 0.5],
    ['a region crop enlarged (small balls)', 960, 540, { u0: 100, v0: 100, u1: 140, v1: 131 }, 1.37],
  ])('axis-aligned map (%s) is bit-identical to the bilinear loop', (_name, w, h, box, scale) => {
    const f = noiseFrame(w, h, 4);
    const crop = cropInput(box, scale, f);
    const side = { ...INPUT, width: crop.width, height: crop.height };
    const fast = preprocess(f, side, undefined, crop.inputToFrame);
    const ref = preprocessBilinear(f, side, undefined, crop.inputToFrame);
    expect(firstBitDifference(fast.tensor, ref.tensor)).toBe(-1);
    // Not vacuous: the crop sees the frame (not only padding) and differs from pad values.
    expect(new Set(fast.tensor.subarray(0, crop.width * crop.height)).size).toBeGreaterThan(50);
  });

  test('the 2×2 mean is what it says: input pixel (0, 12) of a 1280×720 frame is the mean of frame pixels (0..1, 0..1)', () => {
    const f = noiseFrame(1280, 720, 3);
    const { tensor } = preprocess(f, INPUT);
    const plane = 640 * 384;
    const W3 = 1280 * 3;
    for (let c = 0; c < 3; c++) {
      const mean = (f.rgb[c]! + f.rgb[3 + c]! + f.rgb[W3 + c]! + f.rgb[W3 + 3 + c]!) / 4;
      expect(tensor[c * plane + 12 * 640]).toBeCloseTo((mean / 255 - INPUT.mean[c]!) / INPUT.std[c]!, 5);
      // Padding rows above take the normalised black.
      expect(tensor[c * plane + 11 * 640]).toBeCloseTo(-INPUT.mean[c]! / INPUT.std[c]!, 6);
    }
  });

  test.each([
    ['1282×720 (odd content width: the general loop)', 1282, 720],
    ['1000×600 (scale 0.64)', 1000, 600],
  ])('%s takes the general path and still gives its result', (_name, w, h) => {
    expect(wholeLetterbox(letterboxFor(w, h, INPUT.width, INPUT.height), w, h, INPUT.width, INPUT.height)).toBe(0);
    const f = noiseFrame(w, h, 4);
    expect(firstBitDifference(preprocess(f, INPUT).tensor, preprocessBilinear(f, INPUT).tensor)).toBe(-1);
  });
});
