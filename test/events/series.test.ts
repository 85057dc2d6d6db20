/** The series built a frame at a time (a long recording read from disk) is the series of the whole document. */
import { describe, expect, test } from 'vitest';
import { builtinProfile } from '../../src/core/table.js';
import { buildSeries, SeriesBuilder, seriesToStrokes, tracksToStrokes } from '../../src/events/index.js';
import { aim, simulateTable, toTracks } from './synth.js';

const table = builtinProfile('snooker');

describe('SeriesBuilder', () => {
  test('grown from 16 entries over 151 frames (a cut-away, occlusions, a pot): the same series and the same strokes as the whole document', () => {
    const from = { x: 1400, y: 2900 };
    const run = simulateTable(table, [{ id: 'red1', ...from }, { id: 'white', x: 889, y: 700 }], [{ t: 0.3, ball: 'red1', ...aim(from, { x: 1778, y: 3569 }, 1600) }], { durationS: 5 });
    const doc = toTracks(run, { fps: 30, noiseMm: 1, seed: 57, occlude: { from: 40, to: 44, balls: ['white'], as: 'occluded' } });
    doc.frames[100] = { i: doc.frames[100]!.i, t: doc.frames[100]!.t, view: false, balls: [] };
    const b = new SeriesBuilder(16);
    for (const f of doc.frames) b.add(f);
    expect(b.length).toBe(doc.frames.length);
    const built = b.build(), whole = buildSeries(doc.frames);
    expect(built.t).toEqual(whole.t);
    expect(built.view).toEqual(whole.view);
    expect([...built.balls.keys()].sort()).toEqual([...whole.balls.keys()].sort());
    for (const [id, s] of whole.balls) expect(built.balls.get(id)).toEqual(s);
    expect(seriesToStrokes(doc, built, table).log).toEqual(tracksToStrokes(doc, table).log);
    expect(tracksToStrokes(doc, table).log.strokes[0]!.events.some((e) => e.type === 'pot')).toBe(true);
  });
});

describe('a ball the tracker decided again (`was`)', () => {
  test("its frames under the old id become the new id's; into an id that already has frames, only where that id was absent", () => {
    const f = (i: number, balls: { id: string; x: number; was?: string }[]) => ({ i, t: i / 30, balls: balls.map((b) => ({ ...b, y: 100, state: 'rest' as const })) });
    const s = buildSeries([f(0, [{ id: 'brown', x: 10 }, { id: 'red2', x: 50 }]), f(1, [{ id: 'brown', x: 11 }]), f(2, [{ id: 'red1', x: 12, was: 'brown' }]), f(3, [{ id: 'red2', x: 13, was: 'red1' }])]);
    expect([...s.balls.keys()]).toEqual(['red2']);
    // red2's own frame 0 stays; frames 1–2 come from brown and red1.
    expect([...s.balls.get('red2')!.x]).toEqual([50, 11, 12, 13]);
  });
});

describe('replayFrameFilter (the report reads an hour of tracks keeping only what its replays show)', () => {
  test('the replays from the filtered frames equal those from every frame, from far fewer frames', async () => {
    const { replayFrameFilter, strokeReplays } = await import('../../src/pipeline/clips.js');
    const from = { x: 889, y: 700 };
    const strikes = [{ t: 0.5, ball: 'white', ...aim(from, { x: 889, y: 2000 }, 900) }, { t: 4.5, ball: 'red1', vx: 600, vy: 300 }];
    const run = simulateTable(table, [{ id: 'white', ...from }, { id: 'red1', x: 1300, y: 2600 }], strikes, { durationS: 9 });
    const doc = toTracks(run, { fps: 30, noiseMm: 0.5, seed: 58 });
    doc.frames[200] = { i: doc.frames[200]!.i, t: doc.frames[200]!.t, view: false, balls: [] };
    const { log } = tracksToStrokes(doc, table);
    expect(log.strokes.length).toBeGreaterThanOrEqual(2);
    const keep = replayFrameFilter(log);
    const kept = doc.frames.filter((f) => keep(f));
    expect(kept.length).toBeLessThan(doc.frames.length / 1.5);
    expect(strokeReplays(log, kept)).toEqual(strokeReplays(log, doc.frames));
  });
});

describe('repeated frames (a 25 fps picture carried at 30 fps)', () => {
  /** The tracks a camera gives when every fifth frame repeats the one before (to the detector's noise). */
  function withRepeats(doc: ReturnType<typeof toTracks>, every: number) {
    const frames = doc.frames.map((f, k) => {
      if (k % every !== every - 1 || k === 0) return f;
      const prev = doc.frames[k - 1]!;
      return { ...f, balls: prev.balls.map((b) => ({ ...b, x: b.x + 0.2, y: b.y - 0.1 })) };
    });
    return { ...doc, frames };
  }

  test('a rolling ball standing still on every fifth frame is not stopped: no placements, the same strokes as without repeats', () => {
    const from = { x: 889, y: 700 };
    const run = simulateTable(table, [{ id: 'white', ...from }, { id: 'red1', x: 889, y: 2400 }], [{ t: 0.5, ball: 'white', ...aim(from, { x: 889, y: 2400 }, 1500) }], { durationS: 6 });
    const doc = toTracks(run, { fps: 30, noiseMm: 0.5, seed: 59 });
    const clean = tracksToStrokes(doc, table).log.strokes;
    const rep = withRepeats(doc, 5);
    const series = buildSeries(rep.frames);
    const w = series.balls.get('white')!;
    // The repeats while the white rolls are hidden; those at rest stay sightings.
    const k = rep.frames.findIndex((f, j) => j % 5 === 4 && j > 20 && f.t > 0.7 && f.t < 1.3);
    expect(w.presence[k]).toBe(2);
    expect(w.presence[4]).toBe(1);
    const got = tracksToStrokes(rep, table).log.strokes;
    expect(got).toHaveLength(clean.length);
    expect(got[0]!.events.filter((e) => e.type === 'place')).toEqual([]);
    expect(got[0]!.events.map((e) => e.type)).toEqual(clean[0]!.events.map((e) => e.type));
  });

  test('a centre jumping between two reads of one ball (there, here, here, back) is not a repeat', () => {
    // 12 mm apart: A B B A B B A …, no other ball rolling.
    const frames = Array.from({ length: 30 }, (_, i) => ({ i, t: i / 30, balls: [{ id: 'pink', x: 889 + ([0, 12, 12][i % 3] ?? 0), y: 2676, state: 'rest' as const }, { id: 'white', x: 889, y: 700, state: 'rest' as const }] }));
    const s = buildSeries(frames).balls.get('pink')!;
    // (The lone A between Bs is a one-frame spike, hidden as such; the second B, where a repeat
    // would be read, stays a sighting.)
    expect([...s.presence].filter((_, i) => i % 3 === 2)).toEqual(new Array(10).fill(1));
  });

  test('a ball stopped dead by a contact stays a sighting (one frame standing, then standing still)', () => {
    const from = { x: 889, y: 700 };
    // Full-ball, no spin: the white stops dead on the red, which rolls on.
    const run = simulateTable(table, [{ id: 'white', ...from }, { id: 'red1', x: 889, y: 1400 }], [{ t: 0.5, ball: 'white', ...aim(from, { x: 889, y: 1400 }, 1500) }], { durationS: 4, restitution: 1 });
    const doc = toTracks(run, { fps: 30, noiseMm: 0.3, seed: 60 });
    const s = buildSeries(doc.frames).balls.get('white')!;
    const tStop = run.truth.contacts[0]!.t;
    for (let k = 0; k < doc.frames.length; k++) if (doc.frames[k]!.t > tStop + 0.05 && doc.frames[k]!.t < tStop + 0.5) expect(s.presence[k]).toBe(1);
  });
});

describe('a resting ball\'s one-frame spike', () => {
  test('is no sighting; the contact right after it is still the cue ball\'s (the spike no longer starts the red early)', () => {
    const red = { x: 1470, y: 3255 };
    const from = { x: 1100, y: 2700 };
    const run = simulateTable(table, [{ id: 'white', ...from }, { id: 'red1', ...red }], [{ t: 0.3, ball: 'white', ...aim(from, { x: red.x - 20, y: red.y - 45 }, 1200) }], { durationS: 4 });
    const tc = run.truth.contacts[0]!.t;
    expect(run.truth.contacts[0]).toMatchObject({ a: 'white', b: 'red1' });
    const doc = toTracks(run, { fps: 30, noiseMm: 0.3, seed: 66 });
    // The frame before the contact: the red reported 8 mm off its place, then back.
    const k = Math.floor(tc * 30) - 1;
    const f = doc.frames[k]!;
    doc.frames[k] = { ...f, balls: f.balls.map((b) => (b.id === 'red1' ? { ...b, y: b.y - 8 } : b)) };
    expect(buildSeries(doc.frames).balls.get('red1')!.presence[k]).toBe(2);
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events.filter((e) => e.type === 'contact');
    expect(ev[0]).toMatchObject({ a: 'white', b: 'red1' });
    // A ball that really moves off (and does not come back) keeps every sighting.
    const moved = buildSeries(doc.frames).balls.get('red1')!;
    const after = doc.frames.findIndex((q) => q.t > tc + 0.1);
    expect(moved.presence[after]).toBe(1);
  });
});
