/** The break (spec §5): options after the 8 on the break and illegal breaks, each decision followed through. */
import { describe, expect, test } from 'vitest';
import { breakStroke, calls, codes, ev, layout, makeLog, run, shot } from './helpers.js';

const REST14 = layout(['1', '2', '3', '4', '5', '6', '7', '9', '10', '11', '12', '13', '14', '15'], [635, 400]);

describe('8 on the break (B1, B2)', () => {
  test('B1 default: the 8 is spotted and the breaker shoots on with the table open', () => {
    const cs = calls(makeLog([{ ...breakStroke([['8', 'ML']]), rest: REST14 }, shot('4', [['4', 'TL']], { calledBall: '4', calledPocket: 'TL' })]));
    expect(cs[1]).toMatchObject({ player: 0, decision: 'play', legal: true, isBreak: false, groups: ['solids', 'stripes'], nextPlayer: 0 });
  });

  test('B1 spot8 with the foot spot taken: the 8 goes behind the blocking ball, touching it', () => {
    const rest = [...REST14.filter((b) => b.id !== '1'), { id: '1', x: 635, y: 1905 }];
    const c = calls(makeLog([{ ...breakStroke([['8', 'ML']]), rest }]))[0]!;
    expect(c.respot).toEqual([{ ball: '8', x: 635, y: Math.round((1905 + 57.15) * 10) / 10, spot: 'nearest' }]);
  });

  test.each([['breakAgain'], ['rerack']] as const)('B1 %s: the breaker breaks a fresh rack', (decision) => {
    const cs = calls(makeLog([breakStroke([['8', 'ML']]), { ...breakStroke([['2', 'TL']]), decision }]));
    expect(cs[1]).toMatchObject({ player: 0, isBreak: true, decision, breakLegal: true, nextPlayer: 0, rack: 1 });
    expect(cs[1]!.ballOn).toHaveLength(15);
  });

  test('B2 play: the incoming player shoots from the kitchen with the 8 spotted; P4 applies', () => {
    const log = makeLog([
      breakStroke([['8', 'TR']], [ev.pot(2.6, 'cue', 'BL')]),
      { before: [{ id: '6', x: 200, y: 300 }], events: [ev.place(9, 'cue', 400, 300), ev.strike(10), ev.hit(10.4, '6'), ev.rail(10.8, '6', 'left')] },
    ]);
    const cs = calls(log);
    expect(cs[0]).toMatchObject({ spotted: ['8'], inHandZone: 'kitchen', options: ['spot8', 'rerack'], decider: 1 });
    expect(cs[1]).toMatchObject({ player: 1, nextPlayer: 0, inHandZone: 'anywhere' });
    expect(codes(cs[1]!)).toEqual(['BAD_PLAY_FROM_KITCHEN']);
  });

  test('B2 rerack: the incoming player breaks', () => {
    const cs = calls(makeLog([breakStroke([['8', 'TR']], [ev.pot(2.6, 'cue', 'BL')]), { ...breakStroke(), decision: 'rerack' }]));
    expect(cs[1]).toMatchObject({ player: 1, isBreak: true, nextPlayer: 0 });
  });

  test('B2 with the 8 off the table: a foul, not a loss', () => {
    const c = calls(makeLog([breakStroke([], [ev.off(2.4, '8')])]))[0]!;
    expect(c).toMatchObject({ frameOver: false, nextPlayer: 1, spotted: ['8'], options: ['spot8', 'rerack'] });
    expect(codes(c)).toEqual(['OFF_TABLE']);
  });

  test('WPA-2016: an 8 pocketed on a non-scratch foul break may only be spotted', () => {
    const c = calls(makeLog([breakStroke([['8', 'TR']], [ev.off(2.4, '13')])], { variant: 'wpa2016' }))[0]!;
    expect(c.options).toEqual(['spot8']);
  });
});

describe('illegal break (B3) and break fouls (B4, B5)', () => {
  const illegal = breakStroke([], [], ['2', '5']);
  test.each([
    ['play', 1, false],
    ['rerack', 1, true],
    ['breakAgain', 0, true],
  ] as const)('B3 %s: player %i plays; a break again: %s', (decision, player, isBreak) => {
    const next = isBreak ? breakStroke([['3', 'TL']]) : shot('3', [], { rail: true });
    const cs = calls(makeLog([illegal, { ...next, decision }]));
    expect(cs[1]).toMatchObject({ player, isBreak });
  });

  test('B3 with a scratch: accepting the table comes with the cue ball in the kitchen', () => {
    const c = calls(makeLog([breakStroke([], [ev.pot(2.6, 'cue', 'BR')], ['2'])]))[0]!;
    expect(codes(c)).toEqual(['ILLEGAL_BREAK', 'BREAK_SCRATCH']);
    expect(c).toMatchObject({ inHand: true, inHandZone: 'kitchen', options: ['play', 'rerack', 'breakAgain'] });
  });

  test('B4 kitchen: the incoming player takes the cue ball in hand behind the head string', () => {
    const cs = calls(makeLog([breakStroke([], [ev.off(2.4, '13')]), { ...shot('3', [], { rail: true, extra: [ev.cross(10.1, 'cue', 'headString')] }), decision: 'kitchen', before: [{ id: 'cue', x: 500, y: 700 }] }]));
    expect(codes(cs[1]!)).toEqual(['BAD_PLACEMENT']);
    expect(cs[1]!.fouls[0]!.detail).toMatch(/not behind the head string/);
  });

  test('B5: a scratch on a legal break leaves the pocketed balls down and the table open', () => {
    const r = run(makeLog([breakStroke([['3', 'TL'], ['10', 'TR']], [ev.pot(2.7, 'cue', 'BR')])]));
    expect(r.ok && r.final).toMatchObject({ tableOpen: true, pocketed: ['3', '10'], inHandZone: 'kitchen', nextPlayer: 1 });
  });

  test('a break placed outside the kitchen is a foul (3.10)', () => {
    const s = breakStroke([['3', 'TL']]);
    s.events[0] = ev.place(0, 'cue', 600, 800);
    const c = calls(makeLog([s]))[0]!;
    expect(codes(c)).toEqual(['BAD_PLACEMENT']);
    expect(c).toMatchObject({ nextPlayer: 1, inHandZone: 'kitchen' });
  });
});

describe('break rules of other profiles', () => {
  test.each([
    ['APA: the 8 on the break wins', 'apa', breakStroke([['8', 'TL']]), { frameOver: true, winner: 0, scores: [1, 0] }, []],
    ['APA: the 8 on the break with a scratch loses', 'apa', breakStroke([['8', 'TL']], [ev.pot(2.6, 'cue', 'BL')]), { frameOver: true, winner: 1 }, ['BREAK_SCRATCH', 'EIGHT_WITH_FOUL']],
    ['bar: two solids and a stripe give the breaker solids', 'bar', breakStroke([['3', 'TL'], ['4', 'BR'], ['12', 'ML']]), { groups: ['solids', 'stripes'], tableOpen: false, nextPlayer: 0 }, []],
    ['blackball: two balls over the centre string make a legal break', 'blackball', { events: [ev.place(0, 'cue', 600, 300), ev.strike(1), ev.hit(1.3, '1'), ev.cross(2, '4', 'centreLine', 'down'), ev.cross(2.1, '12', 'centreLine', 'down')] }, { breakLegal: true, nextPlayer: 1 }, []],
    ['blackball: an in-off on a legal break gives two visits from baulk', 'blackball', breakStroke([['3', 'TL']], [ev.pot(2.6, 'cue', 'BL')]), { inHandZone: 'baulk', inHandOptional: false, visits: 2, freeShot: true, penalty: 2 }, ['BREAK_SCRATCH']],
    ['WEPF: four balls to a cushion make a legal break', 'wepf', breakStroke(), { breakLegal: true }, []],
    ['IEPF: one pot and one ball past the centre line are only 2 points', 'iepf', breakStroke([['3', 'TL']], [ev.cross(2, '5', 'centreLine', 'down')]), { breakLegal: false, nextPlayer: 1 }, ['ILLEGAL_BREAK']],
  ] as const)('%s', (_name, variant, stroke, want, wantCodes) => {
    const c = calls(makeLog([stroke as never], { variant }))[0]!;
    expect(c).toMatchObject(want);
    expect(codes(c)).toEqual(wantCodes);
  });
});

describe('racks in one log', () => {
  const winRack = (t: number) => [
    { ...breakStroke([['3', 'TL']]) },
    { events: [ev.strike(t), ev.hit(t + 0.2, '8'), ev.pot(t + 0.8, '8', 'TR')], calledBall: '8', calledPocket: 'TR' },
  ];
  test('a loss ends the rack; the other player breaks the next one and racks are counted', () => {
    const cs = calls(makeLog([...winRack(10), ...winRack(40)]));
    // Stroke 1: the 8 pocketed on an open table without a claim: loss; player 1 breaks rack 2.
    expect(cs[1]).toMatchObject({ frameOver: true, winner: 1, scores: [0, 1], nextPlayer: 1 });
    expect(cs[2]).toMatchObject({ player: 1, isBreak: true, rack: 1, scores: [0, 1] });
    expect(cs[3]).toMatchObject({ player: 1, frameOver: true, winner: 0, scores: [1, 1] });
  });

  test('breakOrder winner: the winner breaks', () => {
    const cs = calls(makeLog([...winRack(10), ...winRack(40)], { config: { breakOrder: 'winner' } }));
    expect(cs[2]).toMatchObject({ player: 1 });
    expect(cs[1]!.nextPlayer).toBe(1);
  });
});
