import { describe, expect, test } from 'vitest';
import type { Calibration } from '../../src/calibration/contract.js';
import type { Stroke } from '../../src/core/contracts/strokes.js';
import { pathOverlay, pathShapes } from '../../src/pipeline/clips.js';

/** A top-down camera: 1 px per 2 mm, no lens; the bed's (0, 0) at pixel (100, 50). */
const cal: Pick<Calibration, 'ballCentreToTable' | 'distortion' | 'table'> = {
  ballCentreToTable: [
    [2, 0, -200],
    [0, 2, -100],
    [0, 0, 1],
  ],
  distortion: null,
  table: { ballDiameter: 52.5 } as Calibration['table'],
};

const stroke = {
  t: 1,
  events: [],
  paths: {
    white: Array.from({ length: 31 }, (_, k) => [1 + k / 30, 100 + 40 * k, 200] as [number, number, number]),
    red1: [
      [1.5, 900, 200],
      [1.6, 900, 260],
      [1.7, 960, 260],
    ] as [number, number, number][],
  },
} as unknown as Stroke;

describe('pathOverlay (the clip overlay as ASS shapes) draws what pathShapes draws at each frame', () => {
  const startSec = 0.5, endS = 2.5;
  const overlay = pathOverlay(stroke, cal, 'snooker', 1, 1, startSec, endS);

  test.each([0.9, 1, 1.2, 1.55, 1.65, 2, 2.9])('recording time %s s', (t) => {
    const shapes = pathShapes(stroke, cal, 'snooker', t, 1);
    const on = overlay.filter((s) => s.fromS <= t - startSec + 1e-9 && t - startSec + 1e-9 < s.toS);
    if (t - startSec >= endS) {
      expect(on).toEqual([]);
      return;
    }
    // Rings: the same centres and radii.
    const rings = on.filter((s) => s.shape.kind === 'ring').map((s) => s.shape as unknown as { center: number[]; radiusPx: number });
    const circles = shapes.filter((s) => s.kind === 'circle') as unknown as { center: number[]; radiusPx: number }[];
    expect(rings.map((r) => [r.center, r.radiusPx])).toEqual(circles.map((c) => [c.center, c.radiusPx]));
    // Paths: the set of points reached, per layer, equals the drawn polylines' points (the overlay
    // drops collinear points: compare the extent and the end points instead of every point).
    for (const [layer, width] of [[0, 5], [1, 3]] as const) {
      const drawn = on.filter((s) => s.layer === layer && s.shape.kind === 'polyline').flatMap((s) => (s.shape as unknown as { points: number[][] }).points);
      const want = shapes.filter((s) => s.kind === 'polyline' && s.widthPx === width).flatMap((s) => (s as unknown as { points: number[][] }).points);
      const box = (ps: number[][]) => (ps.length ? [Math.min(...ps.map((p) => p[0]!)), Math.min(...ps.map((p) => p[1]!)), Math.max(...ps.map((p) => p[0]!)), Math.max(...ps.map((p) => p[1]!))] : []);
      expect(box(drawn).map((v) => Math.round(v * 100) / 100)).toEqual(box(want).map((v) => Math.round(v * 100) / 100));
    }
  });

  test('paths in the frame: the white at x = 100 + 40k mm is at pixel u = 100 + 20k on row 150', () => {
    const last = overlay.filter((s) => s.layer === 2 && s.toS === endS).map((s) => (s.shape as unknown as { center: number[] }).center);
    expect(last).toContainEqual([750, 150]);
    expect(last).toContainEqual([580, 180]);
  });
});
