/** How the referee reads the log: midway starts, claims, doubtful events, paths, hanging balls, spotting geometry. */
import { describe, expect, test } from 'vitest';
import { builtinProfile } from '../../../src/core/table.js';
import { inZone, spotOnLongString } from '../../../src/rules/pool8/geometry.js';
import { calls, codes, ev, layout, makeLog, midway, run, shot } from './helpers.js';

const all = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'];

describe('joining a rack midway', () => {
  test.each([
    ['a pair', { groups: ['stripes', 'solids'] }, ['stripes', 'solids']],
    ['an object', { groups: { 0: 'STRIPES', 1: 'solids' } }, ['stripes', 'solids']],
    ['blackball colours', { groups: ['yellows', 'reds'] }, ['stripes', 'solids']],
    ['ballOn as a group', { ballOn: 'stripes' }, ['stripes', 'solids']],
    ['ballOn as ball ids', { ballOn: ['9', '12'] }, ['stripes', 'solids']],
  ] as const)('groups given as %s', (_n, extra, groups) => {
    const r = run(makeLog([shot('12', [], { rail: true })], { start: { player: 0, balls: layout(all), isBreak: false, ...extra } }));
    expect(r.ok && r.calls[0]).toMatchObject({ groups, legal: true });
  });

  test('ballOn "8" puts the starting player on the group that is gone', () => {
    const r = run(makeLog([shot('8', [['8', 'TL']], { calledBall: '8', calledPocket: 'TL' })], { start: { player: 1, balls: layout(['1', '2', '8']), ballOn: '8' } }));
    expect(r.ok && r.calls[0]).toMatchObject({ player: 1, groups: ['solids', 'stripes'], frameOver: true, winner: 1 });
  });

  test('a start that cannot name a group is refused', () => {
    const r = run(makeLog([shot('12')], { start: { balls: layout(all), ballOn: 'plaid' } }));
    expect(!r.ok && r.error).toMatchObject({ code: 'BAD_START', field: 'start.ballOn' });
  });
});

describe('reading the stroke', () => {
  test('nominated "stripes" on an open table is the WPA-2025 claim', () => {
    const c = calls(makeLog([shot('8', [['8', 'BR']], { nominated: 'stripes', calledPocket: 'BR' })], { start: midway(['1', '2', '8'], null) }))[0]!;
    expect(c).toMatchObject({ frameOver: true, winner: 0 });
  });

  test('a doubtful double hit is proposed for review, not called', () => {
    const c = calls(makeLog([shot('4', [], { rail: true, extra: [{ t: 10.35, type: 'doubleHit', conf: 0.4 }] })], { start: midway(all, ['solids', 'stripes']) }))[0]!;
    expect(codes(c)).toEqual([]);
    expect(c.review).toContainEqual(expect.objectContaining({ code: 'DOUBLE_HIT', conf: 0.4 }));
  });

  test('a ball still rolling at 15 mm/s when the cue ball is struck (from paths): 3.9', () => {
    const stroke = { ...shot('4', [], { rail: true }), paths: { '14': [[9.8, 500, 1500], [9.9, 500, 1501.5], [10.0, 500, 1503]] } };
    const c = calls(makeLog([stroke as never], { start: midway(all, ['solids', 'stripes']) }))[0]!;
    expect(codes(c)).toEqual(['STRUCK_WHILE_MOVING']);
    expect(c.fouls[0]!.detail).toMatch(/15 mm\/s/);
  });

  test('two sightings far apart say where a ball went, not its speed at the strike: hidden under a hand 0.7 s and seen again 20 mm off is not "still moving"', () => {
    const stroke = { ...shot('4', [], { rail: true }), paths: { '5': [[9.2, 600, 1000], [9.9, 600, 1020], [10.0, 600, 1020]] } };
    expect(codes(calls(makeLog([stroke as never], { start: midway(all, ['solids', 'stripes']) }))[0]!)).toEqual([]);
    const gap = { ...shot('4', [], { rail: true }), paths: { '5': [[9.2, 600, 1000], [9.9, 600, 1020]] } };
    expect(codes(calls(makeLog([gap as never], { start: midway(all, ['solids', 'stripes']) }))[0]!)).toEqual([]);
  });

  test('a ball creeping at 2 mm/s is at rest', () => {
    const stroke = { ...shot('4', [], { rail: true }), paths: { '14': [[9.0, 500, 1500], [10.0, 500, 1502]] } };
    expect(codes(calls(makeLog([stroke as never], { start: midway(all, ['solids', 'stripes']) }))[0]!)).toEqual([]);
  });

  test.each([
    [3, true],
    [5, true],
    [8, false],
  ])('a hanging ball that drops %s s after the balls stopped: pocketed %s', (afterS, pocketed) => {
    // The ball reaches the lip at 11.0; the cue ball keeps rolling until 13.0 (ALL_STOPPED).
    const stroke = { events: [ev.strike(10), ev.hit(10.3, '5'), ev.hanging(11, '5', 'TL'), ev.rail(13, 'cue', 'left'), ev.pot(13 + afterS, '5', 'TL')], calledBall: '5', calledPocket: 'TL' };
    const c = calls(makeLog([stroke], { start: midway(all, ['solids', 'stripes']) }))[0]!;
    expect(c.potted).toEqual(pocketed ? ['5'] : []);
    expect(c.nextPlayer).toBe(pocketed ? 0 : 1);
    if (!pocketed) expect(c.respot).toEqual([expect.objectContaining({ ball: '5', spot: 'lipTL' })]);
  });
});

describe('spotting on the long string (spec §8.1)', () => {
  const t = builtinProfile('pool8-9ft');
  const R = 57.15 / 2;
  test('a free foot spot', () => {
    expect(spotOnLongString(t, '8', [{ id: '3', x: 200, y: 1905 }])).toEqual({ x: 635, y: 1905, spot: 'foot' });
  });
  test('behind an object ball on the spot, touching it', () => {
    expect(spotOnLongString(t, '8', [{ id: '3', x: 635, y: 1905 }]).y).toBeCloseTo(1905 + 2 * R, 6);
  });
  test('never touching the cue ball: a 1 mm gap', () => {
    expect(spotOnLongString(t, '8', [{ id: 'cue', x: 635, y: 1905 }]).y).toBeCloseTo(1905 + 2 * R + 1, 6);
  });
  test('an off-line ball blocks only the part of the line its disc reaches', () => {
    const dx = 40;
    const y = spotOnLongString(t, '8', [{ id: '3', x: 635 + dx, y: 1905 }]).y;
    expect(y).toBeCloseTo(1905 + Math.sqrt((2 * R) ** 2 - dx ** 2), 6);
  });
  test('a full line to the foot cushion sends it towards the head', () => {
    const wall = Array.from({ length: 12 }, (_, i) => ({ id: String(i < 7 ? i + 1 : i + 2), x: 635, y: 1905 + i * 2 * R }));
    const at = spotOnLongString(t, '8', wall);
    expect(at.y).toBeCloseTo(1905 - 2 * R, 6);
    expect(at.spot).toBe('nearest');
  });
  test.each([
    ['kitchen', 634.9, true],
    ['kitchen', 635, false],
    ['baulk', 507, true],
    ['baulk', 509, false],
  ] as const)('zone %s at y = %s: inside %s', (zone, y, inside) => {
    expect(inZone(t, zone, { x: 600, y })).toBe(inside);
  });
});

describe('table profiles (7, 8, 9 ft)', () => {
  test.each([
    ['pool8-9ft', 560, []],
    ['pool8-8ft', 560, []],
    ['pool8-7ft', 560, ['BAD_PLACEMENT']],
  ] as const)('%s: a break from y = %s mm', (table, y, want) => {
    const s = { events: [ev.place(0, 'cue', 400, y), ev.strike(1), ev.hit(1.3, '1'), ev.pot(2, '3', 'TL')] };
    expect(codes(calls(makeLog([s]), table)[0]!)).toEqual(want);
  });

  test.each([
    ['pool8-9ft', 635, 1905],
    ['pool8-8ft', 584, 1752.8],
    ['pool8-7ft', 495.5, 1485.8],
  ] as const)('%s: the 8 spotted after the break goes on the foot spot (%s, %s; 0.1 mm)', (table, x, y) => {
    const c = calls(makeLog([{ events: [ev.strike(1), ev.hit(1.3, '1'), ev.pot(2, '8', 'TL')], rest: [{ id: 'cue', x: 300, y: 300 }] }]), table)[0]!;
    expect(c.respot).toEqual([{ ball: '8', x, y, spot: 'foot' }]);
  });

  test('a ball that moved between strokes is flagged, not refused', () => {
    const first = { ...shot('3', [], { rail: true }), rest: [...layout(all).filter((b) => b.id !== 'cue'), { id: 'cue', x: 700, y: 700 }] };
    const moved = layout(all).map((b) => (b.id === '9' ? { ...b, x: b.x + 40 } : b.id === 'cue' ? { ...b, x: 700, y: 700 } : b));
    const cs = calls(makeLog([first, { ...shot('10', [], { rail: true, t: 30 }), before: moved }], { start: midway(all, ['solids', 'stripes']) }));
    expect(cs[1]!.review).toContainEqual(expect.objectContaining({ code: 'BALL_MOVED_BETWEEN_STROKES', reason: expect.stringMatching(/ball 9 is 40 mm/) }));
  });
});
