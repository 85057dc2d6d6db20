/**
 * Invariants over many strokes: energy never rises after the strike, balls never overlap by more
 * than 0.1 mm, every stroke ends with all balls at rest, events come in time order; and the
 * contact times do not depend on the step ceiling (the method is event-exact, not step-bound).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builtinProfile } from '../../../src/core/table.js';
import { buildTableGeom, defaultPhysics, isMoving, simulate, smallestGap, strikeBall, type BallState } from '../../../src/sim/physics/index.js';
import { makeBalls, standardLayout } from '../../../src/sim/scenario/index.js';

const snooker = builtinProfile('snooker');
const geom = buildTableGeom(snooker);
const P = defaultPhysics('snooker');

function breakOff(speed: number, cutDeg: number, side: number): BallState[] {
  const lay = standardLayout('snooker', snooker);
  const balls = makeBalls([{ id: 'white', x: 1110, y: 690 }, ...lay], snooker, P);
  const white = balls[0]!;
  const target = balls.find((b) => b.id === 'red15')!;
  const base = Math.atan2(target.y - white.y, target.x - white.x);
  strikeBall(white, { angleRad: base + (cutDeg * Math.PI) / 180, speedMmPerS: speed, side }, false);
  return balls;
}

describe('physics invariants', () => {
  it('a break-off: energy never increases, no overlap beyond 0.1 mm, everything stops', () => {
    const balls = breakOff(6000, -0.9, 0.5);
    const energyLog: { t: number; e: number }[] = [];
    const sampleTimes = Array.from({ length: 400 }, (_, k) => k * 0.025);
    const run = simulate(balls, geom, P, { t0: 0, energyLog, sampleTimes });
    expect(run.events.filter((e) => e.type === 'contact').length).toBeGreaterThan(15);
    for (let k = 1; k < energyLog.length; k++) expect(energyLog[k]!.e).toBeLessThanOrEqual(energyLog[k - 1]!.e * (1 + 1e-12) + 1e-9);
    expect(run.minGapMm).toBeGreaterThan(-0.1);
    for (const s of run.samples) {
      const gap = smallestGap(s.balls.map((b) => ({ ...b, radiusMm: 26.25, massG: 142 }) as BallState));
      expect(gap).toBeGreaterThan(-0.1);
    }
    expect(balls.some(isMoving)).toBe(false);
    expect(run.stoppedEarly).toBe(false);
  });

  it('property: random strokes among a few balls keep every invariant', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ x: fc.integer({ min: 60, max: 1718 }), y: fc.integer({ min: 60, max: 3509 }) }), { minLength: 2, maxLength: 6 }),
        fc.double({ min: 0, max: 2 * Math.PI, noNaN: true }),
        fc.integer({ min: 100, max: 9000 }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        fc.double({ min: -1, max: 1, noNaN: true }),
        (pts, angleRad, speed, top, side) => {
          // Keep the generated balls apart (drop any that would overlap an earlier one).
          const kept: { id: string; x: number; y: number }[] = [];
          for (const p of pts) if (kept.every((k) => Math.hypot(k.x - p.x, k.y - p.y) > 53)) kept.push({ id: kept.length === 0 ? 'white' : `red${kept.length}`, ...p });
          const balls = makeBalls(kept, snooker, P);
          strikeBall(balls[0]!, { angleRad, speedMmPerS: speed, top, side }, false);
          const energyLog: { t: number; e: number }[] = [];
          const run = simulate(balls, geom, P, { t0: 0, energyLog });
          for (let k = 1; k < energyLog.length; k++) if (energyLog[k]!.e > energyLog[k - 1]!.e * (1 + 1e-12) + 1e-9) return false;
          const ts = run.events.map((e) => e.t);
          return run.minGapMm > -0.1 && !balls.some(isMoving) && ts.every((t, k) => k === 0 || t >= ts[k - 1]!);
        },
      ),
      { numRuns: 40, seed: 42 },
    );
  });

  it('event times do not depend on the step ceiling (0.1 ms vs 0.01 ms agree to 10 µs)', () => {
    // A chain: the cue ball cuts a red into a second red, balls run into cushions and a pocket.
    const play = (maxStepS: number) => {
      const balls = makeBalls([{ id: 'white', x: 600, y: 900 }, { id: 'red1', x: 800, y: 1500 }, { id: 'red2', x: 1000, y: 2100 }, { id: 'blue', x: 889, y: 1784.5 }], snooker, P);
      strikeBall(balls[0]!, { angleRad: Math.atan2(600, 200) + 0.02, speedMmPerS: 4000, top: 0.5, side: -0.3 }, false);
      return simulate(balls, geom, { ...P, maxStepS }, { t0: 0 }).events;
    };
    const a = play(1e-4), b = play(1e-5);
    expect(a.length).toBeGreaterThan(5);
    expect(b.map((e) => e.type)).toEqual(a.map((e) => e.type));
    for (let k = 0; k < a.length; k++) expect(Math.abs(a[k]!.t - b[k]!.t)).toBeLessThan(1e-5);
  });

  it('the same stroke twice gives bit-identical results', () => {
    const play = () => {
      const balls = makeBalls([{ id: 'white', x: 600, y: 900 }, { id: 'red1', x: 800, y: 1500 }, { id: 'red2', x: 1000, y: 2100 }], snooker, P);
      strikeBall(balls[0]!, { angleRad: 1.25, speedMmPerS: 3000, top: -0.4, side: 0.6 }, false);
      const run = simulate(balls, geom, P, { t0: 0 });
      return JSON.stringify({ events: run.events, balls });
    };
    expect(play()).toBe(play());
  });
});
