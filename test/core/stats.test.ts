import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { medianInPlace, selectInPlace } from '../../src/core/stats.js';

const sortedMedian = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const n = s.length;
  return n % 2 ? s[n >> 1]! : (s[n / 2 - 1]! + s[n / 2]!) / 2;
};

describe('order statistics', () => {
  test('property: quickselect gives the sorted array’s k-th value, and partitions around it', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1, maxLength: 300 }), fc.nat(), (xs, kk) => {
        const k = kk % xs.length;
        const a = Float64Array.from(xs);
        const v = selectInPlace(a, k);
        // (+ 0: −0 and 0 are the same value; which of the two a sort leaves at k is arbitrary —
        // fast-check found [0, −0].)
        expect(v + 0).toBe([...xs].sort((p, q) => p - q)[k]! + 0);
        for (let i = 0; i < k; i++) expect(a[i]!).toBeLessThanOrEqual(v);
        for (let i = k + 1; i < a.length; i++) expect(a[i]!).toBeGreaterThanOrEqual(v);
      }),
      { examples: [[[0, -0], 0], [[-0, 0], 1]] },
    );
  });

  test('property: the median equals the sort-based one (odd and even counts, ties, a prefix of a buffer)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 20 }), { minLength: 1, maxLength: 200 }), fc.nat(5), (xs, extra) => {
        const buf = new Float64Array(xs.length + extra).fill(1e9);
        buf.set(xs);
        expect(medianInPlace(buf, xs.length)).toBe(sortedMedian(xs));
      }),
    );
    expect(medianInPlace([])).toBeNaN();
    expect(medianInPlace([3, 1, 2, 10])).toBe(2.5);
  });
});
