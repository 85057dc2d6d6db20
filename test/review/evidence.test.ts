/** The pure parts of the page's content: queue, measurements, replay sources. */
import { describe, expect, test } from 'vitest';
import type { BaseCall, CallsDoc } from '../../src/core/contracts/calls.js';
import type { StrokeLog } from '../../src/core/contracts/strokes.js';
import { defaultProfileFor } from '../../src/core/table.js';
import { applyDecisions } from '../../src/review/decisions.js';
import { cueGaps, measureStroke } from '../../src/review/measure.js';
import { buildQueue, flagReasons } from '../../src/review/queue.js';
import { replayFromLog, strokeReplay, strokeWindow, thin } from '../../src/review/replay.js';
import { refereeLog } from '../../src/rules/registry.js';
import { fixtureFrames, fixtureLog } from './fixture.js';

const table = defaultProfileFor('snooker');
const log = fixtureLog();
const proposals = (() => {
  const r = refereeLog(log);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
})();

describe('buildQueue', () => {
  test('queues review entries, low-confidence events and camera-inferred fouls, in stroke order', () => {
    const q = buildQueue(log, proposals);
    expect(q.map((e) => e.stroke)).toEqual([1, 5, 7, 8, 9, 10, 11]);
    const s5 = q.find((e) => e.stroke === 5)!;
    expect(s5.reasons.filter((r) => r.kind === 'review').map((r) => r.kind === 'review' && r.code)).toEqual(['POT_WITHOUT_CONTACT', 'LOW_CONFIDENCE_CONTACT']);
    expect(s5.reasons.filter((r) => r.kind === 'lowConfidence')).toEqual([{ kind: 'lowConfidence', event: 1, type: 'contact', label: 'white hits green', conf: 0.7 }]);
    const s11 = q.find((e) => e.stroke === 11)!;
    expect(s11.reasons.filter((r) => r.kind === 'assistedFoul')).toEqual([{ kind: 'assistedFoul', code: 'PUSH_STROKE', detail: 'push stroke' }]);
  });

  test('the confidence threshold decides whether a low-confidence event alone queues a stroke', () => {
    const clean = { ...proposals.calls[5]!, review: [], fouls: [] } as BaseCall;
    expect(flagReasons(clean, log, 0.8)).toEqual([{ kind: 'lowConfidence', event: 1, type: 'contact', label: 'white hits green', conf: 0.7 }]);
    expect(flagReasons(clean, log, 0.6)).toEqual([]);
  });

  test('a stroke stays queued after its call is fixed, and a stroke newly in doubt joins', () => {
    const current: CallsDoc = { ...proposals, calls: proposals.calls.map((c) => (c.stroke === 2 ? { ...c, review: [{ code: 'TOUCHING_BALL', reason: 'r', conf: 0.6 }] } : c.stroke === 5 ? { ...c, review: [], fouls: [] } : c)) };
    const q = buildQueue(log, proposals, current);
    expect(q.map((e) => e.stroke)).toEqual([1, 2, 5, 7, 8, 9, 10, 11]);
    expect(q.find((e) => e.stroke === 5)!.reasons.some((r) => r.kind === 'review' && r.code === 'LOW_CONFIDENCE_CONTACT')).toBe(true);
  });
});

describe('measureStroke', () => {
  test('contact times after the strike, confidences, pots and the cue ball\'s neighbours at rest', () => {
    const m = measureStroke(log, 5, table);
    expect(m.strikeT).toBe(47);
    expect(m.contacts).toEqual([{ event: 1, a: 'white', b: 'green', t: 47.5, afterStrikeMs: 500, conf: 0.7, cue: true }]);
    expect(m.firstContactGapMs).toBeNull();
    expect(m.pots).toEqual([{ event: 2, ball: 'yellow', pocket: 'BR', t: 48.2, conf: null }]);
    expect(m.lowConfidence.map((e) => e.event)).toEqual([1]);
    // White at rest (900, 1000); brown (889, 737): 263.2 mm between centres, less 52.5 = 210.7 mm.
    expect(m.cueGapsAtRest[0]).toEqual({ ball: 'brown', gapMm: 210.7 });
    // Before: the previous stroke's rest, white (900, 1200); brown (889, 737): 463.1 − 52.5 = 410.6 mm.
    expect(m.cueGapsBefore[0]).toEqual({ ball: 'brown', gapMm: 410.6 });
  });

  test('the first-contact margin is the time to the next different ball the cue ball touches', () => {
    const r = applyDecisions(log, [{ stroke: 5, action: 'overrule', corrections: [{ op: 'firstContact', ball: 'yellow' }], at: 'x' }]);
    if (!r.ok) throw new Error(r.error.message);
    expect(measureStroke(r.value, 5, table).firstContactGapMs).toBe(20);
  });

  test.each([
    [0, 0],
    [1.2, 1.2],
    [-0.8, -0.8],
    [30, 30],
  ])('gap between surfaces: centres 52.5 + %f mm apart → %f mm', (gap, expected) => {
    const g = cueGaps([{ id: 'white', x: 500, y: 500 }, { id: 'red3', x: 500, y: 500 + 52.5 + gap }, { id: 'black', x: 900, y: 3000 }], 'white', table);
    expect(g[0]).toEqual({ ball: 'red3', gapMm: expected });
  });
});

describe('replay', () => {
  test('the stroke window runs from 0.5 s before the strike to the next stroke\'s lead-in', () => {
    expect(strokeWindow(log, 5)).toEqual({ start: 46.5, end: 54.9 });
    // The last stroke: 3 s after its last event.
    expect(strokeWindow(log, 11)).toEqual({ start: 102.7, end: 107 });
  });

  test('from tracks: only frames inside the window, and paths for the balls that moved', () => {
    const frames = fixtureFrames(log);
    const r = strokeReplay(log, 5, frames);
    expect(r.source).toBe('tracks');
    expect(r.frames.length).toBe(38);
    expect(r.frames[0]!.t).toBeCloseTo(46.5, 5);
    expect(r.frames.every((f) => f.t >= 46.5 && f.t < 54.9)).toBe(true);
    // White (900,1200)→(900,1000) moved; the fixture's yellow drops where it lay (its track ends), the others stay.
    expect(r.paths.map((p) => p.id)).toEqual(['white']);
    expect(r.paths.find((p) => p.id === 'white')!.points.at(-1)).toEqual([900, 1000]);
    expect('yellow' in r.frames.at(-1)!.balls).toBe(false);
  });

  test('from the log: before then rest when there are no tracks or paths', () => {
    const r = strokeReplay(log, 5, null);
    expect(r.source).toBe('positions');
    expect(r.frames.map((f) => f.t)).toEqual([47, 48.7]);
    expect(r.frames[0]!.balls.white).toEqual([900, 1200]);
    expect(r.frames[1]!.balls.white).toEqual([900, 1000]);
    expect(r.paths).toEqual([]);
  });

  test('from the stroke\'s paths: interpolated positions, potted balls leave at their pot', () => {
    const withPaths: StrokeLog = {
      ...log,
      strokes: log.strokes.map((s, i) => (i === 5 ? { ...s, paths: { white: [[47, 900, 1200], [47.5, 900, 1100], [48, 900, 1000]], yellow: [[47.5, 1181, 737], [48.2, 1700, 60]] } } : s)),
    };
    const r = replayFromLog(withPaths, 5);
    expect(r.source).toBe('paths');
    expect(r.frames.map((f) => f.t)).toEqual([47, 47.5, 48, 48.2, 48.7]);
    expect(r.frames[1]!.balls.white).toEqual([900, 1100]);
    expect(r.frames[2]!.balls.yellow![0]).toBeCloseTo(1181 + (0.5 / 0.7) * (1700 - 1181), 6);
    expect('yellow' in r.frames[3]!.balls).toBe(false);
    expect(r.paths.map((p) => p.id)).toEqual(['white', 'yellow']);
  });

  test('thin keeps the first and last frames and at most max', () => {
    const xs = Array.from({ length: 1000 }, (_, k) => k);
    const t = thin(xs, 240);
    expect(t.length).toBe(240);
    expect(t[0]).toBe(0);
    expect(t.at(-1)).toBe(999);
    expect(thin([1, 2, 3], 240)).toEqual([1, 2, 3]);
  });
});
