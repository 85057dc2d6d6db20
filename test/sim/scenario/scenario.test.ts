/** Scenario format, opening layouts, aiming, the stroke finder and the runner. */
import { describe, expect, it } from 'vitest';
import { InputError } from '../../../src/core/errors.js';
import { builtinProfile } from '../../../src/core/table.js';
import { buildTableGeom, defaultPhysics, makeBall } from '../../../src/sim/physics/index.js';
import { cutAngleAim, findStroke, parseScenario, potCutDeg, respotPosition, runScenario, snookerTest, standardLayout, type Scenario } from '../../../src/sim/scenario/index.js';

const snooker = builtinProfile('snooker');
const R = 26.25;

function scenario(extra: Record<string, unknown>): Scenario {
  return parseScenario({ format: 'cueref.scenario/1', name: 't', game: 'snooker', ...extra });
}

function errorOf(f: () => unknown): InputError {
  try {
    f();
  } catch (e) {
    if (e instanceof InputError) return e;
    throw e;
  }
  throw new Error('no error');
}

describe('parseScenario: clear errors naming the stroke and field', () => {
  it.each([
    [{ strokes: [] }, 'strokes', /at least 1|>=1/],
    [{ strokes: [{ speedMmPerS: 100 }] }, 'strokes[0].aim', /needs `aim`/],
    [{ strokes: [{ aim: { ball: 'red1', pocket: 'XX' }, speedMmPerS: 100 }] }, 'strokes[0].aim', /./],
    [{ strokes: [{ aim: { directionDeg: 90 } }] }, 'strokes[0].speedMmPerS', /required/],
    [{ strokes: [{ aim: { directionDeg: 90 }, speedMmPerS: 99999 }] }, 'strokes[0].speedMmPerS', /./],
    [{ strokes: [{ aim: { directionDeg: 90 }, speedMmPerS: 900, spin: { top: 2 } }] }, 'strokes[0].spin.top', /./],
    [{ strokes: [{ aim: { directionDeg: 90 }, speedMmPerS: 900, events: [{ t: 0, type: 'foul', code: 'lower' }] }] }, 'strokes[0].events[0]', /UPPER_SNAKE_CASE/],
  ])('%j → %s', (extra, field, msg) => {
    const e = errorOf(() => scenario(extra));
    expect(e.code).toBe('BAD_SCENARIO');
    expect(e.field).toBe(field);
    expect(e.message).toMatch(msg);
  });

  it('runner errors name the stroke: overlapping balls, unknown balls, ball off the bed', () => {
    const overlap = errorOf(() => runScenario(scenario({ strokes: [{ place: { x: 1181, y: 730 }, aim: { directionDeg: 90 }, speedMmPerS: 500 }] })));
    expect(overlap.code).toBe('BALLS_OVERLAP');
    expect(overlap.stroke).toBe(0);
    expect(overlap.message).toMatch(/yellow.*white|white.*yellow/);
    const unknown = errorOf(() => runScenario(scenario({ start: { balls: [{ id: 'purple', x: 100, y: 100 }] }, strokes: [{ aim: { directionDeg: 90 }, speedMmPerS: 500 }] })));
    expect(unknown.code).toBe('UNKNOWN_BALL');
    expect(unknown.field).toBe('start.balls[0].id');
    const off = errorOf(() => runScenario(scenario({ strokes: [{ place: { x: 10, y: 700 }, aim: { directionDeg: 90 }, speedMmPerS: 500 }] })));
    expect(off.code).toBe('BALL_OFF_BED');
  });
});

describe('opening layouts', () => {
  it('snooker: colours on their spots, 15 reds in a tight triangle behind the pink', () => {
    const lay = standardLayout('snooker', snooker, { pyramidGapMm: 2, rackGapMm: 0 });
    expect(lay).toHaveLength(21);
    expect(lay.find((b) => b.id === 'black')).toMatchObject({ x: 889, y: 3245 });
    expect(lay.find((b) => b.id === 'yellow')).toMatchObject({ x: 1181, y: 737 });
    const reds = lay.filter((b) => b.id.startsWith('red'));
    const apex = reds.find((b) => b.id === 'red1')!;
    expect(apex.x).toBe(889);
    expect(apex.y).toBeCloseTo(2676.75 + 2 * R + 2, 9);
    // Back row: five reds parallel to the top cushion, rows √3·R apart.
    const back = reds.filter((b) => Math.abs(b.y - reds[14]!.y) < 1e-9);
    expect(back).toHaveLength(5);
    expect(back[0]!.y - apex.y).toBeCloseTo(4 * Math.sqrt(3) * R, 6);
    expect(back[0]!.y).toBeCloseTo(2911.1 + 2, 0);
    // Tight: neighbours touch.
    let touching = 0;
    for (let i = 0; i < reds.length; i++) for (let j = i + 1; j < reds.length; j++) if (Math.abs(Math.hypot(reds[i]!.x - reds[j]!.x, reds[i]!.y - reds[j]!.y) - 2 * R) < 1e-9) touching++;
    expect(touching).toBe(30);
  });

  it('pool: the 8 in the middle of the third row, a solid and a stripe in the back corners, apex on the foot spot', () => {
    const pool = builtinProfile('pool8-9ft');
    for (const seed of [0, 1, 2, 3, 4]) {
      const lay = standardLayout('pool8', pool, { seed });
      expect(new Set(lay.map((b) => b.id)).size).toBe(15);
      const apex = lay.reduce((a, b) => (b.y < a.y ? b : a));
      expect(apex).toMatchObject({ x: 635, y: 1905 });
      const eight = lay.find((b) => b.id === '8')!;
      expect(eight.x).toBeCloseTo(635, 9);
      expect(eight.y).toBeCloseTo(1905 + 2 * (57.15 + 0.1) * (Math.sqrt(3) / 2), 6);
      const back = lay.filter((b) => Math.abs(b.y - Math.max(...lay.map((x) => x.y))) < 1e-9).sort((a, b) => a.x - b.x);
      const kinds = [back[0]!, back[4]!].map((b) => (Number(b.id) < 8 ? 'solid' : 'stripe')).sort();
      expect(kinds).toEqual(['solid', 'stripe']);
    }
    expect(standardLayout('pool8', pool, { seed: 7 })).toEqual(standardLayout('pool8', pool, { seed: 7 }));
  });

  it('novus: each player\'s 8 pawns touch the far edge, 4 each side of the middle line', () => {
    const nov = builtinProfile('novus');
    const lay = standardLayout('novus', nov, { rackGapMm: 0 });
    const a = lay.filter((b) => b.id.startsWith('a'));
    const b = lay.filter((x) => x.id.startsWith('b'));
    expect(a.every((p) => p.y === 1000 - 16)).toBe(true);
    expect(b.every((p) => p.y === 16)).toBe(true);
    expect(a.filter((p) => p.x < 500)).toHaveLength(4);
    expect(a.filter((p) => p.x > 500)).toHaveLength(4);
  });
});

describe('aiming', () => {
  it('cutDeg: the aim line passes 2R·sin θ from the object ball, on the side that sends it right for θ > 0', () => {
    const cue = { x: 500, y: 500 }, obj = { x: 500, y: 1500 };
    for (const cut of [0, 15, 30, -30, 60]) {
      const a = cutAngleAim(cue, obj, 2 * R, cut);
      const ux = Math.cos(a), uy = Math.sin(a);
      // Signed perpendicular offset of the object ball from the aim line (right of the line < 0 here).
      const off = (obj.x - cue.x) * uy - (obj.y - cue.y) * ux;
      expect(off).toBeCloseTo(2 * R * Math.sin((cut * Math.PI) / 180), 6);
    }
  });

  it('potCutDeg: a straight pot along the diagonal needs no cut', () => {
    const cut = potCutDeg({ id: 'white', x: 1300, y: 3080 }, { id: 'red1', x: 1500, y: 3284.6 }, snooker, 'TR', 2 * R);
    expect(Math.abs(cut)).toBeLessThan(3);
  });

  it('respot: own spot if free, else the highest free spot, else up the line', () => {
    expect(respotPosition(snooker, 'black', [{ id: 'red1', x: 1500, y: 3000 }])).toMatchObject({ x: 889, y: 3245, spot: 'black' });
    expect(respotPosition(snooker, 'black', [{ id: 'red1', x: 889, y: 3275 }])).toMatchObject({ x: 889, y: 2676.75, spot: 'pink' });
    // S23: all spots taken, the blue spot by a red: the blue goes 2R + ε up the centre line.
    const all = ['yellow', 'green', 'brown', 'pink', 'black'].map((c) => ({ id: c, ...snooker.spots[c]! })).concat([{ id: 'red1', x: 889, y: 1784.5 }]);
    const p = respotPosition(snooker, 'blue', all);
    expect(p.spot).toBe('nearest');
    expect(p.x).toBe(889);
    expect(p.y).toBeCloseTo(1784.5 + 52.5 + 0.5, 0);
  });
});

describe('the stroke finder', () => {
  const geom = buildTableGeom(snooker);
  const physics = defaultPhysics('snooker');

  it('finds a pot of a red into TR and the stroke really pots it', () => {
    const balls = [
      { id: 'white', x: 1200, y: 2900 },
      { id: 'red1', x: 1500, y: 3200 },
      { id: 'black', x: 889, y: 3245 },
    ];
    const f = findStroke({ game: 'snooker', table: snooker, geom, physics, balls, strikeId: 'white' }, { goal: { pots: [{ ball: 'red1', pocket: 'TR' }], onlyThese: true } });
    expect(f).not.toBeNull();
    expect(f!.tries).toBeLessThan(60);
    const rec = runScenario(scenario({ start: { balls }, strokes: [{ aim: f!.aim, speedMmPerS: f!.speedMmPerS, spin: f!.spin }] }));
    expect(rec.strokes[0]!.run.exits.map((e) => [e.id, e.pocket])).toEqual([['red1', 'TR']]);
  });

  it('snookerTest: blocked behind the blue on the centre line; free from the side', () => {
    const mk = (id: string, x: number, y: number) => makeBall(id, x, y, R, 142);
    const behind = snookerTest([mk('white', 889, 1300), mk('blue', 889, 1784.5), mk('red1', 889, 2350)], 'white', ['red']);
    expect(behind.snookered).toBe(true);
    expect([...behind.blockers]).toEqual(['blue']);
    expect(snookerTest([mk('white', 600, 1300), mk('blue', 889, 1784.5), mk('red1', 889, 2350)], 'white', ['red']).snookered).toBe(false);
  });
});

describe('the runner', () => {
  it('plays strokes in sequence with placements, respots and a consistent timeline', () => {
    const rec = runScenario(
      scenario({
        start: { balls: [{ id: 'white', x: 1300, y: 3080 }, { id: 'red1', x: 1590, y: 3376 }, { id: 'pink', x: 889, y: 2676.75 }, { id: 'black', x: 889, y: 3245 }] },
        strokes: [
          { aim: { ball: 'red1', pocket: 'TR' }, speedMmPerS: 1500, spin: { top: 1 } },
          { place: { x: 900, y: 650 }, aim: { ball: 'pink', cutDeg: 0 }, speedMmPerS: 500 },
        ],
      }),
      { sampleDtS: 1 / 240 },
    );
    const [s0, s1] = rec.strokes;
    expect(s0!.run.exits.map((e) => e.id).sort()).toEqual(['red1', 'white']);
    // Stroke 1: the white was in hand, placed by hand before the strike.
    expect(s1!.stroke.events[0]).toMatchObject({ type: 'place', ball: 'white', x: 900, y: 650 });
    expect(s1!.stroke.events[1]).toMatchObject({ type: 'strike', ball: 'white' });
    expect(s1!.tStart).toBeCloseTo(s0!.tRest + rec.scenario.timing.afterRestS, 9);
    expect(s1!.before.find((b) => b.id === 'red1')).toBeUndefined();
    // Events in time order, strictly after the strike except placements.
    for (const st of rec.strokes) {
      const ts = st.stroke.events.map((e) => e.t);
      expect([...ts].sort((a, b) => a - b)).toEqual(ts);
    }
  });

  it('injections: a touch moves the ball and is reported; decision replace puts every ball back', () => {
    const rec = runScenario(
      scenario({
        start: { balls: [{ id: 'white', x: 1300, y: 1500 }, { id: 'red1', x: 500, y: 2500 }, { id: 'blue', x: 889, y: 1784.5 }] },
        strokes: [
          { inject: [{ type: 'touch', ball: 'blue', by: 'hand', moveMm: { x: 20 } }], aim: { directionDeg: 180 }, speedMmPerS: 600 },
          { decision: 'replace', aim: { directionDeg: 0 }, speedMmPerS: 300 },
        ],
      }),
    );
    const s0 = rec.strokes[0]!;
    expect(s0.stroke.events.find((e) => e.type === 'touch')).toMatchObject({ ball: 'blue', by: 'hand' });
    expect(s0.before.find((b) => b.id === 'blue')).toMatchObject({ x: 909, y: 1784.5 });
    const s1 = rec.strokes[1]!;
    expect(s1.before).toEqual(s0.before);
    expect(s1.stroke.events.filter((e) => e.type === 'place').map((e) => (e as { ball: string }).ball)).toEqual(['white']);
  });
});

describe('respots without a referee', () => {
  it('a potted colour goes back on its spot by the simulator\'s own rule (reds still on)', () => {
    const rec = runScenario(
      scenario({
        start: { balls: [{ id: 'white', x: 889, y: 2900 }, { id: 'red1', x: 300, y: 1000 }, { id: 'black', x: 1400, y: 3250 }] },
        strokes: [
          { aim: { ball: 'black', pocket: 'TR' }, speedMmPerS: 1500 },
          { aim: { ball: 'red1', cutDeg: 0 }, speedMmPerS: 800 },
        ],
      }),
      { referee: null },
    );
    expect(rec.strokes[0]!.run.exits.map((e) => e.id)).toEqual(['black']);
    const s1 = rec.strokes[1]!;
    expect(s1.stroke.events[0]).toMatchObject({ type: 'place', ball: 'black', x: 889, y: 3245 });
    expect(s1.before.find((b) => b.id === 'black')).toMatchObject({ x: 889, y: 3245 });
  });
});
