/** The tracker's parts on their own: Kalman maths, assignment, class model, pixel → table mapping. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import type { Mat3 } from '../../src/core/mat3.js';
import { builtinProfile, novusHoleUnder } from '../../src/core/table.js';
import { imageBallRadius } from '../../src/core/ballImage.js';
import { assign, createTracker, idsOfKind, initState, kindOfClass, kindOfId, mahalanobis2, makeDetections, mapDetections, predict, trackerParams, update } from '../../src/tracking/index.js';

const trace = (P: Float64Array) => P[0]! + P[5]! + P[10]! + P[15]!;

describe('kalman', () => {
  test('predict moves the state by v·dt and grows the uncertainty', () => {
    const k = initState(100, 200, 1, 10, 500, -250);
    const p = predict(k, 0.04, 1000);
    expect([...p.s]).toEqual([120, 190, 500, -250]);
    expect(trace(p.P)).toBeGreaterThan(trace(k.P));
    // Covariance stays symmetric.
    for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) expect(p.P[r * 4 + c]).toBeCloseTo(p.P[c * 4 + r]!, 9);
  });

  test('property: an update never increases the position variance and moves towards the measurement', () => {
    fc.assert(
      fc.property(fc.double({ min: -500, max: 500, noNaN: true }), fc.double({ min: -500, max: 500, noNaN: true }), fc.double({ min: 0.1, max: 20, noNaN: true }), fc.double({ min: 0.001, max: 0.1, noNaN: true }), (zx, zy, r, dt) => {
        const k = predict(initState(0, 0, 5, 300, 100, 0), dt, 2000);
        const u = update(k, zx, zy, r);
        expect(u.P[0]!).toBeLessThanOrEqual(k.P[0]! + 1e-9);
        expect(u.P[5]!).toBeLessThanOrEqual(k.P[5]! + 1e-9);
        const before = Math.hypot(zx - k.s[0]!, zy - k.s[1]!);
        const after = Math.hypot(zx - u.s[0]!, zy - u.s[1]!);
        expect(after).toBeLessThanOrEqual(before + 1e-9);
      }),
      { numRuns: 200 },
    );
  });

  test('noiseless constant-velocity measurements: the velocity converges to the truth', () => {
    let k = initState(0, 0, 10, 2000);
    for (let i = 1; i <= 40; i++) {
      k = predict(k, 1 / 30, 100);
      k = update(k, (1200 * i) / 30, (-300 * i) / 30, 1);
    }
    expect(k.s[2]).toBeCloseTo(1200, 0);
    expect(k.s[3]).toBeCloseTo(-300, 0);
    expect(mahalanobis2(predict(k, 1 / 30, 100), 1200 * 41 / 30, -300 * 41 / 30, 1)).toBeLessThan(0.01);
  });
});

describe('assignment', () => {
  const brute = (cost: number[][]): number => {
    const n = cost.length, m = cost[0]!.length;
    let best = Infinity;
    const used = new Array<boolean>(m).fill(false);
    const rec = (i: number, sum: number, matched: number) => {
      if (i === n) {
        // Maximise the number of finite matches first, then minimise cost (what assign() does).
        const score = -matched * 1e9 + sum;
        if (score < best) best = score;
        return;
      }
      rec(i + 1, sum, matched);
      for (let j = 0; j < m; j++) {
        if (used[j] || !Number.isFinite(cost[i]![j]!)) continue;
        used[j] = true;
        rec(i + 1, sum + cost[i]![j]!, matched + 1);
        used[j] = false;
      }
    };
    rec(0, 0, 0);
    return best;
  };
  test('property: optimal against brute force on small gated matrices', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 5 }), fc.array(fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }), { minLength: 25, maxLength: 25 }), (n, m, vals) => {
        const cost = Array.from({ length: n }, (_, i) => Array.from({ length: m }, (_, j) => vals[i * 5 + j] ?? Infinity));
        const a = assign(cost);
        const cols = a.filter((c) => c >= 0);
        expect(new Set(cols).size).toBe(cols.length);
        let sum = 0;
        a.forEach((c, i) => {
          if (c >= 0) {
            expect(Number.isFinite(cost[i]![c]!)).toBe(true);
            sum += cost[i]![c]!;
          }
        });
        expect(-cols.length * 1e9 + sum).toBe(brute(cost));
      }),
      { numRuns: 300 },
    );
  });
});

test('property: with a price on leaving a row unmatched, optimal against brute force', () => {
  const bruteLimited = (cost: number[][], lambda: number): number => {
    const n = cost.length, m = cost[0]!.length;
    let best = Infinity;
    const used = new Array<boolean>(m).fill(false);
    const rec = (i: number, sum: number) => {
      if (i === n) return void (best = Math.min(best, sum));
      rec(i + 1, sum + lambda);
      for (let j = 0; j < m; j++) {
        if (used[j] || !Number.isFinite(cost[i]![j]!)) continue;
        used[j] = true;
        rec(i + 1, sum + cost[i]![j]!);
        used[j] = false;
      }
    };
    rec(0, 0);
    return best;
  };
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 150 }), fc.array(fc.option(fc.integer({ min: 0, max: 100 }), { nil: undefined }), { minLength: 16, maxLength: 16 }), (n, m, lambda, vals) => {
      const cost = Array.from({ length: n }, (_, i) => Array.from({ length: m }, (_, j) => vals[i * 4 + j] ?? Infinity));
      const a = assign(cost, lambda);
      let total = 0;
      a.forEach((c, i) => (total += c >= 0 ? cost[i]![c]! : lambda));
      expect(total).toBe(bruteLimited(cost, lambda));
    }),
    { numRuns: 300 },
  );
});

test('a crosswise match is refused when it costs more than leaving one track unmatched (no swap)', () => {
  // Track A fits ball a well; track B fits nothing but a, and A could take b at a price.
  const cost = [[29.5, 0.6], [Infinity, 38.8]];
  expect(assign(cost)).toEqual([0, 1]); // as many matches as possible: the swap
  expect(assign(cost, 41)).toEqual([1, -1]); // priced: A keeps its ball, B waits for stage 2
});

describe('classes', () => {
  test.each([
    ['snooker', 'red7', 'red'],
    ['snooker', 'white', 'white'],
    ['pool8', '3', 'solid'],
    ['pool8', '8', 'eight'],
    ['pool8', '12', 'stripe'],
    ['pool8', 'cue', 'cue'],
    ['novus', 'a4', 'pawnA'],
    ['novus', 'b8', 'pawnB'],
  ] as const)('%s id %s is a %s', (game, id, kind) => {
    expect(kindOfId(game, id)).toBe(kind);
    expect(idsOfKind(game, kind)).toContain(id);
  });
  test('capacities: 15 reds, one of each colour; pool numbers fold into groups', () => {
    expect(idsOfKind('snooker', 'red')).toHaveLength(15);
    expect(idsOfKind('snooker', 'pink')).toEqual(['pink']);
    expect(kindOfClass('pool8', '11')).toBe('stripe');
    expect(idsOfKind('novus', 'pawnB')).toHaveLength(8);
  });
});

describe('detections', () => {
  test('mapDetections applies ballCentreToTable (a known scale-and-shift homography)', () => {
    const H: Mat3 = [[2, 0, 10], [0, 2, 20], [0, 0, 1]];
    const d = mapDetections([{ u: 100, v: 50, r: 9, class: 'red', conf: 0.9 }, { u: 0, v: 0, r: 9, class: 'white', conf: 1 }], { ballCentreToTable: H }, 'snooker');
    expect(d.length).toBe(2);
    expect([d.x[0], d.y[0], d.x[1], d.y[1]]).toEqual([210, 120, 10, 20]);
    expect(d.cls).toEqual(['red', 'white']);
  });
  test('a camera pixel has the lens distortion taken out before the homography; an ideal one does not', async () => {
    const { distortPixel } = await import('../../src/core/lens.js');
    // The sample overhead camera: 1280×720, barrel k1 = −0.02; 3.26 mm per undistorted pixel.
    const lens = { fx: 762.7, fy: 762.7, cx: 640, cy: 360, k1: -0.02, k2: 0 };
    const H: Mat3 = [[0, 3.26, -285.6], [3.26, 0, -303.4], [0, 0, 1]];
    // A ball near the top end of the table: its ideal pixel, and where the lens puts it.
    const [iu, iv] = [1150, 360];
    const [du, dv] = distortPixel(lens, iu, iv);
    expect(Math.hypot(du - iu, dv - iv)).toBeGreaterThan(4);
    const d = mapDetections([{ u: du, v: dv, r: 9, class: 'red', conf: 0.9 }, { u: iu, v: iv, r: 9, class: 'red', conf: 0.9, ideal: true }], { ballCentreToTable: H, distortion: lens }, 'snooker');
    const want = [3.26 * iv - 285.6, 3.26 * iu - 303.4];
    for (const k of [0, 1]) {
      expect(d.x[k]).toBeCloseTo(want[0]!, 1);
      expect(d.y[k]).toBeCloseTo(want[1]!, 1);
    }
    // Without the lens the same camera pixel lands ~15 mm short, towards the middle.
    const raw = mapDetections([{ u: du, v: dv, r: 9, class: 'red', conf: 0.9 }], { ballCentreToTable: H }, 'snooker');
    expect(want[1]! - raw.y[0]!).toBeGreaterThan(12);
  });
  test('a one-ball class much larger than a ball there (a glove read as white) is dropped; a large red (a pack) is kept', () => {
    // 2 mm per pixel: a snooker ball (R 26.25 mm) is 13.1 px in radius.
    const H: Mat3 = [[2, 0, 0], [0, 2, 0], [0, 0, 1]];
    expect(imageBallRadius(H, 500, 900, 26.25)).toBeCloseTo(13.125, 3);
    const at = (r: number, cls: string) => ({ u: 250, v: 450, r, class: cls, conf: 0.7 });
    const d = mapDetections([at(20, 'white'), at(17, 'white'), at(20, 'pink'), at(24, 'red'), at(9, 'black')], { ballCentreToTable: H }, 'snooker', 0, 26.25);
    // 20 px is 1.52× the ball (the Bucharest glove): gone for white and pink; 17 px (1.30×) stays.
    expect(d.cls).toEqual(['white', 'red', 'black']);
    // Pool (R 28.6 mm, 14.3 px): numbered balls and the cue are one ball each; stripes come in packs.
    const p = mapDetections([at(22, 'cue'), at(22, '11'), at(22, 'stripe'), at(19, 'cue')], { ballCentreToTable: H }, 'pool8', 0, 57.15 / 2);
    expect(p.cls).toEqual(['stripe', 'cue']);
    // Without a ball size the radius is not judged (a user's own detector with no calibrated table).
    expect(mapDetections([at(40, 'white')], { ballCentreToTable: H }, 'snooker').length).toBe(1);
  });
  test('`cueref detect` reports the same: a glove-sized white is not a ball on the table', async () => {
    const { onTable } = await import('../../src/cli/detect.js');
    const table = builtinProfile('snooker');
    const cal = { game: 'snooker', table, ballCentreToTable: [[2, 0, 0], [0, 2, 0], [0, 0, 1]], imageToTable: [[2, 0, 0], [0, 2, 0], [0, 0, 1]] } as unknown as Parameters<typeof onTable>[1];
    const row = (r: number, cls: string, u = 250) => ({ u, v: 450, r, class: cls, conf: 0.7 });
    const { on, off } = onTable([row(20, 'white'), row(13, 'white', 300), row(24, 'red'), row(13, 'pink', 5000)], cal);
    expect(on.map((d) => `${d.class}@${d.x}`)).toEqual(['white@600', 'red@500']);
    expect(off).toBe(2);
  });
  test('`cueref detect` on Novus: a "pawn" deep over a corner hole is the hole; a pawn by the jaws is a pawn', async () => {
    const { onTable } = await import('../../src/cli/detect.js');
    const table = builtinProfile('novus');
    // The hole of BL is centred 0.45 mouths (27 mm) in from the corner along the diagonal, 30 mm in radius.
    expect(novusHoleUnder(table, 19.1, 19.1)).toBe('BL');
    expect(novusHoleUnder(table, 1000 - 25, 1000 - 15)).toBe('TR');
    expect(novusHoleUnder(table, 16, 40)).toBeUndefined(); // against the left cushion past the jaw: the physics rests it there
    expect(novusHoleUnder(table, 500, 500)).toBeUndefined();
    expect(novusHoleUnder(builtinProfile('snooker'), 10, 10)).toBeUndefined(); // a cue table's hanging ball is a ball
    const cal = { game: 'novus', table, ballCentreToTable: [[1, 0, 0], [0, 1, 0], [0, 0, 1]], imageToTable: [[1, 0, 0], [0, 1, 0], [0, 0, 1]] } as unknown as Parameters<typeof onTable>[1];
    const row = (u: number, v: number) => ({ u, v, r: 16, class: 'pawnB', conf: 0.6 });
    const { on, off } = onTable([row(20, 18), row(16, 40), row(980, 982), row(400, 600)], cal);
    expect(on.map((d) => `${d.x},${d.y}`)).toEqual(['16,40', '400,600']);
    expect(off).toBe(2);
  });
  test('a projective homography divides by w', () => {
    const H: Mat3 = [[1, 0, 0], [0, 1, 0], [0.001, 0, 1]];
    const d = mapDetections([{ u: 1000, v: 500, r: 9, class: 'red', conf: 0.9 }], { ballCentreToTable: H }, 'snooker');
    expect(d.x[0]).toBeCloseTo(500);
    expect(d.y[0]).toBeCloseTo(250);
  });
  test('bad detections are InputErrors naming the frame and field', () => {
    expect(() => makeDetections([{ x: 1, y: 2, class: 'purple', conf: 0.5 }], 'snooker', 7)).toThrow(/frame 7, field detections\[0\]\.class: 'purple' is not a snooker class/);
    expect(() => makeDetections([{ x: 1, y: Number.NaN, class: 'red', conf: 0.5 }], 'snooker', 3)).toThrow(InputError);
    expect(() => makeDetections([{ x: 1, y: 2, class: 'red', conf: 1.5 }], 'snooker')).toThrow(/detections\[0\]\.conf/);
  });
});

describe('tracker parameters and input', () => {
  test('out-of-range parameters are refused with the field named', () => {
    expect(() => trackerParams({ minHits: 0 })).toThrow(/field minHits/);
    expect(() => trackerParams({ gateChi2: 1000 })).toThrow(InputError);
  });
  test('frames must come in time order; a view-less frame yields no balls', () => {
    const tr = createTracker(builtinProfile('snooker'));
    const det = makeDetections([{ x: 500, y: 500, class: 'white', conf: 1 }], 'snooker');
    tr.step({ i: 0, t: 0, detections: det });
    expect(tr.step({ i: 1, t: 0.04, detections: makeDetections([], 'snooker'), view: false })).toEqual({ i: 1, t: 0.04, view: false, balls: [] });
    expect(() => tr.step({ i: 2, t: 0.04, detections: det })).toThrow(/frame 2/);
  });
  test('a ball seen on fewer than minHits frames never gets an id (no phantom balls)', () => {
    const tr = createTracker(builtinProfile('snooker'));
    const out = [0, 1].map((i) => tr.step({ i, t: i / 30, detections: makeDetections([{ x: 300, y: 300, class: 'pink', conf: 0.6 }], 'snooker') }));
    const later = tr.step({ i: 2, t: 2 / 30, detections: makeDetections([], 'snooker') });
    expect([...out, later].flatMap((f) => f.balls)).toEqual([]);
  });
});
