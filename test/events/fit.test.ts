/** The straight-line fit the reversal test measures normal speeds with (`fitLineRange`). */
import { describe, expect, test } from 'vitest';
import { fitLineRange } from '../../src/events/fit.js';

describe('fitLineRange', () => {
  test('a line through exact samples: its coefficients from the range\'s first time, no residual', () => {
    const ts = [0, 0.04, 0.08, 0.12, 0.16, 0.2];
    const vs = ts.map((t) => 3500 + 95 * (t - 0.04));
    const f = fitLineRange(ts, vs, 1, 5);
    expect(f.t0).toBe(0.04);
    expect(f.c0).toBeCloseTo(3500, 9);
    expect(f.c1).toBeCloseTo(95, 9);
    expect(f.residualSd).toBeCloseTo(0, 9);
    // √Σ(t − t̄)² over 0.04 … 0.2 s: √(2·(0.08² + 0.04²)) = 0.0894 s.
    expect(f.timeSpread).toBeCloseTo(Math.sqrt(2 * (0.08 ** 2 + 0.04 ** 2)), 12);
  });

  test('alternating ±1 mm about a line: the slope survives, the residual SD is the noise over n − 2', () => {
    const ts = [0, 1, 2, 3];
    const vs = [10 + 1, 12 - 1, 14 + 1, 16 - 1];
    const f = fitLineRange(ts, vs, 0, 3);
    // Least squares through (0,11) (1,11) (2,15) (3,15): slope 1.6, intercept 10.6.
    expect(f.c1).toBeCloseTo(1.6, 12);
    expect(f.c0).toBeCloseTo(10.6, 12);
    // Residuals 0.4, −1.2, 1.2, −0.4: SSE 3.2 over 2 degrees of freedom.
    expect(f.residualSd).toBeCloseTo(Math.sqrt(1.6), 12);
  });
});
