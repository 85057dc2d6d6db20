/** Which way a sinking ball seems to move (src/events/sinking.ts), from a calibration's two homographies. */
import { describe, expect, test } from 'vitest';
import type { Mat3 } from '../../src/core/mat3.js';
import { sinkDirectionOf } from '../../src/events/sinking.js';

// A camera 2500 mm straight above (889, 1784.5), f = 1000 px, principal point (640, 360).
const at = (z: number): Mat3 => {
  const k = (2500 - z) / 1000;
  return [[k, 0, 889 - 640 * k], [0, k, 1784.5 - 360 * k], [0, 0, 1]];
};

describe('sinkDirectionOf', () => {
  test('overhead: towards the point under the camera, from any pocket', () => {
    const sink = sinkDirectionOf({ imageToTable: at(0), ballCentreToTable: at(26.25) })!;
    for (const [x, y] of [[1778, 3569], [0, 0], [0, 1784.5]] as const) {
      const [dx, dy] = sink(x, y)!;
      const len = Math.hypot(889 - x, 1784.5 - y);
      expect(dx).toBeCloseTo((889 - x) / len, 6);
      expect(dy).toBeCloseTo((1784.5 - y) / len, 6);
    }
    // Right under the camera a sinking ball does not move in the picture.
    expect(sink(889, 1784.5)).toBeUndefined();
  });
  test('no direction without both homographies (a tracks file from another tracker)', () => {
    expect(sinkDirectionOf({ ballCentreToTable: at(26.25) })).toBeUndefined();
    expect(sinkDirectionOf(undefined)).toBeUndefined();
  });
});
