/**
 * The simulator's truth (src/sim: sliding and rolling friction, spin, cushions, pockets with jaws)
 * fed through the tracker and the event stage, compared with the simulator's truth strokes: first
 * contact (ball and time), pots (ball and pocket), no phantom pots, and the referee's calls.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { StrokeEvent, StrokeLog } from '../../src/core/contracts/strokes.js';
import type { TrackFrame } from '../../src/core/contracts/tracks.js';
import { tracksToStrokes } from '../../src/events/index.js';
import { refereeLog } from '../../src/rules/registry.js';
import { parseScenario, runScenario } from '../../src/sim/scenario/index.js';
import { presetCamera } from '../../src/sim/camera.js';
import { ballsAt, truthStrokes, truthTracks } from '../../src/sim/truth.js';
import { parseTracksText } from '../../src/core/contracts/tracks.js';
import { createTracker, kindOfId, makeDetections } from '../../src/tracking/index.js';
import { gaussian, mulberry32 } from './synth.js';
import { fouls, withInputs } from './sweep.js';

const SCENARIOS = join(import.meta.dirname, '../../samples/scenarios');

function record(name: string) {
  const sc = parseScenario(JSON.parse(readFileSync(join(SCENARIOS, `${name}.json`), 'utf8')));
  return runScenario(sc, { sampleDtS: 1 / 600 });
}

type Rec = ReturnType<typeof record>;

/** Truth positions at each frame, with noise; pocketed and flying balls are not seen. */
function noisyFrames(rec: Rec, fps: number, seed: number): { t: number; balls: { id: string; x: number; y: number }[] }[] {
  const rng = mulberry32(seed);
  const n = Math.floor(rec.durationS * fps) + 1;
  return Array.from({ length: n }, (_, i) => {
    const t = i / fps;
    const balls = ballsAt(rec, t)
      .filter((b) => b.state !== 'pocketed' && b.state !== 'offTable')
      .map((b) => ({ id: b.id, x: b.x + gaussian(rng), y: b.y + gaussian(rng) }));
    return { t, balls };
  });
}

const cueFirst = (events: readonly StrokeEvent[], cue: string) =>
  events.filter((e): e is Extract<StrokeEvent, { type: 'contact' }> => e.type === 'contact' && (e.a === cue || e.b === cue)).sort((a, b) => a.t - b.t)[0];
const pots = (log: StrokeLog) => log.strokes.flatMap((s) => s.events.filter((e): e is Extract<StrokeEvent, { type: 'pot' }> => e.type === 'pot'));

describe.each(['snooker-in-off-S07', 'snooker-wrong-ball-first-S08'])('simulator truth %s', (name) => {
  const rec = record(name);
  const truth = truthStrokes(rec);

  test.each([25, 30, 60])('tracks with ids at %i fps: first contact within 3 ms, pots right, referee agrees', (fps) => {
    const frames: TrackFrame[] = noisyFrames(rec, fps, fps).map((f, i) => ({ i, t: f.t, balls: f.balls.map((b) => ({ ...b, conf: 1 })) }));
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: rec.game, frames }, rec.table);
    expect(log.strokes).toHaveLength(truth.strokes.length);
    truth.strokes.forEach((ts, k) => {
      const tf = cueFirst(ts.events, 'white');
      const mf = cueFirst(log.strokes[k]!.events, 'white');
      expect(mf?.b).toBe(tf?.b);
      if (tf && mf) expect(Math.abs(mf.t - tf.t)).toBeLessThan(0.003);
    });
    expect(pots(log).map((p) => `${p.ball}@${p.pocket}`).sort()).toEqual(pots(truth).map((p) => `${p.ball}@${p.pocket}`).sort());
    const mine = refereeLog(log), theirs = refereeLog(truth);
    if (!mine.ok || !theirs.ok) throw new Error(JSON.stringify(mine.ok ? theirs : mine));
    expect(mine.value.calls.map((c) => c.fouls.map((f) => f.code))).toEqual(theirs.value.calls.map((c) => c.fouls.map((f) => f.code)));
  });

  test('class-only detections through the tracker at 30 fps: same fouls', () => {
    const tracker = createTracker(rec.table);
    const frames = noisyFrames(rec, 30, 99).map((f, i) =>
      tracker.step({ i, t: f.t, detections: makeDetections(f.balls.map((b) => ({ x: b.x, y: b.y, class: kindOfId('snooker', b.id), conf: 0.95 })), 'snooker', i) }),
    );
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: rec.game, frames }, rec.table);
    const mine = refereeLog(log), theirs = refereeLog(truth);
    if (!mine.ok || !theirs.ok) throw new Error(JSON.stringify(mine.ok ? theirs : mine));
    expect(mine.value.calls.map((c) => c.fouls.map((f) => f.code))).toEqual(theirs.value.calls.map((c) => c.fouls.map((f) => f.code)));
    // Reds are interchangeable: compare kinds of the potted balls.
    expect(pots(log).map((p) => `${kindOfId('snooker', p.ball)}@${p.pocket}`).sort()).toEqual(pots(truth).map((p) => `${kindOfId('snooker', p.ball)}@${p.pocket}`).sort());
  });

  test("the simulator's truth.tracks.json reads as is (states, z, calibration) and gives the same pots", () => {
    const doc = parseTracksText(JSON.stringify(truthTracks(rec, presetCamera('overhead', rec.table), 30)));
    const { log } = tracksToStrokes(doc, rec.table);
    expect(pots(log).map((p) => `${p.ball}@${p.pocket}`).sort()).toEqual(pots(truth).map((p) => `${p.ball}@${p.pocket}`).sort());
    expect(log.strokes.map((s) => cueFirst(s.events, 'white')?.b)).toEqual(truth.strokes.map((s) => cueFirst(s.events, 'white')?.b));
  });
});

/**
 * Regression cases from the scenario sweep (test/events/sweep.ts): the referee's calls on our log
 * (with the operator's inputs copied over: nominations, declarations) equal its calls on the truth.
 */
describe('scenario regressions (tracks with ids, 30 fps)', () => {
  test.each([
    ['snooker-struck-while-moving-S40', 'a second strike before all stopped is a new stroke'],
    ['snooker-sleeve-touch-S12', 'a ball nudged before the strike is a touch, not moving at the strike'],
    ['snooker-touching-ball-moved-S34', 'the cue ball pushed into its touching ball is the strike'],
    ['pool8-eight-off-table-P24', 'a ball flying off near a pocket is off the table, not potted'],
    ['novus-two-strokes', 'the striker set down by hand just before the strike is a placement'],
    ['snooker-break-S01', 'touching reds of the pack do not overlap in before/start'],
  ])('%s: %s', (name) => {
    const rec = record(name);
    const truth = truthStrokes(rec);
    const frames: TrackFrame[] = noisyFrames(rec, 30, 7).map((f, i) => ({ i, t: f.t, balls: f.balls.map((b) => ({ ...b, conf: 1 })) }));
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: rec.game, frames }, rec.table);
    expect(fouls(withInputs(log, truth))).toBe(fouls(truth));
  });
});
