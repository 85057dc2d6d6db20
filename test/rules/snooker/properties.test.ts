/**
 * Properties of the snooker referee over generated, legal-looking frames (spec §2, §5–§9, §11).
 *
 * A frame is built stroke by stroke from a random tape: each stroke is valid input for the position
 * the rules leave (balls on the table, cue ball in hand or not, the decision after a foul), so the
 * referee must answer every log with calls, never an error or an exception. The generator reads the
 * engine's state only for where the balls are and what is on (what the incoming player may choose);
 * every property is then checked on what `refereeLog` returns for the whole log.
 */
import { writeFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { StrokeEvent, Stroke } from '../../../src/core/contracts/strokes.js';
import { strokeLogSchema } from '../../../src/core/contracts/strokes.js';
import { builtinProfile, type PointMm } from '../../../src/core/table.js';
import { refereeLog } from '../../../src/rules/registry.js';
import { COLOURS, isColour, isRed } from '../../../src/rules/snooker/balls.js';
import { snookerRules, type SnookerCall } from '../../../src/rules/snooker/engine.js';
import { pointsRemaining, redsOnTable, type SnookerState } from '../../../src/rules/snooker/state.js';

const table = builtinProfile('snooker');
const W = table.bed.width;
const L = table.bed.length;
const R = 26.25;
const POCKETS = ['BL', 'BR', 'ML', 'MR', 'TL', 'TR'] as const;

/** Deterministic choices from a fast-check tape (shrinks with it). */
class Tape {
  private i = 0;
  constructor(private readonly ints: readonly number[]) {}
  int(n: number): number {
    if (n <= 1 || this.ints.length === 0) return 0;
    const v = this.ints[this.i % this.ints.length]! + Math.floor(this.i / this.ints.length) * 7919;
    this.i++;
    return v % n;
  }
  pct(): number {
    return this.int(100);
  }
  pick<T>(xs: readonly T[]): T {
    return xs[this.int(xs.length)]!;
  }
  real(lo: number, hi: number): number {
    return lo + ((hi - lo) * this.int(10001)) / 10000;
  }
}

type RawLog = { format: 'cueref.strokes/1'; game: 'snooker'; players: [string, string]; start: Record<string, unknown>; config: Record<string, unknown>; strokes: Stroke[] };

/**
 * The in-hand snooker test walks a grid over the D three times (±2 mm margin) and costs about half a
 * second per foul when the incoming player is snookered from the whole D at the default 5 mm. None
 * of the properties here depends on the grid, so the generated logs use a 20 mm grid to stay fast;
 * geometry.test.ts tests the grid itself.
 */
const CONFIG = { dGridStepMm: 20 };

interface View {
  balls: Record<string, PointMm>;
  inHand: boolean;
  phase: SnookerState['phase'];
  colourOn: SnookerState['colourOn'];
  freeBall: boolean;
}

const free = (p: PointMm, balls: Record<string, PointMm>, except: readonly string[] = [], gap = 1) =>
  p.x >= R && p.x <= W - R && p.y >= R && p.y <= L - R && Object.entries(balls).every(([id, b]) => except.includes(id) || Math.hypot(b.x - p.x, b.y - p.y) >= 2 * R + gap);

/** A free point on the bed: random, or close beside a ball (touching-ball territory), or a scan. */
function freePoint(t: Tape, balls: Record<string, PointMm>, except: readonly string[]): PointMm {
  const ids = Object.keys(balls).filter((id) => !except.includes(id));
  for (let k = 0; k < 12; k++) {
    let p: PointMm;
    if (ids.length && t.pct() < 25) {
      const b = balls[t.pick(ids)]!;
      const a = t.real(0, 2 * Math.PI);
      const d = 2 * R + t.real(0.2, 3);
      p = { x: b.x + d * Math.cos(a), y: b.y + d * Math.sin(a) };
      if (free(p, balls, except, 0.1)) return p;
    } else {
      p = { x: t.real(R + 1, W - R - 1), y: t.real(R + 1, L - R - 1) };
      if (free(p, balls, except)) return p;
    }
  }
  for (let y = 100; y < L; y += 60) for (let x = 100; x < W; x += 60) if (free({ x, y }, balls, except)) return { x, y };
  throw new Error('no free point on the table');
}

/** Where the striker places the cue ball in hand: in the D, sometimes (10 %) outside it. */
function placePoint(t: Tape, balls: Record<string, PointMm>): PointMm {
  const others = Object.fromEntries(Object.entries(balls).filter(([id]) => id !== 'white'));
  if (t.pct() < 10) {
    for (let k = 0; k < 6; k++) {
      const p = t.pick([{ x: 889, y: 400 }, { x: 400, y: 500 }, { x: 1300, y: 600 }, { x: 889, y: 800 }, { x: 889, y: 737 - 300 }]);
      if (free(p, others)) return p;
    }
  }
  for (let k = 0; k < 12; k++) {
    const a = t.real(Math.PI, 2 * Math.PI);
    const r = t.real(0, 290);
    const p = { x: 889 + r * Math.cos(a), y: 737 + r * Math.sin(a) };
    if (free(p, others)) return p;
  }
  for (let y = 700; y > 450; y -= 20) for (let x = 620; x < 1160; x += 20) if (Math.hypot(x - 889, y - 737) < 290 && free({ x, y }, others)) return { x, y };
  throw new Error('no room in the D');
}

/** One stroke for the position the engine is in, valid input by construction. */
function genStroke(st: SnookerState, t: Tape, i: number): Stroke {
  const t0 = 10 * i + 5;
  const events: StrokeEvent[] = [];
  const stroke: Stroke = { events };
  let view: View = { balls: st.balls, inHand: st.inHand, phase: st.phase, colourOn: st.colourOn, freeBall: st.freeBall };
  if (st.foul) {
    const choices = st.foul.miss ? (['play', 'play', 'playAgain', 'replace', 'replace'] as const) : (['play', 'play', 'play', 'playAgain'] as const);
    const decision = t.pick(choices);
    if (decision !== 'play' || t.pct() < 50) stroke.decision = decision;
    if (decision === 'replace') {
      const sn = st.foul.snapshot;
      view = { balls: sn.balls, inHand: sn.inHand, phase: sn.phase, colourOn: sn.colourOn, freeBall: false };
    } else if (decision === 'playAgain') view = { ...view, freeBall: false };
  }
  if (st.awaitingLots && t.pct() < 80) {
    const player = t.int(2) as 0 | 1;
    events.push(t.pct() < 50 ? { t: t0 - 0.5, type: 'lots', player } : { t: t0 - 0.5, type: 'lots', player, first: t.int(2) as 0 | 1 });
  }
  const balls = { ...view.balls };
  if (view.inHand) {
    const p = placePoint(t, balls);
    events.push({ t: t0 - 0.2, type: 'place', ball: 'white', x: p.x, y: p.y });
    balls.white = p;
  }
  const objects = Object.keys(balls).filter((id) => id !== 'white');
  const reds = objects.filter(isRed);
  const colours = objects.filter(isColour);

  // Nomination: a colour after a red (usually); sometimes a free ball.
  let nominated: string | undefined;
  if (view.phase === 'COLOUR_AFTER_RED') {
    if (colours.length && t.pct() < 85) nominated = t.pick(colours);
  } else if (view.freeBall && t.pct() < 60) {
    const notOn = objects.filter((b) => (view.phase === 'RED_ON' ? !isRed(b) : b !== view.colourOn));
    if (notOn.length) nominated = t.pick(notOn);
    if (t.pct() < 10) nominated = view.phase === 'RED_ON' ? t.pick(reds.length ? reds : objects) : view.colourOn; // a ball on: not a valid free ball (S47)
    if (nominated !== undefined && !balls[nominated]) nominated = undefined;
  }
  if (nominated) stroke.nominated = nominated;

  const on: string[] =
    view.phase === 'RED_ON' ? reds : view.phase === 'COLOUR_AFTER_RED' ? (nominated ? [nominated] : colours) : view.phase === 'COLOURS_SEQUENCE' ? [view.colourOn].filter((c) => balls[c]) : ['black'];

  events.push({ t: t0, type: 'strike', ball: 'white' });
  let first: string | null = null;
  const roll = t.pct();
  if (roll < 10 || objects.length === 0) first = null;
  else if (roll < 78 && (on.length || nominated)) first = view.freeBall && nominated && t.pct() < 60 ? nominated : on.length ? t.pick(on) : nominated!;
  else first = t.pick(objects);
  if (first && !balls[first]) first = null;
  if (first) {
    events.push({ t: t0 + 0.3, type: 'contact', a: 'white', b: first });
    // Sometimes a second object ball at the very same time (a simultaneous hit).
    if (t.pct() < 5 && objects.length > 1) {
      const second = t.pick(objects.filter((b) => b !== first));
      events.push({ t: t0 + 0.3, type: 'contact', a: 'white', b: second });
    }
  }

  // Pots: usually the ball hit first, sometimes others it kissed.
  const potted: string[] = [];
  if (first) {
    const pr = t.pct();
    const n = pr < 45 ? 0 : pr < 80 ? 1 : pr < 93 ? 2 : 3;
    for (let k = 0; k < n; k++) {
      const cand = k === 0 && t.pct() < 75 ? first : t.pick(objects);
      if (!potted.includes(cand)) potted.push(cand);
    }
  } else if (t.pct() < 4 && objects.length) potted.push(t.pick(objects));
  let te = t0 + 0.5;
  for (const b of potted) {
    if (b !== first && first) events.push({ t: (te += 0.05), type: 'contact', a: first, b });
  }
  for (const b of potted) events.push({ t: (te += 0.1), type: 'pot', ball: b, pocket: t.pick(POCKETS) });
  const off: string[] = [];
  const offRoll = t.pct();
  if (offRoll < 3) {
    const cand = objects.filter((b) => !potted.includes(b));
    if (cand.length) off.push(t.pick(cand));
  }
  const whitePotted = t.pct() < 8;
  const whiteOff = !whitePotted && offRoll >= 3 && offRoll < 5;
  if (whitePotted) events.push({ t: (te += 0.1), type: 'pot', ball: 'white', pocket: t.pick(POCKETS) });
  if (whiteOff) off.push('white');
  for (const b of off) events.push({ t: (te += 0.1), type: 'offTable', ball: b });

  // Rest: every ball still on the bed; the white and (sometimes) the ball hit first have moved.
  const rest: Record<string, PointMm> = {};
  for (const [id, p] of Object.entries(balls)) if (!potted.includes(id) && !off.includes(id) && id !== 'white') rest[id] = p;
  if (first && rest[first] && t.pct() < 50) {
    delete rest[first];
    rest[first] = freePoint(t, rest, []);
  }
  if (!whitePotted && !whiteOff) rest.white = freePoint(t, rest, ['white']);
  stroke.rest = Object.entries(rest).map(([id, p]) => ({ id, x: p.x, y: p.y }));
  return stroke;
}

interface Built {
  [fc.toStringMethod]?: () => string;
  log: RawLog;
  /** The stroke the engine refused while the log was being built, if any (a failure). */
  error?: unknown;
}

/**
 * Frames are memoised: every property below runs over the same seeded sequence of frames, so each
 * frame is built and judged once (the referee's in-hand snooker test is costly).
 */
const built = new Map<string, Built>();
function buildFrame(ints: readonly number[], nStrokes: number, start: Record<string, unknown> = { player: 0, scores: [0, 0], balls: 'standard' }): Built {
  const key = JSON.stringify([ints, nStrokes, start]);
  let b = built.get(key);
  if (!b) {
    b = buildFrameNow(ints, nStrokes, start);
    const n = b.log.strokes.length;
    b[fc.toStringMethod] = () => `<frame of ${n} strokes from ${JSON.stringify(start).slice(0, 60)}…; set PROPS_DUMP=file to save it>`;
    built.set(key, b);
  }
  return b;
}

function buildFrameNow(ints: readonly number[], nStrokes: number, start: Record<string, unknown>): Built {
  const log: RawLog = { format: 'cueref.strokes/1', game: 'snooker', players: ['A', 'B'], start, config: CONFIG, strokes: [] };
  const t = new Tape(ints);
  const init = snookerRules.init(strokeLogSchema.parse(log), table);
  if (!init.ok) return { log, error: init.error };
  let st = init.value;
  for (let i = 0; i < nStrokes && !st.frameOver; i++) {
    const stroke = genStroke(st, t, i);
    const out = snookerRules.applyStroke(st, stroke, i);
    log.strokes.push(stroke);
    if (!out.ok) return { log, error: out.error };
    st = out.value.state;
  }
  return { log };
}

const tapeArb = fc.array(fc.nat({ max: 2 ** 30 }), { minLength: 20, maxLength: 400 });
const frameArb = fc.tuple(tapeArb, fc.integer({ min: 1, max: 45 })).map(([ints, n]) => buildFrame(ints, n));
/** Frames joined near the end: few reds, or only colours, so the end of the frame comes up. */
const lateStart = fc.constantFrom(
  // Three reds left (positions of a standard rack's apex and two of its row), colours on their spots.
  { player: 0, scores: [40, 38], balls: [...COLOURS.map((c) => ({ id: c, x: table.spots[c]!.x, y: table.spots[c]!.y })), { id: 'red1', x: 889, y: 2731 }, { id: 'red2', x: 862, y: 2777 }, { id: 'red3', x: 916, y: 2777 }, { id: 'white', x: 889, y: 1200 }] },
  // Colours only, scores close: the black decides (re-spotted black when level).
  { player: 1, scores: [50, 41], balls: [...COLOURS.map((c) => ({ id: c, x: table.spots[c]!.x, y: table.spots[c]!.y })), { id: 'white', x: 600, y: 1500 }] },
  // Pink and black only.
  { player: 0, scores: [60, 53], balls: [{ id: 'pink', x: 889, y: 2676.75 }, { id: 'black', x: 889, y: 3245 }, { id: 'white', x: 889, y: 2000 }] },
  // Black only, 7 behind: potting it ties → re-spotted black.
  { player: 0, scores: [60, 67], balls: [{ id: 'black', x: 889, y: 3245 }, { id: 'white', x: 889, y: 2900 }] },
);
const lateFrameArb = fc.tuple(tapeArb, fc.integer({ min: 1, max: 25 }), lateStart).map(([ints, n, start]) => buildFrame(ints, n, start));

type Calls = SnookerCall[];
const judged = new WeakMap<Built, Calls>();
function judge(b: Built): Calls {
  const hit = judged.get(b);
  if (hit) return hit;
  const calls = judgeNow(b);
  judged.set(b, calls);
  return calls;
}

function judgeNow(b: Built): Calls {
  expect(b.error, `the engine refused generated stroke ${b.log.strokes.length - 1}: ${JSON.stringify(b.error)}`).toBeUndefined();
  let res!: ReturnType<typeof refereeLog>;
  expect(() => (res = refereeLog(b.log))).not.toThrow();
  if (!res.ok) expect.fail(`refereeLog returned an error: ${JSON.stringify(res.error)}`);
  const calls = res.value.calls as Calls;
  expect(calls).toHaveLength(b.log.strokes.length);
  calls.forEach((c, k) => expect(c.stroke).toBe(k));
  return calls;
}

/** Points remaining and reds on the table at the start of the log. */
function initial(b: Built): { remaining: number; reds: number } {
  const st = snookerRules.init(strokeLogSchema.parse(b.log), table);
  if (!st.ok) throw new Error(JSON.stringify(st.error));
  return { remaining: pointsRemaining(st.value), reds: redsOnTable(st.value).length };
}

const startScores = (b: Built): [number, number] => ((b.log.start.scores as [number, number] | undefined) ?? [0, 0]);
const SEED = 20261129;
/** Frames per property (each one judged once, memoised): about 6 s of CPU for the whole file. */
const FULL_RUNS = 35;
const LATE_RUNS = 40;
const run = (arb: fc.Arbitrary<Built>, check: (b: Built, calls: Calls) => void, numRuns = 120, seed = SEED) =>
  fc.assert(
    fc.property(arb, (b) => {
      try {
        check(b, judge(b));
      } catch (e) {
        // PROPS_DUMP=file keeps the failing log for a closer look (the report only names its size).
        if (process.env.PROPS_DUMP) writeFileSync(process.env.PROPS_DUMP, JSON.stringify(b.log, null, 1));
        throw e;
      }
    }),
    { numRuns, seed, endOnFailure: true },
  );

describe.each([
  { name: 'full frames from the break', arb: frameArb, runs: FULL_RUNS },
  { name: 'frames joined near the end', arb: lateFrameArb, runs: LATE_RUNS },
])('$name', ({ arb, runs }) => {
  test('(a) every generated log is judged: ok, one call per stroke, no exception', () => {
    run(arb, () => {}, runs);
  });

  test('(b) the scores change by `points` for the striker and `penalty` for the opponent, nothing else', () => {
    run(arb, (b, calls) => {
      let prev = startScores(b);
      for (const c of calls) {
        const p = c.player, o = 1 - p;
        expect(c.scores[p] - prev[p], `stroke ${c.stroke}: striker's score`).toBe(c.points);
        expect(c.scores[o]! - prev[o]!, `stroke ${c.stroke}: opponent's score`).toBe(c.penalty);
        expect(c.points).toBeGreaterThanOrEqual(0);
        prev = c.scores;
      }
    }, runs);
  });

  test('(c) points remaining never increase, except for the re-spotted black, a restore after a miss, and a free ball potted as a red (+7 at most)', () => {
    run(arb, (b, calls) => {
      const after: number[] = [];
      const startOf: number[] = [];
      for (const [k, c] of calls.entries()) {
        // The position a stroke starts from: the previous rest, or after `replace` the restored one.
        startOf[k] = k === 0 ? initial(b).remaining : b.log.strokes[k]!.decision === 'replace' ? startOf[k - 1]! : after[k - 1]!;
        after[k] = c.pointsRemaining;
        if (c.phase === 'RESPOTTED_BLACK') continue;
        // A free ball potted as a red with reds on (S13, S14) leaves every red on the table and puts
        // a colour on: by the spec §2 formulas the total goes up by at most 7.
        const freeBallRed = c.freeBallPlayed !== null && c.potted.includes(c.freeBallPlayed) && c.phase === 'COLOUR_AFTER_RED';
        expect(c.pointsRemaining, `stroke ${k} (${c.phase}, ${c.summary})`).toBeLessThanOrEqual(startOf[k]! + (freeBallRed ? 7 : 0));
      }
    }, runs);
  });

  test('(d) a red potted or forced off never comes back (redsLeft never increases, restores aside)', () => {
    run(arb, (b, calls) => {
      const after: number[] = [];
      const startOf: number[] = [];
      for (const [k, c] of calls.entries()) {
        startOf[k] = k === 0 ? initial(b).reds : b.log.strokes[k]!.decision === 'replace' ? startOf[k - 1]! : after[k - 1]!;
        after[k] = c.redsLeft;
        expect(c.redsLeft, `stroke ${k}`).toBeLessThanOrEqual(startOf[k]!);
        // Exactly the reds that left on the stroke (potted, legally or not, or forced off) are gone.
        const gone = c.potted.filter(isRed).length + b.log.strokes[k]!.events.filter((e) => e.type === 'offTable' && isRed(e.ball)).length;
        expect(c.redsLeft, `stroke ${k}: reds gone`).toBe(startOf[k]! - gone);
      }
    }, runs);
  });

  test('(e) after a foul the penalty is the highest foul penalty, at least 4; no foul, no penalty', () => {
    run(arb, (_b, calls) => {
      for (const c of calls) {
        if (c.fouls.length > 0) {
          expect(c.legal, `stroke ${c.stroke}`).toBe(false);
          expect(c.points).toBe(0);
          expect(c.penalty).toBe(Math.max(...c.fouls.map((f) => f.penalty)));
          expect(c.penalty).toBeGreaterThanOrEqual(4);
          expect(c.penalty).toBeLessThanOrEqual(7);
          for (const f of c.fouls) expect(f.penalty).toBeGreaterThanOrEqual(4);
        } else {
          expect(c.legal, `stroke ${c.stroke}`).toBe(true);
          expect(c.penalty).toBe(0);
        }
      }
    }, runs);
  });

  test('(f) the striker plays again iff the stroke was legal and scored (or the frame is over)', () => {
    run(arb, (_b, calls) => {
      for (const c of calls) {
        if (c.frameOver) continue;
        expect(c.nextPlayer === c.player, `stroke ${c.stroke}: ${c.summary}`).toBe(c.legal && c.points > 0);
      }
    }, runs);
  });

  test('(h) every respot named in a call lands clear of every ball left on the bed (spec §10.1)', () => {
    run(arb, (b, calls) => {
      for (const [k, c] of calls.entries()) {
        const rest = b.log.strokes[k]!.rest ?? [];
        const placed = (c.respot as { ball: string; x: number; y: number; spot: string }[]).filter((r) => r.spot !== 'replaced');
        for (const r of placed) {
          const others = [...rest.filter((x) => x.id !== r.ball), ...placed.filter((x) => x !== r).map((x) => ({ id: x.ball, x: x.x, y: x.y }))];
          for (const o of others) {
            expect(Math.hypot(o.x - r.x, o.y - r.y), `stroke ${k}: ${r.ball} at ${r.spot} vs ${o.id}`).toBeGreaterThanOrEqual(2 * R + 0.5 - 1e-9);
          }
        }
      }
    }, runs);
  });

  test('(g) a frame that ends goes to the player with more points (a third-miss award aside), and nothing follows it', () => {
    run(arb, (b, calls) => {
      const k = calls.findIndex((c) => c.frameOver);
      if (k < 0) return;
      expect(k).toBe(calls.length - 1);
      const c = calls[k]!;
      expect(c.winner).not.toBeNull();
      if (c.missCount < 3) expect(c.scores[c.winner!]).toBeGreaterThan(c.scores[1 - c.winner!]!);
      // A stroke after the end is refused, with a named error.
      const more = { ...b.log, strokes: [...b.log.strokes, { events: [{ t: 1e6, type: 'strike', ball: 'white' }] }] };
      const r = refereeLog(more);
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ code: 'FRAME_OVER', stroke: calls.length });
    }, runs);
  });
});

test('the generator reaches the situations the properties are about', () => {
  const seen = new Set<string>();
  for (const [arb, numRuns] of [[frameArb, FULL_RUNS], [lateFrameArb, LATE_RUNS]] as const) {
    for (const b of fc.sample(arb, { numRuns, seed: SEED })) {
      const calls = judge(b);
      calls.forEach((c, k) => {
        seen.add(`phase:${c.phase}`);
        if (c.freeBall) seen.add('freeBall awarded');
        if (c.freeBallPlayed) seen.add('freeBall played');
        if (c.miss) seen.add('miss');
        if (c.missCount >= 2) seen.add('second miss');
        if (c.snookered) seen.add('snookered');
        if (c.inHand) seen.add('inHand');
        if (c.frameOver) seen.add('frameOver');
        if (c.legal && c.points > 0) seen.add('scored');
        if (b.log.strokes[k]!.decision === 'replace') seen.add('replace');
        if (b.log.strokes[k]!.decision === 'playAgain') seen.add('playAgain');
        for (const f of c.fouls) seen.add(`foul:${f.code}`);
      });
    }
  }
  for (const x of ['phase:RED_ON', 'phase:COLOUR_AFTER_RED', 'phase:COLOURS_SEQUENCE', 'phase:RESPOTTED_BLACK', 'phase:FRAME_OVER', 'freeBall awarded', 'freeBall played', 'miss', 'snookered', 'inHand', 'frameOver', 'scored', 'replace', 'playAgain', 'foul:NO_CONTACT', 'foul:IN_OFF', 'foul:POT_NOT_ON', 'foul:WRONG_BALL_FIRST', 'foul:CUE_BALL_NOT_IN_D', 'foul:OFF_TABLE']) {
    expect([...seen], x).toContain(x);
  }
});

describe('invalid input is a structured error, never an exception', () => {
  test('potting a ball that is no longer on the table', () => {
    fc.assert(
      fc.property(frameArb, (b) => {
        const calls = judge(b);
        const pick = b.log.strokes.length * 7 + 3;
        // A red that left on stroke k is potted again on a later stroke.
        const k = calls.findIndex((c) => c.potted.some(isRed));
        if (k < 0 || k + 1 >= calls.length) return;
        const red = calls[k]!.potted.find(isRed)!;
        const j = k + 1 + (pick % (calls.length - k - 1));
        const s = b.log.strokes[j]!;
        const strikeT = s.events.find((e) => e.type === 'strike')!.t;
        const bad = { ...b.log, strokes: b.log.strokes.map((x, i) => (i === j ? { ...x, events: [...x.events, { t: strikeT + 5, type: 'pot' as const, ball: red, pocket: 'TL' as const }] } : x)) };
        let r!: ReturnType<typeof refereeLog>;
        expect(() => (r = refereeLog(bad))).not.toThrow();
        expect(r.ok).toBe(false);
        if (!r.ok) {
          expect(r.error.stroke).toBe(j);
          expect(r.error.code).toMatch(/^[A-Z_]+$/);
          expect(r.error.field).toBeTruthy();
        }
      }),
      { numRuns: FULL_RUNS, seed: SEED, endOnFailure: true },
    );
  });

  test('events out of time order', () => {
    fc.assert(
      fc.property(frameArb, (b) => {
        judge(b);
        const pick = b.log.strokes.length * 5 + 1;
        const j = pick % b.log.strokes.length;
        const s = b.log.strokes[j]!;
        if (s.events.length < 2) return;
        const bad = { ...b.log, strokes: b.log.strokes.map((x, i) => (i === j ? { ...x, events: [...x.events].reverse() } : x)) };
        const r = refereeLog(bad);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.error).toMatchObject({ code: 'EVENTS_OUT_OF_ORDER', stroke: j });
      }),
      { numRuns: FULL_RUNS, seed: SEED, endOnFailure: true },
    );
  });
});
