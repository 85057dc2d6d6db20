/** Input the pool referee cannot judge: each error names the stroke index, the field and the reason. */
import { describe, expect, test } from 'vitest';
import { breakStroke, ev, makeLog, midway, run, shot } from './helpers.js';

const all = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14', '15'];

const cases: { name: string; log: unknown; code: string; stroke?: number; field: string; message: RegExp }[] = [
  {
    name: 'unknown ball id in an event',
    log: makeLog([breakStroke(), shot('16', [], { rail: true })]),
    code: 'UNKNOWN_BALL',
    stroke: 1,
    field: 'events[1].b',
    message: /unknown ball id '16'/,
  },
  {
    name: 'a snooker ball id in a pool log',
    log: makeLog([{ events: [ev.strike(1, 'white')] }]),
    code: 'UNKNOWN_BALL',
    stroke: 0,
    field: 'events[0].ball',
    message: /'white'/,
  },
  {
    name: 'a ball outside the bed in rest',
    log: makeLog([{ ...breakStroke(), rest: [{ id: 'cue', x: 635, y: 2600 }] }]),
    code: 'BALL_OFF_BED',
    stroke: 0,
    field: 'rest[0]',
    message: /outside the bed 1270×2540/,
  },
  {
    name: 'two balls overlapping in before',
    log: makeLog([breakStroke(), { ...shot('1', [], { rail: true }), before: [{ id: 'cue', x: 600, y: 600 }, { id: '1', x: 620, y: 610 }] }]),
    code: 'BALLS_OVERLAP',
    stroke: 1,
    field: 'before[1]',
    message: /overlaps 'cue'/,
  },
  {
    name: 'events out of time order',
    log: makeLog([{ events: [ev.strike(2), ev.hit(1.5, '1')] }]),
    code: 'EVENTS_OUT_OF_ORDER',
    stroke: 0,
    field: 'events[1].t',
    message: /time order/,
  },
  {
    name: 'a pot of a ball already pocketed',
    log: makeLog([breakStroke([['3', 'TL']]), shot('2', [['3', 'TR']])]),
    code: 'BALL_NOT_ON_TABLE',
    stroke: 1,
    field: 'events[2].ball',
    message: /ball 3, which is not on the table \(it was pocketed earlier\)/,
  },
  {
    name: 'a contact with a ball off the table',
    log: makeLog([breakStroke([], [ev.off(2.5, '13')]), shot('13', [], { rail: true })]),
    code: 'BALL_NOT_ON_TABLE',
    stroke: 1,
    field: 'events[1].b',
    message: /driven off the table/,
  },
  {
    name: 'a pocketed ball listed before the stroke',
    log: makeLog([breakStroke([['3', 'TL']]), { ...shot('2', [], { rail: true }), before: [{ id: '3', x: 300, y: 300 }] }]),
    code: 'BALL_NOT_ON_TABLE',
    stroke: 1,
    field: 'before[0].id',
    message: /pocketed \(TL\)/,
  },
  {
    name: 'a decision when no choice is pending',
    log: makeLog([breakStroke([['3', 'TL']]), { ...shot('2', [], { rail: true }), decision: 'rerack' }]),
    code: 'DECISION_NOT_ALLOWED',
    stroke: 1,
    field: 'decision',
    message: /no choice to make/,
  },
  {
    name: 'breakAgain after an 8 on a foul break (B2: not an option)',
    log: makeLog([breakStroke([['8', 'TL']], [ev.pot(2.6, 'cue', 'BL')]), { ...shot('2', [], { rail: true }), decision: 'breakAgain' }]),
    code: 'DECISION_NOT_ALLOWED',
    stroke: 1,
    field: 'decision',
    message: /may choose spot8, rerack, play/,
  },
  {
    name: 'a snooker decision in pool',
    log: makeLog([breakStroke(), { ...shot('2', [], { rail: true }), decision: 'replace' }]),
    code: 'DECISION_NOT_ALLOWED',
    stroke: 1,
    field: 'decision',
    message: /snooker decision/,
  },
  {
    name: 'a called ball that is not on the table',
    log: makeLog([breakStroke([['3', 'TL']]), shot('2', [], { rail: true, calledBall: '3', calledPocket: 'TR' })]),
    code: 'BALL_NOT_ON_TABLE',
    stroke: 1,
    field: 'calledBall',
    message: /calledBall 3 is not on the table/,
  },
  {
    name: 'a stroke with no strike',
    log: makeLog([{ events: [ev.hit(1, '1')] }]),
    code: 'NO_STRIKE',
    stroke: 0,
    field: 'events',
    message: /no strike event/,
  },
];

describe('pool8 input validation', () => {
  test.each(cases)('$name → $code', ({ log, code, stroke, field, message }) => {
    const r = run(log);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    expect(r.error.stroke).toBe(stroke);
    expect(r.error.field).toBe(field);
    expect(r.error.message).toMatch(message);
  });

  test.each([
    ['an unknown variant', { variant: 'klingon' }, 'UNKNOWN_VARIANT', 'variant', /unknown pool8 variant 'klingon'/],
    ['a flag of the wrong type', { config: { scratchOnEightLoses: 'yes' } }, 'BAD_CONFIG', 'config.scratchOnEightLoses', /boolean/],
    ['a spec flag that is not true/false', { config: { scratch_on_8_loses: 'yes' } }, 'BAD_CONFIG', 'config.scratch_on_8_loses', /true or false/],
    ['a break order that does not exist', { config: { break_order: 'random' } }, 'BAD_CONFIG', 'config.break_order', /ALTERNATE\|WINNER\|LOSER/],
    ['groups that are not one each', { start: midway(all, ['solids', 'solids']) }, 'BAD_START', 'start.groups', /one solids and one stripes/],
    ['a midway start without the 8', { start: midway(['1', '9'], ['solids', 'stripes']) }, 'BAD_START', 'start.balls', /8 must be on the table/],
  ] as const)('header: %s → %s', (_name, o, code, field, message) => {
    const r = run(makeLog([breakStroke()], o as never));
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject({ code, field });
    expect(r.error.message).toMatch(message);
  });

  test('config keys that are no rule flag are ignored and reported on the first call', () => {
    const r = run(makeLog([breakStroke()], { config: { raceTo: 7, scratchOnEightLoses: true } }));
    expect(r.ok && r.calls[0]!.review).toContainEqual(expect.objectContaining({ code: 'CONFIG_IGNORED', reason: expect.stringMatching(/raceTo/) }));
  });

  test('variant names are matched loosely (case, dashes, spaces)', () => {
    for (const v of ['WPA', 'wpa-2025', 'WPA 2016', 'Blackball', 'UK', 'Latin America', 'IEPF', 'standard']) {
      expect(run(makeLog([breakStroke()], { variant: v })).ok, v).toBe(true);
    }
  });
});
