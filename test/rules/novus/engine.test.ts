/** Engine behaviour beyond the §13 table: sets and match, manual fouls, debt, ids, player 1's frame, purity. */
import { describe, expect, test } from 'vitest';
import { strokeLogSchema } from '../../../src/core/contracts/strokes.js';
import { novusRules } from '../../../src/rules/novus/index.js';
import { balls, codes, ev, layout, makeLog, runOk, stroke, TABLE, type Pt } from './helpers.js';

const lastPawn = (player: 0 | 1 = 0) => ({ start: { player, balls: balls(layout({ without: ['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'] })) } });
const winA = stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL')]);

describe('sets and match', () => {
  test('after a set the next stroke opens set 2 from the standard layout, the other player striking first', () => {
    const { calls, state } = runOk(makeLog([winA, stroke(1, [ev.hit(0.4, 'b4'), ev.pot(0.6, 'b4', 'BL')])], lastPawn()));
    // The set-winning stroke ends the series; the next set's first striker is announced.
    expect(calls[0]).toMatchObject({ frameOver: true, winner: 0, setScores: [1, 0], setNumber: 1, matchOver: false, series: false, nextPlayer: 1 });
    expect(calls[1]).toMatchObject({ player: 1, setNumber: 2, scores: [0, 1], frameOver: false, setScores: [1, 0] });
    expect(Object.keys(state.pieces)).toHaveLength(15);
  });

  test.each([
    [{ maxSets: 1, setsToWin: 1 }, true, 0],
    [{ maxSets: 3, setsToWin: 2 }, false, null],
  ])('match format %o: match over %s', (config, over, winner) => {
    const { calls } = runOk(makeLog([winA], { ...lastPawn(), config }));
    expect(calls[0]).toMatchObject({ matchOver: over, matchWinner: winner });
  });

  test('a concession ends the set for the other player', () => {
    const { calls } = runOk(makeLog([{ events: [ev.concede(1, 0)] }], lastPawn()));
    expect(calls[0]).toMatchObject({ frameOver: true, winner: 1, setLost: { player: 0, code: 'CONCEDED' }, fouls: [] });
  });

  test('Q5: the opponent pocketing your last pawn wins you the set', () => {
    const start = { player: 0, balls: balls(layout({ without: ['b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8'] })) };
    const { calls } = runOk(makeLog([stroke(0, [ev.hit(0.4, 'a1'), ev.hit(0.5, 'b1', 'a1'), ev.pot(0.8, 'b1', 'BL')])], { start }));
    expect(calls[0]).toMatchObject({ legal: true, frameOver: true, winner: 1, lossOfTurn: 'L2' });
  });

  test('with a debt, pocketing the last pawn does not win: the debt pawn comes back at once and the series goes on', () => {
    const { calls } = runOk(makeLog([winA], { start: { ...lastPawn().start, debt: [1, 0] } }));
    expect(calls[0]).toMatchObject({ frameOver: false, series: true, nextPlayer: 0, scores: [7, 0], penaltyDebt: [0, 0], debtSettled: [1, 0] });
    expect(calls[0]!.respot).toEqual([{ ball: 'a1', x: 500, y: 984, spot: 'penalty' }]);
  });
});

describe('manual fouls (events entered by the referee)', () => {
  test.each([
    ['CUE_FAULT', 'penalty pawn', { penalty: 1, nextPlayer: 1, frameOver: false }],
    ['DELAY', 'penalty pawn', { penalty: 1, nextPlayer: 1 }],
    ['TABLE_PUSHED', 'loss of set', { legal: false, penalty: 0, frameOver: true, winner: 1, setLost: { player: 0, code: 'TABLE_PUSHED' } }],
    ['UNSPORTSMANLIKE', 'loss of the match', { frameOver: true, winner: 1, matchOver: true, matchWinner: 1 }],
  ])('%s: %s', (code, _what, expected) => {
    const start = { player: 0, balls: balls(layout({ without: ['a8'] })) };
    const { calls } = runOk(makeLog([stroke(0, [ev.hit(0.4, 'a4'), ev.foul(0.9, code)])], { start }));
    expect(calls[0]).toMatchObject(expected);
    expect(calls[0]!.fouls.map((f) => f.code)).toContain(code);
  });

  test('MOVED_IN_OPPONENT_TURN entered without a player is the non-striker’s: he forfeits his next turn', () => {
    const start = { player: 0, balls: balls(layout({ without: ['b8'] })) };
    const { calls } = runOk(makeLog([stroke(0, [ev.hit(0.4, 'a4'), ev.foul(0.9, 'MOVED_IN_OPPONENT_TURN')]), stroke(0, [ev.hit(0.4, 'a5')])], { start }));
    expect(calls[0]).toMatchObject({ legal: true, penaltyPawns: [0, 1], nextPlayer: 0, lossOfTurn: 'L1' });
    expect(calls[0]!.fouls[0]).toMatchObject({ code: 'MOVED_IN_OPPONENT_TURN', player: 1, rule: 'N-P13' });
    expect(calls[1]).toMatchObject({ player: 0, nextPlayer: 1 });
  });

  test('a third warning loses the match', () => {
    const w = (p: 0 | 1) => ({ events: [ev.foul(1, 'WARNING', p)] });
    const { calls } = runOk(makeLog([w(0), w(0), w(0)]));
    expect(calls.map((c) => c.matchOver)).toEqual([false, false, true]);
    expect(calls[2]).toMatchObject({ matchWinner: 1, frameOver: true, winner: 1 });
    expect(calls[0]).toMatchObject({ penalty: 0, nextPlayer: 0 });
  });

  test('a foul entered for the non-striking player costs him the pawn, not the striker', () => {
    const start = { player: 0, balls: balls(layout({ without: ['a8', 'b8'] })) };
    const { calls } = runOk(makeLog([stroke(0, [ev.hit(0.4, 'a4'), ev.pot(0.6, 'a4', 'TL'), ev.foul(0.9, 'DELAY', 1)])], { start }));
    expect(calls[0]).toMatchObject({ legal: true, series: true, nextPlayer: 0, penaltyPawns: [0, 1], scores: [2, 0] });
    expect(calls[0]!.respot).toEqual([{ ball: 'b8', x: 500, y: 16, spot: 'penalty' }]);
  });
});

describe('identities and positions', () => {
  test('the log may name the returned penalty pawn differently: ids are swapped, not rejected', () => {
    const start = { player: 0, balls: balls(layout({ without: ['a7', 'a8'] })) };
    // The referee returns a8 (last pocketed); the log then calls the pawn on the far edge a7.
    const { calls, state } = runOk(
      makeLog([stroke(0, [ev.hit(0.4, 'b4')]), stroke(1, [ev.hit(0.4, 'b1')]), stroke(0, [ev.hit(0.4, 'a7'), ev.pot(0.6, 'a7', 'TR')])], { start }),
    );
    expect(calls[0]!.respot[0]!.ball).toBe('a8');
    expect(calls[2]).toMatchObject({ legal: true, potted: ['a7'], scores: [2, 0] });
    expect(state.pocketed[0].sort()).toEqual(['a7', 'a8']);
  });

  test('a logged penalty placement picks the id the log used and is verified against the rule', () => {
    const start = { player: 0, balls: balls(layout({ without: ['a7', 'a8'] })) };
    const { calls } = runOk(makeLog([stroke(0, [ev.hit(0.4, 'b4'), ev.place(3, 'a7', 540, 984)])], { start }));
    expect(calls[0]!.respot).toEqual([{ ball: 'a7', x: 500, y: 984, spot: 'penalty' }]);
    expect(calls[0]!.review.map((r) => r.code)).toContain('PLACEMENT_MISMATCH');
  });

  test('`before` positions decide light and dark', () => {
    const before = [...balls(layout()), { id: 'striker', x: 500, y: 60 }].map((b) => (b.id === 'a1' ? { ...b, y: 40 } : b));
    const { calls } = runOk(makeLog([{ before, events: [ev.strike(1), ev.hit(1.4, 'a1')] }], { start: { player: 0, balls: balls(layout()) } }));
    expect(calls[0]).toMatchObject({ darkPawns: ['a1'] });
    expect(codes(calls[0]!)).toEqual(['DARK_PAWN_FIRST', 'OWN_ZONE_PAWN_FIRST']);
  });

  test('a pawn `before` shows on the table is taken as there, flagged, even if the rules had it pocketed', () => {
    const start = { player: 0, balls: balls(layout({ without: ['a8'] })) };
    const before = [...balls(layout({ without: ['a8'] })), { id: 'a8', x: 500, y: 984 }];
    const { calls } = runOk(makeLog([{ before, events: [ev.strike(1), ev.hit(1.4, 'a8'), ev.pot(1.7, 'a8', 'TR')] }], { start }));
    expect(calls[0]).toMatchObject({ legal: true, points: 1, scores: [1, 0] });
    expect(calls[0]!.review.find((r) => r.code === 'BEFORE_MISMATCH')?.reason).toMatch(/a8/);
  });

  test('an owed pawn put back by hand before the strike pays the debt', () => {
    const start = { player: 0, balls: balls(layout({ without: ['a8'] })), debt: [1, 0] };
    const { calls } = runOk(makeLog([{ events: [ev.place(0.5, 'a8', 500, 984), ev.place(1, 'striker', 500, 60), ev.strike(2), ev.hit(2.4, 'a1')] }], { start }));
    expect(calls[0]).toMatchObject({ penaltyDebt: [0, 0], scores: [0, 0], legal: true });
    expect(calls[0]!.review.map((r) => r.code)).toContain('DEBT_PAID');
  });

  test('`before` that disagrees with the rules is flagged for review', () => {
    const before = balls(layout({ without: ['a3'] }));
    const { calls } = runOk(makeLog([{ before, events: [ev.strike(1), ev.hit(1.4, 'a1')] }], { start: { player: 0, balls: balls(layout()) } }));
    expect(calls[0]!.review.find((r) => r.code === 'BEFORE_MISMATCH')?.reason).toMatch(/a3/);
  });
});

test('a stroke the log gives to the other player is judged as his and flagged OUT_OF_TURN', () => {
  const start = { player: 0, balls: balls(layout()) };
  const { calls } = runOk(makeLog([stroke(1, [ev.hit(0.4, 'b4'), ev.pot(0.6, 'b4', 'BL')], { player: 1 })], { start }));
  expect(calls[0]).toMatchObject({ player: 1, legal: true, points: 1, scores: [0, 1], nextPlayer: 1 });
  expect(calls[0]!.review.map((r) => r.code)).toContain('OUT_OF_TURN');
});

describe('return line (L3) from the striker path', () => {
  // A pots a4 with a direct stroke; the striker's sampled path leaves A's strip and comes back.
  const path = { striker: [[10, 500, 60], [10.2, 500, 300], [10.5, 500, 650], [11, 500, 300], [11.5, 500, 50]] as [number, number, number][] };
  const pot = [ev.hit(0.5, 'a4'), ev.pot(0.7, 'a4', 'TL')];
  test.each([
    ['seed, light pawns only: L3', {}, layout(), 'L3', 1],
    ['seed, one dark pawn: exempt', {}, layout({ at: { a1: [200, 50] } }), null, 0],
    ['na, one dark pawn but light ones too, direct stroke: L3', { returnLine: 'na' }, layout({ at: { a1: [200, 50] } }), 'L3', 1],
    ['off: never', { returnLine: 'off' }, layout(), null, 0],
  ])('%s', (_w, config, m, loss, next) => {
    const { calls } = runOk(makeLog([stroke(0, pot, { paths: path })], { start: { player: 0, balls: balls(m as Record<string, Pt>) }, config }));
    expect(calls[0]).toMatchObject({ legal: true, points: 1, lossOfTurn: loss, nextPlayer: next, returnLine: loss === 'L3' });
  });

  test('a rest inside the own strip after the far edge counts as a return', () => {
    const rest = [...balls(layout({ without: ['a4'] })), { id: 'striker', x: 520, y: 40 }];
    const { calls } = runOk(makeLog([stroke(0, [...pot, ev.cushion(1.0, 'top')], { rest })], { start: { player: 0, balls: balls(layout()) } }));
    expect(calls[0]).toMatchObject({ lossOfTurn: 'L3', nextPlayer: 1 });
  });

  test('a striker rest copied from its placement is not read as a return', () => {
    const rest = [...balls(layout({ without: ['a4'] })), { id: 'striker', x: 500, y: 60 }];
    const { calls } = runOk(makeLog([stroke(0, pot, { rest })], { start: { player: 0, balls: balls(layout()) } }));
    expect(calls[0]).toMatchObject({ lossOfTurn: null, series: true });
  });

  test('a striker that reached the far edge before its first contact has left its strip: no N-P7 for a strip pawn', () => {
    const m = layout({ without: ['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'], at: { a1: [200, 50] } });
    const out = { striker: [[10, 500, 60], [10.3, 500, 400], [10.6, 300, 120], [10.8, 215, 70]] as [number, number, number][] };
    const { calls } = runOk(makeLog([stroke(0, [ev.cushion(0.4, 'top'), ev.hit(0.8, 'a1')], { paths: out })], { start: { player: 0, balls: balls(m) } }));
    expect(codes(calls[0]!)).toEqual([]);
  });
});

describe("player 1's frame of reference", () => {
  // B's own edge is the top (y = 1000), his far edge the bottom; his left is the contract's right.
  const bOnlyDark = { b1: [300, 950] as Pt, b2: [700, 960] as Pt };
  const start = { player: 1, balls: balls(layout({ without: ['b3', 'b4', 'b5', 'b6', 'b7', 'b8'], at: bOnlyDark })) };
  test.each([
    ['far edge (bottom) first onto own dark pawn: correct', 'bottom', [], 'far'],
    ['top is his own edge: not the far-edge route', 'top', ['BAD_REBOUND', 'OWN_ZONE_PAWN_FIRST'], 'own'],
    ['contract left is his right edge', 'left', ['BAD_REBOUND', 'OWN_ZONE_PAWN_FIRST'], 'right'],
  ])('%s', (_w, side, fouls, rel) => {
    const { calls } = runOk(makeLog([stroke(1, [ev.cushion(0.5, side as 'top'), ev.hit(1.2, 'b2'), ev.pot(1.5, 'b2', 'TL')])], { start }));
    expect(codes(calls[0]!)).toEqual(fouls);
    expect(calls[0]!.edgesBeforeFirstPawn).toEqual([rel]);
  });

  test('player 1 penalty pawn goes to the middle of the bottom edge', () => {
    const s2 = { player: 1, balls: balls(layout({ without: ['b8'] })) };
    const { calls } = runOk(makeLog([stroke(1, [ev.hit(0.4, 'a4')])], { start: s2 }));
    expect(calls[0]).toMatchObject({ penalty: 1, respot: [{ ball: 'b8', x: 500, y: 16, spot: 'penalty' }], nextPlayer: 0 });
  });
});

test('applyStroke is pure: the input state is not changed', () => {
  const log = strokeLogSchema.parse(makeLog([stroke(0, [ev.hit(0.4, 'b4'), ev.pot(0.6, 'a1', 'TL')])], { start: { player: 0, balls: balls(layout({ without: ['a8'] })) } }));
  const init = novusRules.init(log, TABLE);
  if (!init.ok) throw new Error(init.error.message);
  const snapshot = structuredClone(init.value);
  const out = novusRules.applyStroke(init.value, log.strokes[0]!, 0);
  expect(out.ok).toBe(true);
  expect(init.value).toEqual(snapshot);
  if (out.ok) expect(novusRules.describe(out.value.state)).toMatchObject({ scores: [1, 0], pawnsOnBoard: [7, 8], toPlay: 1 });
});
