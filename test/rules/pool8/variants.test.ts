/** Rule profiles chosen by the log's `variant` (spec §9, §10) and flags set through `config`. */
import { describe, expect, test } from 'vitest';
import { PROFILES, resolveProfile } from '../../../src/rules/pool8/index.js';
import { breakStroke, calls, codes, ev, makeLog, midway, shot, type RawStroke } from './helpers.js';

const all = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'];
const onEight = (extra: string[] = []) => midway(['8', '9', '10', ...extra], ['solids', 'stripes']);
const solids = () => midway(all, ['solids', 'stripes']);

interface Row {
  name: string;
  variant?: string;
  config?: Record<string, unknown>;
  start: Record<string, unknown>;
  strokes: RawStroke[];
  want: Record<string, unknown>;
  wantCodes: string[];
}

const rows: Row[] = [
  // WPA call shot with the obvious-shot assist.
  { name: 'WPA: an obvious pot needs no call', start: solids(), strokes: [shot('3', [['3', 'TL']])], want: { callInferred: true, calledBall: '3', calledPocket: 'TL', nextPlayer: 0 }, wantCodes: [] },
  { name: 'WPA: a bank without a call passes the turn (review)', start: solids(), strokes: [shot('3', [['3', 'TL']], { extra: [ev.rail(10.5, '3', 'right')] })], want: { nextPlayer: 1, callFulfilled: null, potted: ['3'] }, wantCodes: [] },
  { name: 'WPA: the 8 with no call on a kick is a wrong pocket', start: onEight(), strokes: [{ events: [ev.strike(10), ev.rail(10.2, 'cue', 'left'), ev.hit(10.5, '8'), ev.pot(11, '8', 'TL')] }], want: { frameOver: true, winner: 1 }, wantCodes: ['EIGHT_WRONG_POCKET'] },
  { name: 'WPA + config scratchOnEightLoses', config: { scratchOnEightLoses: true }, start: onEight(), strokes: [shot('8', [], { rail: true, extra: [ev.pot(11, 'cue', 'BL')] })], want: { frameOver: true, winner: 1 }, wantCodes: ['SCRATCH', 'EIGHT_SCRATCH'] },
  { name: 'WPA + spec flag scratch_on_8_loses', config: { scratch_on_8_loses: true }, start: onEight(), strokes: [shot('8', [], { rail: true, extra: [ev.pot(11, 'cue', 'BL')] })], want: { frameOver: true, winner: 1 }, wantCodes: ['SCRATCH', 'EIGHT_SCRATCH'] },
  { name: 'WPA + spec flags bih_kitchen_only and two_shots_after_foul', config: { bih_kitchen_only: true, two_shots_after_foul: true }, start: solids(), strokes: [shot('9', [], { rail: true })], want: { inHandZone: 'kitchen', visits: 2, penalty: 2 }, wantCodes: ['WRONG_GROUP_FIRST'] },
  { name: 'APA: a group ball counts without a call', variant: 'apa', start: solids(), strokes: [shot('3', [['3', 'TL']], { extra: [ev.rail(10.5, '3', 'right')] })], want: { nextPlayer: 0 }, wantCodes: [] },
  { name: 'APA: the 8 must be called (no inference)', variant: 'apa', start: onEight(), strokes: [shot('8', [['8', 'TL']])], want: { frameOver: true, winner: 1 }, wantCodes: ['EIGHT_WRONG_POCKET'] },
  { name: 'APA: both groups on the deciding shot: the shooter chooses via calledBall', variant: 'apa', start: midway(all, null), strokes: [shot('3', [['3', 'TL'], ['12', 'TR']], { calledBall: '12' })], want: { groups: ['stripes', 'solids'], nextPlayer: 0 }, wantCodes: [] },
  // USA bar: fouls without a scratch leave the cue ball where it lies.
  { name: 'bar: wrong ball first only passes the turn', variant: 'bar', start: solids(), strokes: [shot('9', [], { rail: true })], want: { nextPlayer: 1, inHand: false, inHandZone: null }, wantCodes: ['WRONG_GROUP_FIRST'] },
  { name: 'bar: a scratch gives the cue ball in the kitchen', variant: 'bar', start: solids(), strokes: [shot('3', [], { rail: true, extra: [ev.pot(11, 'cue', 'BL')] })], want: { nextPlayer: 1, inHand: true, inHandZone: 'kitchen' }, wantCodes: ['SCRATCH'] },
  // Blackball.
  { name: 'blackball: potting an opponent ball is a foul', variant: 'blackball', start: solids(), strokes: [shot('3', [['3', 'TL'], ['12', 'TR']])], want: { nextPlayer: 1, visits: 2, freeShot: true, penalty: 2 }, wantCodes: ['OPPONENT_BALL_POTTED'] },
  { name: 'blackball: a missed first visit leaves the second', variant: 'blackball', start: solids(), strokes: [shot('9', [], { rail: true }), shot('12', [], { rail: true, t: 20 })], want: { player: 1, nextPlayer: 1, visits: 1, freeShot: false }, wantCodes: [] },
  { name: 'blackball: after both visits the turn passes', variant: 'blackball', start: solids(), strokes: [shot('9', [], { rail: true }), shot('12', [], { rail: true, t: 20 }), shot('12', [], { rail: true, t: 30 })], want: { player: 1, nextPlayer: 0, visits: 1 }, wantCodes: [] },
  { name: 'blackball: a ball off the table is respotted', variant: 'blackball', start: solids(), strokes: [shot('3', [], { rail: true, extra: [ev.off(10.6, '11')] })], want: { spotted: ['11'], nextPlayer: 1 }, wantCodes: ['OFF_TABLE'] },
  { name: 'blackball: both colours on an open table keep it open', variant: 'blackball', start: midway(all, null), strokes: [shot('3', [['3', 'TL'], ['12', 'TR']])], want: { tableOpen: true, nextPlayer: 0 }, wantCodes: [] },
  { name: 'blackball: one colour assigns it', variant: 'blackball', start: midway(all, null), strokes: [shot('12', [['12', 'TR']])], want: { groups: ['stripes', 'solids'], nextPlayer: 0 }, wantCodes: [] },
  { name: 'blackball: the black in any pocket wins when on it', variant: 'blackball', start: onEight(), strokes: [shot('8', [['8', 'BL']])], want: { frameOver: true, winner: 0 }, wantCodes: [] },
  { name: 'WEPF: two visits, no free shot', variant: 'wepf', start: solids(), strokes: [shot('9', [], { rail: true })], want: { visits: 2, freeShot: false, inHandZone: 'baulk' }, wantCodes: ['WRONG_GROUP_FIRST'] },
  { name: 'IEPF: one visit with the cue ball anywhere', variant: 'iepf', start: solids(), strokes: [shot('9', [], { rail: true })], want: { visits: 1, inHand: true, inHandZone: 'anywhere', inHandOptional: false, penalty: 1 }, wantCodes: ['WRONG_GROUP_FIRST'] },
  // Seed 004 national variants.
  { name: 'Canada: missing the 8 loses', variant: 'canada', start: onEight(), strokes: [shot('9', [], { rail: true })], want: { frameOver: true, winner: 1 }, wantCodes: ['WRONG_GROUP_FIRST', 'EIGHT_MISSED'] },
  { name: 'Canada: an opponent ball pocketed while on the 8 loses', variant: 'canada', start: onEight(), strokes: [shot('8', [['9', 'TL']], { extra: [ev.hit(10.6, '9', '8')] })], want: { frameOver: true, winner: 1 }, wantCodes: ['EIGHT_OPPONENT_BALL'] },
  { name: 'Canada: a split is a foul', variant: 'canada', start: solids(), strokes: [shot('3', [['3', 'TL'], ['12', 'TR']], { calledBall: '3', calledPocket: 'TL' })], want: { nextPlayer: 1, inHand: true }, wantCodes: ['SPLIT_POT'] },
  { name: 'Canada: a double kiss is a foul', variant: 'canada', start: solids(), strokes: [shot('3', [], { rail: true, extra: [ev.hit(10.5, '3')] })], want: { nextPlayer: 1 }, wantCodes: ['DOUBLE_KISS'] },
  {
    name: 'Canada: three failed shots at the 8 lose',
    variant: 'canada',
    start: onEight(),
    strokes: [shot('8', [], { rail: true }), shot('9', [['9', 'TL']], { t: 20, calledBall: '9', calledPocket: 'TL', rail: true }), shot('10', [], { t: 25, rail: true }), shot('8', [], { t: 30, rail: true }), shot('10', [], { t: 40, rail: true }), shot('8', [], { t: 50, rail: true })],
    want: { frameOver: true, winner: 1 },
    wantCodes: ['EIGHT_THREE_MISSES'],
  },
  { name: 'Latin America: the 8 must go where the last own ball went', variant: 'latinamerica', start: midway(['3', '8', '9'], ['solids', 'stripes']), strokes: [shot('3', [['3', 'BR']]), shot('8', [['8', 'TL']], { t: 20, calledBall: '8', calledPocket: 'TL' })], want: { frameOver: true, winner: 1 }, wantCodes: ['EIGHT_WRONG_POCKET'] },
  { name: 'Latin America: fouls give the kitchen', variant: 'latinamerica', start: solids(), strokes: [shot('9', [], { rail: true })], want: { inHandZone: 'kitchen' }, wantCodes: ['WRONG_GROUP_FIRST'] },
  { name: 'Brazil: a foul pockets the opponent\'s lowest ball, the cue ball stays', variant: 'brazil', start: solids(), strokes: [shot('9', [], { rail: true })], want: { awarded: ['9'], inHand: false, nextPlayer: 1 }, wantCodes: ['WRONG_GROUP_FIRST'] },
  { name: 'South America: ball 1 in the wrong side pocket is a foul', variant: 'southamerica', start: solids(), strokes: [shot('1', [['1', 'TL']])], want: { nextPlayer: 1 }, wantCodes: ['WRONG_POCKET'] },
  { name: 'India: a foul after clearing gives two visits', variant: 'india', start: onEight(), strokes: [shot('9', [], { rail: true })], want: { visits: 2, nextPlayer: 1, frameOver: false }, wantCodes: ['WRONG_GROUP_FIRST'] },
  { name: 'Pakistan: two shots after a foul, the cue ball stays', variant: 'pakistan', start: solids(), strokes: [shot('9', [], { rail: true })], want: { visits: 2, inHand: false, penalty: 2 }, wantCodes: ['WRONG_GROUP_FIRST'] },
  {
    name: 'Russia: three fouls in a row on the 8 re-rack the frame',
    variant: 'russia',
    start: onEight(),
    strokes: [shot('9', [], { rail: true }), shot('8', [], { t: 20, rail: true }), shot('10', [], { t: 30, rail: true })],
    want: { rerack: true, stalemate: true, frameOver: true, winner: null, nextPlayer: 0, scores: [0, 0] },
    wantCodes: ['WRONG_GROUP_FIRST'],
  },
  { name: 'New Zealand: a nominated opponent ball potted loses', variant: 'newzealand', start: onEight(), strokes: [shot('9', [['9', 'TL']], { nominated: '9' })], want: { frameOver: true, winner: 1 }, wantCodes: ['NOMINATED_BALL_POTTED'] },
];

describe('pool8 rule profiles', () => {
  test.each(rows)('$name', ({ variant, config, start, strokes, want, wantCodes }) => {
    const o: { variant?: string; config?: Record<string, unknown>; start: Record<string, unknown> } = { start };
    if (variant) o.variant = variant;
    if (config) o.config = config;
    const c = calls(makeLog(strokes, o)).at(-1)!;
    expect(codes(c)).toEqual(wantCodes);
    expect(c).toMatchObject(want);
  });

  test('every profile resolves and config flags override it', () => {
    for (const name of Object.keys(PROFILES)) expect(resolveProfile(name, undefined).ok).toBe(true);
    const r = resolveProfile('blackball', { visitsAfterFoul: 1, freeShot: false });
    expect(r.ok && r.value.flags).toMatchObject({ family: 'blackball', visitsAfterFoul: 1, freeShot: false, jumpIsFoul: true });
  });
});

describe('concession, stalemate, out of turn', () => {
  test('a concession gives the rack to the other player', () => {
    const c = calls(makeLog([{ events: [ev.concede(10, 0)] }], { start: solids() }))[0]!;
    expect(c).toMatchObject({ frameOver: true, winner: 1, scores: [0, 1] });
  });
  test('a stalemate ends the rack drawn; the original breaker breaks the replay', () => {
    const cs = calls(makeLog([{ events: [ev.stalemate(10)] }, breakStroke([['3', 'TL']])], { start: { ...solids(), breaker: 1 } }));
    expect(cs[0]).toMatchObject({ frameOver: true, winner: null, rerack: true, stalemate: true, nextPlayer: 1, scores: [0, 0] });
    expect(cs[1]).toMatchObject({ player: 1, isBreak: true, breakLegal: true });
  });
  test('playing out of turn is a foul by the player who played', () => {
    const c = calls(makeLog([{ ...shot('9', [], { rail: true }), player: 1 }], { start: solids() }))[0]!;
    expect(c).toMatchObject({ player: 1, nextPlayer: 0, inHand: true });
    expect(codes(c)).toEqual(['PLAYED_OUT_OF_TURN']);
  });
});

describe('who starts', () => {
  test('without start.player the first stroke\'s player breaks', () => {
    const cs = calls(makeLog([{ ...breakStroke([['3', 'TL']]), player: 1 }, { ...shot('5', [['5', 'TL']], { calledBall: '5', calledPocket: 'TL', t: 20 }), player: 1 }]));
    expect(cs.map((c) => [c.player, codes(c)])).toEqual([[1, []], [1, []]]);
  });
  test('with start.player the first stroke by the other player is out of turn', () => {
    const c = calls(makeLog([{ ...breakStroke([['3', 'TL']]), player: 1 }], { start: { player: 0 } }))[0]!;
    expect(codes(c)).toEqual(['PLAYED_OUT_OF_TURN']);
  });
});

describe('calls without a pocket', () => {
  const start = () => midway(all, ['solids', 'stripes']);
  test('calledBall alone: a banked group ball counts in the pocket it went into', () => {
    const c = calls(makeLog([shot('3', [['3', 'TL']], { calledBall: '3', extra: [ev.rail(10.5, '3', 'right')] })], { start: start() }))[0]!;
    expect(c).toMatchObject({ calledBall: '3', calledPocket: 'TL', callInferred: true, callFulfilled: true, nextPlayer: 0 });
  });
  test('calledBall "8" alone on a bank: the pocket was not called (L-c)', () => {
    const c = calls(makeLog([shot('8', [['8', 'TL']], { calledBall: '8', extra: [ev.rail(10.5, '8', 'right')] })], { start: onEight() }))[0]!;
    expect(codes(c)).toEqual(['EIGHT_WRONG_POCKET']);
  });
});

describe('touching ball', () => {
  const touchingShot = { touching: ['3'], events: [ev.strike(10), ev.rail(10.8, 'cue', 'top')] };
  test('blackball: playing away from a touching red counts as hitting it', () => {
    const c = calls(makeLog([touchingShot], { variant: 'blackball', start: midway(all, ['solids', 'stripes']) }))[0]!;
    expect(codes(c)).toEqual([]);
  });
  test('WPA: no such rule, hitting nothing is a foul', () => {
    const c = calls(makeLog([touchingShot], { start: midway(all, ['solids', 'stripes']) }))[0]!;
    expect(codes(c)).toEqual(['NO_CONTACT']);
  });
});

describe('blackball cue ball after a foul', () => {
  const foulThen = (next: Record<string, unknown>) => makeLog([shot('9', [], { rail: true }), next as never], { variant: 'blackball', start: midway(all, ['solids', 'stripes']) });
  test('decision kitchen: the cue ball listed before the stroke must be in baulk', () => {
    const c = calls(foulThen({ ...shot('12', [], { rail: true, t: 20 }), decision: 'kitchen', before: [{ id: 'cue', x: 500, y: 900 }] }))[1]!;
    expect(codes(c)).toEqual(['BAD_PLACEMENT']);
  });
  test('played from where it lies: no placement to check', () => {
    const c = calls(foulThen({ ...shot('12', [], { rail: true, t: 20 }), before: [{ id: 'cue', x: 500, y: 900 }] }))[1]!;
    expect(codes(c)).toEqual([]);
  });
});
