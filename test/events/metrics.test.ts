/**
 * The metrics ratchet (norfair's tests/metrics.txt): the synthetic suite's figures may not get
 * worse than test/events/metrics.json. Both ways in: tracks with ids (a user's tracker) and
 * class-only detections through our tracker, the latter also with 5 % of detections missed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { runSuite, type SuiteMetrics } from './suite.js';

interface Ratchet {
  suite: { strokes: number; fps: number[] };
  higherIsBetter: (keyof SuiteMetrics)[];
  lowerIsBetter: (keyof SuiteMetrics)[];
  tracks: Partial<SuiteMetrics>;
  tracker: Partial<SuiteMetrics>;
  trackerMissed5: Partial<SuiteMetrics>;
}

const ratchet = JSON.parse(readFileSync(join(import.meta.dirname, 'metrics.json'), 'utf8')) as Ratchet;

describe('metrics ratchet', () => {
  test.each(['tracks', 'tracker', 'trackerMissed5'] as const)('%s: no figure below metrics.json', (key) => {
    const path = key === 'tracks' ? 'tracks' : 'tracker';
    const m = runSuite({ strokes: ratchet.suite.strokes, fpsList: ratchet.suite.fps, path, ...(key === 'trackerMissed5' ? { missRate: 0.05 } : {}) });
    if (process.env['CUEREF_PRINT_METRICS']) console.log(key, JSON.stringify(m));
    const want = ratchet[key];
    // The suite must exercise what it grades.
    expect(m.truthPots).toBeGreaterThan(0);
    expect(m.truthCushions).toBeGreaterThan(0);
    for (const k of ratchet.higherIsBetter) expect(m[k], `${key}.${k}`).toBeGreaterThanOrEqual(want[k]!);
    for (const k of ratchet.lowerIsBetter) expect(m[k], `${key}.${k}`).toBeLessThanOrEqual(want[k]!);
    // The bars, whatever the ratchet says.
    expect(m.firstContactAccuracy).toBeGreaterThanOrEqual(0.99);
    expect(m.potPocketAccuracy).toBeGreaterThanOrEqual(0.995);
    expect(m.phantomPots).toBe(0);
    expect(m.cushionF1).toBeGreaterThanOrEqual(0.95);
    expect(m.restErrorMmP95).toBeLessThan(3);
    expect(m.identitySwitches).toBe(0);
  });
});
