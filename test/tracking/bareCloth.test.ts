/** Bare cloth where a ball was: gone (cloth shows) or hidden (something else does). */
import { describe, expect, test } from 'vitest';
import type { Mat3 } from '../../src/core/mat3.js';
import { bareClothProbe } from '../../src/tracking/bareCloth.js';

// 0.5 px per mm, table origin at pixel (20, 20): a 26.25 mm ball is 13 px across.
const H: Mat3 = [[2, 0, -40], [0, 2, -40], [0, 0, 1]];
const cloth = { hueDeg: 120, hueTolDeg: 20, minSat: 0.4, minVal: 0.2 };
const R = 26.25;

/** A 400×300 green frame, with discs painted in (centre in table mm, colour, radius in mm). */
function frame(discs: { x: number; y: number; rgb: [number, number, number]; rMm?: number; shade?: boolean }[]) {
  const width = 400, height = 300;
  const rgb = new Uint8Array(width * height * 3);
  for (let p = 0; p < width * height; p++) {
    // Cloth with a little texture.
    const n = ((p * 7919) % 13) - 6;
    rgb[p * 3] = 30 + n;
    rgb[p * 3 + 1] = 140 + n;
    rgb[p * 3 + 2] = 35 + n;
  }
  for (const d of discs) {
    const cu = 20 + d.x / 2, cv = 20 + d.y / 2, r = (d.rMm ?? R) / 2;
    for (let v = Math.floor(cv - r); v <= Math.ceil(cv + r); v++) {
      for (let u = Math.floor(cu - r); u <= Math.ceil(cu + r); u++) {
        const q = Math.hypot(u - cu, v - cv) / r;
        if (q > 1) continue;
        // Shaded like a sphere lit from above-left when asked: brighter towards one side.
        const k = d.shade ? 0.7 + 0.6 * Math.max(0, 1 - Math.hypot(u - cu + r / 3, v - cv + r / 3) / r) : 1;
        const o = (v * width + u) * 3;
        for (let c = 0; c < 3; c++) rgb[o + c] = Math.min(255, Math.round(d.rgb[c]! * k));
      }
    }
  }
  return { width, height, rgb };
}

describe('bare cloth probe', () => {
  test('bare where no ball lies; not bare on a white, a black, or a green ball on green cloth', () => {
    const f = frame([
      { x: 200, y: 200, rgb: [240, 240, 235] },
      { x: 400, y: 200, rgb: [15, 15, 15] },
      { x: 200, y: 400, rgb: [20, 110, 40], shade: true },
    ]);
    const bare = bareClothProbe(f, { ballCentreToTable: H, cloth }, R);
    expect(bare(300, 300)).toBe(true);
    expect(bare(200, 200)).toBe(false);
    expect(bare(400, 200)).toBe(false);
    expect(bare(200, 400)).toBe(false);
    // Half a ball still there (the detector's centre a little off): not bare.
    expect(bare(200 + R, 200)).toBe(false);
  });

  test('something else over the place (an arm, a cue): not bare', () => {
    const f = frame([{ x: 300, y: 300, rgb: [60, 40, 30], rMm: 80 }]);
    const bare = bareClothProbe(f, { ballCentreToTable: H, cloth }, R);
    expect(bare(300, 300)).toBe(false);
    expect(bare(500, 300)).toBe(true);
  });

  test('unknown is not bare: off the picture, or no cloth model', () => {
    const f = frame([]);
    expect(bareClothProbe(f, { ballCentreToTable: H, cloth }, R)(5, 5)).toBe(false);
    expect(bareClothProbe(f, { ballCentreToTable: H, cloth }, R)(900, 300)).toBe(false);
    expect(bareClothProbe(f, { ballCentreToTable: H }, R)(300, 300)).toBe(false);
  });
});
