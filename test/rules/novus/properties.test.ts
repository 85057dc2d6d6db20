/**
 * Property tests: generated stroke sequences never throw; pawns are conserved; a potted pawn stays
 * potted unless a rule returns it (it is then listed in the call's respot); calls keep the contract's shapes.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { strokeLogSchema, type Stroke, type StrokeEvent } from '../../../src/core/contracts/strokes.js';
import { novusRules, type NovusState } from '../../../src/rules/novus/index.js';
import { ownerOf } from '../../../src/rules/novus/state.js';
import { makeLog, TABLE } from './helpers.js';

const SIDES = ['left', 'right', 'top', 'bottom'] as const;
const POCKETS = ['BL', 'BR', 'TL', 'TR'] as const;

/** One step of a generated stroke; `k` picks a piece among those on the board when the stroke is built. */
const opArb = fc.record({
  op: fc.constantFrom('hit', 'hit', 'hit', 'pawnHit', 'pot', 'pot', 'cushion', 'off', 'touch', 'stacked', 'doubleHit', 'strikerPot', 'strikerOff', 'cross', 'foul'),
  k: fc.nat(),
  j: fc.nat(),
  side: fc.constantFrom(...SIDES),
  pocket: fc.constantFrom(...POCKETS),
});
const strokeArb = fc.record({
  ops: fc.array(opArb, { maxLength: 7 }),
  x: fc.integer({ min: 0, max: 1000 }),
  y: fc.integer({ min: 0, max: 1000 }),
  withRest: fc.boolean(),
});

type StrokeRecipe = { ops: { op: string; k: number; j: number; side: (typeof SIDES)[number]; pocket: (typeof POCKETS)[number] }[]; x: number; y: number; withRest: boolean };

function build(state: NovusState, rec: StrokeRecipe): Stroke {
  const on = Object.keys(state.pieces);
  const live = new Set(on);
  let strikerLive = true;
  let t = 2;
  const events: StrokeEvent[] = [{ t: 1, type: 'place', ball: 'striker', x: rec.x, y: rec.y }, { t: 2, type: 'strike', ball: 'striker' }];
  const pick = (k: number) => [...live][k % Math.max(1, live.size)];
  for (const o of rec.ops) {
    t += 0.1;
    const p = pick(o.k);
    const q = pick(o.j);
    switch (o.op) {
      case 'hit':
        if (p && strikerLive) events.push({ t, type: 'contact', a: 'striker', b: p });
        break;
      case 'pawnHit':
        if (p && q && p !== q) events.push({ t, type: 'contact', a: p, b: q });
        break;
      case 'pot':
      case 'off':
        if (p) {
          events.push(o.op === 'pot' ? { t, type: 'pot', ball: p, pocket: o.pocket } : { t, type: 'offTable', ball: p });
          live.delete(p);
        }
        break;
      case 'cushion':
        if (strikerLive) events.push({ t, type: 'cushion', ball: 'striker', side: o.side });
        break;
      case 'touch':
        if (p) events.push({ t, type: 'touch', ball: p, by: o.k % 2 ? 'hand' : 'cue' });
        break;
      case 'stacked':
        if (p && q && p !== q) events.push({ t, type: 'stacked', ball: p, on: q });
        break;
      case 'doubleHit':
        events.push({ t, type: 'doubleHit' });
        break;
      case 'strikerPot':
      case 'strikerOff':
        if (strikerLive) {
          events.push(o.op === 'strikerPot' ? { t, type: 'pot', ball: 'striker', pocket: o.pocket } : { t, type: 'offTable', ball: 'striker' });
          strikerLive = false;
        }
        break;
      case 'cross':
        if (strikerLive) events.push({ t, type: 'cross', ball: 'striker', line: o.k % 2 ? 'zone0' : 'zone1', dir: o.j % 2 ? 'in' : 'out' });
        break;
      case 'foul':
        events.push({ t, type: 'foul', code: ['CUE_FAULT', 'DELAY', 'WARNING', 'TOUCHED_PAWN'][o.k % 4]!, ...(o.j % 3 === 0 ? { player: (o.j % 2) as 0 | 1 } : {}) });
        break;
    }
  }
  const s: Stroke = { events };
  // Rest: pieces still on the board where they were (valid positions: no overlap by construction).
  if (rec.withRest) s.rest = [...live].map((id) => ({ id, ...state.pieces[id]! }));
  return s;
}

const initial = () => {
  const r = novusRules.init(strokeLogSchema.parse(makeLog([])), TABLE);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('Novus properties', () => {
  test('generated sequences never throw; pawns are conserved; a potted pawn stays potted unless respotted', () => {
    let judged = 0;
    let rejected = 0;
    fc.assert(
      fc.property(fc.array(strokeArb, { maxLength: 25 }), (recs) => {
        let state = initial();
        recs.forEach((rec, i) => {
          if (state.matchOver) return;
          const stroke = build(state, rec);
          const out = novusRules.applyStroke(state, stroke, i);
          if (!out.ok) {
            rejected++;
            // Errors are data with a code, a message and a field, never exceptions.
            expect(out.error.code).toMatch(/^[A-Z_]+$/);
            expect(out.error.message.length).toBeGreaterThan(0);
            return;
          }
          judged++;
          const { call } = out.value;
          const next = out.value.state;
          for (const p of [0, 1] as const) {
            const onBoard = Object.keys(next.pieces).filter((id) => ownerOf(id) === p).length;
            expect(onBoard + next.pocketed[p].length).toBe(8);
            expect(next.debt[p]).toBeGreaterThanOrEqual(0);
          }
          expect(call.penalty === 0 || call.penalty === 1).toBe(true);
          expect([0, 1]).toContain(call.nextPlayer);
          expect(call.points).toBe(call.potted.filter((id) => ownerOf(id) === call.player).length);
          if (!call.frameOver && !call.setReplay) {
            expect(call.scores).toEqual([next.pocketed[0].length, next.pocketed[1].length]);
            const back = new Set(call.respot.map((r) => r.ball));
            for (const id of call.potted) if (!back.has(id)) expect(next.pieces[id]).toBeUndefined();
            // Every pawn pocketed before this stroke stays pocketed unless the call puts one back.
            for (const p of [0, 1] as const) {
              // Returned = put back from the pocket (penalty or debt pawns), not a pawn moved on the board.
              const returned = call.respot.filter((r) => ownerOf(r.ball) === p && (state.pocketed[p].includes(r.ball) || call.potted.includes(r.ball))).length;
              const newly = call.potted.filter((id) => ownerOf(id) === p).length;
              expect(next.pocketed[p].length).toBe(state.pocketed[p].length + newly - returned);
            }
          }
          state = next;
        });
      }),
      { numRuns: 150 },
    );
    // The generator must exercise the rules, not just the input checks.
    expect(judged).toBeGreaterThan(rejected);
  });

  test('arbitrary junk strokes are answered with a result, never an exception', () => {
    const ids = fc.constantFrom('striker', 'a1', 'a5', 'b2', 'b8', 'c9', '');
    const junkEvent = fc.oneof(
      fc.record({ t: fc.double({ min: 0, max: 20, noNaN: true }), type: fc.constant('contact' as const), a: ids, b: ids }),
      fc.record({ t: fc.double({ min: 0, max: 20, noNaN: true }), type: fc.constant('pot' as const), ball: ids, pocket: fc.constantFrom(...POCKETS, 'ML' as const) }),
      fc.record({ t: fc.double({ min: 0, max: 20, noNaN: true }), type: fc.constant('strike' as const), ball: ids }),
      fc.record({ t: fc.double({ min: 0, max: 20, noNaN: true }), type: fc.constant('place' as const), ball: ids, x: fc.double({ min: -50, max: 1050, noNaN: true }), y: fc.double({ min: -50, max: 1050, noNaN: true }) }),
      fc.record({ t: fc.double({ min: 0, max: 20, noNaN: true }), type: fc.constant('stacked' as const), ball: ids, on: ids }),
    );
    fc.assert(
      fc.property(fc.array(fc.array(junkEvent, { maxLength: 6 }), { maxLength: 6 }), (strokes) => {
        let state = initial();
        strokes.forEach((events, i) => {
          const out = novusRules.applyStroke(state, { events } as Stroke, i);
          if (out.ok) state = out.value.state;
        });
      }),
      { numRuns: 200 },
    );
  });
});
