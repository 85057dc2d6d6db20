/**
 * The spec's section 13 scenarios (N01–N34), one row each, run through the Novus engine on the
 * default board (S = 1000, zone line 100 ± 1.5, circle radius 100 ± 1.5, pawn Ø 32 hole r 6,
 * striker Ø 38 hole r 7). Player A = 0 strikes from y = 0; A's pawns start along y = 984.
 */
import { describe, expect, test } from 'vitest';
import type { NovusCall } from '../../../src/rules/novus/index.js';
import { balls, codes, ev, layout, makeLog, PLACE, runOk, stroke, type LogOpts, type Pt } from './helpers.js';

const mid = (opts: Parameters<typeof layout>[0] = {}, player: 0 | 1 = 0, extra: Record<string, unknown> = {}): LogOpts => ({
  start: { player, balls: balls(layout(opts)), ...extra },
});
/** A's only pawns: three dark ones in A's own strip (hole inside by ≥ 42 mm). */
const onlyDark = { a1: [200, 50] as Pt, a2: [300, 50] as Pt, a3: [700, 40] as Pt };
const onlyDarkOpts = () => mid({ without: ['a4', 'a5', 'a6', 'a7', 'a8'], at: onlyDark });
const allRest = (m: Record<string, Pt>, striker?: Pt) => [...balls(m), ...(striker ? [{ id: 'striker', x: striker[0], y: striker[1] }] : [])];

interface Row {
  id: string;
  what: string;
  strokes: unknown[];
  opts?: LogOpts;
  /** Foul codes on the judged call, sorted. */
  fouls: string[];
  expect: Partial<NovusCall>;
  /** Which call to check (default: the last). */
  at?: number;
  more?: (calls: NovusCall[]) => void;
}

const rows: Row[] = [
  {
    id: 'N01',
    what: 'opening: legal placement, direct onto own end pawn, it drops in B_L (TR): series continues',
    strokes: [stroke(0, [ev.hit(0.6, 'a8'), ev.pot(0.8, 'a8', 'TR')], {}, [640, 55])],
    fouls: [],
    expect: { legal: true, points: 1, scores: [1, 0], nextPlayer: 0, series: true, strokeType: 'direct', firstContact: ['a8'], penalty: 0 },
    more: (c) => expect(c[0]!.placement).toMatchObject({ legal: true, faults: [] }),
  },
  {
    id: 'N02',
    what: 'direct stroke whose first contact is a B pawn: N-P4, pawn back on the middle of B’s edge',
    opts: mid({ without: ['a7', 'a8'] }),
    strokes: [stroke(0, [ev.hit(0.4, 'b4')])],
    fouls: ['OPPONENT_PAWN_FIRST'],
    expect: { legal: false, penalty: 1, scores: [1, 0], nextPlayer: 1, respot: [{ ball: 'a8', x: 500, y: 984, spot: 'penalty' }] },
  },
  {
    id: 'N03',
    what: 'own and opponent pawn met at the same instant: N-P4',
    opts: mid({ without: ['a8'] }),
    strokes: [stroke(0, [ev.hit(0.4, 'a4'), ev.hit(0.4, 'b4')])],
    fouls: ['OPPONENT_PAWN_FIRST'],
    expect: { penalty: 1, scores: [0, 0], nextPlayer: 1 },
  },
  {
    id: 'N04',
    what: 'striker reaches the far edge and stops, no pawn touched, A has light pawns: N-P3',
    opts: mid({ without: ['a8'] }),
    strokes: [stroke(0, [ev.cushion(0.9, 'top')])],
    fouls: ['NO_CONTACT'],
    // Spec §4: touching an edge and no pawn makes it a rebound.
    expect: { penalty: 1, strokeType: 'rebound', scores: [0, 0], nextPlayer: 1 },
  },
  {
    id: 'N05',
    what: 'A:3/8, a correct pot (A:4/8) then the striker drops into A_R (BR): N-P1, back to 3',
    opts: mid({ without: ['a6', 'a7', 'a8'] }),
    strokes: [stroke(0, [ev.hit(0.4, 'a3'), ev.pot(0.7, 'a3', 'TL'), ev.pot(1.4, 'striker', 'BR')])],
    fouls: ['STRIKER_POCKETED'],
    expect: { points: 1, penalty: 1, scores: [3, 0], nextPlayer: 1, strikerPocketed: true },
  },
  {
    id: 'N06',
    what: 'A:0/8 commits N-P4: penalty debt',
    opts: mid(),
    strokes: [stroke(0, [ev.hit(0.4, 'b2')])],
    fouls: ['OPPONENT_PAWN_FIRST'],
    expect: { penalty: 1, penaltyDebt: [1, 0], respot: [], scores: [0, 0], nextPlayer: 1 },
  },
  {
    id: 'N07',
    what: 'N06 continued: A pockets a pawn, then misses: the debt pawn goes back at the end of the turn',
    opts: mid(),
    strokes: [
      stroke(0, [ev.hit(0.4, 'b2')]),
      stroke(1, [ev.hit(0.4, 'b5')]),
      stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL')]),
      stroke(0, [ev.hit(0.4, 'a5')]),
    ],
    fouls: [],
    expect: { penalty: 0, penaltyDebt: [0, 0], debtSettled: [1, 0], scores: [0, 0], nextPlayer: 1, respot: [{ ball: 'a1', x: 500, y: 984, spot: 'penalty' }] },
    more: (c) => {
      expect(c[2]).toMatchObject({ scores: [1, 0], penaltyDebt: [1, 0], nextPlayer: 0, series: true });
    },
  },
  {
    id: 'N08',
    what: 'own pawn dark in A’s strip (hole inside by 4 mm) struck directly at the start: N-P7 and N-P5, one pawn',
    opts: mid({ without: ['a8'], at: { a1: [430, 88.5] } }),
    strokes: [stroke(0, [ev.hit(0.05, 'a1')], {}, [480, 50])],
    fouls: ['DARK_PAWN_FIRST', 'OWN_ZONE_PAWN_FIRST'],
    expect: { penalty: 1, darkPawns: ['a1'], scores: [0, 0], nextPlayer: 1, penaltyPawns: [1, 0] },
  },
  {
    id: 'N09',
    what: 'pawn straddling A’s zone line (line visible through its hole) is light: correct',
    opts: mid({ at: { a1: [430, 100] } }),
    strokes: [stroke(0, [ev.hit(0.05, 'a1'), ev.pot(0.9, 'a1', 'TL')], {}, [480, 50])],
    fouls: [],
    expect: { legal: true, darkPawns: [], scores: [1, 0], nextPlayer: 0 },
  },
  {
    id: 'N10',
    what: 'own pawn dark in the centre circle (hole inside by 3 mm) struck directly: N-P5',
    opts: mid({ at: { a1: [589.5, 500] } }),
    strokes: [stroke(0, [ev.hit(0.4, 'a1')])],
    fouls: ['DARK_PAWN_FIRST'],
    expect: { penalty: 1, darkPawns: ['a1'], nextPlayer: 1 },
  },
  {
    id: 'N11',
    what: 'side edge, then the own circle pawn, which drops: correct (seed 003 rule 11.4(в))',
    opts: mid({ at: { a1: [589.5, 500] } }),
    strokes: [stroke(0, [ev.cushion(0.3, 'left'), ev.hit(0.7, 'a1'), ev.pot(1.1, 'a1', 'TL')])],
    fouls: [],
    expect: { legal: true, strokeType: 'rebound', edgesBeforeFirstPawn: ['left'], scores: [1, 0], nextPlayer: 0, series: true },
  },
  {
    id: 'N12',
    what: 'only dark pawns: straight to the far edge, back onto an own dark pawn that drops in A_L: correct',
    opts: onlyDarkOpts(),
    strokes: [stroke(0, [ev.cushion(0.6, 'top'), ev.hit(1.3, 'a1'), ev.pot(1.5, 'a1', 'BL')], { rest: allRest({ ...layout({ without: ['a1', 'a4', 'a5', 'a6', 'a7', 'a8'], at: { a2: onlyDark.a2, a3: onlyDark.a3 } }) }, [260, 80]) })],
    fouls: [],
    expect: { legal: true, ballOn: 'dark', strokeType: 'rebound', scores: [6, 0], nextPlayer: 0, series: true, returnLine: false },
  },
  {
    id: 'N13',
    what: 'only dark pawns: rebound off the right side edge into an own strip pawn: N-P6',
    opts: onlyDarkOpts(),
    strokes: [stroke(0, [ev.cushion(0.4, 'right'), ev.hit(0.9, 'a3')])],
    fouls: ['BAD_REBOUND', 'OWN_ZONE_PAWN_FIRST'],
    expect: { penalty: 1, nextPlayer: 1, scores: [4, 0] },
  },
  {
    id: 'N14',
    what: 'light pawns: rebound off the far edge, first pawn a B pawn: N-P4 (UK-N c)',
    opts: mid(),
    strokes: [stroke(0, [ev.cushion(0.6, 'top'), ev.hit(1.0, 'b3')])],
    fouls: ['OPPONENT_PAWN_FIRST'],
    expect: { strokeType: 'rebound', penalty: 1, penaltyDebt: [1, 0] },
  },
  {
    id: 'N15',
    what: 'only dark pawns: far edge, a B pawn, then an A dark pawn which drops, a B pawn drops too: correct, L2',
    opts: onlyDarkOpts(),
    strokes: [stroke(0, [ev.cushion(0.6, 'top'), ev.hit(1.0, 'b3'), ev.pot(1.2, 'b3', 'BL'), ev.hit(1.4, 'a2'), ev.pot(1.6, 'a2', 'BL')])],
    fouls: [],
    expect: { legal: true, points: 1, scores: [6, 1], nextPlayer: 1, lossOfTurn: 'L2', opponentPotted: ['b3'] },
  },
  {
    id: 'N16',
    what: 'light pawns, no dark: pot, then the striker comes back into A’s strip: L3, no penalty',
    opts: mid(),
    strokes: [stroke(0, [ev.cross(0.1, 'zone0', 'out'), ev.hit(0.5, 'a4'), ev.pot(0.7, 'a4', 'TL'), ev.cross(1.6, 'zone0', 'in')])],
    fouls: [],
    expect: { legal: true, penalty: 0, points: 1, scores: [1, 0], nextPlayer: 1, lossOfTurn: 'L3', returnLine: true },
    more: (c) => expect(c[0]!.review.map((r) => r.code)).toContain('RETURN_LINE'),
  },
  {
    id: 'N17',
    what: 'as N16 but A has one dark pawn: exempt (seed 003 rule 12.9), series continues, Q2 flagged',
    opts: mid({ at: { a1: [200, 50] } }),
    strokes: [stroke(0, [ev.cross(0.1, 'zone0', 'out'), ev.hit(0.5, 'a4'), ev.pot(0.7, 'a4', 'TL'), ev.cross(1.6, 'zone0', 'in')])],
    fouls: [],
    expect: { legal: true, scores: [1, 0], nextPlayer: 0, series: true, lossOfTurn: null, returnLine: false },
    more: (c) => expect(c[0]!.review.find((r) => r.code === 'RETURN_LINE')?.reason).toMatch(/exempt/),
  },
  {
    id: 'N18',
    what: 'two pawns stacked after the stroke: laid side by side on the overhang side, no foul',
    opts: mid(),
    strokes: [stroke(0, [ev.hit(0.4, 'a2'), ev.stacked(0.9, 'a2', 'a3')], { rest: allRest(layout({ at: { a2: [368, 705] } }), [300, 500]) })],
    fouls: [],
    expect: { legal: true, nextPlayer: 1 },
    more: (c) => {
      const r = c[0]!.respot.find((x) => x.ball === 'a2')!;
      expect(r.spot).toBe('stacked');
      // a3 lies at (360, 700); a2 overhangs towards +x, +y: laid touching it on that side.
      expect(Math.hypot(r.x - 360, r.y - 700)).toBeCloseTo(32.5, 5);
      expect(r.x).toBeGreaterThan(360);
    },
  },
  {
    id: 'N19',
    what: 'a pawn lands on the striker: laid where the striker lies',
    opts: mid(),
    strokes: [stroke(0, [ev.hit(0.4, 'a2'), ev.stacked(0.9, 'a2', 'striker')], { rest: allRest(layout({ at: { a2: [400, 501] } }), [400, 500]) })],
    fouls: [],
    expect: { respot: [{ ball: 'a2', x: 400, y: 500, spot: 'striker' }] },
  },
  {
    id: 'N20',
    what: 'an own pawn flies, touches the lamp and lands back: logged off the board → L4, at the circle centre',
    opts: mid({ without: ['a8'] }),
    strokes: [stroke(0, [ev.hit(0.4, 'a3'), ev.jump(0.5, 'a3'), ev.off(0.7, 'a3')])],
    fouls: [],
    expect: { legal: true, lossOfTurn: 'L4', offBoard: ['a3'], nextPlayer: 1, respot: [{ ball: 'a3', x: 500, y: 500, spot: 'centre' }] },
    more: (c) => expect(c[0]!.review.map((r) => r.code)).toContain('AIRBORNE'),
  },
  {
    id: 'N21',
    what: 'correct direct stroke drives a B pawn off the board: N-P14, the B pawn back where it was',
    opts: mid({ without: ['a8'] }),
    strokes: [stroke(0, [ev.hit(0.4, 'a3'), ev.hit(0.6, 'b3', 'a3'), ev.off(0.8, 'b3')])],
    fouls: ['OPPONENT_PAWN_OFF'],
    expect: { penalty: 1, scores: [0, 0], nextPlayer: 1 },
    more: (c) => expect(c[0]!.respot).toEqual([
      { ball: 'b3', x: 360, y: 300, spot: 'original' },
      { ball: 'a8', x: 500, y: 984, spot: 'penalty' },
    ]),
  },
  {
    id: 'N22',
    what: 'only dark pawns, correct rebound, an own pawn flies off: L4, placed at the centre of the circle',
    opts: onlyDarkOpts(),
    strokes: [stroke(0, [ev.cushion(0.6, 'top'), ev.hit(1.2, 'a2'), ev.off(1.5, 'a2')])],
    fouls: [],
    expect: { legal: true, lossOfTurn: 'L4', penalty: 0, nextPlayer: 1, respot: [{ ball: 'a2', x: 500, y: 500, spot: 'centre' }] },
  },
  {
    id: 'N22b',
    what: 'as N22 with own_pawn_off_penalty on (NA): N-P18',
    opts: { ...onlyDarkOpts(), config: { own_pawn_off_penalty: true } },
    strokes: [stroke(0, [ev.cushion(0.6, 'top'), ev.hit(1.2, 'a2'), ev.off(1.5, 'a2')])],
    fouls: ['OWN_PAWN_OFF'],
    expect: { penalty: 1, nextPlayer: 1, scores: [4, 0] },
  },
  {
    id: 'N23',
    what: 'A:5/8, a correct stroke pots an A pawn and a B pawn: L2',
    opts: mid({ without: ['a4', 'a5', 'a6', 'a7', 'a8', 'b8'] }),
    strokes: [stroke(0, [ev.hit(0.4, 'a2'), ev.hit(0.5, 'b2', 'a2'), ev.pot(0.6, 'a2', 'TL'), ev.pot(0.9, 'b2', 'BL')])],
    fouls: [],
    expect: { legal: true, points: 1, scores: [6, 2], nextPlayer: 1, lossOfTurn: 'L2', frameOver: false },
  },
  {
    id: 'N24',
    what: 'A:7/8, no debt, past the first series: the last pawn drops, A wins the set',
    opts: mid({ without: ['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'] }),
    strokes: [stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL')])],
    fouls: [],
    expect: { legal: true, scores: [8, 0], frameOver: true, winner: 0, setScores: [1, 0], inHand: false },
  },
  {
    id: 'N25',
    what: 'A:7/8, the last pawn drops but the striker goes off the board: N-P2, back to 7/8',
    opts: mid({ without: ['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'] }),
    strokes: [stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL'), ev.off(1.0, 'striker')])],
    fouls: ['STRIKER_OFF_BOARD'],
    expect: { penalty: 1, scores: [7, 0], frameOver: false, winner: null, nextPlayer: 1, respot: [{ ball: 'a1', x: 500, y: 984, spot: 'penalty' }] },
  },
  {
    id: 'N26',
    what: 'A clears all 8 in the first series, B replies and clears all 8: the set is replayed, B strikes first',
    strokes: [
      stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL'), ev.pot(0.7, 'a2', 'TL'), ev.pot(0.8, 'a3', 'TL'), ev.pot(0.9, 'a4', 'TL')]),
      stroke(0, [ev.hit(0.4, 'a5'), ev.pot(0.6, 'a5', 'TR'), ev.pot(0.7, 'a6', 'TR'), ev.pot(0.8, 'a7', 'TR'), ev.pot(0.9, 'a8', 'TR')]),
      stroke(1, [ev.hit(0.4, 'b1'), ev.pot(0.6, 'b1', 'BL'), ev.pot(0.7, 'b2', 'BL'), ev.pot(0.8, 'b3', 'BL'), ev.pot(0.9, 'b4', 'BL')]),
      stroke(1, [ev.hit(0.4, 'b5'), ev.pot(0.6, 'b5', 'BR'), ev.pot(0.7, 'b6', 'BR'), ev.pot(0.8, 'b7', 'BR'), ev.pot(0.9, 'b8', 'BR')]),
      stroke(1, [ev.hit(0.4, 'b4'), ev.pot(0.6, 'b4', 'BL')]),
    ],
    at: 3,
    fouls: [],
    expect: { setReplay: true, frameOver: false, winner: null, scores: [8, 8], nextPlayer: 1, setScores: [0, 0], setNumber: 1 },
    more: (c) => {
      expect(c[1]).toMatchObject({ firstSeriesSweep: true, nextPlayer: 1, frameOver: false, scores: [8, 0] });
      // The replayed set opens from the standard layout with B to strike.
      expect(c[4]).toMatchObject({ player: 1, scores: [0, 1], setNumber: 1, series: true });
    },
  },
  {
    id: 'N27',
    what: 'N26 variant: B clears all 8 but the striker drops on his last stroke: B loses the set (§8 k)',
    strokes: [
      stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL'), ev.pot(0.7, 'a2', 'TL'), ev.pot(0.8, 'a3', 'TL'), ev.pot(0.9, 'a4', 'TL')]),
      stroke(0, [ev.hit(0.4, 'a5'), ev.pot(0.6, 'a5', 'TR'), ev.pot(0.7, 'a6', 'TR'), ev.pot(0.8, 'a7', 'TR'), ev.pot(0.9, 'a8', 'TR')]),
      stroke(1, [ev.hit(0.4, 'b1'), ev.pot(0.6, 'b1', 'BL'), ev.pot(0.7, 'b2', 'BL'), ev.pot(0.8, 'b3', 'BL'), ev.pot(0.9, 'b4', 'BL')]),
      stroke(1, [ev.hit(0.4, 'b5'), ev.pot(0.6, 'b5', 'BR'), ev.pot(0.7, 'b6', 'BR'), ev.pot(0.8, 'b7', 'BR'), ev.pot(0.9, 'b8', 'BR'), ev.pot(1.2, 'striker', 'BL')]),
    ],
    fouls: ['STRIKER_POCKETED'],
    expect: { frameOver: true, winner: 0, setLost: { player: 1, code: 'FIRST_SERIES_VIOLATION' }, setScores: [1, 0], scores: [8, 7] },
  },
  {
    id: 'N28',
    what: 'striker placed with a side line showing through its hole, then struck: N-P9',
    opts: mid(),
    strokes: [stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL')], {}, [105, 60])],
    fouls: ['BAD_STRIKER_PLACEMENT'],
    expect: { penalty: 1, nextPlayer: 1, scores: [0, 0], points: 1 },
    more: (c) => expect(c[0]!.placement).toMatchObject({ legal: false, faults: ['BEYOND_SIDE_LINE'] }),
  },
  {
    id: 'N29',
    what: 'the striker nudges a pawn while being placed: N-P8',
    strokes: [{ events: [ev.place(1, 'striker', 420, 52), ev.hit(1.5, 'b2'), ev.strike(3), ev.hit(3.5, 'a2'), ev.pot(3.8, 'a2', 'TL')] }],
    fouls: ['PAWN_TOUCHED_PLACING'],
    expect: { penalty: 1, nextPlayer: 1, scores: [0, 0] },
  },
  {
    id: 'N29b',
    what: 'the same nudge logged as a touch of the B pawn beside the placed striker: N-P8, not B’s N-P13',
    strokes: [{ events: [ev.place(1, 'striker', 420, 52), ev.touch(1.5, 'b2', 'hand'), ev.strike(3), ev.hit(3.5, 'a2'), ev.pot(3.8, 'a2', 'TL')] }],
    fouls: ['PAWN_TOUCHED_PLACING'],
    expect: { penalty: 1, penaltyPawns: [1, 0], nextPlayer: 1 },
  },
  {
    id: 'N30',
    what: 'B’s turn: A’s hand moves an A pawn: N-P13, A’s penalty pawn at once, the pawn back, A forfeits his next stroke',
    opts: mid({ without: ['a7', 'a8'] }, 1),
    strokes: [stroke(1, [ev.hit(0.4, 'b4'), ev.touch(0.8, 'a2', 'hand')], { rest: allRest(layout({ without: ['a7', 'a8'], at: { a2: [290, 720] } }), [500, 420]) })],
    fouls: ['MOVED_IN_OPPONENT_TURN'],
    expect: { player: 1, penalty: 1, penaltyPawns: [1, 0], scores: [1, 0], nextPlayer: 1, lossOfTurn: 'L1' },
    more: (c) => {
      expect(c[0]!.fouls[0]!.player).toBe(0);
      expect(c[0]!.respot).toEqual([
        { ball: 'a2', x: 280, y: 700, spot: 'original' },
        { ball: 'a8', x: 500, y: 984, spot: 'penalty' },
      ]);
    },
  },
  {
    id: 'N30b',
    what: 'the same move seen by the camera, with no cause it can name (`touch` by `other`, MOTION_WITHOUT_CONTACT): N-P13, flagged to confirm who moved it',
    opts: mid({ without: ['a7', 'a8'] }, 1),
    strokes: [stroke(1, [ev.hit(0.4, 'b4'), ev.touch(0.8, 'a2', 'other')], { rest: allRest(layout({ without: ['a7', 'a8'], at: { a2: [290, 720] } }), [500, 420]) })],
    fouls: ['MOVED_IN_OPPONENT_TURN'],
    expect: { player: 1, penalty: 1, penaltyPawns: [1, 0], nextPlayer: 1, lossOfTurn: 'L1' },
    more: (c) => {
      expect(c[0]!.fouls[0]!.player).toBe(0);
      expect(c[0]!.review.map((r) => r.code)).toContain('MOVED_IN_OPPONENT_TURN');
    },
  },
  {
    id: 'N31',
    what: 'a second impulse of the striker 40 ms after the first: N-P10',
    opts: mid({ without: ['a8'] }),
    strokes: [stroke(0, [ev.doubleHit(0.04, 0.9), ev.hit(0.4, 'a4')])],
    fouls: ['DOUBLE_HIT'],
    expect: { penalty: 1, nextPlayer: 1 },
    more: (c) => expect(c[0]!.review.find((r) => r.code === 'DOUBLE_HIT')?.ask).toBe('confirm a double stroke'),
  },
  {
    id: 'N31b',
    what: 'the same second impulse seen with low confidence: a review flag, not a call',
    opts: mid({ without: ['a8'] }),
    strokes: [stroke(0, [ev.doubleHit(0.04, 0.3), ev.hit(0.4, 'a4')])],
    fouls: [],
    expect: { penalty: 0, nextPlayer: 1, lossOfTurn: 'L1' },
    more: (c) => expect(c[0]!.review.map((r) => r.code)).toContain('DOUBLE_HIT'),
  },
  {
    id: 'N32',
    what: 'A:2/8, the striker drops without touching a pawn (N-P1 + N-P3): one penalty pawn only',
    opts: mid({ without: ['a7', 'a8'] }),
    strokes: [stroke(0, [ev.cushion(0.6, 'top'), ev.pot(1.4, 'striker', 'TL')])],
    fouls: ['NO_CONTACT', 'STRIKER_POCKETED'],
    expect: { penalty: 1, scores: [1, 0], penaltyPawns: [1, 0] },
  },
  {
    id: 'N33',
    what: 'the middle of B’s edge is taken by a B pawn: A’s penalty pawn at the nearest free place on A’s right',
    opts: mid({ without: ['a7', 'a8'], at: { b1: [500, 984] } }),
    strokes: [stroke(0, [ev.hit(0.4, 'b4')])],
    fouls: ['OPPONENT_PAWN_FIRST'],
    expect: { respot: [{ ball: 'a8', x: 532.5, y: 984, spot: 'penalty' }] },
  },
  {
    id: 'N34',
    what: 'knock_into_dark_penalty on: a direct stroke drives A’s light pawn into A’s strip: N-P19, the pawn back',
    opts: { ...mid({ without: ['a8'], at: { a2: [500, 200] } }), config: { knock_into_dark_penalty: true } },
    strokes: [stroke(0, [ev.hit(0.3, 'a2')], { rest: allRest(layout({ without: ['a8'], at: { a2: [610, 50] } }), [300, 450]) })],
    fouls: ['KNOCKED_INTO_DARK'],
    expect: { penalty: 1, nextPlayer: 1 },
    more: (c) => expect(c[0]!.respot).toEqual([{ ball: 'a2', x: 500, y: 200, spot: 'original' }, { ball: 'a8', x: 500, y: 984, spot: 'penalty' }]),
  },
  {
    id: 'N34b',
    what: 'the same stroke with the flag off (default): no penalty',
    opts: mid({ without: ['a8'], at: { a2: [500, 200] } }),
    strokes: [stroke(0, [ev.hit(0.3, 'a2')], { rest: allRest(layout({ without: ['a8'], at: { a2: [610, 50] } }), [300, 450]) })],
    fouls: [],
    expect: { penalty: 0, respot: [], nextPlayer: 1, lossOfTurn: 'L1' },
  },
];

describe('Novus spec §13 scenarios', () => {
  test.each(rows)('$id: $what', (row) => {
    const { calls } = runOk(makeLog(row.strokes, row.opts));
    const call = calls[row.at ?? calls.length - 1]!;
    expect(codes(call)).toEqual([...row.fouls].sort());
    expect(call).toMatchObject(row.expect);
    row.more?.(calls);
  });
});

// Keep the placement constant honest: the helper's striker spots must be legal placements.
test('helper placements are legal for both players', () => {
  const { calls } = runOk(makeLog([stroke(0, [ev.hit(0.4, 'a1')]), stroke(1, [ev.hit(0.4, 'b1')])], mid()));
  expect(calls.map((c) => c.placement?.legal)).toEqual([true, true]);
  expect(PLACE[1][1]).toBeGreaterThan(900);
});
