/** Decisions applied to the stroke log, judged again by the real referee (fixture: see fixture.ts). */
import { describe, expect, test } from 'vitest';
import type { BaseCall, CallsDoc } from '../../src/core/contracts/calls.js';
import type { StrokeLog } from '../../src/core/contracts/strokes.js';
import { defaultProfileFor } from '../../src/core/table.js';
import { applyDecisions, decisionInputSchema, decisionsDocSchema, impliedByAccept, type Correction, type Decision } from '../../src/review/decisions.js';
import { judge } from '../../src/review/judge.js';
import { refereeLog } from '../../src/rules/registry.js';
import { fixtureLog } from './fixture.js';

const table = defaultProfileFor('snooker');
const overrule = (stroke: number, ...corrections: Correction[]): Decision => ({ stroke, action: 'overrule', corrections, at: '2025-01-01T00:00:00.000Z' });
const PUSH_11: Correction = { op: 'removeEvent', event: 1, type: 'push', t: 103.21 };

function calls(log: StrokeLog, decisions: Decision[]): CallsDoc {
  const proposals = refereeLog(log);
  if (!proposals.ok) throw new Error(proposals.error.message);
  const j = judge(log, proposals.value, table, decisions);
  if (!j.ok) throw new Error(j.error.message);
  return j.value.calls;
}
const call = (doc: CallsDoc, i: number): BaseCall => doc.calls[i]!;
const codes = (c: BaseCall) => c.fouls.map((f) => f.code);

describe('applyDecisions + judge: the score follows the corrected facts', () => {
  const log = fixtureLog();

  test('the proposals: stroke 5 is a wrong-ball-first foul and everything after it cascades', () => {
    const doc = calls(log, []);
    expect(codes(call(doc, 5))).toEqual(['WRONG_BALL_FIRST']);
    expect(call(doc, 5).scores).toEqual([52, 58]);
    expect(doc.calls.at(-1)!.scores).toEqual([68, 72]);
    expect(doc.calls.at(-1)!.frameOver).toBe(false);
  });

  test.each([
    ['first contact yellow on stroke 5', [overrule(5, { op: 'firstContact', ball: 'yellow' })], [48, 60], [70, 67], true],
    ['…and the phantom push on the last black removed', [overrule(5, { op: 'firstContact', ball: 'yellow' }), overrule(11, PUSH_11)], [48, 60], [77, 60], true],
    ['the green contact removed and yellow named first', [overrule(5, { op: 'removeEvent', event: 1, type: 'contact', t: 47.5 }, { op: 'firstContact', ball: 'yellow' })], [48, 60], [70, 67], true],
  ] as const)('%s', (_name, decisions, at5, final, over) => {
    const doc = calls(log, [...decisions]);
    expect(call(doc, 5).legal).toBe(true);
    expect(call(doc, 5).points).toBe(2);
    expect(call(doc, 5).scores).toEqual(at5);
    expect(doc.calls.at(-1)!.scores).toEqual(final);
    expect(doc.calls.at(-1)!.frameOver).toBe(over);
  });

  test('firstContact moves the chosen contact to the first-contact time and the others 20 ms later, in time order', () => {
    const r = applyDecisions(log, [overrule(5, { op: 'firstContact', ball: 'yellow' })]);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.strokes[5]!.events).toEqual([
      { t: 47, type: 'strike', ball: 'white' },
      { t: 47.5, type: 'contact', a: 'white', b: 'yellow', conf: 1 },
      { t: 47.52, type: 'contact', a: 'white', b: 'green', conf: 0.7 },
      { t: 48.2, type: 'pot', ball: 'yellow', pocket: 'BR' },
    ]);
  });

  test('firstContact where the cameras saw no contact adds one halfway to the next event', () => {
    const noContact = overrule(2, { op: 'removeEvent', event: 1, type: 'contact', t: 22.4 });
    expect(codes(call(calls(log, [noContact]), 2))).toEqual(['NO_CONTACT']);
    const both = overrule(2, { op: 'removeEvent', event: 1, type: 'contact', t: 22.4 }, { op: 'firstContact', ball: 'red2' });
    const r = applyDecisions(log, [both]);
    expect(r.ok && r.value.strokes[2]!.events.map((e) => [e.type, e.t])).toEqual([['strike', 21.5], ['contact', 22.2], ['cushion', 22.9]]);
    expect(codes(call(calls(log, [both]), 2))).toEqual([]);
  });

  test('addFoul puts a foul event at the end of the stroke and the penalty goes to the opponent', () => {
    const d = overrule(2, { op: 'addFoul', code: 'TOUCHED_BALL', ball: 'red2' });
    const r = applyDecisions(log, [d]);
    expect(r.ok && r.value.strokes[2]!.events.at(-1)).toEqual({ t: 22.9, type: 'foul', code: 'TOUCHED_BALL', ball: 'red2' });
    const c = call(calls(log, [d]), 2);
    expect(codes(c)).toEqual(['TOUCHED_BALL']);
    expect(c.scores).toEqual([48, 56]);
  });

  test('miss {called} decides a MISS_JUDGEMENT and replaces an earlier miss event', () => {
    const before = call(calls(log, []), 7);
    expect(before.review.map((r) => r.code)).toContain('MISS_JUDGEMENT');
    expect(before.miss).toBe(false);
    const c = call(calls(log, [overrule(7, { op: 'miss', called: true })]), 7);
    expect(c.miss).toBe(true);
    expect(c.review.map((r) => r.code)).not.toContain('MISS_JUDGEMENT');
    const twice = applyDecisions({ ...log, strokes: log.strokes.map((s, i) => (i === 7 ? { ...s, events: [...s.events, { t: 71, type: 'miss' as const, called: true }] } : s)) }, [overrule(7, { op: 'miss', called: false })]);
    expect(twice.ok && twice.value.strokes[7]!.events.filter((e) => e.type === 'miss')).toEqual([{ t: 71, type: 'miss', called: false }]);
  });

  test('declareTouching sets the next stroke\'s `touching`; an empty list withdraws it; none after the last stroke', () => {
    const r = applyDecisions(log, [overrule(1, { op: 'declareTouching', balls: ['red2', 'red2'] })]);
    expect(r.ok && r.value.strokes[2]!.touching).toEqual(['red2']);
    expect(r.ok && r.value.strokes[1]!.touching).toBeUndefined();
    const withDeclared = { ...log, strokes: log.strokes.map((s, i) => (i === 2 ? { ...s, touching: ['red2'] } : s)) };
    const cleared = applyDecisions(withDeclared, [overrule(1, { op: 'declareTouching', balls: [] })]);
    expect(cleared.ok && 'touching' in cleared.value.strokes[2]!).toBe(false);
    const last = applyDecisions(log, [overrule(11, { op: 'declareTouching', balls: ['black'] })]);
    expect(last.ok).toBe(false);
    expect(!last.ok && last.error).toMatchObject({ code: 'BAD_DECISION', stroke: 11 });
  });

  test('a removeEvent that does not match strokes.json is refused, naming the stroke', () => {
    const r = applyDecisions(log, [overrule(5, { op: 'removeEvent', event: 1, type: 'pot', t: 47.5 })]);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.stroke).toBe(5);
    expect(!r.ok && r.error.message).toMatch(/event 1 of stroke 5 is not a pot/);
    expect(applyDecisions(log, [overrule(40, PUSH_11)]).ok).toBe(false);
  });

  test('a correction the rules refuse (a ball the game does not have) is an error, not a call', () => {
    const proposals = refereeLog(log);
    if (!proposals.ok) throw new Error('fixture');
    const j = judge(log, proposals.value, table, [overrule(5, { op: 'firstContact', ball: 'purple' })]);
    expect(j.ok).toBe(false);
    expect(!j.ok && j.error.message).toMatch(/refuses/);
  });

  test('the input log is not mutated', () => {
    const copy = JSON.parse(JSON.stringify(log));
    applyDecisions(log, [overrule(5, { op: 'firstContact', ball: 'yellow' }), overrule(11, PUSH_11), overrule(1, { op: 'declareTouching', balls: ['red2'] })]);
    expect(log).toEqual(copy);
  });

  test('judge marks decided calls and carries the pipeline\'s VISION_* review entries over', () => {
    const proposals = refereeLog(log);
    if (!proposals.ok) throw new Error('fixture');
    const withVision: CallsDoc = { ...proposals.value, calls: proposals.value.calls.map((c) => (c.stroke === 3 ? { ...c, review: [...c.review, { code: 'VISION_UNKNOWN_BALL', reason: "'red9' dropped", conf: 0 }] } : c)) };
    const j = judge(log, withVision, table, [{ stroke: 1, action: 'accept', corrections: [], at: '2025-01-01T00:00:00.000Z', note: 'seen on the clip' }]);
    expect(j.ok).toBe(true);
    if (!j.ok) return;
    expect(j.value.calls.calls[3]!.review.map((r) => r.code)).toEqual(['VISION_UNKNOWN_BALL']);
    expect(j.value.calls.calls[1]!.reviewed).toEqual({ action: 'accept', at: '2025-01-01T00:00:00.000Z', note: 'seen on the clip' });
    expect(j.value.calls.calls[2]!.reviewed).toBeUndefined();
  });
});

describe('impliedByAccept', () => {
  const base = { stroke: 0, player: 0, legal: false, potted: [], points: 0, fouls: [], penalty: 4, scores: [0, 4], nextPlayer: 1, inHand: false, frameOver: false, winner: null, summary: '' } as unknown as BaseCall;
  test.each([
    ['a miss left to the referee, proposed "no miss"', { review: [{ code: 'MISS_JUDGEMENT', reason: '', conf: 0.5 }], miss: false }, true, [{ op: 'miss', called: false }]],
    ['a touching ball proposed', { review: [{ code: 'TOUCHING_BALL', reason: '', conf: 0.6 }], touching: ['red3'] }, true, [{ op: 'declareTouching', balls: ['red3'] }]],
    ['a touching ball on the last stroke', { review: [{ code: 'TOUCHING_BALL', reason: '', conf: 0.6 }], touching: ['red3'] }, false, []],
    ['a low-confidence pot: nothing to write', { review: [{ code: 'LOW_CONFIDENCE_POT', reason: '', conf: 0.6 }] }, true, []],
  ])('%s', (_n, extra, hasNext, expected) => {
    expect(impliedByAccept({ ...base, ...extra } as BaseCall, hasNext)).toEqual(expected);
  });
});

describe('decision schemas', () => {
  test.each([
    [{ stroke: 1, action: 'accept' }, true],
    [{ stroke: 1, action: 'overrule', corrections: [{ op: 'miss', called: true }], note: 'clear attempt' }, true],
    [{ stroke: 1, action: 'overrule' }, false],
    [{ stroke: 1, action: 'accept', corrections: [{ op: 'miss', called: true }] }, false],
    [{ stroke: 1, action: 'overrule', corrections: [{ op: 'teleport', ball: 'white' }] }, false],
    [{ stroke: 1, action: 'overrule', corrections: [{ op: 'addFoul', code: 'touched ball' }] }, false],
    [{ stroke: 1, action: 'overrule', corrections: [{ op: 'firstContact', ball: '../etc' }] }, false],
    [{ stroke: -1, action: 'accept' }, false],
    [{ stroke: 1, action: 'accept', admin: true }, false],
  ])('%j → valid %s', (body, valid) => {
    expect(decisionInputSchema.safeParse(body).success).toBe(valid);
  });

  test('decisions.json: one decision per stroke, strict fields', () => {
    const d = { stroke: 1, action: 'accept', corrections: [], at: '2025-01-01T00:00:00.000Z' };
    expect(decisionsDocSchema.safeParse({ format: 'cueref.decisions/1', decisions: [d] }).success).toBe(true);
    expect(decisionsDocSchema.safeParse({ format: 'cueref.decisions/1', decisions: [d, d] }).success).toBe(false);
    expect(decisionsDocSchema.safeParse({ format: 'cueref.decisions/2', decisions: [] }).success).toBe(false);
  });
});
