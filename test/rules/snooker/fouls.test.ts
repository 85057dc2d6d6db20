/**
 * Every snooker foul code of the contract: AUTO ones detected from events and positions, MANUAL
 * ones accepted from `foul` events, each with the catalogue's penalty (spec §7).
 */
import { describe, expect, test } from 'vitest';
import { refereeLog } from '../../../src/rules/registry.js';
import { codes, e, layout, makeLog, referee, reviewCodes, type StrokeIn } from './helpers.js';

const onTable = layout({ white: { x: 1400, y: 2300 } });
const start = { balls: onTable };
const colourAfterRed = { balls: layout({ red15: null, white: { x: 1400, y: 2300 } }), ballOn: ['colour'] };

interface Row {
  code: string;
  how: string;
  start: Record<string, unknown>;
  stroke: StrokeIn;
  penalty: number;
  review?: string;
}

const rows: Row[] = [
  { code: 'NO_CONTACT', how: 'the cue ball hits nothing', start, stroke: { events: [e.strike(1), e.cushion(2, 'white', 'left')] }, penalty: 4 },
  { code: 'IN_OFF', how: 'the cue ball is potted', start, stroke: { events: [e.strike(1), e.hit(1.3, 'red1'), e.pot(2, 'white', 'ML')] }, penalty: 4 },
  { code: 'WRONG_BALL_FIRST', how: 'the pink hit first with a red on', start, stroke: { events: [e.strike(1), e.hit(1.3, 'pink')] }, penalty: 6 },
  { code: 'POT_NOT_ON', how: 'the blue potted off a red', start, stroke: { events: [e.strike(1), e.hit(1.3, 'red1'), e.hit(1.5, 'blue', 'red1'), e.pot(2, 'blue', 'MR')] }, penalty: 5 },
  { code: 'OFF_TABLE', how: 'the brown forced off', start, stroke: { events: [e.strike(1), e.hit(1.3, 'red1'), e.hit(1.5, 'brown', 'red1'), e.off(2, 'brown')] }, penalty: 4 },
  { code: 'CUE_BALL_NOT_IN_D', how: 'placed above the baulk line', start: { balls: 'standard' }, stroke: { events: [e.place(0, 'white', 889, 800), e.strike(1), e.hit(1.5, 'red1')] }, penalty: 4 },
  { code: 'WRONG_CUE_BALL', how: 'the cue strikes a red', start, stroke: { events: [e.strike(1, 'red1'), e.hit(1.2, 'red2', 'red1')] }, penalty: 7 },
  { code: 'RED_AFTER_RED', how: 'a red nominated after a red', start: colourAfterRed, stroke: { nominated: 'red1', events: [e.strike(1), e.hit(1.3, 'red1')] }, penalty: 7 },
  { code: 'RED_AFTER_RED', how: '"red" (any red) nominated after a red', start: colourAfterRed, stroke: { nominated: 'red', events: [e.strike(1), e.hit(1.3, 'red2')] }, penalty: 7 },
  { code: 'STRUCK_WHILE_MOVING', how: 'the blue still rolling at the strike', start, stroke: { events: [e.strike(1), e.hit(1.3, 'red1')], paths: { blue: [[0.9, 889, 1784.5], [1.0, 889, 1790]] } }, penalty: 5 },
  { code: 'TOUCHING_BALL_MOVED', how: 'the declared touching ball moves', start: { balls: layout({ white: { x: 760, y: 2850 } }) }, stroke: { touching: ['red5'], events: [e.strike(1), e.hit(1.01, 'red5')] }, penalty: 4 },
  { code: 'TOUCHED_BALL', how: 'a hand touches the black during the stroke', start, stroke: { events: [e.strike(1), e.hit(1.3, 'red1'), { t: 1.5, type: 'touch', ball: 'black', by: 'hand' }] }, penalty: 7 },
  { code: 'PUSH_STROKE', how: 'a push inferred', start, stroke: { events: [e.strike(1), { t: 1.02, type: 'push', conf: 0.7 }, e.hit(1.3, 'red1')] }, penalty: 4, review: 'PUSH_STROKE' },
  { code: 'DOUBLE_HIT', how: 'a second impulse inferred', start, stroke: { events: [e.strike(1), { t: 1.02, type: 'doubleHit', conf: 0.7 }, e.hit(1.3, 'red1')] }, penalty: 4, review: 'DOUBLE_HIT' },
  { code: 'JUMP_SHOT', how: 'the cue ball jumps the blue before hitting a red', start, stroke: { events: [e.strike(1), { t: 1.1, type: 'jump', ball: 'white', over: 'blue' }, e.hit(1.3, 'red1')] }, penalty: 4, review: 'JUMP_SHOT' },
  // MANUAL: entered by the referee as events, penalised per the catalogue.
  { code: 'FEET_OFF_FLOOR', how: 'entered by the referee', start, stroke: { events: [e.strike(1), e.hit(1.3, 'red1'), { t: 2, type: 'foul', code: 'FEET_OFF_FLOOR' }] }, penalty: 4 },
  { code: 'PLAYED_OUT_OF_TURN', how: 'entered by the referee', start, stroke: { events: [e.strike(1), e.hit(1.3, 'red1'), { t: 2, type: 'foul', code: 'PLAYED_OUT_OF_TURN' }] }, penalty: 4 },
  { code: 'NON_STANDARD_CUE', how: 'entered by the referee', start, stroke: { events: [e.strike(1), e.hit(1.3, 'red1'), { t: 2, type: 'foul', code: 'NON_STANDARD_CUE' }] }, penalty: 4 },
  { code: 'CONFERRING', how: 'entered by the referee', start, stroke: { events: [{ t: 2, type: 'foul', code: 'CONFERRING' }] }, penalty: 4 },
  { code: 'MEASURING', how: 'entered by the referee', start, stroke: { events: [{ t: 2, type: 'foul', code: 'MEASURING' }] }, penalty: 7 },
  { code: 'BALL_OFF_TABLE_USED', how: 'entered by the referee', start, stroke: { events: [{ t: 2, type: 'foul', code: 'BALL_OFF_TABLE_USED' }] }, penalty: 7 },
  { code: 'NO_NOMINATION', how: 'entered by the referee (F22)', start, stroke: { events: [{ t: 2, type: 'foul', code: 'NO_NOMINATION' }] }, penalty: 7 },
  { code: 'STRUCK_BEFORE_RESPOT', how: 'entered by the referee', start, stroke: { events: [e.strike(1), e.hit(1.3, 'red1'), { t: 2, type: 'foul', code: 'STRUCK_BEFORE_RESPOT', ball: 'pink' }] }, penalty: 6 },
];

describe('snooker foul codes', () => {
  test.each(rows)('$code: $how → penalty $penalty', (row) => {
    const doc = referee(row.start, [row.stroke]);
    const call = doc.calls[0]!;
    expect(codes(call)).toContain(row.code);
    expect(call.penalty).toBe(row.penalty);
    expect(call.legal).toBe(false);
    expect(call.scores).toEqual([0, row.penalty]);
    expect(call.nextPlayer).toBe(1);
    if (row.review) expect(reviewCodes(call)).toContain(row.review);
  });

  test('several fouls: every one is listed, the highest penalty is awarded (no contact and in-off)', () => {
    const call = referee(start, [{ events: [e.strike(1), e.cushion(1.5, 'white', 'top'), e.pot(2, 'white', 'TL')] }]).calls[0]!;
    expect(codes(call)).toEqual(['IN_OFF', 'NO_CONTACT']);
    expect(call.penalty).toBe(4);
    expect(call.inHand).toBe(true);
  });

  test('a foul with the black as the ball concerned is 7 even with a red on', () => {
    const call = referee(start, [{ events: [e.strike(1), e.hit(1.3, 'red1'), e.hit(1.6, 'black', 'red1'), e.pot(2, 'black', 'TL')] }]).calls[0]!;
    expect(call.penalty).toBe(7);
    expect(call.respot).toEqual([{ ball: 'black', x: 889, y: 3245, spot: 'black' }]);
  });

  test('F24: touching a ball during the miss consultation costs 7, charged to the offender', () => {
    const strokes: StrokeIn[] = [
      { events: [e.strike(1), e.cushion(2, 'white', 'left')], rest: layout({ white: { x: 300, y: 1000 } }) },
      { events: [{ t: 5, type: 'touch', ball: 'red2', by: 'hand' }] },
    ];
    const doc = referee({ scores: [10, 10], balls: layout({ white: { x: 1400, y: 2870 } }) }, strokes);
    expect(doc.calls[0]!.miss).toBe(true);
    expect(doc.calls[1]!.fouls[0]).toMatchObject({ code: 'TOUCHED_BALL', penalty: 7 });
    expect(doc.calls[1]!.player).toBe(0);
    expect(doc.calls[1]!.scores).toEqual([10, 10 + 4 + 7]);
  });

  test('τ_tie is half a frame of the camera the log was read from (frameS): a red and the blue hit 8 ms apart at 25 fps are a tie (S06, ASSISTED)', () => {
    const stroke = { events: [e.place(0, 'white', 889, 600), e.strike(0.5), e.hit(1, 'red3'), e.hit(1.008, 'blue')] };
    // From a 25 fps camera (40 ms frames): within 20 ms, a simultaneous hit — F14 at the blue's 5.
    const tie = referee({ balls: 'standard' }, [stroke], { frameS: 0.04 }).calls[0]!;
    expect(codes(tie)).toEqual(['WRONG_BALL_FIRST']);
    expect(tie.penalty).toBe(5);
    expect(reviewCodes(tie)).toContain('SIMULTANEOUS_HIT');
    // From a 240 fps camera (or a log that does not say): the red first, 8 ms before — legal.
    for (const extra of [{ frameS: 1 / 240 }, {}]) {
      const apart = referee({ balls: 'standard' }, [stroke], extra).calls[0]!;
      expect(codes(apart)).toEqual([]);
      expect(apart.legal).toBe(true);
    }
  });

  test('a foul code outside the catalogue is still called, at the ball-on value, and flagged', () => {
    const call = referee(start, [{ events: [{ t: 1, type: 'foul', code: 'TIME_WASTING' }] }]).calls[0]!;
    expect(codes(call)).toEqual(['TIME_WASTING']);
    expect(call.penalty).toBe(4);
    expect(reviewCodes(call)).toContain('UNKNOWN_FOUL_CODE');
  });
});

describe('bad input: a clear error naming the stroke, the field and the reason', () => {
  const base = (strokes: unknown[], extra: Record<string, unknown> = {}) => ({ ...makeLog({ balls: onTable }, []), strokes, ...extra });
  test.each([
    { what: 'unknown ball id in an event', log: base([{ events: [e.strike(1), e.hit(1.2, 'red16')] }]), code: 'UNKNOWN_BALL', stroke: 0, field: 'events[1].b' },
    { what: 'events out of time order', log: base([{ events: [e.strike(2), e.hit(1.2, 'red1')] }]), code: 'EVENTS_OUT_OF_ORDER', stroke: 0, field: 'events[1].t' },
    { what: 'a ball outside the bed', log: base([{ before: [{ id: 'white', x: 1900, y: 100 }], events: [e.strike(1)] }]), code: 'BALL_OFF_BED', stroke: 0, field: 'before[0]' },
    { what: 'two balls overlapping', log: base([{ rest: [{ id: 'white', x: 500, y: 500 }, { id: 'red1', x: 520, y: 500 }], events: [e.strike(1)] }]), code: 'BALLS_OVERLAP', stroke: 0, field: 'rest[1]' },
    { what: 'a pot of a ball not on the table', log: base([{ events: [e.strike(1), e.hit(1.2, 'red1'), e.pot(1.5, 'red1', 'TL')] }, { events: [e.strike(3), e.hit(3.2, 'red2'), e.pot(3.5, 'red1', 'TL')] }]), code: 'POT_OF_BALL_NOT_ON_TABLE', stroke: 1, field: 'events[2].ball' },
    { what: 'a decision with no foul before it', log: base([{ decision: 'playAgain', events: [e.strike(1), e.hit(1.2, 'red1')] }]), code: 'DECISION_NOT_ALLOWED', stroke: 0, field: 'decision' },
    { what: 'replacing the balls when no miss was called', log: base([{ events: [e.strike(1), e.hit(1.2, 'red1'), e.pot(2, 'white', 'BL')] }, { decision: 'replace', events: [e.strike(3), e.hit(3.2, 'red1')] }]), code: 'DECISION_NOT_ALLOWED', stroke: 1, field: 'decision' },
    { what: 'a malformed event', log: base([{ events: [{ t: 1, type: 'contact', a: 'white' }] }]), code: 'BAD_STROKE_LOG', stroke: 0, field: 'strokes[0].events[0].b' },
    { what: 'a stroke after the frame ended', log: { ...makeLog({ balls: layout({ white: { x: 1400, y: 2300 } }) }, []), strokes: [{ events: [{ t: 1, type: 'concede', player: 0 }] }, { events: [e.strike(2)] }] }, code: 'FRAME_OVER', stroke: 1, field: 'events' },
    { what: 'an unknown variant', log: base([], { variant: 'pool-ish' }), code: 'UNKNOWN_VARIANT', stroke: undefined, field: 'variant' },
    { what: 'an unknown config option', log: base([], { config: { respotOrdr: 'valueFirst' } }), code: 'BAD_CONFIG', stroke: undefined, field: 'config.' },
  ])('$what → $code', ({ log, code, stroke, field }) => {
    const r = refereeLog(log);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe(code);
    expect(r.error.stroke).toBe(stroke);
    expect(r.error.field).toBe(field);
    expect(r.error.message.length).toBeGreaterThan(10);
  });
});
