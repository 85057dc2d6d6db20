import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { assColour, assScript, assTime, circleDrawing, growingPolyline, pieces, polylineDrawing, simplify, type TimedShape } from '../../src/video/assOverlay.js';
import type { Point } from '../../src/video/overlay.js';

describe('ASS values', () => {
  test('colours are &HBBGGRR&, times H:MM:SS.cc rounded down (a 1/30-s frame time stays on its frame)', () => {
    expect(assColour([255, 212, 0])).toBe('&H00D4FF&');
    expect(assColour([20, 20, 20])).toBe('&H141414&');
    expect(assTime(0)).toBe('0:00:00.00');
    expect(assTime(1 / 30)).toBe('0:00:00.03');
    expect(assTime(0.3)).toBe('0:00:00.30'); // 0.3 * 100 = 29.999…: not 0.29
    expect(assTime(3725.678)).toBe('1:02:05.67');
    expect(assTime(-1)).toBe('0:00:00.00');
  });

  test('drawings are in quarter pixels with pixel centres at whole numbers; quads wind one way', () => {
    // Segment (10,20)→(20,20), 2 px wide: x 9…21 (square caps), y 19…21, in ASS corner coords +0.5.
    expect(polylineDrawing([[10, 20], [20, 20]], 2)).toBe('m 38 78 l 86 78 86 86 38 86');
    const d = polylineDrawing([[0, 0], [10, 0], [10, 10]], 2);
    expect(d.split('m ').filter(Boolean)).toHaveLength(2);
    // Signed area of each quad has the same sign (non-zero fill unions them).
    const areas = d.split('m ').filter(Boolean).map((q) => {
      const n = q.replace('l ', '').trim().split(' ').map(Number);
      let a = 0;
      for (let i = 0; i < 8; i += 2) a += n[i]! * n[(i + 3) % 8]! - n[(i + 2) % 8]! * n[i + 1]!;
      return Math.sign(a);
    });
    expect(new Set(areas).size).toBe(1);
    expect(circleDrawing([0, 0], 4).startsWith('m 18 2 b ')).toBe(true);
  });

  test('a script names the bundled font and has one event per visible shape, empty intervals dropped', () => {
    const shapes: TimedShape[] = [
      { layer: 0, fromS: 0, toS: 1, shape: { kind: 'polyline', points: [[0, 0], [5, 5]], color: [255, 0, 0], widthPx: 3 } },
      { layer: 2, fromS: 0.5, toS: 0.501, shape: { kind: 'ring', center: [5, 5], radiusPx: 6, color: [255, 212, 0], widthPx: 2 } },
      { layer: 2, fromS: 0.5, toS: 2, shape: { kind: 'ring', center: [5, 5], radiusPx: 6, color: [255, 212, 0], widthPx: 2 } },
    ];
    const s = assScript({ width: 64, height: 48 }, shapes);
    expect(s).toContain('PlayResX: 64\nPlayResY: 48');
    expect(s).toContain('Style: Draw,cueref draw,');
    const events = s.split('\n').filter((l) => l.startsWith('Dialogue:'));
    expect(events).toHaveLength(2);
    expect(events[0]).toMatch(/^Dialogue: 0,0:00:00.00,0:00:01.00,Draw,,0,0,0,,\{\\an7\\pos\(0,0\)\\bord0\\shad0\\1c&H0000FF&\\p3\}m /);
    expect(events[1]).toContain('\\1a&HFF&\\bord2');
  });
});

describe('simplify and pieces', () => {
  test('straight runs lose their inner points, turns stay; a path that doubles back keeps its turn', () => {
    const line: Point[] = Array.from({ length: 50 }, (_, i) => [i * 3, 10 + i * 1.5]);
    expect(simplify(line, 0.25)).toEqual([line[0], line[49]]);
    const vee: Point[] = [...Array.from({ length: 10 }, (_, i): Point => [i, 0]), ...Array.from({ length: 10 }, (_, i): Point => [9, i + 1])];
    expect(simplify(vee, 0.25)).toEqual([[0, 0], [9, 0], [9, 10]]);
    expect(simplify([[0, 0], [10, 0], [2, 0]], 0.25)).toEqual([[0, 0], [10, 0], [2, 0]]);
  });

  test('property: pieces keep every point in order, share their ends, and fit the box', () => {
    const pt = fc.tuple(fc.double({ min: -500, max: 1500, noNaN: true }), fc.double({ min: -500, max: 900, noNaN: true }));
    fc.assert(
      fc.property(fc.array(pt, { minLength: 1, maxLength: 40 }), fc.integer({ min: 8, max: 128 }), (pts, max) => {
        const ps = pieces(pts as Point[], max);
        for (const p of ps) {
          const xs = p.map((q) => q[0]), ys = p.map((q) => q[1]);
          expect(Math.max(...xs) - Math.min(...xs)).toBeLessThanOrEqual(max + 1e-6);
          expect(Math.max(...ys) - Math.min(...ys)).toBeLessThanOrEqual(max + 1e-6);
        }
        for (let k = 1; k < ps.length; k++) expect(ps[k]![0]).toEqual(ps[k - 1]!.at(-1));
        // Every original point is on the pieces' chain, in order.
        const chain = ps.flatMap((p, k) => (k ? p.slice(1) : p));
        let j = 0;
        for (const q of pts) {
          while (j < chain.length && (Math.abs(chain[j]![0] - q[0]) > 1e-9 || Math.abs(chain[j]![1] - q[1]) > 1e-9)) j++;
          expect(j).toBeLessThan(chain.length);
        }
      }),
    );
  });
});

describe('growingPolyline', () => {
  /** Segments i (points i → i+1) on screen at time t, counted over the events of a straight-line path. */
  const onScreen = (shapes: TimedShape[], t: number): number[] => {
    const segs: number[] = [];
    for (const s of shapes) {
      if (!(s.fromS <= t && t < s.toS) || s.shape.kind !== 'polyline') continue;
      // Points are (i, 0): each piece covers segments floor(x0) … ceil(x1) − 1.
      const xs = s.shape.points.map((p) => p[0]);
      for (let i = Math.round(Math.min(...xs)); i < Math.round(Math.max(...xs)); i++) segs.push(i);
    }
    return segs.sort((a, b) => a - b);
  };

  test('property: at any time exactly the segments reached are on screen, each once, with ≤ log2(n) + 1 events', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 3 }), { minLength: 2, maxLength: 200 }), fc.double({ min: 0, max: 0.999, noNaN: true }), (steps, probe) => {
        // Points (i, 0) reached at nondecreasing times (equal times allowed); a zig would be
        // simplified away, so the path is a straight line with integer points kept by large pieces.
        const times: number[] = [];
        let t = 0;
        for (const s of steps) times.push((t += s / 30));
        const pts: Point[] = times.map((_, i) => [i, 0]);
        const end = t + 1;
        const shapes = growingPolyline(pts, times, { color: [255, 255, 255], widthPx: 3, layer: 1 }, end);
        // Only the first point's dot is a one-point shape.
        for (const s of shapes) if (s.shape.kind === 'polyline' && s.shape.points.length < 2) expect(s.shape.points).toEqual([[0, 0]]);
        const at = probe * end;
        const reached = times.filter((x, i) => i > 0 && x <= at).length;
        // Simplify merges collinear points, so count covered unit segments instead of events' points.
        expect(onScreen(shapes, at)).toEqual(Array.from({ length: reached }, (_, i) => i));
        const active = shapes.filter((s) => s.fromS <= at && at < s.toS && (s.shape as unknown as { points: Point[] }).points.length > 1).length;
        // A block of a straight path ≤ 200 px long is cut into ≤ ⌈200 / 64⌉ + 1 pieces (PIECE_PX).
        expect(active).toBeLessThanOrEqual((Math.floor(Math.log2(Math.max(1, reached))) + 1) * Math.ceil(200 / 64 + 1));
      }),
    );
  });

  test('nothing outlives the clip, the first point is a dot until the first segment shows', () => {
    const shapes = growingPolyline([[0, 0], [5, 0], [10, 0]], [0, 1, 2], { color: [1, 2, 3], widthPx: 3, layer: 0 }, 1.5);
    expect(shapes.every((s) => s.toS <= 1.5)).toBe(true);
    expect(shapes.map((s) => [s.fromS, s.toS, (s.shape as unknown as { points: Point[] }).points.length])).toEqual([[0, 1, 1], [1, 1.5, 2]]);
    expect(growingPolyline([[3, 4]], [0.2], { color: [1, 2, 3], widthPx: 3, layer: 0 }, 1)).toEqual([{ layer: 0, fromS: 0.2, toS: 1, shape: { kind: 'polyline', points: [[3, 4]], color: [1, 2, 3], widthPx: 3 } }]);
  });
});
