/** The tracker on synthetic detections: identities, states, occlusion, votes, placements, pots. */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { TrackFrame } from '../../src/core/contracts/tracks.js';
import type { GameId } from '../../src/core/games.js';
import { builtinProfile } from '../../src/core/table.js';
import { tracksToStrokes } from '../../src/events/index.js';
import { createTracker, makeDetections, type DetectionFrame } from '../../src/tracking/index.js';
import { identitySwitches, simulateTable, type SynthRun } from '../events/synth.js';
import { fakeDetections, type FakeDetectorOptions } from './fakeDetector.js';

const table = builtinProfile('snooker');

/** One line of a stored `tracker-input.jsonl` (the detections `analyze` gave the tracker, in table mm). */
interface InputLine { i: number; t: number; g: string; d?: [number, number, number, string][] }

/** A fixture's tracker input, and a fresh tracker's frames from it (a `reuse` line repeats the last detections). */
function replayFixture(name: string, game: GameId, shift: (x: number, y: number) => [number, number] = (x, y) => [x, y]): { lines: InputLine[]; frames: TrackFrame[] } {
  const lines = readFileSync(new URL(`./fixtures/${name}.tracker-input.jsonl`, import.meta.url), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as InputLine);
  const tr = createTracker(game === 'snooker' ? table : builtinProfile(game === 'pool8' ? 'pool8-9ft' : 'novus'));
  let last = makeDetections([], game);
  const frames = lines.map((l) => {
    if (l.d) last = makeDetections(l.d.map(([x, y, conf, cls]) => { const [sx, sy] = shift(x, y); return { x: sx, y: sy, conf, class: cls }; }), game, l.i);
    return tr.step({ i: l.i, t: l.t, detections: last });
  });
  return { lines, frames };
}

/** A frame's detections back as rows, to edit and rebuild with makeDetections. */
const rowsOf = (f: DetectionFrame) => [...Array(f.detections.length).keys()].map((c) => ({ x: f.detections.x[c]!, y: f.detections.y[c]!, class: f.detections.cls[c]!, conf: f.detections.conf[c]! }));

function track(run: SynthRun, o: FakeDetectorOptions): TrackFrame[] {
  const tr = createTracker(table);
  return fakeDetections(run, o).frames.map((f) => tr.step(f));
}


describe('tracker', () => {
  test('a stroke with a contact and a cushion: ids from classes, no switches, states rest → moving → rest', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 1000 }, { id: 'red1', x: 895, y: 1600 }, { id: 'red2', x: 1200, y: 2000 }, { id: 'black', x: 889, y: 3245 }], [{ t: 0.5, ball: 'white', vx: 0, vy: 2200 }], { durationS: 8 });
    const frames = track(run, { fps: 30, noiseMm: 1, seed: 1 });
    const ids = new Set(frames.flatMap((f) => f.balls.map((b) => b.id)));
    expect([...ids].sort()).toEqual(['black', 'red1', 'red2', 'white']);
    const { switches, owner } = identitySwitches(run, frames, 20);
    expect(switches).toBe(0);
    expect(owner.get('white')).toBe('white');
    expect(owner.get('black')).toBe('black');
    const whiteStates = frames.map((f) => f.balls.find((b) => b.id === 'white')?.state).filter(Boolean);
    expect(whiteStates[0]).toBe('rest');
    expect(whiteStates).toContain('moving');
    expect(whiteStates.at(-1)).toBe('rest');
    // Through the event stage: the same contact the simulator made, within 2 ms.
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table);
    const c = log.strokes[0]!.events.find((e) => e.type === 'contact')!;
    expect(c).toMatchObject({ a: 'white', b: owner.get('red1') === 'red1' ? 'red1' : 'red2' });
    expect(Math.abs(c.t - run.truth.contacts[0]!.t)).toBeLessThan(0.002);
  });

  test('a fast red seen as brown on a third of its frames stays a red; the brown keeps its id', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 600 }, { id: 'red1', x: 889, y: 1200 }, { id: 'brown', x: 889, y: 737 + 200 }], [{ t: 0.5, ball: 'red1', vx: 300, vy: 2500 }], { durationS: 6 });
    const frames = track(run, { fps: 30, noiseMm: 1, seed: 2, confuse: (id, v, rng) => (id === 'red1' && v > 300 && rng() < 0.33 ? 'brown' : undefined) });
    const ids = new Set(frames.flatMap((f) => f.balls.map((b) => b.id)));
    expect([...ids].sort()).toEqual(['brown', 'red1', 'white']);
    expect(identitySwitches(run, frames, 20).switches).toBe(0);
  });

  test('a red read as brown on its first frames (blurred as it appears) becomes a red once the votes say so by far: `was` on that frame, one ball to the event stage', () => {
    // The white strikes red1 at 0.5 s; red1 appears at 0.6 s, read `brown` on its first 6 frames.
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 600 }, { id: 'red1', x: 889, y: 1200 }], [{ t: 0.5, ball: 'white', vx: 0, vy: 1500 }], { durationS: 5 });
    let first = 6;
    const frames = track(run, { fps: 30, noiseMm: 1, seed: 4, appearAt: { red1: 0.2 }, confuse: (id) => (id === 'red1' && first-- > 0 ? 'brown' : undefined) });
    const ids = frames.map((f) => f.balls.map((b) => b.id).sort().join());
    expect(ids[8]).toBe('brown,white');
    expect(ids.at(-1)).toBe('red1,white');
    const changed = frames.flatMap((f) => f.balls.filter((b) => b.was !== undefined).map((b) => [f.i, b.id, b.was]));
    expect(changed).toHaveLength(1);
    expect(changed[0]!.slice(1)).toEqual(['red1', 'brown']);
    // The event stage sees one red from its first sighting: struck by the white, no brown anywhere.
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table);
    expect((log.start?.balls as { id: string }[]).map((b) => b.id).sort()).toEqual(['red1', 'white']);
    expect(log.strokes[0]!.events.find((e) => e.type === 'contact')).toMatchObject({ a: 'white', b: 'red1' });
    expect(JSON.stringify(log)).not.toContain('brown');
  });

  test('the cue ball is never decided again: a white read as yellow for a while stays the white', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 600 }, { id: 'red1', x: 889, y: 1200 }], [{ t: 0.5, ball: 'white', vx: 0, vy: 1500 }], { durationS: 4 });
    // Read `yellow` at rest from its 7th frame until struck: 8 frames white, then 7 for every one.
    let seen = 0;
    const frames = track(run, { fps: 30, noiseMm: 1, seed: 5, confuse: (id, v) => (id === 'white' && v === 0 && seen++ > 7 ? 'yellow' : undefined) });
    expect(new Set(frames.flatMap((f) => f.balls.map((b) => b.id)))).toEqual(new Set(['white', 'red1']));
  });

  test('a player hides two resting balls for 20 frames: occluded, same ids after, no events', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 600 }, { id: 'red1', x: 900, y: 2800 }, { id: 'pink', x: 889, y: 2676 }], [], { durationS: 4 });
    const frames = track(run, { fps: 30, noiseMm: 1, seed: 3, occlude: { from: 30, to: 49, balls: ['white', 'red1'] } });
    expect(frames[40]!.balls.find((b) => b.id === 'white')!.state).toBe('occluded');
    expect(frames[60]!.balls.map((b) => `${b.id}:${b.state}`).sort()).toEqual(['pink:rest', 'red1:rest', 'white:rest']);
    const w = frames[40]!.balls.find((b) => b.id === 'white')!;
    expect(Math.hypot(w.x - 889, w.y - 600)).toBeLessThan(1.5);
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table);
    expect(log.strokes).toHaveLength(0);
  });

  test('a rolling ball hidden for 6 frames is found again with its id (re-identification)', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 600 }, { id: 'red1', x: 300, y: 2800 }, { id: 'red2', x: 1500, y: 2800 }], [{ t: 0.3, ball: 'white', vx: 0, vy: 1500 }], { durationS: 6 });
    const frames = track(run, { fps: 30, noiseMm: 1, seed: 4, occlude: { from: 20, to: 25, balls: ['white'] } });
    const ids = new Set(frames.flatMap((f) => f.balls.map((b) => b.id)));
    expect([...ids].sort()).toEqual(['red1', 'red2', 'white']);
    expect(identitySwitches(run, frames, 20).switches).toBe(0);
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table);
    expect(log.strokes).toHaveLength(1);
    expect(log.strokes[0]!.events.map((e) => e.type)).toEqual(['strike', 'cross', 'cushion']);
  });

  test('a ball put down by hand gets an id and becomes a place event; a potted ball is pocketed', () => {
    const red = { x: 1300, y: 3300 };
    const dir = { x: 1778 - red.x, y: 3569 - red.y };
    const len = Math.hypot(dir.x, dir.y);
    const white = { x: red.x - (dir.x / len) * 400, y: red.y - (dir.y / len) * 400 };
    const run = simulateTable(table, [{ id: 'white', ...white }, { id: 'red1', ...red }, { id: 'blue', x: 889, y: 1784.5 }], [{ t: 2, ball: 'white', vx: (dir.x / len) * 1500, vy: (dir.y / len) * 1500 }], { durationS: 7 });
    expect(run.truth.pots).toEqual([expect.objectContaining({ ball: 'red1', pocket: 'TR' })]);
    const frames = track(run, { fps: 30, noiseMm: 1, seed: 5, appearAt: { blue: 1 } });
    expect(frames.some((f) => f.balls.some((b) => b.id === 'red1' && b.state === 'pocketed'))).toBe(true);
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table);
    expect(log.strokes).toHaveLength(1);
    const ev = log.strokes[0]!.events;
    expect(ev.find((e) => e.type === 'place')).toMatchObject({ ball: 'blue' });
    expect(ev.find((e) => e.type === 'pot')).toMatchObject({ ball: 'red1', pocket: 'TR' });
  });

  test('a ball seen over a pocket hole and then "sliding back" as it drops (a far-end camera) is pocketed, not left rolling', () => {
    const from = { x: 1400, y: 700 };
    const d = Math.hypot(1778 - from.x, from.y);
    const run = simulateTable(table, [{ id: 'white', ...from }, { id: 'black', x: 889, y: 3245 }], [{ t: 0.3, ball: 'white', vx: ((1778 - from.x) / d) * 1800, vy: (-from.y / d) * 1800 }], { durationS: 4 });
    expect(run.truth.pots.map((p) => p.pocket)).toEqual(['BR']);
    const det = fakeDetections(run, { fps: 30, noiseMm: 1, seed: 6 }).frames;
    const k = det.findIndex((f) => f.t > 0.3 && !f.detections.cls.includes('white'));
    const ghost = [[1751, 12], [1752, 40], [1752, 62], [1753, 88], [1751, 119]] as const;
    ghost.forEach(([x, y], j) => {
      const f = det[k + j]!;
      const rows = rowsOf(f);
      det[k + j] = { ...f, detections: makeDetections([...rows, { x, y, class: 'white', conf: 0.8 }], 'snooker', f.i) };
    });
    const tr = createTracker(table);
    const frames = det.map((f) => tr.step(f));
    const white = frames.map((f) => f.balls.find((b) => b.id === 'white')?.state);
    // Pocketed within lostAfterMs (100 ms) of the last sighting, not coasted on as occluded.
    const gone = white.indexOf('pocketed');
    expect(gone).toBeGreaterThanOrEqual(k + ghost.length);
    expect(gone).toBeLessThanOrEqual(k + ghost.length + 4);
    expect(white.slice(gone + 1).filter(Boolean)).toEqual([]);
  });

  test('a resting ball unseen for a few frames is not carried off by a detection of another class across the table', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 800 }, { id: 'pink', x: 889, y: 2677 }], [{ t: 1.5, ball: 'white', vx: 0, vy: 600 }], { durationS: 3 });
    const det = fakeDetections(run, { fps: 25, noiseMm: 1, seed: 7 }).frames;
    // Frames 16–22: a hand over the pink hides it (missed), and frames 20–21 a false red 1 m away.
    for (let k = 16; k <= 22; k++) {
      const f = det[k]!;
      const rows = rowsOf(f).filter((r) => r.class !== 'pink');
      if (k >= 20 && k <= 21) rows.push({ x: 159 + 30 * (k - 20), y: 2025, class: 'red', conf: 0.3 });
      det[k] = { ...f, detections: makeDetections(rows, 'snooker', f.i) };
    }
    const tr = createTracker(table);
    const frames = det.map((f) => tr.step(f));
    // (From frame 3: a new ball gets its id once seen three times.)
    const pink = frames.slice(3).map((f) => f.balls.find((b) => b.id === 'pink'));
    for (const b of pink) {
      expect(b).toBeDefined();
      expect(Math.hypot(b!.x - 889, b!.y - 2677)).toBeLessThan(10);
    }
    expect(pink.at(-1)!.state).toBe('rest');
  });

  test('two candidates for the cue ball from the first frame: the id goes to the stronger, which then plays', () => {
    // The real cue ball (conf 0.95) and, from frame 0, a white shirt cuff on the bed read as a
    // faint `white` (conf 0.4): cueref analyze on a real broadcast clip (Bucharest Task2 clip 6).
    const run = simulateTable(table, [{ id: 'white', x: 1400, y: 3190 }, { id: 'black', x: 889, y: 3245 }], [{ t: 1, ball: 'white', vx: -1500, vy: 0 }], { durationS: 3 });
    const det = fakeDetections(run, { fps: 30, noiseMm: 1, seed: 8 }).frames.map((f) => {
      const rows = rowsOf(f);
      return { ...f, detections: makeDetections([...rows, { x: 1680, y: 3198, class: 'white', conf: 0.4 }], 'snooker', f.i) };
    });
    const tr = createTracker(table);
    const frames = det.map((f) => tr.step(f));
    const white = frames.map((f) => f.balls.find((b) => b.id === 'white')).filter((b) => b !== undefined);
    expect(Math.hypot(white[0]!.x - 1400, white[0]!.y - 3190)).toBeLessThan(5);
    // It follows the struck cue ball, not the cuff.
    expect(white.some((b) => b.state === 'moving' && b.x < 1300)).toBe(true);
  });

  test('a ball lost just after it was struck is not given a detection of another class far away', () => {
    // The black is struck and not seen again (blurred, then in a pocket); four frames later a
    // false `yellow` appears 600 mm off while the real yellow is seen where it rests.
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 2900 }, { id: 'black', x: 889, y: 3245 }, { id: 'yellow', x: 1181, y: 737 }], [{ t: 1, ball: 'white', vx: 0, vy: 1500 }], { durationS: 3 });
    const tHit = run.truth.contacts[0]!.t;
    const det = fakeDetections(run, { fps: 30, noiseMm: 1, seed: 9 }).frames.map((f) => {
      const rows = rowsOf(f);
      // The black is seen once just as it starts (6 mm off its spot), then never again.
      const kept = rows.filter((r) => r.class !== 'black' || f.t < tHit);
      if (f.t >= tHit && f.t < tHit + 1 / 30) kept.push({ x: 889, y: 3251, class: 'black', conf: 0.6 });
      if (f.t > tHit + 5 / 30) kept.push({ x: 1480, y: 3245, class: 'yellow', conf: 0.5 });
      return { ...f, detections: makeDetections(kept, 'snooker', f.i) };
    });
    const tr = createTracker(table);
    const frames = det.map((f) => tr.step(f));
    for (const f of frames) {
      const b = f.balls.find((x) => x.id === 'black');
      if (b && f.t > tHit + 5 / 30) expect(Math.hypot(b.x - 1480, b.y - 3245), `black at ${f.t} s`).toBeGreaterThan(200);
    }
  });

  test('weak detections: a dim cue ball, the strongest white by far, gets the id and plays; a rival white half as strong does not', () => {
    // Bucharest Task3 clips 11 and 14: the cue ball scores 0.23–0.31 for a second before it is
    // struck, under the 0.3 that starts a ball; the false whites of those frames 0.05–0.13.
    const run = simulateTable(table, [{ id: 'white', x: 1200, y: 1500 }, { id: 'black', x: 889, y: 3245 }], [{ t: 1, ball: 'white', vx: 0, vy: 1500 }], { durationS: 3 });
    const det = fakeDetections(run, { fps: 30, noiseMm: 1, seed: 10 }).frames.map((f) => {
      const rows = rowsOf(f).map((r) => (r.class === 'white' && f.t < 1 ? { ...r, conf: 0.24 } : r));
      return { ...f, detections: makeDetections([...rows, { x: 400, y: 2500, class: 'white', conf: 0.1 }], 'snooker', f.i) };
    });
    const tr = createTracker(table);
    const frames = det.map((f) => tr.step(f));
    const white = frames.map((f) => f.balls.find((b) => b.id === 'white'));
    // Confirmed after minHits (3) frames, where it rests, and followed when struck.
    expect(white[3]).toMatchObject({ state: 'rest' });
    expect(Math.hypot(white[3]!.x - 1200, white[3]!.y - 1500)).toBeLessThan(3);
    expect(white.some((b) => b?.state === 'moving' && b.y > 1700)).toBe(true);
    expect(frames.flatMap((f) => f.balls).filter((b) => Math.hypot(b.x - 400, b.y - 2500) < 50)).toEqual([]);
  });

  test('weak detections never start a red, a ball whose id is held, a white with a rival, a lone faint peak, or a strong flicker', () => {
    type Row = { x: number; y: number; class: string; conf: number };
    const cases: { name: string; rows: (i: number) => Row[]; ids: string[] }[] = [
      { name: 'a weak red', rows: () => [{ x: 600, y: 2600, class: 'red', conf: 0.25 }], ids: [] },
      { name: 'a weak white beside a strong one', rows: () => [{ x: 889, y: 900, class: 'white', conf: 0.9 }, { x: 1300, y: 2000, class: 'white', conf: 0.25 }], ids: ['white@889'] },
      { name: 'two weak whites of like strength', rows: () => [{ x: 889, y: 900, class: 'white', conf: 0.25 }, { x: 1300, y: 2000, class: 'white', conf: 0.2 }], ids: [] },
      { name: 'a weak white over a pocket', rows: () => [{ x: 10, y: 15, class: 'white', conf: 0.25 }], ids: [] },
      // A lone peak is its class's strongest whatever it scores (Bucharest Task2 clip 3: a 0.16 blue in a corner's clutter).
      { name: 'a lone faint blue', rows: () => [{ x: 262, y: 3433, class: 'blue', conf: 0.16 }], ids: [] },
      // Strong on one frame in three, weak between: a ball that started strong earns its id with strong detections.
      { name: 'a green flickering strong and weak', rows: (i) => [{ x: 331, y: 3116, class: 'green', conf: i % 3 === 0 ? 0.33 : 0.18 }], ids: [] },
    ];
    for (const c of cases) {
      const tr = createTracker(table);
      const frames = Array.from({ length: 20 }, (_, i) => tr.step({ i, t: i / 30, detections: makeDetections(c.rows(i), 'snooker', i) }));
      expect(frames.flatMap((f) => f.balls.map((b) => `${b.id}@${Math.round(b.x)}`)).filter((v, k, a) => a.indexOf(v) === k), c.name).toEqual(c.ids);
    }
  });

  test('a tentative track moving on weak reads never takes the detections of the cue ball as it is struck (rendered short frame, broadcast 25 fps)', () => {
    // The detections the tracker was given there (rounded): the cue ball rests at (1142, 529); a
    // weak `yellow` (the potted yellow's id is free) wanders on the cue's butt 200 mm away; the
    // cue ball is then read 9 mm off its place as the cue comes over it, and rolls away.
    type Row = { x: number; y: number; class: string; conf: number };
    const yellow: [number, number, number][] = [[1336, 430, 0.23], [1336, 424, 0.24], [1314, 432, 0.16], [1313, 431, 0.22], [1312, 431, 0.25], [1312, 423, 0.17], [1288, 432, 0.15], [1288, 430, 0.17], [1287, 425, 0.23], [1646, 134, 0.16], [1263, 430, 0.18]];
    const white: [number, number][] = [[1145, 538], [1145, 537], [1145, 539], [1128, 542], [1073, 552], [1019, 569], [961, 584], [906, 602]];
    const struck = 33;
    const rows = (k: number): Row[] => {
      const r: Row[] = [{ x: 596, y: 741, class: 'green', conf: 0.9 }];
      const w = k < struck ? [1142.3, 529.3] : white[Math.min(k - struck, white.length - 1)]!;
      r.push({ x: w[0]!, y: w[1]!, class: 'white', conf: k < struck ? 0.84 : 0.6 + 0.03 * (k - struck) });
      const y = yellow[k - 26];
      if (y) r.push({ x: y[0], y: y[1], class: 'yellow', conf: y[2] });
      return r;
    };
    const tr = createTracker(table);
    const frames = Array.from({ length: 44 }, (_, k) => tr.step({ i: k, t: k / 25, detections: makeDetections(rows(k), 'snooker', k) }));
    // One ball follows the cue ball's detections, and it is the white.
    for (let k = struck; k < struck + white.length; k++) {
      const on = frames[k]!.balls.filter((b) => Math.hypot(b.x - white[k - struck]![0], b.y - white[k - struck]![1]) < 3);
      expect(on.map((b) => b.id), `frame ${k}`).toEqual(['white']);
    }
    expect(frames.at(-1)!.balls.find((b) => b.id === 'white')!.x).toBeLessThan(950);
  });

  test('a ball read twice at once (as the white and as a yellow 6 mm off) is one ball: no yellow is born, from the first frame or later', () => {
    for (const from of [0, 10]) {
      const tr = createTracker(table);
      const rows = (k: number) => [{ x: 900, y: 1200, class: 'white', conf: 0.9 }, ...(k >= from ? [{ x: 904, y: 1204, class: 'yellow', conf: 0.5 }] : [])];
      const frames = Array.from({ length: 20 }, (_, k) => tr.step({ i: k, t: k / 30, detections: makeDetections(rows(k), 'snooker', k) }));
      expect([...new Set(frames.flatMap((f) => f.balls.map((b) => b.id)))], `from frame ${from}`).toEqual(['white']);
    }
  });

  test('weak detections keep a resting ball seen, but never hold a potted ball on the table', () => {
    // A resting pink whose scores drop under 0.3 (a shadow falls on it) stays `rest`, not `occluded`.
    const tr = createTracker(table);
    const pink = (conf: number) => makeDetections([{ x: 889, y: 2676, class: 'pink', conf }], 'snooker');
    const states = Array.from({ length: 30 }, (_, i) => tr.step({ i, t: i / 30, detections: pink(i < 10 ? 0.8 : 0.2) }).balls[0]?.state);
    expect(states.slice(3)).toEqual(Array(27).fill('rest'));
    // The pot scenario with a weak `red` smudge left in the pocket's mouth after the red drops.
    const red = { x: 1300, y: 3300 };
    const dir = { x: 1778 - red.x, y: 3569 - red.y };
    const len = Math.hypot(dir.x, dir.y);
    const run = simulateTable(table, [{ id: 'white', x: red.x - (dir.x / len) * 400, y: red.y - (dir.y / len) * 400 }, { id: 'red1', ...red }], [{ t: 1, ball: 'white', vx: (dir.x / len) * 1500, vy: (dir.y / len) * 1500 }], { durationS: 5 });
    const pot = run.truth.pots[0]!;
    const det = fakeDetections(run, { fps: 30, noiseMm: 1, seed: 11 }).frames.map((f) => {
      const rows = rowsOf(f);
      if (f.t > pot.t) rows.push({ x: 1745, y: 3530, class: 'red', conf: 0.2 });
      return { ...f, detections: makeDetections(rows, 'snooker', f.i) };
    });
    const tr2 = createTracker(table);
    const frames = det.map((f) => tr2.step(f));
    expect(frames.some((f) => f.balls.some((b) => b.id === 'red1' && b.state === 'pocketed'))).toBe(true);
    expect(frames.at(-1)!.balls.map((b) => b.id)).toEqual(['white']);
  });

  test('a struck red keeps its id: a phantom red hidden for seconds across the table does not take its first moving detection (rendered S11 overhead, 25 fps: the detections the tracker was given)', () => {
    // red2 lies at (1099, 2202) and is struck at 6.61 s; a red seen briefly at (330, 1600) near
    // the start has been hidden since 1.1 s, its gate grown over the table.
    const { lines, frames } = replayFixture('struck-red-S11-overhead-25', 'snooker');
    const at = (f: TrackFrame, x: number, y: number) => f.balls.find((b) => Math.hypot(b.x - x, b.y - y) < 5);
    const before = frames.find((f) => f.t > 6.5)!;
    const red = at(before, 1099, 2202)!.id;
    // Every later detection of the rolling red is reported under that id.
    let checked = 0;
    lines.forEach((l, k) => {
      if (l.t < 6.64 || !l.d) return;
      for (const [x, y, , cls] of l.d) if (cls === 'red' && Math.hypot(x - 1099, y - 2202) > 20 && y > 1800 && y < 2200) {
        expect(at(frames[k]!, x, y)?.id, `t ${l.t}`).toBe(red);
        checked++;
      }
    });
    expect(checked).toBeGreaterThan(10);
  });

  test('a struck red keeps its id: a false red coasting unseen does not take its first moving detection (rendered S03 overhead, 60 fps: the detections the tracker was given, to 1.75 s)', () => {
    // A red lies at (1500, 3152) and is struck at 1.41 s. A false red seen moving near (325, 1595)
    // was last seen at 1.12 s and coasts: its gate grew as wide as the table, and it took the
    // struck red's first moving detection 1.9 m from it, 10 mm from the red's place.
    const { lines, frames } = replayFixture('struck-red-S03-overhead-60', 'snooker');
    const at = (f: TrackFrame, x: number, y: number) => f.balls.find((b) => Math.hypot(b.x - x, b.y - y) < 5);
    const red = at(frames.find((f) => f.t > 1.3)!, 1500, 3152)!.id;
    let checked = 0;
    lines.forEach((l, k) => {
      if (l.t < 1.41 || !l.d) return;
      for (const [x, y, , cls] of l.d) if (cls === 'red' && Math.hypot(x - 1500, y - 3152) > 5 && x > 1500 && y > 3152 && y < 3400) {
        expect(at(frames[k]!, x, y)?.id, `t ${l.t}`).toBe(red);
        checked++;
      }
    });
    expect(checked).toBeGreaterThan(10);
  });

  test('a cue ball set down in hand, read `stripe` under the hand and `cue` after, is the cue ball before it is struck (rendered P01 broadcast, 60 fps: the detections the tracker was given)', () => {
    // Read `stripe` from 0.35 s (the hand still on it) and `cue` from 0.67 s; the break is at
    // 1.1 s. Needing four times the stripe's votes, it was struck as a stripe (the 14 there) and the referee called
    // the break TOUCHED_BALL. No ball holds the cue ball's id, so twice is enough.
    const { frames } = replayFixture('cue-in-hand-P01-broadcast-60', 'pool8');
    const last = frames.at(-1)!;
    expect(last.t).toBeLessThanOrEqual(1.1);
    expect(last.balls.map((b) => b.id)).toEqual(['cue']);
    // A stripe's id while the stripe's votes lead (here the 9: no other ball is in this input).
    const early = frames.find((f) => f.t > 0.5 && f.t < 0.6)!.balls;
    expect(early).toHaveLength(1);
    expect(Number(early[0]!.id)).toBeGreaterThan(8);
  });

  test('a red leaving the pack at 5.8 m/s, first seen blurred and read `brown`, is a red, never the brown (rendered power break, broadcast 25 fps: the detections the tracker was given)', () => {
    // No brown is on this table. The red11 (at rest at (784, 2913)) leaves at 1.40 s; its track
    // is lost in the pack, and a new one is born at (453, 3485) on three `brown` reads, `red` after.
    const { frames } = replayFixture('power-break-broadcast-25-first-2.8s', 'snooker');
    expect(frames.some((f) => f.balls.some((b) => b.id === 'brown'))).toBe(false);
    // The ball it is, at 1.60 s near (215, 3157) and at 2.00 s near (388, 2015), is a red.
    for (const [t, x, y] of [[1.6, 215, 3157], [2.0, 388, 2015]] as const) {
      const f = frames.find((g) => Math.abs(g.t - t) < 1e-6)!;
      const b = f.balls.find((q) => Math.hypot(q.x - x, q.y - y) < 30);
      expect(b?.id).toMatch(/^red\d+$/);
    }
  });

  test('a ball first reported moving carries its sightings from before it had an id (`trail`): a flyer\'s path (rendered power break, broadcast 25 fps)', () => {
    // The red is read at (675, 3100) on frame 35 and (568, 3281) on frame 36, confirmed on frame 37 at (453, 3485).
    const { frames } = replayFixture('power-break-broadcast-25-first-2.8s', 'snooker');
    const flyer = frames.find((f) => f.i === 37)!.balls.find((b) => Math.hypot(b.x - 453, b.y - 3485) < 30)!;
    expect(flyer.trail?.map(([i]) => i)).toEqual([35, 36]);
    expect(Math.hypot(flyer.trail![0]![1] - 675, flyer.trail![0]![2] - 3100)).toBeLessThan(5);
    // Only on its first frame, and never on a ball first reported at rest.
    expect(frames.flatMap((f) => f.balls).filter((b) => b.id === flyer.id && b.trail)).toHaveLength(1);
    expect(frames.flatMap((f) => f.balls).filter((b) => b.trail && b.state !== 'moving')).toEqual([]);
  });

  test('a red flying at 5.6 m/s keeps its id when its streak is read twice, 51 mm apart (rendered power break, overhead 60 fps: the detections the tracker was given)', () => {
    // The red at rest at (784, 2913) leaves at 1.37 s; at 1.42 s it is read `brown` 0.56 51 mm ahead of its
    // `brown` 0.42 read. A track born from the second read, named a red, took the flyer's detection at the top
    // cushion (1.50 s); the first red, lost, was reported off the table.
    const { frames } = replayFixture('power-break-overhead-60-first-1.7s', 'snooker');
    const before = frames.find((f) => Math.abs(f.t - 1.3) < 0.01)!.balls.find((b) => Math.hypot(b.x - 784, b.y - 2913) < 10)!;
    expect(before.id).toMatch(/^red\d+$/);
    expect(frames.flatMap((f) => f.balls).filter((b) => b.state === 'offTable' || b.state === 'pocketed')).toEqual([]);
    // At 1.60 s (frame 96) the flyer is near (215, 3157), under the same id.
    const after = frames.find((f) => f.i === 96)!.balls.find((b) => Math.hypot(b.x - 215, b.y - 3157) < 30);
    expect(after?.id).toBe(before.id);
  });

  test('a struck ball is not taken by a track born from a blurred double read of the cue ball (rendered P24 overhead, 30 fps: the detections the tracker was given)', () => {
    // The cue ball at 4.5 m/s is read `cue` and, 32 mm behind on its streak, `stripe` (1.13 s);
    // a track born from the stripe read took the struck 8's first detection, the 8 stayed
    // "hidden" on its spot and its flight off the table was never seen.
    const { frames } = replayFixture('eight-off-table-P24-overhead-30', 'pool8');
    // Only the cue ball and the 8 are ever reported, and the 8 leaves the table beyond (1200, 1400).
    expect([...new Set(frames.flatMap((f) => f.balls.map((b) => b.id)))].sort()).toEqual(['8', 'cue']);
    const off = frames.flatMap((f) => f.balls.filter((b) => b.id === '8' && b.state === 'offTable'));
    expect(off).toHaveLength(1);
    expect(off[0]!.x).toBeGreaterThan(1150);
    // Seen moving on the frames between the strike and the flight.
    expect(frames.filter((f) => f.t > 1.19 && f.t < 1.28).every((f) => f.balls.find((b) => b.id === '8')?.state === 'moving')).toBe(true);
  });

  test('a cue ball in hand read as another kind under the placing hand becomes the cue ball; nothing is born on a ball the hand hides (rendered P27 overhead, 25 fps: the tracker input)', () => {
    // From 0.32 s the cue ball being set down at (700, 900) reads `stripe` (0.2–0.4), from 0.96 s
    // `cue`; the hand over the 5 at (600, 1000) makes it read `stripe`, then `cue` (0.23). Before:
    // a `cue` track was born on the hidden 5 and jumped to the real cue ball, the stripe track was
    // left on the spot and read as struck and potted.
    const pool = builtinProfile('pool8-9ft');
    const { frames } = replayFixture('hand-touch-P27-overhead-25', 'pool8');
    // Never a `cue` on the 5's spot.
    expect(frames.some((f) => f.balls.some((b) => b.id === 'cue' && Math.hypot(b.x - 600, b.y - 1005) < 30))).toBe(false);
    // One track carries the cue ball from its placement to its rest, renamed `cue` on the way.
    const renamed = frames.flatMap((f) => f.balls.filter((b) => b.id === 'cue' && b.was !== undefined));
    expect(renamed).toHaveLength(1);
    const placedId = frames.find((f) => f.t > 0.5)!.balls.find((b) => Math.hypot(b.x - 700, b.y - 895) < 20)!.id;
    expect(renamed[0]!.was).toBe(placedId);
    const end = frames.at(-1)!;
    expect(end.balls.find((b) => b.id === 'cue')?.state).toBe('rest');
    // Five balls on the table (cue, 2, 5, 8 and the 10 before it is potted), never six.
    expect(Math.max(...frames.map((f) => f.balls.filter((b) => b.state !== 'pocketed' && b.state !== 'offTable').length))).toBe(5);
    // The events: the cue ball's first contact is the 2 (at (801, 1701)); the 5, seen again 20 mm
    // off after 0.7 s under the hand, was touched — not "still moving" at the strike.
    const idAt = (x: number, y: number) => frames[3]!.balls.find((b) => Math.hypot(b.x - x, b.y - y) < 10)!.id;
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: 'pool8', frames }, pool);
    const ev = log.strokes[0]!.events;
    expect(ev.find((e) => e.type === 'contact')).toMatchObject({ a: 'cue', b: idAt(801, 1701) });
    expect(ev.filter((e) => e.type === 'touch').map((e) => (e as { ball: string }).ball)).toEqual([idAt(600, 1000)]);
    const strikeT = ev.find((e) => e.type === 'strike')!.t;
    const five = log.strokes[0]!.paths?.[idAt(600, 1000)] ?? [];
    expect(five.filter(([t]) => t <= strikeT).length).toBeLessThanOrEqual(1);
  });

  test('a ball set down on the spot of a colour that was potted is renamed that colour after a few clear reads (rendered S26-S27 overhead, 25 fps: the tracker input)', () => {
    // The black is potted at 2.16 s and respotted by hand: read `pink` 0.48 in the hand (a track
    // is born and named the pink, which is not on the table), hidden, then `black` 0.75 on its
    // spot from 5.12 s, 26 mm from where the hand held it — so "moving" for the 0.3 s it takes to
    // be at rest again. Renamed at 5.80 s (17 frames of `black`), then 5.48 s (9: a respot needs
    // twice its own kind's votes, and rest); now at 5.20 s, its third read: the pink was never
    // read firmly (≥ 0.5), and a ball read still since it was re-found is on its spot.
    const { frames } = replayFixture('respot-black-S26-S27-overhead-25-first-6s', 'snooker');
    const renamed = frames.flatMap((f) => f.balls.filter((b) => b.id === 'black' && b.was !== undefined).map((b) => ({ t: f.t, was: b.was })));
    expect(renamed).toHaveLength(1);
    expect(renamed[0]!.t).toBeLessThan(5.21);
    // Once the black, the black to the end, on its spot.
    const last = frames.at(-1)!.balls.find((b) => b.id === 'black')!;
    expect(Math.hypot(last.x - 889, last.y - 3245)).toBeLessThan(10);
    expect(frames.filter((f) => f.t >= renamed[0]!.t).every((f) => !f.balls.some((b) => b.id === renamed[0]!.was && b.state !== 'pocketed'))).toBe(true);
  });

  test('no track is born where no ball can lie, beyond a cushion\'s nose away from the pockets: the hand over the rail is not the white (rendered power break, broadcast 30 fps: the tracker input)', () => {
    // The hand bringing the white in reads `white` 0.2 at (886, -12) from 0.63 s — 12 mm beyond
    // the bottom cushion's nose — while the white is set down in the D at (893, 660), read from
    // 0.97 s and struck at 1.1 s. That first track was named the white and kept the id.
    const { frames } = replayFixture('power-break-broadcast-30-first-1.4s', 'snooker');
    expect(frames.some((f) => f.balls.some((b) => b.y < 10))).toBe(false);
    const white = frames.flatMap((f) => f.balls.filter((b) => b.id === 'white').map((b) => ({ t: f.t, x: b.x, y: b.y })));
    expect(Math.hypot(white[0]!.x - 893, white[0]!.y - 660)).toBeLessThan(15);
    expect(white[0]!.t).toBeLessThan(1.1);
  });

  test('a ball not yet named takes no detection of another kind from beyond its reach: the placed cue ball\'s track does not jump onto the 5 under the hand (rendered P27 broadcast, 25 fps: the tracker input)', () => {
    // The cue ball being set down at (700, 897) reads `cue` 0.36 on frames 18–19 (a track is born),
    // 0.29 on frame 20 (weak: a track born strong does not take it). The 5 at (604, 1000), nudged
    // by the hand, reads `stripe` 0.57 there. The unnamed track took that detection 140 mm away (any
    // kind agreed with it while it lay still) and was named the cue ball on the 5 for 0.3 s.
    const { frames } = replayFixture('hand-touch-P27-broadcast-25-first-1.8s', 'pool8');
    expect(frames.some((f) => f.balls.some((b) => b.id === 'cue' && Math.hypot(b.x - 604, b.y - 1010) < 30))).toBe(false);
    // The 5 keeps the id it had at rest, on every frame it is reported, until 1.76 s.
    const fiveId = frames[3]!.balls.find((b) => Math.hypot(b.x - 603, b.y - 1001) < 10)!.id;
    const onFive = frames.slice(3).map((f) => f.balls.filter((b) => Math.hypot(b.x - 602, b.y - 1010) < 30 && b.state !== 'occluded').map((b) => b.id));
    expect(onFive.flat().every((id) => id === fiveId)).toBe(true);
    // The cue ball is named where it is set down, and runs from there (0.9 s on).
    const cue = frames.flatMap((f) => f.balls.filter((b) => b.id === 'cue').map((b) => ({ t: f.t, x: b.x, y: b.y })));
    expect(Math.hypot(cue[0]!.x - 700, cue[0]!.y - 897)).toBeLessThan(15);
    expect(cue.filter((c) => c.t > 1.5).every((c) => c.y > 1200)).toBe(true);
  });

  test('snooker: a ball on a colour\'s spot read weakly as white is that colour from the start; the white read strongly elsewhere is the cue ball (rendered S01 broadcast 60 fps, first 1.3 s)', () => {
    // The pink on its spot reads `white` 0.4 on every frame; the real white, carried in and set
    // down in the D at ~1 s, reads 0.87 — and got no id, so the break had no cue ball. Then the
    // spot ball held the cue ball's id until the real one came and took it over (`was`): a second
    // of the pink called the white.
    const run = (shiftMm: number) => replayFixture('break-S01-broadcast-60-first-1.3s', 'snooker', (x, y) => [Math.hypot(x - 889, y - 2677) < 30 ? x + shiftMm : x, y]).frames;
    const frames = run(0);
    const end = frames.at(-1)!;
    expect(end.balls.find((b) => b.id === 'pink')).toMatchObject({ state: 'rest' });
    expect(Math.hypot(end.balls.find((b) => b.id === 'pink')!.x - 889, end.balls.find((b) => b.id === 'pink')!.y - 2677)).toBeLessThan(15);
    const white = end.balls.find((b) => b.id === 'white')!;
    expect(white.y).toBeLessThan(1800); // the cue ball, struck up the table from the D
    expect(frames.some((f) => f.balls.some((b) => b.id === 'white' && Math.hypot(b.x - 889, b.y - 2677) < 30))).toBe(false);
    expect(frames.some((f) => f.balls.some((b) => b.was !== undefined))).toBe(false);
    const firstPink = frames.findIndex((f) => f.balls.some((b) => b.id === 'pink'));
    expect(frames[firstPink]!.t).toBeLessThan(0.1);
    // Off the spot (the same reads 100 mm aside), nothing says the weak white is misread: it keeps the id.
    const aside = run(100).at(-1)!;
    expect(aside.balls.find((b) => b.id === 'white')!.x).toBeGreaterThan(950);
    expect(aside.balls.some((b) => b.id === 'pink')).toBe(false);
  });

  test('a potted colour respotted under the hand and first read as another colour takes its own id back once the reads say so (rendered S26-S27: the black read pink)', () => {
    const spot = table.spots.black!;
    const run = (at: { x: number; y: number }) => {
      const tr = createTracker(table);
      const frames: TrackFrame[] = [];
      for (let i = 0; i <= 125; i++) {
        const t = i / 25;
        const rows = [{ x: 900, y: 1000, conf: 0.9, class: 'white' }];
        if (t < 1) rows.push({ x: 1500, y: 3400, conf: 0.85, class: 'black' });
        else if (t < 1.2) rows.push({ x: 1500 + ((t - 1) / 0.2) * 250, y: 3400 + ((t - 1) / 0.2) * 140, conf: 0.8, class: 'black' });
        else if (t >= 2 && t < 2.2) rows.push({ x: at.x + 2, y: at.y + 1, conf: 0.5, class: 'pink' });
        else if (t >= 2.2) rows.push({ x: at.x, y: at.y, conf: 0.75, class: 'black' });
        frames.push(tr.step({ i, t, detections: makeDetections(rows, 'snooker', i) }));
      }
      return frames;
    };
    const frames = run(spot);
    expect(frames.some((f) => f.balls.some((b) => b.id === 'black' && b.state === 'pocketed'))).toBe(true);
    expect(frames.flatMap((f) => f.balls.filter((b) => b.was === 'pink').map((b) => b.id))).toEqual(['black']);
    expect(frames.at(-1)!.balls.map((b) => b.id).sort()).toEqual(['black', 'white']);
    // Away from a spot a potted colour does not come back: the ball stays what it was first read.
    expect(run({ x: 600, y: 2000 }).at(-1)!.balls.map((b) => b.id).sort()).toEqual(['pink', 'white']);
  });

  test('a potted colour comes back weakly seen only on a spot: a weak read elsewhere, however dominant, never brings it back (rendered short frame, broadcast 60 fps)', () => {
    // The green is struck into the left middle pocket; then a 0.24 `green` flickers by the near
    // rail, the frame's only green. Seen strong there, or weakly on the green's spot (a respot
    // under the hand), it is back.
    for (const [conf, x, y, back] of [[0.24, 1030, 140, false], [0.8, 1030, 140, true], [0.24, 597, 737, true]] as const) {
      const run = simulateTable(table, [{ id: 'white', x: 476, y: 1583 }, { id: 'green', x: 200, y: 1700 }], [{ t: 0.5, ball: 'white', vx: -1381, vy: 584 }], { durationS: 4 });
      expect(run.truth.pots.map((q) => q.ball)).toEqual(['green']);
      const det = fakeDetections(run, { fps: 60, noiseMm: 1, seed: 12 }).frames.map((f) => {
        const rows = rowsOf(f);
        if (f.t > 3) rows.push({ x, y, class: 'green', conf });
        return { ...f, detections: makeDetections(rows, 'snooker', f.i) };
      });
      const tr = createTracker(table);
      const frames = det.map((f) => tr.step(f));
      expect(frames.at(-1)!.balls.some((b) => b.id === 'green'), `conf ${conf} at (${x}, ${y})`).toBe(back);
    }
  });

  test('seeded from a restored table, the balls keep their ids from the first frame', () => {
    const tr = createTracker(table);
    tr.seed([{ id: 'white', x: 889, y: 900 }, { id: 'red3', x: 1200, y: 2800 }, { id: 'red7', x: 600, y: 2900 }], ['red1', 'red2', 'pink'], 10);
    const rows = [{ x: 601, y: 2899, class: 'red', conf: 0.9 }, { x: 1199, y: 2801, class: 'red', conf: 0.9 }, { x: 890, y: 901, class: 'white', conf: 0.9 }];
    const f = tr.step({ i: 0, t: 10.5, detections: makeDetections(rows, 'snooker', 0) });
    expect(f.balls.map((b) => `${b.id}@${Math.round(b.x)}:${b.state}`)).toEqual(['red3@1200:rest', 'red7@600:rest', 'white@889:rest']);
    expect(tr.liveIds().sort()).toEqual(['red3', 'red7', 'white']);
    expect(() => tr.seed([], [], 11)).toThrow(/after the first frame/);
  });
});

describe('a ball lost in a pocket\'s opening while moving', () => {
  test('is pocketed however slowly it seemed to go, not left resting on the lip (rendered N05 overhead 60 fps)', () => {
    // At 60 fps a red rolls at 700 mm/s towards the bottom-left corner, stalls in its mouth (a
    // sinking ball seems to in the picture; centre 30 mm from the corner) and is lost. Another
    // ball lies still elsewhere.
    const tr = createTracker(table);
    const at = (x: number, y: number) => [{ x: 889, y: 1800, class: 'blue', conf: 0.9 }, ...(Number.isFinite(x) ? [{ x, y, class: 'red', conf: 0.9 }] : [])];
    const frames: TrackFrame[] = [];
    let k = 0;
    const step = (x: number, y: number) => frames.push(tr.step({ i: k, t: k++ / 60, detections: makeDetections(at(x, y), 'snooker', k) }));
    for (let j = 0; j < 20; j++) step(300, 300);
    for (let j = 0; j < 25; j++) step(300 - j * 11.6, 300 - j * 11.6);
    const [sx, sy] = [300 - 24 * 11.6, 300 - 24 * 11.6];
    // Stalled, read a fraction of a millimetre either way, for 0.2 s (under the 0.3 s a rest takes).
    for (let j = 1; j <= 12; j++) step(sx + (j % 2 ? 0.3 : -0.3), sy);
    expect(Math.hypot(sx - 0.9, sy - 0.9)).toBeLessThan(table.pockets.BL!.mouth / 2);
    const lostAt = k / 60;
    for (let j = 0; j < 15; j++) step(NaN, NaN);
    const red = frames.map((f) => ({ t: f.t, s: f.balls.find((b) => b.id === 'red1')?.state }));
    const pocketed = red.find((r) => r.s === 'pocketed');
    expect(pocketed).toBeDefined();
    expect(pocketed!.t - lostAt).toBeLessThan(0.15);
  });
});

describe('a ball gone from where it lay, never seen moving (bare cloth)', () => {
  // The black sent into the top-right corner by a 30° cut from the white: the detector never
  // sees the black move (its smear too faint), as on Bucharest Task2 clips 6 and 12.
  const black = { x: 1400, y: 3250 };
  const u = [0.33937, 0.94065] as const;
  const run = simulateTable(table, [{ id: 'white', x: 1190, y: 2746 }, { id: 'black', x: black.x, y: black.y }, { id: 'red1', x: 600, y: 700 }], [{ t: 0.5, ball: 'white', vx: u[0] * 3000, vy: u[1] * 3000 }], { durationS: 5 });
  const contact = run.truth.contacts.find((c) => [c.a, c.b].includes('black'))!;
  const fromFrame = Math.ceil(contact.t * 30);
  /** What a frame shows: bare cloth where no ball is (`hideAt`: a player over this place all along). */
  const bareAt = (t: number, hideAt?: { x: number; y: number }) => (x: number, y: number) =>
    ![...run.at(t).values()].some((q) => Math.hypot(q.x - x, q.y - y) < 2 * 26.25) && !(hideAt && Math.hypot(hideAt.x - x, hideAt.y - y) < 100);

  function trackWith(hidden: boolean): TrackFrame[] {
    const tr = createTracker(table);
    return fakeDetections(run, { fps: 30, noiseMm: 1, seed: 4, occlude: { from: fromFrame, to: 10_000, balls: ['black'] } }).frames.map((f) => tr.step({ ...f, bare: bareAt(f.t, hidden ? black : undefined) }));
  }

  test('the simulated shot pots the black in the top-right corner, struck by the white', () => {
    expect(contact.a === 'white' || contact.b === 'white').toBe(true);
    expect(run.truth.pots.map((p) => `${p.ball}:${p.pocket}`)).toEqual(['black:TR']);
  });

  test('bare cloth where it lay: no longer reported after vanishAfterMs; hidden there instead, it stays occluded', () => {
    const gone = trackWith(false);
    // Last seen on the frame before the contact; reported (occluded) until 0.6 s after that.
    const lastBlack = Math.max(...gone.flatMap((f, k) => (f.balls.some((b) => b.id === 'black') ? [k] : [])));
    expect((lastBlack + 1 - (fromFrame - 1)) / 30).toBeCloseTo(0.6, 1);
    const kept = trackWith(true);
    expect(kept.at(-1)!.balls.find((b) => b.id === 'black')?.state).toBe('occluded');
  });

  test('events: the white struck the black, the black went into the pocket the white sent it at, doubtfully', () => {
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames: trackWith(false) }, table);
    const ev = log.strokes[0]!.events;
    const c = ev.find((e) => e.type === 'contact');
    expect(c).toMatchObject({ a: 'white', b: 'black' });
    expect(Math.abs(c!.t - contact.t)).toBeLessThan(0.05);
    const pot = ev.find((e) => e.type === 'pot');
    expect(pot).toMatchObject({ ball: 'black', pocket: 'TR' });
    expect(pot!.conf).toBeLessThan(0.7);
    expect(ev.some((e) => e.type === 'offTable')).toBe(false);
    // Hidden by a player instead: no pot, no contact invented.
    const hidden = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames: trackWith(true) }, table).log.strokes[0]!.events;
    expect(hidden.some((e) => e.type === 'pot' && e.ball === 'black')).toBe(false);
  });

  test('gone from rest with nothing near it (lifted by hand, or never a ball): no event at all — no pot, no offTable, no contact', () => {
    const far = simulateTable(table, [{ id: 'white', x: 600, y: 1000 }, { id: 'black', x: black.x, y: black.y }, { id: 'red1', x: 600, y: 2000 }], [{ t: 0.5, ball: 'white', vx: 0, vy: 2500 }], { durationS: 5 });
    const tr = createTracker(table);
    const frames = fakeDetections(far, { fps: 30, noiseMm: 1, seed: 5, occlude: { from: 30, to: 10_000, balls: ['black'] } }).frames.map((f) => tr.step({ ...f, bare: (x, y) => f.i >= 30 && Math.hypot(x - black.x, y - black.y) < 30 }));
    expect(frames.at(-1)!.balls.some((b) => b.id === 'black')).toBe(false);
    const ev = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table).log.strokes[0]!.events;
    expect(ev.filter((e) => ('ball' in e && e.ball === 'black') || (e.type === 'contact' && (e.a === 'black' || e.b === 'black')))).toEqual([]);
    expect(ev.some((e) => e.type === 'contact' && e.b === 'red1')).toBe(true);
    // …and for the referee it is still on the table where it lay (no call took it off).
    const rest = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table).log.strokes[0]!.rest!;
    expect(rest.find((r) => r.id === 'black')).toMatchObject({ x: expect.closeTo(black.x, 0) as unknown as number, y: expect.closeTo(black.y, 0) as unknown as number });
  });
});
