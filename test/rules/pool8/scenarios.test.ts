/**
 * The spec's section 12 test scenarios (P01–P40), one row each: the log, then the fields the last
 * call (or the named call) must carry. Positions: 9-ft table, head string at y = 635.
 */
import { describe, expect, test } from 'vitest';
import { breakStroke, calls, codes, ev, layout, makeLog, midway, shot } from './helpers.js';

const SOLIDS_LEFT = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'];
const all = SOLIDS_LEFT;

interface Row {
  id: string;
  what: string;
  log: unknown;
  /** Index of the call to check (default: the last). */
  at?: number;
  want: Record<string, unknown> & { codes?: string[] };
}

// A rack after P06: 11 down, B in hand in the kitchen; ball 4 moved into the kitchen at (300, 400).
const afterP06 = (second: Record<string, unknown>) =>
  makeLog([
    breakStroke([['11', 'TL']], [ev.pot(2.5, 'cue', 'BL')]),
    second as never,
  ]);

const rows: Row[] = [
  { id: 'P01', what: 'legal break with pots: breaker continues, table open', log: makeLog([breakStroke([['3', 'TL'], ['12', 'MR']])]), want: { codes: [], breakLegal: true, nextPlayer: 0, tableOpen: true, groups: [null, null], potted: ['3', '12'], points: 2, inHand: false } },
  { id: 'P02', what: 'legal break, five balls to rails, nothing down: turn passes', log: makeLog([breakStroke([], [], ['2', '5', '9', '14', '15'])]), want: { codes: [], breakLegal: true, nextPlayer: 1, tableOpen: true, inHand: false } },
  { id: 'P03', what: 'three balls to rails: illegal break and its options', log: makeLog([breakStroke([], [], ['2', '5', '9'])]), want: { codes: ['ILLEGAL_BREAK'], breakLegal: false, nextPlayer: 1, options: ['play', 'rerack', 'breakAgain'], inHand: false } },
  { id: 'P04', what: '8 on the break, no foul: breaker chooses, 8 spotted on the foot spot', log: makeLog([{ ...breakStroke([['8', 'ML']]), rest: layout(['1', '2', '3', '4', '5', '6', '7', '9', '10', '11', '12', '13', '14', '15'], [635, 400]) }]), want: { codes: [], nextPlayer: 0, options: ['spot8', 'breakAgain'], spotted: ['8'], respot: [{ ball: '8', x: 635, y: 1905, spot: 'foot' }], frameOver: false } },
  { id: 'P05', what: '8 and the cue ball down on the break: incoming chooses', log: makeLog([breakStroke([['8', 'TR']], [ev.pot(2.6, 'cue', 'BL')])]), want: { codes: ['BREAK_SCRATCH'], nextPlayer: 1, options: ['spot8', 'rerack'], inHand: true, inHandZone: 'kitchen', frameOver: false } },
  { id: 'P06', what: 'break scratch after a legal break: B in hand in the kitchen, 11 stays down', log: makeLog([breakStroke([['11', 'TL']], [ev.pot(2.5, 'cue', 'BL')])]), want: { codes: ['BREAK_SCRATCH'], nextPlayer: 1, inHand: true, inHandZone: 'kitchen', tableOpen: true, potted: ['11'], points: 0 } },
  { id: 'P07', what: 'from the kitchen, hitting a kitchen ball without crossing the head string', log: afterP06({ before: [{ id: '4', x: 300, y: 400 }], events: [ev.place(9, 'cue', 300, 500), ev.strike(10), ev.hit(10.3, '4'), ev.rail(10.8, '4', 'bottom')] }), want: { codes: ['BAD_PLAY_FROM_KITCHEN'], nextPlayer: 0, inHand: true, inHandZone: 'anywhere' } },
  { id: 'P08', what: 'from the kitchen, the cue ball crosses the string first and comes back', log: afterP06({ before: [{ id: '4', x: 300, y: 400 }], events: [ev.place(9, 'cue', 300, 500), ev.strike(10), ev.cross(10.2, 'cue', 'headString', 'up'), ev.rail(10.8, 'cue', 'top'), ev.cross(11.4, 'cue', 'headString', 'down'), ev.hit(11.9, '4'), ev.rail(12.3, '4', 'bottom')] }), want: { codes: [], legal: true, nextPlayer: 0 } },
  { id: 'P09', what: 'an object ball off the table on a legal break', log: makeLog([breakStroke([], [ev.off(2.4, '13')])]), want: { codes: ['OFF_TABLE'], nextPlayer: 1, inHand: true, inHandZone: 'kitchen', inHandOptional: true, options: ['play', 'kitchen'], offTable: ['13'] } },
  { id: 'P10', what: 'open table: called 3 in TR via a combination off 12 assigns solids', log: makeLog([shot('12', [['3', 'TR']], { calledBall: '3', calledPocket: 'TR', extra: [ev.hit(10.5, '3', '12')] })], { start: midway(all, null) }), want: { codes: [], callFulfilled: true, groups: ['solids', 'stripes'], tableOpen: false, nextPlayer: 0 } },
  { id: 'P11', what: 'open table: hitting the 8 first', log: makeLog([shot('8', [], { rail: true })], { start: midway(all, null) }), want: { codes: ['WRONG_GROUP_FIRST'], nextPlayer: 1, inHandZone: 'anywhere', tableOpen: true } },
  { id: 'P12', what: 'open table: called 10 in ML, 2 also falls: stripes by the call', log: makeLog([shot('10', [['10', 'ML'], ['2', 'TL']], { calledBall: '10', calledPocket: 'ML' })], { start: midway(all, null) }), want: { codes: [], groups: ['stripes', 'solids'], nextPlayer: 0, potted: ['10', '2'] } },
  { id: 'P13', what: 'open table: called 5 misses, 13 drops: no foul, turn passes, still open', log: makeLog([shot('5', [['13', 'TR']], { calledBall: '5', calledPocket: 'BL', rail: true })], { start: midway(all, null) }), want: { codes: [], callFulfilled: false, nextPlayer: 1, tableOpen: true, inHand: false } },
  { id: 'P14', what: 'on solids, a stripe first', log: makeLog([shot('9', [], { rail: true })], { start: midway(all, ['solids', 'stripes']) }), want: { codes: ['WRONG_GROUP_FIRST'], nextPlayer: 1, inHand: true, inHandZone: 'anywhere' } },
  { id: 'P15', what: 'on solids, no rail after contact', log: makeLog([shot('6', [], { rail: false })], { start: midway(all, ['solids', 'stripes']) }), want: { codes: ['NO_RAIL'], nextPlayer: 1, inHand: true } },
  { id: 'P16', what: 'a ball frozen to the right rail stays on it: no rail', log: makeLog([{ frozen: { '6': ['right'] }, events: [ev.strike(10), ev.hit(10.3, '6'), ev.rail(10.5, '6', 'right')] }], { start: midway(all, ['solids', 'stripes']) }), want: { codes: ['NO_RAIL'], nextPlayer: 1 } },
  { id: 'P17', what: 'as P16 but the cue ball reaches the top rail', log: makeLog([{ frozen: { '6': ['right'] }, events: [ev.strike(10), ev.hit(10.3, '6'), ev.rail(10.5, '6', 'right'), ev.rail(11, 'cue', 'top')] }], { start: midway(all, ['solids', 'stripes']) }), want: { codes: [], legal: true, nextPlayer: 1 } },
  { id: 'P18', what: 'called stripe goes in, then the cue ball scratches', log: makeLog([shot('11', [['11', 'TL']], { calledBall: '11', calledPocket: 'TL', extra: [ev.pot(11.5, 'cue', 'MR')] })], { start: midway(all, ['stripes', 'solids']) }), want: { codes: ['SCRATCH'], nextPlayer: 1, inHandZone: 'anywhere', potted: ['11'], points: 0 } },
  { id: 'P19', what: 'on the 8, called TL, the 8 drops: win', log: makeLog([shot('8', [['8', 'TL']], { calledBall: '8', calledPocket: 'TL' })], { start: midway(['9', '8'], ['solids', 'stripes']) }), want: { codes: [], frameOver: true, winner: 0, scores: [1, 0] } },
  { id: 'P20', what: 'on the 8, the 8 in the called pocket and a scratch: loss', log: makeLog([shot('8', [['8', 'TL']], { calledBall: '8', calledPocket: 'TL', extra: [ev.pot(11.6, 'cue', 'BL')] })], { start: midway(['9', '8'], ['solids', 'stripes']) }), want: { codes: ['SCRATCH', 'EIGHT_WITH_FOUL'], frameOver: true, winner: 1, scores: [0, 1] } },
  { id: 'P21', what: 'on the 8, the 8 misses and the cue ball scratches: WPA standard foul', log: makeLog([shot('8', [], { calledBall: '8', calledPocket: 'TL', rail: true, extra: [ev.pot(11.6, 'cue', 'BL')] })], { start: midway(['9', '8'], ['solids', 'stripes']) }), want: { codes: ['SCRATCH'], frameOver: false, nextPlayer: 1, inHandZone: 'anywhere' } },
  { id: 'P21-apa', what: 'P21 under APA (scratch on the 8 loses)', log: makeLog([shot('8', [], { calledBall: '8', calledPocket: 'TL', rail: true, extra: [ev.pot(11.6, 'cue', 'BL')] })], { variant: 'APA', start: midway(['9', '8'], ['solids', 'stripes']) }), want: { codes: ['SCRATCH', 'EIGHT_SCRATCH'], frameOver: true, winner: 1 } },
  { id: 'P22', what: 'on the 8, called TL, the 8 drops in MR', log: makeLog([shot('8', [['8', 'MR']], { calledBall: '8', calledPocket: 'TL' })], { start: midway(['9', '8'], ['solids', 'stripes']) }), want: { codes: ['EIGHT_WRONG_POCKET'], frameOver: true, winner: 1 } },
  { id: 'P23', what: 'the last solid and the 8 on the same shot', log: makeLog([shot('7', [['7', 'TL'], ['8', 'TR']], { calledBall: '7', calledPocket: 'TL' })], { start: midway(['7', '8', '9'], ['solids', 'stripes']) }), want: { codes: ['EIGHT_EARLY'], frameOver: true, winner: 1 } },
  { id: 'P24', what: 'on the 8, the 8 jumps off the table', log: makeLog([shot('8', [], { calledBall: '8', calledPocket: 'TL', extra: [ev.off(10.9, '8')] })], { start: midway(['9', '8'], ['solids', 'stripes']) }), want: { codes: ['EIGHT_OFF_TABLE'], frameOver: true, winner: 1 } },
  { id: 'P25', what: 'two solids left, a combination drives the 8 in', log: makeLog([shot('2', [['8', 'BL']], { calledBall: '2', calledPocket: 'BR', extra: [ev.hit(10.5, '8', '2')] })], { start: midway(['2', '3', '8', '9'], ['solids', 'stripes']) }), want: { codes: ['EIGHT_EARLY'], frameOver: true, winner: 1 } },
  { id: 'P19-video', what: 'joined midway from video with only the 8 left and no groups said: whoever shoots is on the 8 (win)', log: makeLog([shot('8', [['8', 'TL']])], { start: midway(['8'], null) }), want: { codes: [], frameOver: true, winner: 0, groups: ['solids', 'stripes'] } },
  { id: 'P19-open', what: 'the same rack declared open (tableOpen): no claim, so the 8 is early', log: makeLog([shot('8', [['8', 'TL']])], { variant: 'wpa-2016', start: midway(['8'], null, { tableOpen: true }) }), want: { codes: ['WRONG_GROUP_FIRST', 'EIGHT_WITH_FOUL', 'EIGHT_EARLY'], frameOver: true, winner: 1 } },
  { id: 'P26', what: 'open table, all stripes gone, claim stripes and pot the 8: win (WPA-2025)', log: makeLog([shot('8', [['8', 'BR']], { claimGroup: 'stripes', calledBall: '8', calledPocket: 'BR' })], { start: midway(['1', '2', '8'], null) }), want: { codes: [], frameOver: true, winner: 0 } },
  { id: 'P26-2016', what: 'P26 under WPA-2016: wrong ball first and the 8 early', log: makeLog([shot('8', [['8', 'BR']], { claimGroup: 'stripes', calledBall: '8', calledPocket: 'BR' })], { variant: 'wpa-2016', start: midway(['1', '2', '8'], null) }), want: { codes: ['WRONG_GROUP_FIRST', 'EIGHT_WITH_FOUL', 'EIGHT_EARLY'], frameOver: true, winner: 1 } },
  { id: 'P27', what: 'in hand, the hand moves ball 5 while placing', log: makeLog([{ events: [ev.place(9, 'cue', 400, 900), ev.touch(9.2, '5', 'hand'), ev.strike(10), ev.hit(10.3, '3'), ev.rail(10.8, '3', 'top')] }], { start: midway(all, ['solids', 'stripes'], { inHand: true }) }), want: { codes: ['TOUCHED_BALL'], nextPlayer: 1, inHand: true } },
  { id: 'P28', what: 'double hit confirmed', log: makeLog([shot('4', [], { rail: true, extra: [ev.doubleHit(10.35)] })], { start: midway(all, ['solids', 'stripes']) }), want: { codes: ['DOUBLE_HIT'], nextPlayer: 1, inHand: true } },
  { id: 'P29', what: 'struck while a ball was still rolling (entered by the referee)', log: makeLog([shot('4', [], { rail: true, extra: [ev.foul(10, 'STRUCK_WHILE_MOVING')] })], { start: midway(all, ['solids', 'stripes']) }), want: { codes: ['STRUCK_WHILE_MOVING'], nextPlayer: 1, inHand: true } },
  { id: 'P30', what: 'a jump over 10 to hit 1: legal under WPA', log: makeLog([shot('1', [], { rail: true, extra: [ev.jump(10.1, 'cue', '10')] })], { start: midway(all, ['solids', 'stripes']) }), want: { codes: [], legal: true } },
  { id: 'P30-bb', what: 'the same jump under blackball: foul', log: makeLog([shot('1', [], { rail: true, extra: [ev.jump(10.1, 'cue', '10')] })], { variant: 'blackball', start: midway(all, ['solids', 'stripes']) }), want: { codes: ['JUMP_SHOT'], nextPlayer: 1, visits: 2, freeShot: true } },
  { id: 'P31', what: 'a called safety that pots an own ball: no foul, turn passes', log: makeLog([shot('2', [['2', 'TL']], { calledPocket: 'safety' })], { start: midway(all, ['solids', 'stripes']) }), want: { codes: [], nextPlayer: 1, potted: ['2'] } },
  { id: 'P32', what: 'a hanging ball drops 3 s later: pocketed on this shot', log: makeLog([shot('5', [], { calledBall: '5', calledPocket: 'TL', rail: true, extra: [ev.hanging(12, '5', 'TL'), ev.pot(15, '5', 'TL')] })], { start: midway(all, ['solids', 'stripes']) }), want: { codes: [], potted: ['5'], nextPlayer: 0, callFulfilled: true } },
  { id: 'P33', what: 'a hanging ball drops 8 s later: not pocketed, back on the lip', log: makeLog([shot('5', [], { calledBall: '5', calledPocket: 'TL', rail: true, extra: [ev.hanging(12, '5', 'TL'), ev.pot(20, '5', 'TL')] })], { start: midway(all, ['solids', 'stripes']) }), want: { codes: [], potted: [], nextPlayer: 1 } },
  { id: 'P34', what: 'ball 12 bounces out of MR: not pocketed', log: makeLog([{ ...shot('12', [['12', 'MR']], { calledBall: '12', calledPocket: 'MR' }), rest: [{ id: '12', x: 1180, y: 1270 }] }], { start: midway(all, ['stripes', 'solids']) }), want: { codes: [], potted: [], nextPlayer: 1 } },
  { id: 'P34-seed', what: 'the same bounce-out under seed 004\'s rules: counts', log: makeLog([{ ...shot('12', [['12', 'MR']], { calledBall: '12', calledPocket: 'MR' }), rest: [{ id: '12', x: 1180, y: 1270 }] }], { variant: 'seed004', start: midway(all, ['stripes', 'solids']) }), want: { codes: [], potted: ['12'], nextPlayer: 0 } },
  { id: 'P35', what: 'three fouls in a row by A: no loss', log: makeLog([shot('9', [], { rail: true }), shot('3', [], { rail: true, t: 20 }), shot('9', [], { rail: true, t: 30 }), shot('3', [], { rail: true, t: 40 }), shot('9', [], { rail: true, t: 50 })], { start: midway(all, ['solids', 'stripes']) }), want: { codes: ['WRONG_GROUP_FIRST'], frameOver: false, nextPlayer: 1, inHand: true } },
  { id: 'P36', what: 'blackball: only one ball over the centre string', log: makeLog([{ events: [ev.place(0, 'cue', 600, 300), ev.strike(1), ev.hit(1.3, '1'), ev.cross(2, '4', 'centreLine', 'down'), ev.rail(2.2, '2', 'left')] }], { variant: 'blackball' }), want: { codes: ['ILLEGAL_BREAK'], breakLegal: false, nextPlayer: 1, options: ['play', 'rerack'], visits: 2, freeShot: true } },
  { id: 'P37', what: 'blackball: black and an in-off on the break: same breaker re-breaks', log: makeLog([breakStroke([['8', 'TL']], [ev.pot(2.6, 'cue', 'BR')])], { variant: 'blackball' }), want: { rerack: true, nextPlayer: 0, frameOver: false, codes: [] } },
  { id: 'P38', what: 'blackball free shot: hit a yellow (opponent colour) first, pot a red', log: makeLog([shot('3', [], { rail: true }), shot('9', [['3', 'TL']], { t: 20 })], { variant: 'blackball', start: midway(all, ['stripes', 'solids']) }), want: { codes: [], legal: true, nextPlayer: 1, groups: ['stripes', 'solids'], visits: 2 } },
  { id: 'P39', what: 'blackball total snooker: no cushion needed', log: makeLog([{ totalSnooker: true, events: [ev.strike(10), ev.hit(10.4, '3')] }], { variant: 'blackball', start: midway(all, ['solids', 'stripes']) }), want: { codes: [], legal: true, nextPlayer: 1 } },
  { id: 'P40', what: 'blackball: the black potted with reds left', log: makeLog([shot('3', [['8', 'TL']], { extra: [ev.hit(10.5, '8', '3')] })], { variant: 'blackball', start: midway(all, ['solids', 'stripes']) }), want: { codes: ['EIGHT_EARLY'], frameOver: true, winner: 1 } },
];

describe('pool8 spec §12 scenarios', () => {
  test.each(rows)('$id: $what', ({ log, at, want }) => {
    const cs = calls(log);
    const c = cs[at ?? cs.length - 1]!;
    const { codes: wantCodes, ...fields } = want;
    if (wantCodes) expect(codes(c)).toEqual(wantCodes);
    expect(c).toMatchObject(fields);
  });
});
