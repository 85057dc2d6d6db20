/**
 * Input the referee cannot judge is an error naming the stroke, the field and the reason — through
 * the registry, as `cueref referee` runs it.
 */
import { describe, expect, test } from 'vitest';
import { refereeLog } from '../../../src/rules/registry.js';
import { balls, ev, layout, makeLog, stroke } from './helpers.js';

const mid = { start: { player: 0, balls: balls(layout({ without: ['a8'] })) } };

const cases: [string, unknown, Record<string, unknown>][] = [
  ['unknown piece id in an event', makeLog([stroke(0, [ev.hit(0.4, 'c3')])]), { code: 'UNKNOWN_BALL', stroke: 0, field: 'events[2].b' }],
  ['unknown id in a stacked event', makeLog([stroke(0, [ev.hit(0.4, 'a1'), ev.stacked(0.6, 'a1', 'pawn9')])]), { code: 'UNKNOWN_BALL', stroke: 0, field: 'events[3].on' }],
  ['a piece outside the board at rest', makeLog([stroke(0, [ev.hit(0.4, 'a1')], { rest: [{ id: 'a1', x: 1040, y: 500 }] })]), { code: 'BALL_OFF_BED', stroke: 0, field: 'rest[0]' }],
  ['two pieces overlapping before the stroke', makeLog([stroke(0, [ev.hit(0.4, 'a1')], { before: [{ id: 'a1', x: 300, y: 500 }, { id: 'a2', x: 310, y: 500 }] })]), { code: 'BALLS_OVERLAP', stroke: 0, field: 'before[1]' }],
  ['a striker placed off the board', makeLog([{ events: [ev.place(1, 'striker', 500, -30), ev.strike(2)] }]), { code: 'BALL_OFF_BED', stroke: 0, field: 'events[0]' }],
  ['events out of time order', makeLog([stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.3, 'a1')])]), { code: 'EVENTS_OUT_OF_ORDER', stroke: 0, field: 'events[3].t' }],
  ['a pot of a pawn pocketed on an earlier stroke', makeLog([stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL')]), stroke(0, [ev.hit(0.4, 'a2'), ev.pot(0.6, 'a1', 'TL')])]), { code: 'NOT_ON_BOARD', stroke: 1, field: 'events[3].ball' }],
  ['a pawn pocketed twice in one stroke', makeLog([stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL'), ev.pot(0.9, 'a1', 'TR')])]), { code: 'NOT_ON_BOARD', stroke: 0, field: 'events[4].ball' }],
  ['a contact with a pawn not on the board', makeLog([stroke(0, [ev.hit(0.4, 'a8')])], mid), { code: 'NOT_ON_BOARD', stroke: 0, field: 'events[2].b' }],
  ['a pawn at rest that was pocketed on the stroke', makeLog([stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL')], { rest: [{ id: 'a1', x: 500, y: 500 }] })]), { code: 'NOT_ON_BOARD', stroke: 0, field: 'rest[0].id' }],
  ['a decision Novus does not have', makeLog([stroke(0, [ev.hit(0.4, 'a1')], { decision: 'replace' })]), { code: 'DECISION_NOT_ALLOWED', stroke: 0, field: 'decision' }],
  ['a pot before the strike', makeLog([{ events: [ev.pot(1, 'a1', 'TL'), ev.strike(2)] }]), { code: 'EVENT_BEFORE_STRIKE', stroke: 0, field: 'events[0]' }],
  ['a snooker-only event', makeLog([stroke(0, [{ t: 0.1, type: 'requestEnd', player: 0 }])]), { code: 'EVENT_NOT_ALLOWED', stroke: 0, field: 'events[2].type' }],
  ['an unknown foul code', makeLog([stroke(0, [ev.foul(0.1, 'RED_AFTER_RED')])]), { code: 'UNKNOWN_FOUL_CODE', stroke: 0, field: 'events[2].code' }],
  ['an unknown variant', makeLog([], { variant: 'mini' }), { code: 'UNKNOWN_VARIANT', field: 'variant' }],
  ['an unknown config option', makeLog([], { config: { returnLineRule: 'x' } }), { code: 'BAD_CONFIG', field: 'config.returnLineRule' }],
  ['a bad config value', makeLog([], { config: { returnLine: 'sometimes' } }), { code: 'BAD_CONFIG', field: 'config.returnLine' }],
  ['overlapping start layout', makeLog([], { start: { player: 0, balls: [{ id: 'a1', x: 300, y: 300 }, { id: 'b1', x: 320, y: 300 }] } }), { code: 'BALLS_OVERLAP', field: 'start.balls[1]' }],
  ['start scores that contradict the layout', makeLog([], { start: { player: 0, balls: balls(layout({ without: ['a1'] })), scores: [0, 0] } }), { code: 'START_SCORES_MISMATCH', field: 'start.scores' }],
  ['a stroke after the match is over', makeLog([stroke(0, [ev.hit(0.4, 'a1'), ev.pot(0.6, 'a1', 'TL')]), stroke(1, [ev.hit(0.4, 'b1')])], { start: { player: 0, balls: balls(layout({ without: ['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8'] })) }, config: { maxSets: 1, setsToWin: 1 } }), { code: 'MATCH_OVER', stroke: 1 }],
  ['a middle pocket, which a Novus board does not have', makeLog([stroke(0, [ev.hit(0.4, 'a1'), { t: 0.6, type: 'pot', ball: 'a1', pocket: 'ML' }])]), { code: 'UNKNOWN_POCKET', stroke: 0, field: 'events[3].pocket' }],
  ['a stroke log event of a wrong shape', makeLog([{ events: [{ t: 1, type: 'pot', ball: 'a1', pocket: 'ML2' }] }]), { code: 'BAD_STROKE_LOG', stroke: 0 }],
];

describe('Novus input errors', () => {
  test.each(cases)('%s', (_what, raw, expected) => {
    const r = refereeLog(raw);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error).toMatchObject(expected);
    // The message says what is wrong in words, not just a code.
    expect(r.error.message.length).toBeGreaterThan(15);
  });

  test('a stroke without its strike event is judged from its first movement, flagged', () => {
    const r = refereeLog(makeLog([{ events: [ev.hit(1, 'a4'), ev.pot(1.3, 'a4', 'TR')] }]));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.calls[0]).toMatchObject({ points: 1, legal: true, nextPlayer: 0 });
      expect(r.value.calls[0]!.review.map((x) => x.code)).toContain('NO_STRIKE_EVENT');
    }
  });

  test('a rest inferred from the next stroke’s before does not read the next placement as a return (no false L3)', () => {
    const start = { player: 0, balls: balls(layout()) };
    const before = [...balls(layout({ without: ['a4'] })), { id: 'striker', x: 500, y: 60 }];
    const r = refereeLog(makeLog([stroke(0, [ev.hit(0.5, 'a4'), ev.pot(0.7, 'a4', 'TL')]), { before, events: [ev.strike(20), ev.hit(20.4, 'a5')] }], { start }));
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(r.value.calls[0]).toMatchObject({ lossOfTurn: null, series: true, nextPlayer: 0 });
      expect(r.value.calls[1]).toMatchObject({ player: 0, review: [] });
    }
  });

  test('a valid log goes through the registry and names the game', () => {
    const r = refereeLog(makeLog([stroke(0, [ev.hit(0.4, 'a4'), ev.pot(0.6, 'a4', 'TR')])]));
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value).toMatchObject({ format: 'cueref.calls/1', game: 'novus', calls: [{ points: 1, scores: [1, 0] }] });
  });
});
