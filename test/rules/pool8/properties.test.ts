/**
 * Property tests: random stroke sequences (any profile, any events, any decisions) never make the
 * referee throw; a pocketed ball stays pocketed unless a rule spots it; groups never change once
 * assigned; racks are counted one at a time. Strokes the referee rejects as bad input are skipped,
 * as a user would fix and resend them.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { DECISIONS, strokeLogSchema, type Stroke, type StrokeEvent } from '../../../src/core/contracts/strokes.js';
import { POCKETS, SIDES } from '../../../src/core/games.js';
import { builtinProfile } from '../../../src/core/table.js';
import { PROFILES, pool8Rules, type Pool8State } from '../../../src/rules/pool8/index.js';

const ids = ['cue', ...Array.from({ length: 15 }, (_, i) => String(i + 1))];
const objectIds = ids.slice(1);
const ball = fc.constantFrom(...ids);
const objBall = fc.constantFrom(...objectIds);
const pocket = fc.constantFrom(...POCKETS);

// Events weighted towards what real strokes contain: contacts with the cue ball, cushions, pots.
const eventBody: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  { weight: 6, arbitrary: objBall.map((b) => ({ type: 'contact', a: 'cue', b })) },
  { weight: 2, arbitrary: fc.tuple(objBall, objBall).filter(([a, b]) => a !== b).map(([a, b]) => ({ type: 'contact', a, b })) },
  { weight: 4, arbitrary: fc.tuple(ball, fc.constantFrom(...SIDES)).map(([b, side]) => ({ type: 'cushion', ball: b, side })) },
  { weight: 4, arbitrary: fc.tuple(ball, pocket).map(([b, p]) => ({ type: 'pot', ball: b, pocket: p })) },
  { weight: 1, arbitrary: ball.map((b) => ({ type: 'offTable', ball: b })) },
  { weight: 1, arbitrary: objBall.map((b) => ({ type: 'touch', ball: b, by: 'hand' })) },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 30, max: 1240 }), fc.integer({ min: 30, max: 2510 })).map(([x, y]) => ({ type: 'place', ball: 'cue', x, y })) },
  { weight: 1, arbitrary: fc.tuple(objBall, pocket).map(([b, p]) => ({ type: 'hanging', ball: b, pocket: p })) },
  { weight: 1, arbitrary: fc.tuple(ball, fc.constantFrom('headString', 'centreLine')).map(([b, line]) => ({ type: 'cross', ball: b, line, dir: 'up' })) },
  { weight: 1, arbitrary: fc.constantFrom({ type: 'jump', ball: 'cue' }, { type: 'doubleHit' }, { type: 'push' }, { type: 'stalemate' }, { type: 'foul', code: 'STRUCK_WHILE_MOVING' }, { type: 'foul', code: 'EIGHT_WITH_FOUL' }) },
  { weight: 1, arbitrary: fc.constantFrom(0, 1).map((p) => ({ type: 'concede', player: p })) },
);

// A clean pot (cue ball → b → pocket): what moves a rack forward, so groups get assigned and racks end.
const cleanShot: fc.Arbitrary<Stroke> = fc.tuple(objBall, pocket, fc.boolean()).map(([b, p, call]) =>
  strokeLogSchema.shape.strokes.element.parse({
    ...(call ? { calledBall: b, calledPocket: p } : {}),
    events: [
      { t: 0, type: 'strike', ball: 'cue' },
      { t: 0.4, type: 'contact', a: 'cue', b },
      { t: 1.1, type: 'pot', ball: b, pocket: p },
      { t: 1.6, type: 'cushion', ball: 'cue', side: 'top' },
    ],
  }),
);

const randomStroke: fc.Arbitrary<Stroke> = fc
  .record({
    strikeBall: fc.oneof({ weight: 9, arbitrary: fc.constant('cue') }, { weight: 1, arbitrary: objBall }),
    noStrike: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
    body: fc.array(fc.tuple(fc.double({ min: 0.01, max: 12, noNaN: true }), eventBody), { maxLength: 8 }),
    decision: fc.option(fc.constantFrom(...DECISIONS), { freq: 4 }),
    calledBall: fc.option(objBall, { freq: 3 }),
    calledPocket: fc.option(fc.constantFrom(...POCKETS, 'safety' as const), { freq: 2 }),
    claimGroup: fc.option(fc.constantFrom('solids' as const, 'stripes' as const), { freq: 8 }),
    player: fc.option(fc.constantFrom(0 as const, 1 as const), { freq: 6 }),
  })
  .map((r) => {
    const events = [...(r.noStrike ? [] : [{ t: 0, type: 'strike', ball: r.strikeBall }]), ...r.body.sort((a, b) => a[0] - b[0]).map(([t, e]) => ({ t, ...e }))] as StrokeEvent[];
    const s: Record<string, unknown> = { events };
    for (const k of ['decision', 'calledBall', 'calledPocket', 'claimGroup', 'player'] as const) if (r[k] !== null) s[k] = r[k];
    return strokeLogSchema.shape.strokes.element.parse(s);
  });

const strokeArb: fc.Arbitrary<Stroke> = fc.oneof({ weight: 3, arbitrary: randomStroke }, { weight: 2, arbitrary: cleanShot });

const variantArb = fc.constantFrom(...Object.keys(PROFILES));

/** Apply strokes, skipping rejected ones; returns the (before, after, call) steps that were judged. */
function play(variant: string, strokes: Stroke[]) {
  const log = strokeLogSchema.parse({ format: 'cueref.strokes/1', game: 'pool8', variant, strokes: [] });
  const init = pool8Rules.init(log, builtinProfile('pool8-9ft'));
  if (!init.ok) throw new Error(init.error.message);
  let state: Pool8State = init.value;
  const steps: { before: Pool8State; after: Pool8State; call: ReturnType<typeof pool8Rules.applyStroke> }[] = [];
  strokes.forEach((st, i) => {
    const out = pool8Rules.applyStroke(state, st, i);
    if (out.ok) {
      steps.push({ before: state, after: out.value.state, call: out });
      state = out.value.state;
    }
  });
  return steps;
}

const RUNS = 100;

describe('pool8 properties', () => {
  test('generated sequences never throw and every call is well formed', () => {
    fc.assert(
      fc.property(variantArb, fc.array(strokeArb, { maxLength: 25 }), (variant, strokes) => {
        for (const { call } of play(variant, strokes)) {
          if (!call.ok) continue;
          const c = call.value.call;
          expect(c.legal).toBe(c.fouls.length === 0);
          expect([0, 1]).toContain(c.nextPlayer);
          // A rack ends with a winner, or drawn by a stalemate; a winner only when it ends.
          if (c.winner !== null) expect(c.frameOver).toBe(true);
          if (c.frameOver && c.winner === null) expect(c.stalemate).toBe(true);
          expect(c.points).toBeGreaterThanOrEqual(0);
          if (!c.legal) expect(c.points).toBe(0);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('a pocketed ball stays pocketed within a rack unless a rule spots it', () => {
    fc.assert(
      fc.property(variantArb, fc.array(strokeArb, { maxLength: 25 }), (variant, strokes) => {
        for (const { before, after, call } of play(variant, strokes)) {
          if (!call.ok || after.rack !== before.rack || before.rackOver) continue;
          const spotted = new Set([...call.value.call.spotted, ...call.value.call.respot.map((r) => r.ball)]);
          for (const b of objectIds) {
            if (before.balls[b]!.where !== 'table' && !spotted.has(b)) expect(after.balls[b]!.where, `ball ${b}`).not.toBe('table');
          }
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('groups never change once assigned within a rack', () => {
    fc.assert(
      fc.property(variantArb, fc.array(strokeArb, { maxLength: 30 }), (variant, strokes) => {
        for (const { before, after } of play(variant, strokes)) {
          if (after.rack !== before.rack || before.rackOver) continue;
          for (const p of [0, 1] as const) if (before.groups[p] !== null) expect(after.groups[p]).toBe(before.groups[p]);
          if (after.groups[0] !== null) expect(after.groups[1]).not.toBe(after.groups[0]);
        }
      }),
      { numRuns: RUNS },
    );
  });

  test('racks are scored one at a time: scores never fall and rise by at most one', () => {
    fc.assert(
      fc.property(variantArb, fc.array(strokeArb, { maxLength: 30 }), (variant, strokes) => {
        for (const { before, after } of play(variant, strokes)) {
          const gained = after.scores[0] + after.scores[1] - before.scores[0] - before.scores[1];
          expect(gained === 0 || gained === 1).toBe(true);
          expect(after.scores[0]).toBeGreaterThanOrEqual(before.scores[0]);
          expect(after.scores[1]).toBeGreaterThanOrEqual(before.scores[1]);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
