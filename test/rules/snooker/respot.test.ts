/**
 * Respotting colours (spec §10.1; scenarios S20–S23): own spot, highest-value free spot, the line
 * towards the top cushion, pink and black below their spots, the two respot orders, and never
 * touching a ball (property over random layouts).
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { builtinProfile } from '../../../src/core/table.js';
import { COLOURS, type Colour } from '../../../src/rules/snooker/balls.js';
import type { GeoBall } from '../../../src/rules/snooker/geometry.js';
import { respotColours, spotOccupied, type RespotOptions } from '../../../src/rules/snooker/respot.js';

const table = builtinProfile('snooker');
const W = table.bed.width;
const L = table.bed.length;
const R = 26.25;
const EPS = 0.5;
const opts = (o: Partial<RespotOptions> = {}): RespotOptions => ({ R, placeEpsMm: EPS, order: 'ownFirst', searchDown: true, ...o });

const SPOT = {
  yellow: { x: 1181, y: 737 },
  green: { x: 597, y: 737 },
  brown: { x: 889, y: 737 },
  blue: { x: 889, y: 1784.5 },
  pink: { x: 889, y: 2676.75 },
  black: { x: 889, y: 3245 },
};
const ball = (id: string, x: number, y: number): GeoBall => ({ id, x, y });
/** Colours on their own spots, except those listed. */
const onSpots = (...except: string[]): GeoBall[] => COLOURS.filter((c) => !except.includes(c)).map((c) => ball(c, SPOT[c].x, SPOT[c].y));

test('the profile spots are the spec §1 spots', () => {
  for (const c of COLOURS) {
    expect(table.spots[c]!.x).toBeCloseTo(SPOT[c].x, 9);
    expect(table.spots[c]!.y).toBeCloseTo(SPOT[c].y, 9);
  }
});

describe('occupied spot (spec §4.6): a centre within 2R + ε_place', () => {
  test.each([
    { d: 0, occupied: true },
    { d: 30, occupied: true },
    { d: 52.5, occupied: true },
    { d: 52.9, occupied: true },
    { d: 53.0, occupied: false },
    { d: 60, occupied: false },
  ])('a ball $d mm from the spot → occupied $occupied', ({ d, occupied }) => {
    expect(spotOccupied(SPOT.black, [ball('red1', SPOT.black.x + d * 0.6, SPOT.black.y + d * 0.8)], opts())).toBe(occupied);
  });
});

describe('one colour (spec §10.1 steps 1–2)', () => {
  test.each(COLOURS.map((c) => ({ c })))('$c goes back on its own spot when it is free', ({ c }) => {
    const r = respotColours([c], onSpots(c), table, opts());
    expect(r).toEqual([{ ball: c, x: SPOT[c].x, y: SPOT[c].y, spot: c }]);
  });

  test('S20: black spot taken by a red 30 mm away, pink off its spot → black on the pink spot', () => {
    const balls = [...onSpots('black', 'pink'), ball('pink', 600, 2400), ball('red1', 889, 3245 + 30)];
    const [r] = respotColours(['black'], balls, table, opts());
    expect(r).toEqual({ ball: 'black', x: 889, y: 2676.75, spot: 'pink' });
  });

  test.each([
    { c: 'yellow' as Colour, taken: ['yellow'], expected: 'black' },
    { c: 'green' as Colour, taken: ['green', 'black'], expected: 'pink' },
    { c: 'brown' as Colour, taken: ['brown', 'black', 'pink'], expected: 'blue' },
    { c: 'pink' as Colour, taken: ['pink', 'black', 'blue'], expected: 'brown' },
    { c: 'black' as Colour, taken: ['black', 'pink', 'blue', 'brown'], expected: 'green' },
    { c: 'blue' as Colour, taken: ['blue', 'black', 'pink', 'brown', 'green'], expected: 'yellow' },
  ])('$c with its own spot taken → the highest-value free spot, $expected', ({ c, taken, expected }) => {
    // Every colour (other than c) lies off its spot; reds sit on the taken spots.
    const balls: GeoBall[] = [];
    COLOURS.filter((x) => x !== c).forEach((x, i) => balls.push(ball(x, 200 + i * 80, 1200)));
    taken.forEach((s, i) => balls.push(ball(`red${i + 1}`, SPOT[s as Colour].x + 10, SPOT[s as Colour].y + 20)));
    const [r] = respotColours([c], balls, table, opts());
    expect(r!.spot).toBe(expected);
    expect(r!.x).toBe(SPOT[expected as Colour].x);
    expect(r!.y).toBe(SPOT[expected as Colour].y);
  });
});

describe('several colours: the order (spec §10.1, S21, Q8)', () => {
  // S21: pink and black to respot; the black spot taken by a red; the pink spot free; the blue off its spot.
  const balls = [...onSpots('pink', 'black', 'blue'), ball('blue', 1400, 2000), ball('red1', 889, 3245 - 20)];

  test('S21 default (ownFirst): pink on its own spot first, then black on the blue spot', () => {
    const r = respotColours(['black', 'pink'], balls, table, opts());
    expect(r).toEqual([
      { ball: 'pink', x: 889, y: 2676.75, spot: 'pink' },
      { ball: 'black', x: 889, y: 1784.5, spot: 'blue' },
    ]);
  });

  test('S21 with respot_order = value_first: black on the pink spot, then pink on the blue spot', () => {
    const r = respotColours(['pink', 'black'], balls, table, opts({ order: 'valueFirst' }));
    expect(r).toEqual([
      { ball: 'black', x: 889, y: 2676.75, spot: 'pink' },
      { ball: 'pink', x: 889, y: 1784.5, spot: 'blue' },
    ]);
  });

  test('the input order does not matter', () => {
    for (const order of ['ownFirst', 'valueFirst'] as const) {
      expect(respotColours(['pink', 'black'], balls, table, opts({ order }))).toEqual(respotColours(['black', 'pink'], balls, table, opts({ order })));
    }
  });

  test('all six colours back on six free spots (after a foul clearing the table of colours)', () => {
    const r = respotColours([...COLOURS], [ball('red1', 300, 1000)], table, opts());
    expect(Object.fromEntries(r.map((x) => [x.ball, x.spot]))).toEqual({ yellow: 'yellow', green: 'green', brown: 'brown', blue: 'blue', pink: 'pink', black: 'black' });
  });

  test('two colours whose spots are both taken: the higher value gets the higher free spot', () => {
    // Black and pink spots taken by reds; blue, brown, green free, yellow taken.
    const bs = [ball('red1', 889, 3245), ball('red2', 889, 2676.75), ball('red3', 1181, 737), ball('yellow', 100, 100), ball('green', 1600, 1600), ball('brown', 300, 2000), ball('blue', 1500, 3000)];
    for (const order of ['ownFirst', 'valueFirst'] as const) {
      const r = respotColours(['pink', 'black'], bs, table, opts({ order }));
      expect(r).toEqual([
        { ball: 'black', x: 889, y: 1784.5, spot: 'blue' },
        { ball: 'pink', x: 889, y: 737, spot: 'brown' },
      ]);
    }
  });
});

describe('every spot occupied (spec §10.1 steps 3–6)', () => {
  test('S23: blue spot taken by a red centred on it → (889, 1837.5), towards the top cushion', () => {
    const balls = [...onSpots('blue'), ball('red1', 889, 1784.5), ball('red2', 300, 1850), ball('red3', 1500, 1800)];
    const [r] = respotColours(['blue'], balls, table, opts());
    expect(r!.spot).toBe('nearest');
    expect(r!.x).toBe(889);
    expect(r!.y).toBeCloseTo(1784.5 + 2 * R + EPS, 6); // 1837.5
  });

  test('S22: pink spot taken and reds pack the line to the top cushion → the pink below its spot', () => {
    // A chain of balls 54 mm apart from the pink spot to the top cushion (no 53 mm gap anywhere);
    // the black is one of them (28 mm from its spot, so the black spot is occupied too).
    const chain: GeoBall[] = [];
    let redNo = 1;
    for (let k = 0; 2676.75 + k * 54 <= L - R; k++) chain.push(ball(k === 10 ? 'black' : `red${redNo++}`, 889, 2676.75 + k * 54));
    const balls = [...onSpots('pink', 'black'), ...chain];
    expect(balls.filter((b) => b.id === 'black')).toHaveLength(1);
    for (const c of COLOURS) expect(spotOccupied(SPOT[c], balls, opts())).toBe(true);
    const [r] = respotColours(['pink'], balls, table, opts());
    expect(r!.spot).toBe('nearest');
    expect(r!.x).toBe(889);
    // As near as possible below: the red on the pink spot is 2R + ε above (0.1 mm walking steps).
    const target = 2676.75 - (2 * R + EPS);
    expect(r!.y).toBeLessThanOrEqual(target + 1e-9);
    expect(r!.y).toBeGreaterThan(target - 0.2);
    for (const b of balls) expect(Math.hypot(b.x - r!.x, b.y - r!.y)).toBeGreaterThanOrEqual(2 * R + EPS - 1e-9);
  });

  test('black with all spots taken and the line above its spot clear → just above its own spot', () => {
    const balls = [...onSpots('black'), ball('red1', 889, 3245)];
    const [r] = respotColours(['black'], balls, table, opts());
    expect(r!.spot).toBe('nearest');
    expect(r!.y).toBeCloseTo(3245 + 2 * R + EPS, 6);
  });

  test('black with no room above: below the black spot', () => {
    // A red on the black spot and two more above it, 54 mm apart, the last 26.25+... from the cushion.
    const balls = [...onSpots('black'), ball('red1', 889, 3245), ball('red2', 889, 3299), ball('red3', 889, 3353), ball('red4', 889, 3407), ball('red5', 889, 3461), ball('red6', 889, 3515)];
    const [r] = respotColours(['black'], balls, table, opts());
    expect(r!.spot).toBe('nearest');
    expect(r!.y).toBeLessThan(3245);
    expect(r!.y).toBeGreaterThan(3245 - (2 * R + EPS) - 0.2);
  });

  test('Q5: a colour other than pink/black with no room towards the top cushion searches down (default)', () => {
    // A pure-geometry case (more balls than a set has): the blue spot taken and the line from it to
    // the top cushion packed with balls 54 mm apart.
    const wall: GeoBall[] = [];
    for (let k = 0; 1784.5 + k * 54 <= L - R; k++) wall.push(ball(`w${k}`, 889, 1784.5 + k * 54));
    const balls = [...onSpots('blue', 'pink', 'black'), ...wall];
    for (const c of COLOURS) expect(spotOccupied(SPOT[c], balls, opts())).toBe(true);
    const [r] = respotColours(['blue'], balls, table, opts({ searchDown: true }));
    expect(r!.spot).toBe('nearest');
    expect(r!.x).toBe(889);
    expect(r!.y).toBeLessThanOrEqual(1784.5 - (2 * R + EPS) + 1e-9);
    expect(r!.y).toBeGreaterThan(1784.5 - (2 * R + EPS) - 0.2);
  });

  test('with room above, the searchDown option changes nothing', () => {
    const balls = [...onSpots('brown'), ball('red1', 889, 737)];
    const a = respotColours(['brown'], balls, table, opts({ searchDown: true }));
    const b = respotColours(['brown'], balls, table, opts({ searchDown: false }));
    expect(a).toEqual(b);
    expect(a[0]!.y).toBeCloseTo(737 + 2 * R + EPS, 6);
  });

  test('yellow with every spot occupied: on the line from its spot to the top cushion (x = 1181)', () => {
    const balls = [...onSpots('yellow'), ball('red1', 1181, 737 + 10)];
    const [r] = respotColours(['yellow'], balls, table, opts());
    expect(r!.spot).toBe('nearest');
    expect(r!.x).toBe(1181);
    expect(r!.y).toBeCloseTo(737 + 10 + 2 * R + EPS, 6);
  });
});

describe('never touching a ball, never off the bed (property)', () => {
  const pos = fc.tuple(fc.double({ min: R, max: W - R, noNaN: true }), fc.double({ min: R, max: L - R, noNaN: true }));
  const scenario = fc.record({
    reds: fc.array(pos, { maxLength: 15 }),
    // Colours that stay on the table: a position, near their spot (to crowd the spots) or anywhere.
    colours: fc.array(fc.tuple(fc.boolean(), pos, fc.double({ min: 0, max: 60, noNaN: true }), fc.double({ min: 0, max: 2 * Math.PI, noNaN: true })), { minLength: 6, maxLength: 6 }),
    respot: fc.subarray([...COLOURS], { minLength: 1 }),
    // Extra balls dropped right on or near spots (reds standing in for crowding).
    crowd: fc.array(fc.tuple(fc.constantFrom(...COLOURS), fc.double({ min: -60, max: 60, noNaN: true }), fc.double({ min: -60, max: 60, noNaN: true })), { maxLength: 6 }),
    order: fc.constantFrom('ownFirst' as const, 'valueFirst' as const),
  });

  test('each placed ball is ≥ 2R + ε from every other ball and ≥ R from the cushions', () => {
    fc.assert(
      fc.property(scenario, ({ reds, colours, respot, crowd, order }) => {
        const balls: GeoBall[] = [];
        const fits = (x: number, y: number) => x >= R && x <= W - R && y >= R && y <= L - R && balls.every((b) => Math.hypot(b.x - x, b.y - y) >= 2 * R);
        let redNo = 1;
        for (const [c, dx, dy] of crowd) {
          const x = SPOT[c].x + dx, y = SPOT[c].y + dy;
          if (redNo <= 15 && fits(x, y)) balls.push(ball(`red${redNo++}`, x, y));
        }
        for (const [x, y] of reds) if (redNo <= 15 && fits(x, y)) balls.push(ball(`red${redNo++}`, x, y));
        COLOURS.forEach((c, i) => {
          if (respot.includes(c)) return;
          const [nearSpot, [x, y], r, a] = colours[i]!;
          const p = nearSpot ? { x: SPOT[c].x + r * Math.cos(a), y: SPOT[c].y + r * Math.sin(a) } : { x, y };
          if (fits(p.x, p.y)) balls.push(ball(c, p.x, p.y));
        });
        const out = respotColours(respot, balls, table, opts({ order }));
        expect(out.map((r) => r.ball).sort()).toEqual([...respot].sort());
        const placed: GeoBall[] = [...balls];
        for (const r of out) {
          for (const b of placed) expect(Math.hypot(b.x - r.x, b.y - r.y)).toBeGreaterThanOrEqual(2 * R + EPS - 1e-9);
          expect(r.x).toBeGreaterThanOrEqual(R);
          expect(r.x).toBeLessThanOrEqual(W - R);
          expect(r.y).toBeGreaterThanOrEqual(R);
          expect(r.y).toBeLessThanOrEqual(L - R);
          // On a named spot exactly, or on the vertical line through its own spot.
          if (r.spot !== 'nearest') expect({ x: r.x, y: r.y }).toEqual(SPOT[r.spot as Colour]);
          else expect(r.x).toBe(SPOT[r.ball as Colour].x);
          placed.push(ball(r.ball, r.x, r.y));
        }
        // Own spot free at the time (ownFirst): the colour goes on it.
        if (order === 'ownFirst') {
          for (const r of out) {
            if (!spotOccupied(SPOT[r.ball as Colour], balls, opts())) {
              // Free in the position left by the stroke: every such colour is placed first, on its own spot.
              expect(r.spot).toBe(r.ball);
            }
          }
        }
        // A 'nearest' placement only when every spot was taken at that moment.
        const sofar: GeoBall[] = [...balls];
        for (const r of out) {
          if (r.spot === 'nearest') for (const c of COLOURS) expect(spotOccupied(SPOT[c], sofar, opts())).toBe(true);
          else {
            // The spot chosen is the own spot or the highest-value free spot.
            const own = !spotOccupied(SPOT[r.ball as Colour], sofar, opts());
            if (own) expect(r.spot).toBe(r.ball);
            else expect(r.spot).toBe(['black', 'pink', 'blue', 'brown', 'green', 'yellow'].find((s) => !spotOccupied(SPOT[s as Colour], sofar, opts())));
          }
          sofar.push(ball(r.ball, r.x, r.y));
        }
      }),
      { numRuns: 300, seed: 42 },
    );
  });
});
