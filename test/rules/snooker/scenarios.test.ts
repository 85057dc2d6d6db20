/**
 * Every test scenario of rules-snooker.md §13 (S01–S48), as fixtures: a start position, the
 * strokes, and what the referee must call. Positions in mm on the full-size table.
 */
import { describe, expect, test } from 'vitest';
import { codes, e, layout, only, referee, reviewCodes, spots, SPOT, type StartIn, type StrokeIn } from './helpers.js';

interface Expect {
  codes?: string[];
  reviews?: string[];
  [field: string]: unknown;
}

interface Fixture {
  id: string;
  what: string;
  start: StartIn;
  strokes: StrokeIn[];
  extra?: Record<string, unknown>;
  /** Expectations per call index (negative counts from the end). */
  expect: Record<number, Expect>;
}

/** Standard layout with the white at a point and some reds removed (reds 1..n kept). */
const redsKept = (n: number) => Object.fromEntries(Array.from({ length: 15 - n }, (_, i) => [`red${15 - i}`, null]));

/** S13-style position: the blue hides every red from the white. */
const hiddenByBlue = { white: { x: 889, y: 1600 }, blue: { ...SPOT.blue }, red1: { x: 889, y: 2000 }, red2: { x: 905, y: 2060 }, ...spots('yellow', 'green', 'brown', 'pink', 'black') };
/** A's foul (wrong ball first) that leaves B snookered behind the blue: B gets a free ball. */
const foulLeavingFreeBall: StrokeIn = { events: [e.strike(1), e.hit(1.4, 'black')], rest: only(hiddenByBlue) };
const freeBallStart: StartIn = { player: 0, balls: only({ ...hiddenByBlue, white: { x: 300, y: 1200 } }) };

/** S44: one red ringed on its baulk side by the six colours, 102 mm out, every 30°. */
const ringed = (() => {
  const red = { x: 889, y: 1500 };
  const cols = ['yellow', 'green', 'brown', 'blue', 'pink', 'black'];
  const m: Record<string, { x: number; y: number }> = { red1: red };
  cols.forEach((c, i) => {
    const a = ((195 + 30 * i) * Math.PI) / 180;
    m[c] = { x: red.x + 102 * Math.cos(a), y: red.y + 102 * Math.sin(a) };
  });
  return m;
})();

/** S22: the centre line from the pink spot to the top cushion packed with reds and the black. */
const packed = (() => {
  const m: Record<string, { x: number; y: number }> = { ...spots('yellow', 'green', 'brown', 'blue') };
  let r = 1;
  for (let k = 0; k <= 15; k++) {
    const y = SPOT.pink.y + 56.825 * k;
    if (k === 10) m.black = { x: 889, y };
    else m[`red${r++}`] = { x: 889, y };
  }
  m.white = { x: 400, y: 1500 };
  return m;
})();

const fixtures: Fixture[] = [
  {
    id: 'S01', what: 'break from the D hits the back-row red: legal, no score, turn passes',
    start: { balls: 'standard' },
    strokes: [{ events: [e.place(0, 'white', 1000, 700), e.strike(0.5), e.hit(1.2, 'red15'), e.cushion(1.6, 'red15', 'top')] }],
    expect: { 0: { legal: true, codes: [], scores: [0, 0], nextPlayer: 1, nextBallOn: ['red'], inHand: false } },
  },
  {
    id: 'S02', what: 'cue ball placed 296 mm from the brown spot: F4; the next stroke is not from hand',
    start: { balls: 'standard' },
    strokes: [
      { events: [e.place(0, 'white', 889, 737 - 296), e.strike(0.5), e.hit(1.2, 'red11')], rest: layout({ white: { x: 700, y: 1500 } }) },
      { decision: 'playAgain', events: [e.strike(5), e.hit(5.5, 'red1')] },
    ],
    expect: { 0: { codes: ['CUE_BALL_NOT_IN_D'], penalty: 4, scores: [0, 4], nextPlayer: 1, inHand: false, options: ['play', 'playAgain'] }, 1: { player: 0, codes: [], legal: true } },
  },
  {
    id: 'S03', what: 'red then black: 8 points, black respotted on its spot',
    start: { balls: layout({ white: { x: 889, y: 2400 } }) },
    strokes: [
      { events: [e.strike(1), e.hit(1.3, 'red1'), e.pot(1.9, 'red1', 'TL')] },
      { nominated: 'black', events: [e.strike(5), e.hit(5.4, 'black'), e.pot(5.8, 'black', 'TR')] },
    ],
    expect: { 1: { legal: true, points: 7, scores: [8, 0], break: 8, respot: [{ ball: 'black', x: 889, y: 3245, spot: 'black' }], nextBallOn: ['red'], nextPlayer: 0 } },
  },
  {
    id: 'S04', what: 'red kisses another red, both potted: +2, colour on',
    start: { balls: 'standard' },
    strokes: [{ events: [e.place(0, 'white', 889, 600), e.strike(0.5), e.hit(1, 'red1'), e.hit(1.1, 'red2', 'red1'), e.pot(1.5, 'red1', 'TL'), e.pot(1.6, 'red2', 'TR')] }],
    expect: { 0: { legal: true, points: 2, nextBallOn: ['yellow', 'green', 'brown', 'blue', 'pink', 'black'], redsLeft: 13 } },
  },
  {
    id: 'S05', what: 'two reds hit simultaneously, one potted: legal +1',
    start: { balls: 'standard' },
    strokes: [{ events: [e.place(0, 'white', 889, 600), e.strike(0.5), e.hit(1, 'red3'), e.hit(1, 'red4'), e.pot(1.5, 'red3', 'TL')] }],
    expect: { 0: { legal: true, points: 1, codes: [] } },
  },
  {
    id: 'S06', what: 'red and blue hit simultaneously: F14 at max(4, 1, 5) = 5',
    start: { balls: 'standard' },
    strokes: [{ events: [e.place(0, 'white', 889, 600), e.strike(0.5), e.hit(1, 'red3'), e.hit(1, 'blue')] }],
    expect: { 0: { codes: ['WRONG_BALL_FIRST'], penalty: 5, scores: [0, 5], reviews: ['SIMULTANEOUS_HIT'] } },
  },
  {
    id: 'S07', what: 'in-off while potting a red: F6, red stays down, incoming player in hand',
    start: { balls: layout({ white: { x: 889, y: 2300 } }), scores: [20, 0] },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'red1'), e.pot(1.7, 'red1', 'TL'), e.pot(2.1, 'white', 'TR')] }],
    expect: { 0: { codes: ['IN_OFF'], penalty: 4, scores: [20, 4], points: 0, redsLeft: 14, inHand: true, nextPlayer: 1 } },
  },
  {
    id: 'S08', what: 'black hit first with reds on: F14, 7',
    start: { balls: 'standard' },
    strokes: [{ events: [e.place(0, 'white', 889, 600), e.strike(0.5), e.hit(1.5, 'black')] }],
    expect: { 0: { codes: ['WRONG_BALL_FIRST'], penalty: 7, scores: [0, 7] } },
  },
  {
    id: 'S09', what: 'red kisses the pink into ML: F13 at 6, pink respotted',
    start: { balls: 'standard' },
    strokes: [{ events: [e.place(0, 'white', 889, 600), e.strike(0.5), e.hit(1, 'red1'), e.hit(1.2, 'pink', 'red1'), e.pot(1.8, 'pink', 'ML')] }],
    expect: { 0: { codes: ['POT_NOT_ON'], penalty: 6, scores: [0, 6], respot: [{ ball: 'pink', spot: 'pink' }] } },
  },
  {
    id: 'S10', what: 'green nominated and potted, brown potted by a kiss: F13 at 4, both respotted, green not scored',
    start: { balls: layout({ ...redsKept(14), white: { x: 700, y: 1000 } }), ballOn: ['colour'] },
    strokes: [{ nominated: 'green', events: [e.strike(1), e.hit(1.3, 'green'), e.hit(1.5, 'brown', 'green'), e.pot(1.8, 'green', 'BL'), e.pot(1.9, 'brown', 'BR')] }],
    expect: { 0: { codes: ['POT_NOT_ON'], penalty: 4, points: 0, scores: [0, 4], respot: [{ ball: 'brown', spot: 'brown' }, { ball: 'green', spot: 'green' }] } },
  },
  {
    id: 'S11', what: 'colour after a red, none nominated, a red hit first: F20, 7',
    start: { balls: layout({ ...redsKept(14), white: { x: 889, y: 2300 } }), ballOn: ['colour'] },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'red1')] }],
    expect: { 0: { codes: ['RED_AFTER_RED'], penalty: 7, scores: [0, 7] } },
  },
  {
    id: 'S12', what: 'sleeve touches the blue before a colour is nominated: F23, 7, turn ends at once',
    start: { balls: layout({ ...redsKept(14), white: { x: 889, y: 2300 } }), ballOn: ['colour'] },
    strokes: [{ events: [{ t: 1, type: 'touch', ball: 'blue', by: 'clothing' }] }],
    expect: { 0: { codes: ['NO_NOMINATION', 'TOUCHED_BALL'], penalty: 7, scores: [0, 7], nextPlayer: 1 } },
  },
  {
    id: 'S13', what: 'after a foul every red is hidden by the blue: free ball; the nominated green potted counts 1 and is respotted',
    start: freeBallStart,
    strokes: [foulLeavingFreeBall, { nominated: 'green', events: [e.strike(5), e.hit(5.6, 'green'), e.pot(6.2, 'green', 'BL')] }],
    expect: { 0: { freeBall: true, snookered: true, penalty: 7, scores: [0, 7] }, 1: { legal: true, points: 1, scores: [0, 8], respot: [{ ball: 'green', spot: 'green' }], nextPlayer: 1, nextBallOn: ['yellow', 'green', 'brown', 'blue', 'pink', 'black'] } },
  },
  {
    id: 'S14', what: 'free ball (yellow) and a red potted together: +2, yellow respotted, red stays down',
    start: freeBallStart,
    strokes: [foulLeavingFreeBall, { nominated: 'yellow', events: [e.strike(5), e.hit(5.6, 'yellow'), e.hit(5.8, 'red1', 'yellow'), e.pot(6.2, 'yellow', 'BR'), e.pot(6.4, 'red1', 'TL')] }],
    expect: { 1: { legal: true, points: 2, respot: [{ ball: 'yellow', spot: 'yellow' }], redsLeft: 1, nextBallOn: ['yellow', 'green', 'brown', 'blue', 'pink', 'black'] } },
  },
  {
    id: 'S15', what: 'colours: green on, free ball pink potted with the green: +3, pink respotted, brown on',
    start: { player: 0, balls: only({ white: { x: 300, y: 300 }, ...spots('green', 'brown', 'blue', 'pink', 'black') }) },
    strokes: [
      { events: [e.strike(1), e.hit(1.5, 'blue')], rest: only({ white: { x: 597, y: 300 }, green: { x: 597, y: 737 }, brown: { x: 597, y: 500 }, ...spots('blue', 'pink', 'black') }) },
      { nominated: 'pink', events: [e.strike(5), e.hit(5.5, 'pink'), e.hit(5.7, 'green', 'pink'), e.pot(6, 'pink', 'TL'), e.pot(6.3, 'green', 'BL')] },
    ],
    expect: { 0: { freeBall: true }, 1: { legal: true, points: 3, respot: [{ ball: 'pink', spot: 'pink' }], nextBallOn: ['brown'] } },
  },
  {
    id: 'S16', what: 'free ball (blue) played as a safety leaves every red hidden behind it: F7, 4',
    start: freeBallStart,
    strokes: [foulLeavingFreeBall, { nominated: 'blue', events: [e.strike(5), e.hit(5.6, 'blue')], rest: only({ ...hiddenByBlue }) }],
    expect: { 1: { codes: ['FREE_BALL_SNOOKER'], penalty: 4, scores: [4, 7], nextPlayer: 0 } },
  },
  {
    id: 'S17', what: 'only pink and black: the free ball (black) snookering on the pink is no foul',
    start: { player: 0, balls: only({ white: { x: 200, y: 2000 }, pink: { x: 889, y: 2700 }, black: { x: 889, y: 2500 } }) },
    strokes: [
      { events: [e.strike(1), e.hit(1.5, 'black')], rest: only({ white: { x: 889, y: 2300 }, pink: { x: 889, y: 2700 }, black: { x: 889, y: 2500 } }) },
      { nominated: 'black', events: [e.strike(5), e.hit(5.3, 'black')], rest: only({ white: { x: 889, y: 2300 }, pink: { x: 889, y: 2700 }, black: { x: 889, y: 2480 } }) },
    ],
    expect: { 0: { freeBall: true }, 1: { legal: true, codes: [], nextPlayer: 0 } },
  },
  {
    id: 'S18', what: 'snookered behind the pink (150 mm) and the black (600 mm): free ball, the pink is the effective ball',
    start: { player: 0, balls: only({ white: { x: 300, y: 700 }, pink: { x: 889, y: 1150 }, black: { x: 889, y: 1600 }, red1: { x: 889, y: 2000 }, ...spots('yellow', 'green', 'brown', 'blue') }) },
    strokes: [{ events: [e.strike(1), e.hit(1.5, 'brown')], rest: only({ white: { x: 889, y: 1000 }, pink: { x: 889, y: 1150 }, black: { x: 889, y: 1600 }, red1: { x: 889, y: 2000 }, ...spots('yellow', 'green', 'brown'), blue: { x: 1500, y: 2500 } }) }],
    expect: { 0: { freeBall: true, snookered: true, effectiveSnookeringBall: ['pink'] } },
  },
  {
    id: 'S19', what: 'one red hidden only by the blue, the other only by the brown: free ball, no effective snookering ball',
    start: { player: 0, balls: only({ white: { x: 300, y: 600 }, red1: { x: 600, y: 1600 }, red2: { x: 1180, y: 1600 }, blue: { x: 744.5, y: 1300 }, brown: { x: 1034.5, y: 1300 }, ...spots('yellow', 'green', 'pink', 'black') }) },
    strokes: [{ events: [e.strike(1), e.hit(1.5, 'pink')], rest: only({ white: { x: 889, y: 1000 }, red1: { x: 600, y: 1600 }, red2: { x: 1180, y: 1600 }, blue: { x: 744.5, y: 1300 }, brown: { x: 1034.5, y: 1300 }, ...spots('yellow', 'green', 'pink', 'black') }) }],
    expect: { 0: { freeBall: true, snookered: true, effectiveSnookeringBall: [] } },
  },
  {
    id: 'S20', what: 'black potted, its spot occupied by a red 30 mm away: black goes to the free pink spot',
    start: { balls: only({ white: { x: 1100, y: 2900 }, red1: { x: 889, y: 3275 }, black: { x: 1200, y: 3100 }, pink: { x: 500, y: 2400 }, ...spots('yellow', 'green', 'brown', 'blue') }), ballOn: ['colour'], inHand: false },
    strokes: [{ nominated: 'black', events: [e.strike(1), e.hit(1.2, 'black'), e.pot(1.6, 'black', 'TR')] }],
    expect: { 0: { legal: true, points: 7, respot: [{ ball: 'black', x: 889, y: 2676.75, spot: 'pink' }] } },
  },
  {
    id: 'S21', what: 'pink and black to respot, black spot taken: pink on its own spot, black on the blue spot',
    start: { balls: only({ white: { x: 889, y: 2300 }, red1: { x: 889, y: 3275 }, red2: { x: 300, y: 2000 }, blue: { x: 400, y: 1500 }, pink: { x: 1000, y: 3000 }, black: { x: 1300, y: 3300 }, ...spots('yellow', 'green', 'brown') }), inHand: false },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'red2'), e.hit(1.6, 'pink', 'red2'), e.pot(2, 'pink', 'TR'), e.pot(2.2, 'black', 'TR')], rest: only({ white: { x: 700, y: 1900 }, red1: { x: 889, y: 3275 }, red2: { x: 200, y: 2200 }, blue: { x: 400, y: 1500 }, ...spots('yellow', 'green', 'brown') }) }],
    expect: { 0: { codes: ['POT_NOT_ON', 'POT_NOT_ON'], penalty: 7, respot: [{ ball: 'pink', x: 889, y: 2676.75, spot: 'pink' }, { ball: 'black', x: 889, y: 1784.5, spot: 'blue' }] } },
  },
  {
    id: 'S21b', what: 'the same with respotOrder valueFirst: black takes the pink spot, pink goes to the blue spot',
    start: { balls: only({ white: { x: 889, y: 2300 }, red1: { x: 889, y: 3275 }, red2: { x: 300, y: 2000 }, blue: { x: 400, y: 1500 }, pink: { x: 1000, y: 3000 }, black: { x: 1300, y: 3300 }, ...spots('yellow', 'green', 'brown') }), inHand: false },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'red2'), e.hit(1.6, 'pink', 'red2'), e.pot(2, 'pink', 'TR'), e.pot(2.2, 'black', 'TR')], rest: only({ white: { x: 700, y: 1900 }, red1: { x: 889, y: 3275 }, red2: { x: 200, y: 2200 }, blue: { x: 400, y: 1500 }, ...spots('yellow', 'green', 'brown') }) }],
    extra: { config: { respotOrder: 'valueFirst' } },
    expect: { 0: { respot: [{ ball: 'black', spot: 'pink' }, { ball: 'pink', spot: 'blue' }] } },
  },
  {
    id: 'S22', what: 'pink to respot, every spot taken and the line above packed: placed below its spot, not touching',
    start: { balls: only({ ...packed, pink: { x: 300, y: 2000 } }), inHand: false },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'red1'), e.hit(1.6, 'pink', 'red1'), e.pot(2, 'pink', 'ML')], rest: only(packed) }],
    expect: { 0: { codes: ['POT_NOT_ON'], respot: [{ ball: 'pink', x: 889, y: 2623.75, spot: 'nearest' }] } },
  },
  {
    id: 'S23', what: 'blue to respot, a red on the blue spot and every spot taken: first free point above, (889, 1837.5)',
    start: { balls: only({ white: { x: 400, y: 1200 }, red1: { x: 889, y: 1784.5 }, blue: { x: 1300, y: 2000 }, ...spots('yellow', 'green', 'brown', 'pink', 'black') }), inHand: false },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'blue'), e.pot(2, 'blue', 'MR')], rest: only({ white: { x: 600, y: 1300 }, red1: { x: 889, y: 1784.5 }, ...spots('yellow', 'green', 'brown', 'pink', 'black') }) }],
    expect: { 0: { codes: ['WRONG_BALL_FIRST', 'POT_NOT_ON'].sort(), respot: [{ ball: 'blue', x: 889, y: 1837.5, spot: 'nearest' }] } },
  },
  {
    id: 'S24', what: 'only the black, 60–62: A pots it and wins 67–62',
    start: { scores: [60, 62], balls: only({ white: { x: 889, y: 2800 }, ...spots('black') }) },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'black'), e.pot(1.6, 'black', 'TL')] }],
    expect: { 0: { legal: true, scores: [67, 62], frameOver: true, winner: 0 } },
  },
  {
    id: 'S25', what: 'only the black, 60–62: A misses it, B +7 and the frame ends',
    start: { scores: [60, 62], balls: only({ white: { x: 889, y: 2800 }, ...spots('black') }) },
    strokes: [{ events: [e.strike(1), e.cushion(2, 'white', 'top')] }],
    expect: { 0: { codes: ['NO_CONTACT'], penalty: 7, scores: [60, 69], frameOver: true, winner: 1, miss: false } },
  },
  {
    id: 'S26', what: 'only the black, 60–67: A pots it, scores level → re-spotted black, from hand',
    start: { scores: [60, 67], balls: only({ white: { x: 889, y: 2800 }, ...spots('black') }) },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'black'), e.pot(1.6, 'black', 'TL')] }],
    expect: { 0: { legal: true, scores: [67, 67], frameOver: false, inHand: true, nextBallOn: ['black'], phase: 'RESPOTTED_BLACK', respot: [{ ball: 'black', spot: 'black' }] } },
  },
  {
    id: 'S27', what: 'S26 then B wins the lots, plays first and goes in-off: 7 to A, A wins',
    start: { scores: [60, 67], balls: only({ white: { x: 889, y: 2800 }, ...spots('black') }) },
    strokes: [
      { events: [e.strike(1), e.hit(1.3, 'black'), e.pot(1.6, 'black', 'TL')] },
      { events: [{ t: 9, type: 'lots', player: 1, first: 1 }, e.place(10, 'white', 889, 650), e.strike(11), e.hit(12, 'black'), e.pot(13, 'white', 'TL')] },
    ],
    expect: { 1: { player: 1, codes: ['IN_OFF'], penalty: 7, scores: [74, 67], frameOver: true, winner: 0 } },
  },
  {
    id: 'S28', what: 'clear path to a full red, nobody needs snookers: miss is mandatory',
    start: { scores: [30, 30], balls: layout({ ...redsKept(9), white: { x: 1400, y: 2870 } }) },
    strokes: [{ events: [e.strike(1), e.cushion(2, 'white', 'left')], rest: layout({ ...redsKept(9), white: { x: 300, y: 1000 } }) }],
    expect: { 0: { codes: ['NO_CONTACT'], penalty: 4, miss: true, scores: [30, 34], options: ['play', 'playAgain', 'replace'] } },
  },
  {
    id: 'S29', what: 'restored and missed again: miss, full ball available → warning',
    start: { scores: [30, 30], balls: layout({ ...redsKept(9), white: { x: 1400, y: 2870 } }) },
    strokes: [
      { events: [e.strike(1), e.cushion(2, 'white', 'left')], rest: layout({ ...redsKept(9), white: { x: 300, y: 1000 } }) },
      { decision: 'replace', events: [e.strike(5), e.cushion(6, 'white', 'left')], rest: layout({ ...redsKept(9), white: { x: 300, y: 1000 } }) },
    ],
    expect: { 1: { player: 0, miss: true, missCount: 2, missWarning: true, scores: [30, 38], frameOver: false } },
  },
  {
    id: 'S30', what: 'third miss from the same position: frame awarded to B',
    start: { scores: [30, 30], balls: layout({ ...redsKept(9), white: { x: 1400, y: 2870 } }) },
    strokes: [
      { events: [e.strike(1), e.cushion(2, 'white', 'left')], rest: layout({ ...redsKept(9), white: { x: 300, y: 1000 } }) },
      { decision: 'replace', events: [e.strike(5), e.cushion(6, 'white', 'left')], rest: layout({ ...redsKept(9), white: { x: 300, y: 1000 } }) },
      { decision: 'replace', events: [e.strike(9), e.cushion(10, 'white', 'left')], rest: layout({ ...redsKept(9), white: { x: 300, y: 1000 } }) },
    ],
    expect: { 2: { miss: true, missCount: 3, frameOver: true, winner: 1 } },
  },
  {
    id: 'S31', what: 'A needs snookers (60 behind, 51 left) and misses with a clear path: no miss proposed',
    start: { scores: [0, 60], balls: layout({ ...redsKept(3), white: { x: 889, y: 2300 } }) },
    strokes: [{ events: [e.strike(1), e.cushion(2, 'white', 'left')], rest: layout({ ...redsKept(3), white: { x: 300, y: 1000 } }) }],
    expect: { 0: { codes: ['NO_CONTACT'], penalty: 4, miss: false, scores: [0, 64], reviews: ['MISS_JUDGEMENT'] } },
  },
  {
    id: 'S32', what: 'only the black, A snookered, fails to hit it: 7, never a miss, frame over',
    start: { scores: [50, 40], balls: only({ white: { x: 889, y: 2300 }, black: { ...SPOT.black } }) },
    strokes: [{ events: [e.strike(1), e.cushion(2, 'white', 'left')] }],
    expect: { 0: { codes: ['NO_CONTACT'], penalty: 7, miss: false, scores: [50, 47], frameOver: true, winner: 0 } },
  },
  {
    id: 'S33', what: 'declared touching red5, played away onto the blue, red5 still: legal',
    start: { balls: layout({ white: { x: 760, y: 2850 } }), inHand: false },
    strokes: [{ touching: ['red5'], events: [e.strike(1), e.hit(1.6, 'blue')], rest: layout({ white: { x: 900, y: 1700 }, blue: { x: 950, y: 1500 } }) }],
    expect: { 0: { legal: true, codes: [], nextPlayer: 1 } },
  },
  {
    id: 'S34', what: 'declared touching red5 moves at the stroke: push (TOUCHING_BALL_MOVED), 4',
    start: { balls: layout({ white: { x: 760, y: 2850 } }), inHand: false },
    strokes: [{ touching: ['red5'], events: [e.strike(1), e.hit(1.0, 'red5'), e.hit(1.6, 'blue')] }],
    expect: { 0: { codes: ['TOUCHING_BALL_MOVED'], penalty: 4, scores: [0, 4] } },
  },
  {
    id: 'S35', what: 'touching the pink (not on), played away onto a red: legal',
    start: { balls: layout({ white: { x: 889, y: 2624 } }), inHand: false },
    strokes: [{ touching: ['pink'], events: [e.strike(1), e.hit(1.4, 'red4')] }],
    expect: { 0: { legal: true, codes: [] } },
  },
  {
    id: 'S36', what: 'touching the pink, played onto the black first: F14, 7',
    start: { balls: layout({ white: { x: 889, y: 2624 } }), inHand: false },
    strokes: [{ touching: ['pink'], events: [e.strike(1), e.hit(1.4, 'black')] }],
    expect: { 0: { codes: ['WRONG_BALL_FIRST'], penalty: 7 } },
  },
  {
    id: 'S37', what: 'a red jumps off the table: F17, 4, the red stays off',
    start: { balls: layout({ white: { x: 889, y: 2300 } }), inHand: false },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'red1'), e.off(1.8, 'red1')] }],
    expect: { 0: { codes: ['OFF_TABLE'], penalty: 4, redsLeft: 14, respot: [] } },
  },
  {
    id: 'S38', what: 'a red kisses the blue off the table: F17 at 5, blue respotted',
    start: { balls: layout({ white: { x: 889, y: 2300 } }), inHand: false },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'red1'), e.hit(1.6, 'blue', 'red1'), e.off(2, 'blue')] }],
    expect: { 0: { codes: ['OFF_TABLE'], penalty: 5, respot: [{ ball: 'blue', spot: 'blue' }] } },
  },
  {
    id: 'S39', what: 'the cue ball leaves the table: F17 at the ball-on value, incoming player in hand',
    start: { balls: layout({ white: { x: 889, y: 2300 } }), inHand: false },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'red1'), e.off(1.8, 'white')] }],
    expect: { 0: { codes: ['OFF_TABLE'], penalty: 4, inHand: true } },
  },
  {
    id: 'S40', what: 'struck while a red still rolls at 20 mm/s: F11, 4',
    start: { balls: layout({ white: { x: 889, y: 2300 }, red15: { x: 1500, y: 1000 } }), inHand: false },
    strokes: [{ events: [e.strike(1), e.hit(1.3, 'red1')], paths: { red15: [[0.8, 1500, 1000], [0.9, 1502, 1000], [1.0, 1504, 1000]] } }],
    expect: { 0: { codes: ['STRUCK_WHILE_MOVING'], penalty: 4 } },
  },
  {
    id: 'S41', what: 'struck before the potted black was respotted: F12, 7',
    start: { balls: layout({ white: { x: 889, y: 2300 } }), inHand: false },
    strokes: [
      { events: [e.strike(1), e.hit(1.3, 'red1'), e.pot(1.7, 'red1', 'TL')] },
      { nominated: 'black', events: [e.strike(4), e.hit(4.3, 'black'), e.pot(4.7, 'black', 'TR')] },
      { before: layout({ red1: null, black: null, white: { x: 1400, y: 2900 } }), events: [e.strike(8), e.hit(8.3, 'red2')] },
    ],
    expect: { 2: { codes: ['STRUCK_BEFORE_RESPOT'], penalty: 7, scores: [8, 7] } },
  },
  {
    id: 'S42', what: 'black nominated, the cue ball jumps the pink to reach it: F8 proposed at 7, for review',
    start: { balls: layout({ ...redsKept(14), white: { x: 889, y: 2400 } }), ballOn: ['colour'], inHand: false },
    strokes: [{ nominated: 'black', events: [e.strike(1), { t: 1.2, type: 'jump', ball: 'white', over: 'pink' }, e.hit(1.5, 'black')] }],
    expect: { 0: { codes: ['JUMP_SHOT'], penalty: 7, reviews: ['JUMP_SHOT'] } },
  },
  {
    id: 'S43', what: 'a red hanging over TR since an earlier stroke drops with no contact: replaced, the stroke stands',
    start: { balls: layout({ white: { x: 889, y: 2300 }, red15: { x: 1760, y: 3550 } }), inHand: false },
    strokes: [
      { events: [e.strike(1), e.hit(1.3, 'red1'), e.hit(1.5, 'red15', 'red1'), { t: 2.5, type: 'hanging', ball: 'red15', pocket: 'TR' }] },
      { events: [e.strike(6), e.hit(6.3, 'red2'), e.pot(6.8, 'red2', 'TL'), e.pot(9, 'red15', 'TR')] },
    ],
    expect: { 1: { legal: true, points: 1, potted: ['red2'], redsLeft: 14, respot: [{ ball: 'red15', spot: 'replaced' }], reviews: ['HANGING_BALL_FELL'] } },
  },
  {
    id: 'S44', what: 'in-off leaves the incoming player in hand with the only red hidden from the whole D: free ball',
    start: { balls: only({ white: { x: 889, y: 1100 }, ...ringed }), inHand: false },
    strokes: [{ events: [e.strike(1), e.hit(1.2, 'red1'), e.pot(2, 'white', 'BL')], rest: only(ringed) }],
    expect: { 0: { codes: ['IN_OFF'], inHand: true, freeBall: true, snookered: true } },
  },
  {
    id: 'S45', what: 'only the black, A 70–55, A asks to end the frame: A wins',
    start: { scores: [70, 55], balls: only({ white: { x: 889, y: 2300 }, ...spots('black') }) },
    strokes: [{ events: [{ t: 1, type: 'requestEnd', player: 0 }] }],
    expect: { 0: { frameOver: true, winner: 0, scores: [70, 55] } },
  },
  {
    id: 'S46', what: 'A concedes while B is the striker: rejected',
    start: { player: 1, scores: [40, 50], balls: layout({ white: { x: 889, y: 2300 } }) },
    strokes: [{ events: [{ t: 1, type: 'concede', player: 0 }] }],
    expect: { 0: { frameOver: false, winner: null, scores: [40, 50], reviews: ['CONCESSION_REJECTED'] } },
  },
  {
    id: 'S47', what: 'free ball awarded but a red nominated: ordinary stroke on the red, flagged',
    start: freeBallStart,
    strokes: [foulLeavingFreeBall, { nominated: 'red1', events: [e.strike(5), e.hit(5.6, 'red1')] }],
    expect: { 1: { legal: true, codes: [], nextPlayer: 0, reviews: ['INVALID_FREE_BALL_NOMINATION'] } },
  },
  {
    id: 'S48', what: 'EBSA four-snookers option: 60 behind with 27 left needs 5 snookers → frame awarded',
    start: { scores: [0, 60], balls: only({ white: { x: 889, y: 1500 }, ...spots('yellow', 'green', 'brown', 'blue', 'pink', 'black') }) },
    strokes: [{ events: [e.strike(1), e.hit(1.5, 'yellow')], rest: only({ white: { x: 889, y: 1400 }, yellow: { x: 1100, y: 600 }, ...spots('green', 'brown', 'blue', 'pink', 'black') }) }],
    extra: { config: { ebsaFourSnookers: true } },
    expect: { 0: { legal: true, frameOver: true, winner: 1, reviews: ['FOUR_SNOOKERS'] } },
  },
];

describe('snooker §13 scenarios', () => {
  test.each(fixtures)('$id: $what', (fx) => {
    const doc = referee(fx.start, fx.strokes, fx.extra);
    for (const [k, exp] of Object.entries(fx.expect)) {
      const i = Number(k) < 0 ? doc.calls.length + Number(k) : Number(k);
      const call = doc.calls[i]!;
      const { codes: wantCodes, reviews, ...fields } = exp;
      if (wantCodes) expect(codes(call), `call ${i} fouls`).toEqual([...wantCodes].sort());
      if (reviews) for (const r of reviews) expect(reviewCodes(call), `call ${i} review`).toContain(r);
      expect(call, `call ${i}`).toMatchObject(fields);
    }
  });
});
