/** Shared fixtures for the renderer tests: measurement looks and image probes. */
import type { GameId } from '../../../src/core/games.js';
import { defaultLook, type LookParams } from '../../../src/sim/render/index.js';
import type { BallSnapshot } from '../../../src/sim/types.js';

/**
 * A look whose balls are flat colour (no lamps, ambient 1, no hemisphere darkening, no highlight)
 * and with nothing else that moves pixels: a rendered pixel is then exactly
 * α·ball + (1 − α)·background, so coverage α can be read back from the image.
 */
export function measurementLook(game: GameId): LookParams {
  return {
    ...defaultLook(game),
    lights: [],
    ambient: 1,
    ballHemisphere: 0,
    specular: 0,
    shadowStrength: 0,
    noiseSigma: 0,
    softnessPx: 0,
    vignette: 0,
    clothTextureStrength: 0,
    exposureS: 0,
    overlay: false,
    gain: 1,
  };
}

export const rest = (id: string, x: number, y: number, z: number): BallSnapshot => ({ id, x, y, z, vx: 0, vy: 0, state: 'rest' });

/**
 * Coverage-weighted centroid of one ball read from the image: α per pixel from one colour channel
 * (α = (frame − background) / (ball − background)), over a window around the expected centre.
 */
export function imageCentroid(
  rgb: Uint8Array, bg: Uint8Array, width: number, height: number,
  u: number, v: number, windowPx: number, channel: number, ballValue: number,
): { u: number; v: number; areaPx: number } {
  let sw = 0, su = 0, sv = 0;
  for (let j = Math.max(0, Math.floor(v - windowPx)); j <= Math.min(height - 1, Math.ceil(v + windowPx)); j++) {
    for (let i = Math.max(0, Math.floor(u - windowPx)); i <= Math.min(width - 1, Math.ceil(u + windowPx)); i++) {
      const q = (j * width + i) * 3 + channel;
      const b = bg[q]!;
      const a = Math.max(0, Math.min(1, (rgb[q]! - b) / (ballValue - b)));
      sw += a;
      su += a * i;
      sv += a * j;
    }
  }
  return { u: su / sw, v: sv / sw, areaPx: sw };
}

/** Bilinear sample of one channel. */
export function sample(rgb: Uint8Array, width: number, height: number, x: number, y: number, channel: number): number {
  const i = Math.max(0, Math.min(width - 2, Math.floor(x))), j = Math.max(0, Math.min(height - 2, Math.floor(y)));
  const fx = Math.min(1, Math.max(0, x - i)), fy = Math.min(1, Math.max(0, y - j));
  const at = (a: number, b: number): number => rgb[(b * width + a) * 3 + channel]!;
  return (at(i, j) * (1 - fx) + at(i + 1, j) * fx) * (1 - fy) + (at(i, j + 1) * (1 - fx) + at(i + 1, j + 1) * fx) * fy;
}
