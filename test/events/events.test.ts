/** The event stage on synthetic trajectories with known answers (test/events/synth.ts). */
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import type { StrokeEvent } from '../../src/core/contracts/strokes.js';
import type { TracksDoc } from '../../src/core/contracts/tracks.js';
import { builtinProfile, defaultProfileFor, parseTableProfile } from '../../src/core/table.js';
import { tracksToStrokes } from '../../src/events/index.js';
import { sinkDirectionOf } from '../../src/events/sinking.js';
import { presetCamera, truthHomographies } from '../../src/sim/camera.js';
import { refereeLog } from '../../src/rules/registry.js';
import { aim, simulateTable, toTracks } from './synth.js';

const table = builtinProfile('snooker');
const R = table.ballDiameter / 2;
/**
 * Homographies of a camera straight over the bed's centre, `heightMm` above it (f = 1000 px,
 * principal point 640, 360): the bed plane and the plane of ball centres (R up) seen from it.
 */
function overheadHomographies(heightMm: number) {
  const f = 1000, W = table.bed.width, L = table.bed.length;
  const at = (z: number) => { const k = (heightMm - z) / f; return [[k, 0, W / 2 - 640 * k], [0, k, L / 2 - 360 * k], [0, 0, 1]] as [[number, number, number], [number, number, number], [number, number, number]]; };
  return { imageToTable: at(0), ballCentreToTable: at(R) };
}

/**
 * One ball rolling at `vIn` from t = 1 s into `kink` at t = 2 s, then at `vOut` for `seenAfterS`,
 * then gone (30 fps, 3 s); `still` rests throughout. What a camera reports of a ball in a pocket's
 * mouth (the values of the tests: measured on rendered clips).
 */
function intoPocket(o: { ball: string; still: { id: string; x: number; y: number }; vIn: { x: number; y: number }; kink: { x: number; y: number }; vOut: { x: number; y: number }; seenAfterS: number }): TracksDoc {
  const frames: TracksDoc['frames'] = [];
  const tKink = 2.0;
  const from = { x: o.kink.x - o.vIn.x * (tKink - 1.0), y: o.kink.y - o.vIn.y * (tKink - 1.0) };
  for (let i = 0; i <= 90; i++) {
    const t = i / 30;
    const balls: TracksDoc['frames'][number]['balls'] = [{ ...o.still, conf: 0.99 }];
    const tMove = Math.max(0, Math.min(t, tKink) - 1.0);
    if (t <= tKink) balls.push({ id: o.ball, x: from.x + o.vIn.x * tMove, y: from.y + o.vIn.y * tMove, conf: 0.9 });
    else if (t <= tKink + o.seenAfterS) balls.push({ id: o.ball, x: o.kink.x + o.vOut.x * (t - tKink), y: o.kink.y + o.vOut.y * (t - tKink), conf: 0.9 });
    frames.push({ i, t, balls });
  }
  return { format: 'cueref.tracks/1', game: 'snooker', source: { uri: 'synthetic', fps: 30 }, frames };
}

const of = <K extends StrokeEvent['type']>(events: readonly StrokeEvent[], type: K) => events.filter((e): e is Extract<StrokeEvent, { type: K }> => e.type === type);

/** The referee's fouls per stroke (codes), failing the test if it refuses the log. */
function foulsOf(log: Parameters<typeof refereeLog>[0]): string[][] {
  const res = refereeLog(log);
  if (!res.ok) throw new Error(JSON.stringify(res.error));
  return res.value.calls.map((c) => c.fouls.map((f) => f.code));
}

describe('events from synthetic tracks', () => {
  test('a straight roll with deceleration: one strike, no contact, rest within 3 mm', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 600 }, { id: 'black', x: 889, y: 3245 }], [{ t: 0.5, ball: 'white', vx: 0, vy: 900 }], { durationS: 5 });
    const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 1, seed: 3 }), table);
    expect(log.strokes).toHaveLength(1);
    const s = log.strokes[0]!;
    expect(of(s.events, 'strike')).toHaveLength(1);
    expect(Math.abs(s.t! - 0.5)).toBeLessThan(0.005);
    expect(of(s.events, 'contact')).toHaveLength(0);
    expect(of(s.events, 'cushion')).toHaveLength(0);
    const w = s.rest!.find((b) => b.id === 'white')!;
    const truth = run.rest.get('white')!;
    expect(Math.hypot(w.x - truth.x, w.y - truth.y)).toBeLessThan(3);
  });

  test.each([25, 30, 60])('cue ball on an object ball between frames at %i fps: contact time within 2 ms', (fps) => {
    for (const phase of [0.1, 0.37, 0.5, 0.83]) {
      const white = { x: 889, y: 1000 }, red = { x: 905, y: 1600 };
      // Strike time chosen so the contact falls at `phase` of a frame interval.
      const v = aim(white, { x: red.x - 8, y: red.y }, 2500);
      const probe = simulateTable(table, [{ id: 'white', ...white }, { id: 'red1', ...red }], [{ t: 0.3, ball: 'white', ...v }], { durationS: 1.2 });
      const tc0 = probe.truth.contacts[0]!.t;
      const shift = ((Math.ceil(tc0 * fps) - tc0 * fps + phase) % 1) / fps;
      const run = simulateTable(table, [{ id: 'white', ...white }, { id: 'red1', ...red }], [{ t: 0.3 + shift, ball: 'white', ...v }], { durationS: 5 });
      const tc = run.truth.contacts[0]!.t;
      const { log } = tracksToStrokes(toTracks(run, { fps, noiseMm: 1, seed: Math.round(phase * 100) }), table);
      const c = of(log.strokes[0]!.events, 'contact');
      expect(c.length).toBeGreaterThanOrEqual(1);
      expect(c[0]!.a).toBe('white');
      expect(c[0]!.b).toBe('red1');
      expect(Math.abs(c[0]!.t - tc)).toBeLessThan(0.002);
      expect(c[0]!.conf!).toBeGreaterThanOrEqual(0.8);
    }
  });

  test('two object balls hit 10 ms apart: the first contact is the right one', () => {
    // The cue ball clips red1 (cut 20°) and, deflected, meets red2 ~10 ms later: both contacts
    // fall in one frame interval at 30 fps, so only the fitted paths can order them.
    const cut = 0.35;
    const white = { x: 889, y: 1000 };
    const red1 = { x: 889 + 2 * R * Math.sin(cut), y: 1600 };
    const contactWhite = { x: 889, y: 1600 - 2 * R * Math.cos(cut) };
    const u = { x: -Math.cos(cut), y: Math.sin(cut) }; // the cue ball's direction after the cut
    const red2 = { x: contactWhite.x + u.x * (2 * R + 10), y: contactWhite.y + u.y * (2 * R + 10) };
    for (const [k, tStrike] of [0.3, 0.311, 0.322].entries()) {
      const run = simulateTable(table, [{ id: 'white', ...white }, { id: 'red1', ...red1 }, { id: 'red2', ...red2 }], [{ t: tStrike, ball: 'white', vx: 0, vy: 3000 }], { durationS: 4 });
      const cw = run.truth.contacts.filter((c) => c.a === 'white' || c.b === 'white');
      expect(cw.map((c) => c.b)).toEqual(['red1', 'red2']);
      const gapMs = (cw[1]!.t - cw[0]!.t) * 1000;
      expect(gapMs).toBeGreaterThan(7);
      expect(gapMs).toBeLessThan(14);
      const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 1, seed: 9 + k }), table);
      const c = of(log.strokes[0]!.events, 'contact').filter((e) => e.a === 'white');
      expect(c.map((e) => e.b)).toEqual(['red1', 'red2']);
      expect(Math.abs(c[0]!.t - cw[0]!.t)).toBeLessThan(0.002);
      // The second ball starts slower (~1 m/s) from a cue ball already deflected: a looser bound.
      expect(Math.abs(c[1]!.t - cw[1]!.t)).toBeLessThan(0.004);
      expect(c[1]!.t - c[0]!.t).toBeGreaterThan(0.004);
    }
  });

  test('cushion rebounds: side and time', () => {
    const run = simulateTable(table, [{ id: 'white', x: 600, y: 900 }], [{ t: 0.4, ball: 'white', vx: -1800, vy: 500 }], { durationS: 5 });
    expect(run.truth.cushions.map((c) => c.side)).toEqual(['left', 'right']);
    const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 1, seed: 4 }), table);
    const cu = of(log.strokes[0]!.events, 'cushion');
    expect(cu.map((c) => c.side)).toEqual(['left', 'right']);
    cu.forEach((c, i) => expect(Math.abs(c.t - run.truth.cushions[i]!.t)).toBeLessThan(0.003));
  });

  test('the far cushion through a calibration 0.3 % short (every position there ~9 mm short of it): a slow rebound and a ball running along it are still cushions; a turn 20 mm off is not', () => {
    /** Positions as a broadcast calibration whose length scale is 0.3 % short reports them. */
    const short = (doc: TracksDoc): TracksDoc => ({ ...doc, frames: doc.frames.map((f) => ({ ...f, balls: f.balls.map((b) => ({ ...b, y: b.y * 0.997 })) })) });
    // A slow ball into the top cushion and back (≈ 300 mm/s in).
    const slow = simulateTable(table, [{ id: 'white', x: 900, y: 3200 }], [{ t: 0.4, ball: 'white', vx: 0, vy: 600 }], { durationS: 4 });
    expect(slow.truth.cushions.map((c) => c.side)).toEqual(['top']);
    const a = of(tracksToStrokes(short(toTracks(slow, { fps: 30, noiseMm: 0.5, seed: 61 })), table).log.strokes[0]!.events, 'cushion');
    expect(a.map((c) => c.side)).toEqual(['top']);
    // Into the top cushion at a shallow angle, then along it.
    const along = simulateTable(table, [{ id: 'white', x: 600, y: 3400 }], [{ t: 0.4, ball: 'white', vx: 1200, vy: 300 }], { durationS: 4, cushionRestitution: 0 });
    expect(along.truth.cushions.map((c) => c.side)[0]).toBe('top');
    const b = of(tracksToStrokes(short(toTracks(along, { fps: 30, noiseMm: 0.5, seed: 62 })), table).log.strokes[0]!.events, 'cushion');
    expect(b[0]?.side).toBe('top');
    // A ball turned back 20 mm before the cushion line (no cushion can do that): no cushion.
    const off: TracksDoc = toTracks(slow, { fps: 30, noiseMm: 0.5, seed: 63 });
    const lim = table.bed.length - 26.25 - 20;
    const turned: TracksDoc = { ...off, frames: off.frames.map((f) => ({ ...f, balls: f.balls.map((q) => ({ ...q, y: q.y > lim ? 2 * lim - q.y : q.y })) })) };
    expect(of(tracksToStrokes(turned, table).log.strokes[0]!.events, 'cushion')).toEqual([]);
  });

  /** The white from (900, 3000) rolled up the table at `vy` mm/s (0.4 s in), 4.5 s. */
  const rollUp = (vy: number, cushionRestitution?: number) =>
    simulateTable(table, [{ id: 'white', x: 900, y: 3000 }], [{ t: 0.4, ball: 'white', vx: 0, vy }], { durationS: 4.5, ...(cushionRestitution !== undefined ? { cushionRestitution } : {}) });
  const cushionsIn = (doc: TracksDoc) => of(tracksToStrokes(doc, table).log.strokes[0]!.events, 'cushion');

  test('a ball creeping up to a cushion and coming to rest against it touched it; one stopping 10 mm short did not', () => {
    // 300 mm/s² of rolling resistance: from 574 mm/s the white reaches the top cushion at ~60 mm/s.
    const creep = rollUp(574, 0);
    expect(creep.truth.cushions.map((c) => c.side)).toEqual(['top']);
    const got = cushionsIn(toTracks(creep, { fps: 30, noiseMm: 0.5, seed: 64 }));
    expect(got.map((c) => c.side)).toEqual(['top']);
    expect(Math.abs(got[0]!.t - creep.truth.cushions[0]!.t)).toBeLessThan(0.15);
    const short = rollUp(565);
    expect(short.truth.cushions).toEqual([]);
    expect(cushionsIn(toTracks(short, { fps: 30, noiseMm: 0.5, seed: 65 }))).toEqual([]);
  });

  test('a creep that meets a cushion and comes back off it touched it, though it is seen resting 3.5 mm off; one that slows to a stop 5 mm short did not', () => {
    // Restitution 0.4: it comes back ~1 mm, inside the noise (1.2 mm) of one piece of path. Every
    // position read 2.5 mm short of the cushion (a pixel's bias near the edge, as on the rendered
    // S03 broadcast): it is seen resting 3.5 mm off the line.
    const creep = rollUp(574, 0.4);
    expect(creep.truth.cushions.map((c) => c.side)).toEqual(['top']);
    const biased = (d: TracksDoc): TracksDoc => ({ ...d, frames: d.frames.map((f) => ({ ...f, balls: f.balls.map((q) => ({ ...q, y: q.y - 2.5 })) })) });
    const got = cushionsIn(biased(toTracks(creep, { fps: 30, noiseMm: 1.2, seed: 66 })));
    expect(got.map((c) => c.side)).toEqual(['top']);
    expect(Math.abs(got[0]!.t - creep.truth.cushions[0]!.t)).toBeLessThan(0.15);
    // Rolling to a stop on its own 5 mm short of the line: still going towards it when it stopped.
    const short = rollUp(568);
    expect(short.truth.cushions).toEqual([]);
    expect(cushionsIn(toTracks(short, { fps: 30, noiseMm: 0.5, seed: 67 }))).toEqual([]);
  });

  test('off the table only at a speed that can jump a cushion: a "ball" sliding off over the rail at 1.3 m/s (a hand read as pink) is not called off', () => {
    /** White struck up the table at 0.3 s; a pink at rest from the start goes left over the rail at `v` from 1 s. */
    const doc = (v: number): TracksDoc => {
      const frames: TracksDoc['frames'] = [];
      for (let i = 0; i <= 120; i++) {
        const t = i / 30;
        const wy = 700 + (t > 0.3 ? Math.min(1200, 1500 * (t - 0.3) - 150 * (t - 0.3) ** 2) : 0);
        const px = t > 1 ? 300 - v * (t - 1) : 300;
        const balls: TracksDoc['frames'][number]['balls'] = [{ id: 'white', x: 889, y: wy }];
        if (px > -30) balls.push({ id: 'pink', x: Math.max(px, -10), y: 2200, ...(px < 0 ? { state: 'offTable' as const } : {}) });
        frames.push({ i, t, balls });
      }
      return { format: 'cueref.tracks/1', game: 'snooker', frames };
    };
    const slow = tracksToStrokes(doc(1300), table).log.strokes.flatMap((s) => s.events);
    expect(slow.filter((e) => e.type === 'offTable')).toEqual([]);
    const fast = tracksToStrokes(doc(3000), table).log.strokes.flatMap((s) => s.events);
    expect(fast.filter((e) => e.type === 'offTable').map((e) => (e as { ball: string }).ball)).toEqual(['pink']);
  });

  test('a resting ball read off its spot for a while before the strike and back on it was not touched (rendered S43 broadcast: the green half-hidden by the arm)', () => {
    // The green's reads from 0.87 s to 1.2 s, mm beyond its spot (the clip's), then on it again.
    const off = [7, 7, 1, 1, 12, 12, 12, 9, 14, 9];
    const frames: TracksDoc['frames'] = [];
    for (let i = 0; i <= 150; i++) {
      const t = i / 30;
      const k = i - 26;
      const gy = 743 + (k >= 0 && k < off.length ? off[k]! : 0);
      const tau = Math.min(2, Math.max(0, t - 1.1));
      frames.push({ i, t, balls: [{ id: 'white', x: 600, y: 1200 + 1200 * tau - 300 * tau ** 2 }, { id: 'green', x: 597, y: gy }] });
    }
    const ev = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table).log.strokes.flatMap((s) => s.events);
    expect(ev.filter((e) => e.type === 'strike')).toHaveLength(1);
    expect(ev.filter((e) => e.type === 'touch')).toEqual([]);
    // Rolled 60 mm away over those frames and left there, it was touched.
    const moved = frames.map((f) => ({ ...f, balls: f.balls.map((b) => (b.id === 'green' && f.i >= 26 ? { ...b, y: 743 + 6 * Math.min(10, f.i - 26) } : b)) }));
    const ev2 = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames: moved }, table).log.strokes.flatMap((s) => s.events);
    expect(ev2.filter((e) => e.type === 'touch').map((e) => (e as { ball: string }).ball)).toEqual(['green']);
  });

  test('a struck ball may leave the table slower: the white, jumped, goes over the top cushion at 1.1 m/s (rendered S39)', () => {
    const frames: TracksDoc['frames'] = [];
    let gone = false;
    for (let i = 0; i <= 90 && !gone; i++) {
      const t = i / 30;
      const wy = 2000 + (t > 0.3 ? 1100 * (t - 0.3) : 0);
      const balls: TracksDoc['frames'][number]['balls'] = [{ id: 'pink', x: 600, y: 1000 }];
      if (wy < 3569 - 20) balls.push({ id: 'white', x: 700, y: wy });
      else (balls.push({ id: 'white', x: 700, y: 3560, state: 'offTable' }), (gone = true));
      frames.push({ i, t, balls });
    }
    for (let i = frames.length, end = frames.length + 45; i <= end; i++) frames.push({ i, t: i / 30, balls: [{ id: 'pink', x: 600, y: 1000 }] });
    const ev = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table).log.strokes.flatMap((s) => s.events);
    expect(ev.filter((e) => e.type === 'offTable').map((e) => (e as { ball: string }).ball)).toEqual(['white']);
  });

  test('a ball into a pocket is potted there; one passing near a pocket is not', () => {
    // A straight pot: the cue ball sends red3 along the line to the top-right corner.
    const red = { x: 1300, y: 3300 };
    const dir = { x: 1778 - red.x, y: 3569 - red.y };
    const len = Math.hypot(dir.x, dir.y);
    const white = { x: red.x - (dir.x / len) * 400, y: red.y - (dir.y / len) * 400 };
    const run = simulateTable(table, [{ id: 'white', ...white }, { id: 'red3', ...red }], [{ t: 0.3, ball: 'white', ...aim(white, red, 1500) }], { durationS: 5 });
    expect(run.truth.pots[0]?.pocket).toBe('TR');
    const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 1, seed: 5 }), table);
    const pots = of(log.strokes[0]!.events, 'pot');
    expect(pots).toHaveLength(1);
    expect(pots[0]).toMatchObject({ ball: 'red3', pocket: 'TR' });

    // Passing the middle pocket 70 mm off the cushion: no pot.
    const run2 = simulateTable(table, [{ id: 'white', x: 100, y: 1300 }], [{ t: 0.3, ball: 'white', vx: 0, vy: 1500 }], { durationS: 6 });
    expect(run2.truth.pots).toHaveLength(0);
    const { log: log2 } = tracksToStrokes(toTracks(run2, { fps: 30, noiseMm: 1, seed: 6 }), table);
    expect(log2.strokes.flatMap((s) => of(s.events, 'pot'))).toHaveLength(0);
  });

  test.each(['missing', 'occluded'] as const)('a player hides resting balls for 20 frames (%s): no events, identities kept', (as) => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 600 }, { id: 'red1', x: 900, y: 2800 }, { id: 'pink', x: 889, y: 2676 }], [], { durationS: 4 });
    const doc = toTracks(run, { fps: 30, noiseMm: 1, seed: 7, occlude: { from: 30, to: 49, balls: ['white', 'red1'], as } });
    const { log } = tracksToStrokes(doc, table);
    expect(log.strokes).toHaveLength(0);
    expect(log.start!.balls).toHaveLength(3);
  });

  test('a ball put on the table by hand is a place event before the next strike', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 600 }, { id: 'blue', x: 889, y: 1784.5 }], [{ t: 2, ball: 'white', vx: 300, vy: 800 }], { durationS: 6 });
    const doc = toTracks(run, { fps: 30, noiseMm: 1, seed: 8, appearAt: { blue: 1.0 } });
    const { log } = tracksToStrokes(doc, table);
    expect(log.strokes).toHaveLength(1);
    const pl = of(log.strokes[0]!.events, 'place');
    expect(pl).toHaveLength(1);
    expect(pl[0]!.ball).toBe('blue');
    expect(Math.hypot(pl[0]!.x - 889, pl[0]!.y - 1784.5)).toBeLessThan(2);
    expect(pl[0]!.t).toBeLessThan(log.strokes[0]!.t!);
  });

  test('a ball seen on one frame only after it was gone (a misread) is not put on the table; seen on, it is', () => {
    // The rendered short frame, broadcast: something read once as the potted yellow (score 0.3),
    // then nothing — a `place` of the yellow made the referee put it back on, and every later
    // call went wrong.
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 600 }, { id: 'blue', x: 889, y: 1784.5 }], [{ t: 2, ball: 'white', vx: 300, vy: 800 }], { durationS: 6 });
    const doc = toTracks(run, { fps: 30, noiseMm: 1, seed: 8, appearAt: { blue: 1.0 } });
    const once: TracksDoc = { ...doc, frames: doc.frames.map((f) => (f.t > 1.01 ? { ...f, balls: f.balls.filter((b) => b.id !== 'blue') } : f)) };
    expect(once.frames.filter((f) => f.balls.some((b) => b.id === 'blue'))).toHaveLength(1);
    expect(of(tracksToStrokes(once, table).log.strokes[0]!.events, 'place')).toEqual([]);
    const fourTimes: TracksDoc = { ...doc, frames: doc.frames.map((f) => (f.t > 1.11 ? { ...f, balls: f.balls.filter((b) => b.id !== 'blue') } : f)) };
    expect(of(tracksToStrokes(fourTimes, table).log.strokes[0]!.events, 'place').map((e) => e.ball)).toEqual(['blue']);
  });

  test('a stun into the yellow with the white\'s stop read 10–20 mm short of it: a strike and a contact, not the white put down by hand (rendered short frame, broadcast)', () => {
    // Stopping dead at speed with nothing within touching distance reads as a hand letting go;
    // the yellow setting off from beside it within a frame says it was struck into it.
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 1000 }, { id: 'yellow', x: 889, y: 1500 }], [{ t: 0.5, ball: 'white', vx: 0, vy: 1400 }], { durationS: 4 });
    const tc = run.truth.contacts[0]!.t;
    for (const shift of [10, 15, 20]) {
      for (const seed of [1, 3]) {
        const doc = toTracks(run, { fps: 30, noiseMm: 1, seed });
        const short: TracksDoc = { ...doc, frames: doc.frames.map((f) => (f.t >= tc ? { ...f, balls: f.balls.map((b) => (b.id === 'white' ? { ...b, y: b.y - shift } : b)) } : f)) };
        const ev = tracksToStrokes(short, table).log.strokes[0]!.events;
        expect(of(ev, 'place'), `shift ${shift} seed ${seed}`).toEqual([]);
        expect(of(ev, 'strike')[0]).toMatchObject({ ball: 'white' });
        expect(of(ev, 'contact')[0]).toMatchObject({ a: 'white', b: 'yellow' });
      }
    }
  });

  /** A fixture of tracks from a rendered clip (cueref analyze's tracks.jsonl, whole) with its table. */
  const fixture = (name: string) => {
    const doc = JSON.parse(readFileSync(new URL(`./fixtures/${name}.tracks.json`, import.meta.url), 'utf8')) as TracksDoc;
    return { doc, table: parseTableProfile(doc.table, name) };
  };
  const cushionsOf = (name: string) => {
    const { doc, table: t } = fixture(name);
    return tracksToStrokes(doc, t).log.strokes.flatMap((st) => of(st.events, 'cushion'));
  };

  test('one rebound the fits split into a stop and a start (rendered P19 overhead: the cue ball at 190 mm/s into the top cushion, read "still" for a frame on the line): the cushion, once', () => {
    // The simulator's truth: the cue ball meets the top cushion at 2.999 s.
    const cue = cushionsOf('rebound-stop-P19-overhead-30').filter((c) => c.ball === 'cue');
    expect(cue.map((c) => c.side)).toEqual(['top']);
    expect(Math.abs(cue[0]!.t - 2.999)).toBeLessThan(0.05);
  });

  test('a slow ball glancing off a cushion, its path cut into short pieces by centres read 2–5 mm off (rendered S24 overhead: the black at 95 mm/s into the top cushion, 25 mm/s out): the cushion', () => {
    // The simulator's truth: the black meets the top cushion at 3.634 s, then the right cushion's
    // TR jaw at 4.292 s, and drops.
    const black = cushionsOf('graze-slow-S24-overhead-25').filter((c) => c.ball === 'black');
    expect(black.map((c) => c.side)).toEqual(['top', 'right']);
    expect(Math.abs(black[0]!.t - 3.634)).toBeLessThan(0.05);
  });

  test('a creep into a cushion that drifts a few mm back off it, all read as rest (rendered S03 broadcast: the white at 60 mm/s into the left cushion, 10 mm/s out): the cushion, once', () => {
    // The simulator's truth: the white meets the left cushion at 10.210 s (the stroke's only cushion).
    const white = cushionsOf('creep-rebound-S03-broadcast-25').filter((c) => c.ball === 'white');
    expect(white.map((c) => c.side)).toEqual(['left']);
    expect(Math.abs(white[0]!.t - 10.21)).toBeLessThan(0.1);
  });

  test('a creep that stops against a cushion is timed where it arrives, not where it first came within a touch of the line (rendered plant-kiss overhead)', () => {
    // The simulator's truth: red1 creeps into the top cushion at 3.614 s (read within 3.8 mm of
    // the line from 3.44 s on).
    const red = cushionsOf('creep-arrival-plant-kiss-overhead-25').filter((c) => c.side === 'top');
    expect(red).toHaveLength(1);
    expect(Math.abs(red[0]!.t - 3.614)).toBeLessThan(0.06);
  });

  test('one rebound split by a short piece along the line (rendered S40 broadcast: a red at 160 mm/s stops on the right cushion, slides 0.17 s, comes away at 90 mm/s): the cushion, once', () => {
    // The simulator's truth: red2 meets the right cushion at 6.230 s (the clip's only cushion).
    const got = cushionsOf('rebound-split-S40-broadcast-30');
    const red = got.filter((c) => c.ball === 'red2');
    expect(red.map((c) => c.side)).toEqual(['right']);
    expect(Math.abs(red[0]!.t - 6.23)).toBeLessThan(0.05);
  });

  test('a rolling cue ball read 3.5 mm off once, then stopping for three samples against the middle pocket\'s jaw (rendered S25 overhead, 60 fps): one strike, the jaw\'s cushion, no hand placing it', () => {
    // The simulator's truth: the strike at 1.100 s, the white off the left cushion by ML's jaw at 2.509 s.
    const { doc, table: t } = fixture('jaw-rebound-S25-overhead-60');
    const ev = tracksToStrokes(doc, t).log.strokes[0]!.events;
    expect(of(ev, 'place')).toEqual([]);
    expect(of(ev, 'strike')).toHaveLength(1);
    expect(Math.abs(of(ev, 'strike')[0]!.t - 1.1)).toBeLessThan(0.02);
    const cu = of(ev, 'cushion').filter((c) => c.ball === 'white');
    expect(cu.map((c) => c.side)).toEqual(['left']);
    expect(Math.abs(cu[0]!.t - 2.509)).toBeLessThan(0.05);
  });

  test('a ball and a cushion at once (rendered N02 overhead: the striker meets a pawn and the bottom cushion 0.8 ms apart): the contact and the cushion', () => {
    const { doc, table: t } = fixture('cushion-with-contact-N02-overhead-30');
    const ev = tracksToStrokes(doc, t).log.strokes[0]!.events;
    const contact = of(ev, 'contact').find((c) => c.a === 'striker');
    expect(Math.abs(contact!.t - 1.2468)).toBeLessThan(0.01);
    const cu = of(ev, 'cushion').filter((c) => c.ball === 'striker');
    expect(cu.map((c) => c.side)).toEqual(['bottom']);
    expect(Math.abs(cu[0]!.t - 1.2475)).toBeLessThan(0.05);
  });

  test.each([30, 60])('the white over the pink (a jump: one blob in the picture, the pink never moves): a jump, not a contact (rendered S42 overhead, %i fps)', (fps) => {
    // At 60 fps the white is lost for three frames over the pink, which is read 7 mm off meanwhile;
    // later the black, back off the top cushion, "stops" 62 mm short of the white it meets.
    const doc = JSON.parse(readFileSync(new URL(`./fixtures/jump-S42-overhead-${fps}.tracks.json`, import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'jump')).toEqual([expect.objectContaining({ ball: 'white', over: 'pink' })]);
    // The simulator's truth: the jump at 1.259 s, the first contact white→black at 1.605 s.
    expect(Math.abs(of(ev, 'jump')[0]!.t - 1.259)).toBeLessThan(0.05);
    expect(of(ev, 'contact')[0]).toMatchObject({ a: 'white', b: 'black' });
    expect(of(ev, 'contact').some((c) => c.a === 'pink' || c.b === 'pink')).toBe(false);
    expect(of(ev, 'place')).toEqual([]);
  });

  test('a near miss (the white 3 mm clear of a red) and a full hit are not jumps', () => {
    for (const [dx, hits] of [[2 * R + 3, false], [0, true]] as const) {
      const run = simulateTable(table, [{ id: 'white', x: 889, y: 800 }, { id: 'red1', x: 889 + dx, y: 1600 }], [{ t: 0.3, ball: 'white', vx: 0, vy: 1500 }], { durationS: 5 });
      const ev = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 1.5, seed: 77 }), table).log.strokes[0]!.events;
      expect(of(ev, 'jump')).toEqual([]);
      expect(of(ev, 'contact').some((c) => c.b === 'red1' || c.a === 'red1')).toBe(hits);
    }
  });

  test('the white full on a red that meets the pink 44 ms later, the white\'s contact missed by the fits: inferred from the red→pink contact (rendered S09 overhead)', () => {
    // The red lay at rest at the strike; only the white was moving; the white's measured path
    // reaches it before the red meets the pink. Truth: white→red1 at 1.562 s, red1→pink at 1.606 s.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/plant-S09-overhead-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const c = of(tracksToStrokes(doc, table).log.strokes[0]!.events, 'contact');
    expect(c[0]).toMatchObject({ a: 'white', b: expect.stringMatching(/^red/) });
    expect(Math.abs(c[0]!.t - 1.562)).toBeLessThan(0.03);
    expect(c[0]!.conf).toBeLessThanOrEqual(0.5);
    expect(c[1]).toMatchObject({ a: c[0]!.b, b: 'pink' });
  });

  test('the white hidden under the cue for 1.3 s, seen again 6 mm off on three frames and struck while a red still rolls: a second stroke (rendered S40 overhead)', () => {
    const doc = JSON.parse(readFileSync(new URL('./fixtures/restrike-hidden-S40-overhead-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const { log } = tracksToStrokes(doc, table);
    // Truth: strikes at 1.1 s and 3.3 s; the second's first contact at 4.755 s.
    expect(log.strokes.map((s) => s.t)).toEqual([expect.closeTo(1.1, 1), expect.closeTo(3.3, 1)]);
    expect(of(log.strokes[1]!.events, 'contact')[0]).toMatchObject({ a: 'white' });
    const calls = refereeLog(log);
    if (!calls.ok) throw new Error(JSON.stringify(calls.error));
    expect(calls.value.calls[1]!.fouls.map((f) => f.code)).toContain('STRUCK_WHILE_MOVING');
  });

  test('the blue read 14 mm off towards the white rolling up behind it, their picture discs 1.4–1.5 radii-sums apart: no touch (rendered S16 broadcast, with its calibration)', () => {
    const doc = JSON.parse(readFileSync(new URL('./fixtures/covered-S16-broadcast-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const strokes = tracksToStrokes(doc, table).log.strokes;
    expect(strokes).toHaveLength(2);
    expect(of(strokes[1]!.events, 'touch')).toEqual([]);
    expect(of(strokes[1]!.events, 'contact')[0]).toMatchObject({ a: 'white', b: 'blue' });
  });

  test('a lone ball pushed 19 mm by the hand setting the cue ball down, seen throughout, the creep fitted as two rests: a touch before the strike (rendered P27 broadcast 30 fps)', () => {
    // The 5 (tracked as `2`) rests at (602, 1003) until 0.8 s, is pushed to (601, 1022) by 1.2 s;
    // the cue ball is set down at (699, 900) and struck at 1.1 s. Truth: TOUCHED_BALL, the 5.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/hand-push-P27-broadcast-30-first-2.2s.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const pool = builtinProfile('pool8-9ft');
    const ev = tracksToStrokes(doc, pool).log.strokes[0]!.events;
    const strike = ev.find((e) => e.type === 'strike')!;
    expect(strike).toMatchObject({ ball: 'cue', t: expect.closeTo(1.1, 1) });
    const touches = of(ev, 'touch');
    expect(touches.map((e) => e.ball)).toEqual(['2']);
    expect(touches[0]!.t).toBeGreaterThan(0.7);
    expect(touches[0]!.t).toBeLessThan(strike.t);
    // Seen all along: as sure as a start seen before the strike, so the referee calls it.
    expect(touches[0]!.conf).toBe(0.6);
    // Nothing else was moved before the strike but the cue ball, put down by hand.
    expect(of(ev, 'place').map((e) => e.ball)).toEqual(['cue']);
  });

  test('the blue read 13–20 mm off while the white rolls up in front of it (their picture discs 3 px apart): no touch (rendered S33 broadcast, with its calibration)', () => {
    const doc = JSON.parse(readFileSync(new URL('./fixtures/covered-S33-broadcast-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const blueYs = doc.frames.flatMap((f) => f.balls.filter((b) => b.id === 'blue' && f.t > 1.2 && f.t < 1.45).map((b) => b.y));
    expect(Math.max(...blueYs) - Math.min(...blueYs)).toBeGreaterThan(15);
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'touch')).toEqual([]);
    expect(of(ev, 'contact')[0]).toMatchObject({ a: 'white', b: 'blue' });
    // Without the calibration nothing says the two were side by side in the picture.
    const { calibration: _c, ...bare } = doc;
    expect(of(tracksToStrokes(bare as TracksDoc, table).log.strokes[0]!.events, 'touch').map((e) => e.ball)).toEqual(['blue']);
  });

  test('the white struck again while the cue\'s tip blurs its start (188 mm/s at the kink, 400 mm/s over the next 0.2 s), after a sleeve moved the blue unseen: two strokes, the blue touched (rendered S12 broadcast)', () => {
    const doc = JSON.parse(readFileSync(new URL('./fixtures/restrike-sleeve-S12-broadcast-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const { log } = tracksToStrokes(doc, table);
    // Truth: strikes at 1.1 s and 5.402 s; the blue touched at 4.952 s; white→pink at 7.287 s.
    // (The second was read 0.1 s early, as the tip came over the ball and its centre moved 7 mm;
    // that creep, under half a radius, is now taken for the address: 5.387 s.)
    expect(log.strokes.map((s) => s.t)).toEqual([expect.closeTo(1.1, 1), expect.closeTo(5.4, 1)]);
    expect(of(log.strokes[1]!.events, 'touch').map((e) => e.ball)).toEqual(['blue']);
    expect(of(log.strokes[1]!.events, 'contact')[0]).toMatchObject({ a: 'white', b: 'pink' });
  });

  test('the white struck again after a rest the tracker blurred into a creep (still, then a 33 mm/s "piece" over a gap, then 535 mm/s): two strokes, the second timed at the real start (rendered S40 overhead 25 fps)', () => {
    const doc = JSON.parse(readFileSync(new URL('./fixtures/restrike-creep-S40-overhead-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const { log } = tracksToStrokes(doc, table);
    // Truth: strikes at 1.1 s and 3.3 s (the red still rolling: STRUCK_WHILE_MOVING).
    expect(log.strokes.map((s) => s.t)).toEqual([expect.closeTo(1.1, 1), expect.closeTo(3.3, 1)]);
    expect(foulsOf(log)).toEqual([[], ['STRUCK_WHILE_MOVING']]);
  });

  test('a ball still rolling at 300 mm/s at 60 fps is not "at rest" at the second strike: STRUCK_WHILE_MOVING (rendered S40 broadcast 60 fps: the white drawn back, at rest 1 s, struck again)', () => {
    const doc = JSON.parse(readFileSync(new URL('./fixtures/restrike-rolling-S40-broadcast-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const { log } = tracksToStrokes(doc, table);
    expect(log.strokes.map((s) => s.t)).toEqual([expect.closeTo(1.1, 1), expect.closeTo(3.3, 1)]);
    expect(foulsOf(log)[1]).toEqual(['STRUCK_WHILE_MOVING']);
  });

  test('a rest cut into short still pieces by the approaching tip still lets the white be struck again (rendered S12 broadcast 60 fps): two strokes, white→pink in the second', () => {
    const doc = JSON.parse(readFileSync(new URL('./fixtures/restrike-pieces-S12-broadcast-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const { log } = tracksToStrokes(doc, table);
    // Truth: strikes at 1.1 s and 5.402 s; white→pink at 7.287 s.
    expect(log.strokes.map((s) => s.t)).toEqual([expect.closeTo(1.1, 1), expect.closeTo(5.4, 1)]);
    expect(of(log.strokes[1]!.events, 'contact')[0]).toMatchObject({ a: 'white', b: 'pink' });
  });

  test('the cue ball picked up while a colour is respotted, put back in the D and struck at once: the stroke is played from the D (rendered S26-S27 overhead 25 fps)', () => {
    // The black respotted under the hand (read 27 mm off until the hand left), the white lifted at
    // 4.5 s, back in the D at 5.24 s, struck at 5.28 s and in-off in the bottom-left corner.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/respot-in-hand-S26-S27-overhead-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[1]!.events;
    expect(of(ev, 'strike')).toEqual([expect.objectContaining({ ball: 'white', t: expect.closeTo(5.28, 1) })]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'white', pocket: 'BL' })]);
    expect(of(ev, 'touch')).toEqual([]);
    expect(of(ev, 'place').map((e) => e.ball).sort()).toEqual(['black', 'white']);
  });

  test('an in-off cue ball read at rest in the pocket\'s mouth as it falls was not put down there: the stroke is struck from the D (rendered S26-S27 overhead 25 fps, s20a)', () => {
    // Truth: the white placed in the D at (800, 650), struck at 5.285 s, in-off in BL at 6.279 s.
    // Read: at 700 mm/s into BL, at rest at (19, 19) mm for two frames as it fell, then "rolling"
    // up the cushion for 0.12 s and lost — taken for a hand putting it down in the mouth, and the
    // strike for a start from there after the pot (CUE_BALL_NOT_IN_D, 835 mm out).
    const doc = JSON.parse(readFileSync(new URL('./fixtures/drop-read-as-stop-S26-S27-overhead-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes.at(-1)!.events;
    expect(of(ev, 'strike')).toEqual([expect.objectContaining({ ball: 'white', t: expect.closeTo(5.285, 1) })]);
    expect(of(ev, 'place').filter((e) => e.ball === 'white')).toEqual([expect.objectContaining({ x: expect.closeTo(800, -1), y: expect.closeTo(649, -1) })]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'white', pocket: 'BL' })]);
  });

  test('a striker into a row of touching pawns, its own contact only inferred (rendered Novus two-strokes overhead 30 fps): no contact inside the row comes before it', () => {
    // Through the shipped detector and tracker. The simulator's truth: striker→b7 at 3.984 s, then
    // the impulse runs down the row. The striker's contact is found only from the row's far end
    // setting off (conf 0.3); b2→b4 was read 16 ms before it and taken for the first contact.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/row-of-pawns-novus-two-strokes-overhead-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const contacts = of(tracksToStrokes(doc, builtinProfile('novus')).log.strokes[0]!.events, 'contact').sort((u, v) => u.t - v.t);
    expect(contacts[0]!.a).toBe('striker');
    expect(contacts[0]!.conf).toBeLessThan(0.8);
    expect(contacts.every((c) => c.t >= contacts[0]!.t)).toBe(true);
  });

  test('a Novus striker set down, hidden under the adjusting hand and struck at once keeps its strike (rendered two-strokes overhead 25 fps): not "picked up"', () => {
    const doc = JSON.parse(readFileSync(new URL('./fixtures/striker-adjusted-N-two-strokes-overhead-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const strokes = tracksToStrokes(doc, builtinProfile('novus')).log.strokes;
    expect(strokes.map((st) => of(st.events, 'strike').map((e) => e.ball))).toEqual([['striker'], ['striker']]);
    expect(strokes.map((st) => of(st.events, 'contact')[0]?.a)).toEqual(['striker', 'striker']);
  });

  test('the referee accepts the log', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 1000 }, { id: 'red1', x: 895, y: 1600 }, { id: 'black', x: 889, y: 3245 }], [{ t: 0.3, ball: 'white', vx: 0, vy: 2000 }], { durationS: 6 });
    const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 1, seed: 2 }), table);
    const res = refereeLog(log);
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    expect(res.value.calls).toHaveLength(1);
  });
});

describe('more events', () => {
  test('a cue ball into two reds at once: simultaneous contacts (same t), flagged', () => {
    // Two reds side by side, touching each other; the cue ball straight at the gap between them.
    const white = { x: 889, y: 1000 };
    const redL = { x: 889 - R - 0.2, y: 1600 }, redR = { x: 889 + R + 0.2, y: 1600 };
    const run = simulateTable(table, [{ id: 'white', ...white }, { id: 'red1', ...redL }, { id: 'red2', ...redR }], [{ t: 0.3, ball: 'white', vx: 0, vy: 2500 }], { durationS: 6 });
    const cw = run.truth.contacts.filter((c) => c.a === 'white' || c.b === 'white');
    expect(Math.abs(cw[1]!.t - cw[0]!.t)).toBeLessThan(0.0005);
    const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 1, seed: 21 }), table);
    const c = of(log.strokes[0]!.events, 'contact').filter((e) => e.a === 'white');
    expect(c.map((e) => e.b).sort()).toEqual(['red1', 'red2']);
    expect(c[0]!.t).toBe(c[1]!.t);
    expect(c[0]!.conf!).toBeLessThan(0.8);
    // The referee flags it for review rather than calling it.
    const res = refereeLog(log);
    if (!res.ok) throw new Error(JSON.stringify(res.error));
    expect(res.value.calls[0]!.review.length).toBeGreaterThan(0);
  });

  test('the cue ball touching a red at the strike: declared touching; played away (even with its centre read 3.5 mm off while the white lay on it) no foul; pushed, TOUCHING_BALL_MOVED', () => {
    const balls = [{ id: 'white', x: 889, y: 2050 }, { id: 'red1', x: 889 + 2 * R, y: 2050 }, { id: 'blue', x: 889, y: 1785 }];
    const judged = (vx: number, vy: number, offMm: number) => {
      const run = simulateTable(table, balls, [{ t: 0.5, ball: 'white', vx, vy }], { durationS: 5 });
      const doc = toTracks(run, { fps: 30, noiseMm: 0.7, seed: 71 });
      // The detector may read the red a little off while the white lies against it (one blob).
      for (const f of doc.frames) if (f.t < 0.45) for (const b of f.balls) if (b.id === 'red1') b.x += offMm;
      const { log } = tracksToStrokes(doc, table);
      const res = refereeLog(log);
      if (!res.ok) throw new Error(JSON.stringify(res.error));
      return { touching: log.strokes[0]!.touching, fouls: res.value.calls[0]!.fouls.map((f) => f.code) };
    };
    // Away from the red, down onto the blue.
    expect(judged(0, -1200, 3.5)).toEqual({ touching: ['red1'], fouls: [] });
    // Half into the red: it moves at the strike.
    expect(judged(900, -900, 0)).toEqual({ touching: ['red1'], fouls: ['TOUCHING_BALL_MOVED'] });
  });

  test('a cue ball replaced out of sight and struck 0.1 s after it is seen again: a second stroke with its placement and strike (rendered S28–S29)', () => {
    const frames: TracksDoc['frames'] = [];
    // Stroke 1: the white from (900, 1500) down the table to rest by 4 s. Gone (under the arm)
    // from 5.7 s; back at (1300, 1500) at 6.43 s, struck at 6.55 s to the left at 1.2 m/s.
    const roll = (t: number, v: number, dec: number) => (t <= 0 ? 0 : t >= v / dec ? (v * v) / (2 * dec) : v * t - 0.5 * dec * t * t);
    for (let i = 0; i <= 300; i++) {
      const t = i / 30;
      const balls: TracksDoc['frames'][number]['balls'] = [{ id: 'red1', x: 889, y: 3000, conf: 0.95 }];
      if (t < 5.7) balls.push({ id: 'white', x: 900, y: 1500 - roll(t - 1.1, 800, 300), conf: 0.95 });
      else if (t >= 6.43) balls.push({ id: 'white', x: 1300 - roll(t - 6.55, 1200, 300), y: 1500, conf: 0.95 });
      frames.push({ i, t, balls });
    }
    const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', source: { uri: 'synthetic', fps: 30 }, frames }, table);
    expect(log.strokes).toHaveLength(2);
    const ev = log.strokes[1]!.events;
    expect(of(ev, 'place')).toEqual([expect.objectContaining({ ball: 'white' })]);
    expect(of(ev, 'strike')).toEqual([expect.objectContaining({ ball: 'white' })]);
    expect(Math.abs(of(ev, 'strike')[0]!.t - 6.55)).toBeLessThan(0.02);
  });

  test('a red left on the lip of a corner drops a second after everything stopped: hanging, then potted on that stroke — not a stroke of its own', () => {
    // The white struck at 1 s stops by 3 s; the red by the top-right corner (its edge 7 mm short of
    // the jaws' line, as the S43 scenario leaves it) slides 40 mm into the pocket at 5.5 s and is gone.
    const lip = { x: 1725, y: 3516 };
    const doc = (at: { x: number; y: number }): TracksDoc => {
      const frames: TracksDoc['frames'] = [];
      for (let i = 0; i <= 210; i++) {
        const t = i / 30;
        const u = Math.max(0, Math.min(t, 3) - 1);
        const balls: TracksDoc['frames'][number]['balls'] = [{ id: 'white', x: 889, y: 1000 + 600 * u - 150 * u * u, conf: 0.95 }];
        if (t < 5.5) balls.push({ id: 'red1', ...at, conf: 0.95 });
        else if (t < 5.65) balls.push({ id: 'red1', x: at.x + 200 * (t - 5.5), y: at.y + 200 * (t - 5.5), conf: 0.8 });
        frames.push({ i, t, balls });
      }
      return { format: 'cueref.tracks/1', game: 'snooker', source: { uri: 'synthetic', fps: 30 }, frames };
    };
    const { log } = tracksToStrokes(doc(lip), table);
    expect(log.strokes).toHaveLength(1);
    expect(of(log.strokes[0]!.events, 'hanging')).toEqual([expect.objectContaining({ ball: 'red1', pocket: 'TR' })]);
    expect(of(log.strokes[0]!.events, 'pot')).toEqual([expect.objectContaining({ ball: 'red1', pocket: 'TR' })]);
    // A red resting well out from the corner is not hanging there.
    const away = tracksToStrokes(doc({ x: 1650, y: 3450 }), table).log;
    expect(of(away.strokes[0]!.events, 'hanging')).toEqual([]);
  });

  test('no cue ball tracked anywhere (a pool cue ball read as a stripe all along): the ball that starts the first stroke is the cue ball', () => {
    const pool = defaultProfileFor('pool8');
    const balls = [{ id: '10', x: 700, y: 900 }, { id: '2', x: 800, y: 1700 }, { id: '9', x: 1000, y: 2300 }];
    const run = simulateTable(pool, balls, [{ t: 0.5, ball: '10', ...aim(balls[0]!, balls[1]!, 1500) }], { durationS: 5 });
    const { log, notes } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 0.7, seed: 81, game: 'pool8' }), pool);
    const ev = log.strokes[0]!.events;
    expect(of(ev, 'strike')).toEqual([expect.objectContaining({ ball: 'cue' })]);
    expect(of(ev, 'contact')[0]).toEqual(expect.objectContaining({ a: 'cue', b: '2' }));
    expect(notes.join(' ')).toMatch(/'10', which started the first stroke, is taken for it/);
    // With a cue ball tracked, nothing is renamed: a stripe struck first stays that stripe.
    const withCue = simulateTable(pool, [...balls, { id: 'cue', x: 300, y: 400 }], [{ t: 0.5, ball: '10', ...aim(balls[0]!, balls[1]!, 1500) }], { durationS: 5 });
    const kept = tracksToStrokes(toTracks(withCue, { fps: 30, noiseMm: 0.7, seed: 82, game: 'pool8' }), pool).log;
    expect(of(kept.strokes[0]!.events, 'strike')[0]).toEqual(expect.objectContaining({ ball: '10' }));
  });

  test('baulk line crossings up and down, timed between frames', () => {
    // From below the baulk line up the table, off the top cushion and back down through baulk.
    const run = simulateTable(table, [{ id: 'white', x: 700, y: 500 }], [{ t: 0.3, ball: 'white', vx: 0, vy: 2200 }], { durationS: 9, decelMmPerS2: 300 });
    // Exact crossings of y = 737 from the truth path at 2 kHz.
    const truth: { t: number; dir: string }[] = [];
    let prev = run.at(0).get('white')!.y;
    for (let t = 0.0005; t < 9; t += 0.0005) {
      const y = run.at(t).get('white')!.y;
      if ((prev - table.baulkLineY!) * (y - table.baulkLineY!) < 0) truth.push({ t, dir: y > prev ? 'up' : 'down' });
      prev = y;
    }
    expect(truth.map((c) => c.dir)).toEqual(['up', 'down']);
    const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 1, seed: 22 }), table);
    const cr = of(log.strokes[0]!.events, 'cross').filter((e) => e.line === 'baulkLine');
    expect(cr.map((e) => e.dir)).toEqual(['up', 'down']);
    cr.forEach((c, i) => expect(Math.abs(c.t - truth[i]!.t)).toBeLessThan(0.004));
  });

  test('a ball that stops over a pocket edge is hanging; the cue ball stopping against a red is a touching candidate', () => {
    // The simulation's middle pocket swallows only balls whose centre gets within 10 mm of it, so
    // red1 can stop 30 mm from it: inside the real opening (86 mm), on the edge, not down.
    const narrow = { ...table, pockets: { ...table.pockets, ML: { x: 0, y: 1784.5, mouth: 20 } } };
    const run = simulateTable(narrow, [{ id: 'white', x: 889, y: 800 }, { id: 'red1', x: 200, y: 1784.5 }, { id: 'red2', x: 889, y: 1300 }], [{ t: 0.3, ball: 'red1', vx: -Math.sqrt(2 * 300 * (200 - 30)), vy: 0 }, { t: 0.31, ball: 'white', vx: 0, vy: Math.sqrt(2 * 300 * (500 - 2 * R - 0.5)) }], { durationS: 5, decelMmPerS2: 300 });
    const rest = run.rest.get('red1')!;
    expect(Math.hypot(rest.x - 0, rest.y - 1784.5)).toBeLessThan(43);
    expect(Math.hypot(run.rest.get('white')!.x - 889, run.rest.get('white')!.y - (1300 - 2 * R))).toBeLessThan(1.5);
    const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 0.3, seed: 23 }), table);
    const s = log.strokes.at(-1)! as (typeof log.strokes)[number] & { touchingCandidates?: string[] };
    expect(of(s.events, 'hanging')).toEqual([expect.objectContaining({ ball: 'red1', pocket: 'ML' })]);
    expect(s.touchingCandidates).toEqual(['red2']);
  });

  test('pool: numbered balls keep their ids; the head string is crossed', () => {
    const pool = builtinProfile('pool8-9ft');
    const run = simulateTable(pool, [{ id: 'cue', x: 635, y: 400 }, { id: '3', x: 650, y: 1200 }, { id: '8', x: 300, y: 2000 }], [{ t: 0.3, ball: 'cue', vx: 0, vy: 2000 }], { durationS: 7 });
    const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 1, seed: 24 }), pool);
    const ev = log.strokes[0]!.events;
    expect(of(ev, 'strike')[0]!.ball).toBe('cue');
    expect(of(ev, 'contact')[0]).toMatchObject({ a: 'cue', b: '3' });
    expect(of(ev, 'cross').some((e) => e.line === 'headString' && e.ball === 'cue' && e.dir === 'up')).toBe(true);
    expect(refereeLog(log).ok).toBe(true);
  });
});

describe('novus', () => {
  test('a pawn pushed out of its row under a hand, seen again 1.6 R away beside its neighbours: a touch, not a read pulled by them (rendered N30 overhead 25 fps)', () => {
    // Truth: B's hand moves b3 from (452, 16) 25 mm up the board at 0.65 s; A strikes at 1.1 s.
    // Tracked as `b5`: at rest at (448, 15) until the hand covers it at 0.4 s, seen again at
    // (452, 41) at 1.08 s; its neighbours in the row 27 and 35 mm either side.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/hand-move-N30-overhead-25-first-2s.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const log = tracksToStrokes(doc, builtinProfile('novus')).log;
    const ev = log.strokes[0]!.events;
    const strike = ev.find((e) => e.type === 'strike')!;
    expect(of(ev, 'touch').map((e) => [e.ball, e.by])).toEqual([['b5', 'other']]);
    expect(of(ev, 'touch')[0]!.t).toBeLessThan(strike.t);
    // The referee: a pawn of the player not striking moved with no contact — N-P13 (spec N30).
    expect(foulsOf(log)[0]).toEqual(['MOVED_IN_OPPONENT_TURN']);
  });

  test('a striker first seen in the hand and set down further on is placed where it lay at the strike (rendered N05 overhead 60 fps)', () => {
    // First read at (973, 21) as the hand brings it in, put down at about (880, 54), struck at 1.1 s.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/striker-carried-N05-overhead-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const first = doc.frames.find((f) => f.balls.some((b) => b.id === 'striker'))!.balls.find((b) => b.id === 'striker')!;
    expect(first.x).toBeGreaterThan(950);
    const stroke = tracksToStrokes(doc, builtinProfile('novus')).log.strokes[0]!;
    const place = of(stroke.events, 'place').find((e) => e.ball === 'striker')!;
    const atStrike = stroke.before!.find((b) => b.id === 'striker')!;
    expect(place).toMatchObject({ x: atStrike.x, y: atStrike.y });
    expect(Math.hypot(place.x - 880, place.y - 54)).toBeLessThan(3);
  });

  test('zone and centre-circle crossings of the striker, and a pawn pot in a corner', () => {
    const novus = builtinProfile('novus');
    // The striker up the board from inside zone 0, through the centre circle, into zone 1.
    const run = simulateTable(novus, [{ id: 'striker', x: 480, y: 50, r: novus.cueBallDiameter / 2 }, { id: 'a1', x: 100, y: 600 }], [{ t: 0.3, ball: 'striker', vx: 0, vy: Math.sqrt(2 * 450 * 900) }], { durationS: 4.5, decelMmPerS2: 450 });
    const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 0.5, seed: 31 }), novus);
    const cr = of(log.strokes[0]!.events, 'cross').map((e) => `${e.line}:${e.dir}`);
    expect(cr).toEqual(['zone0:out', 'centreCircle:in', 'centreCircle:out', 'zone1:in']);
    expect(of(log.strokes[0]!.events, 'strike')[0]!.ball).toBe('striker');

    // A pawn sent into the bottom-left corner.
    const run2 = simulateTable(novus, [{ id: 'striker', x: 400, y: 400, r: novus.cueBallDiameter / 2 }, { id: 'a2', x: 300, y: 300 }], [{ t: 0.3, ball: 'striker', ...aim({ x: 400, y: 400 }, { x: 300, y: 300 }, 1400) }], { durationS: 4, decelMmPerS2: 450 });
    expect(run2.truth.pots.map((p) => `${p.ball}@${p.pocket}`)).toContain('a2@BL');
    const { log: log2 } = tracksToStrokes(toTracks(run2, { fps: 30, noiseMm: 0.5, seed: 32 }), novus);
    expect(of(log2.strokes[0]!.events, 'pot').map((p) => `${p.ball}@${p.pocket}`)).toContain('a2@BL');
  });
});

describe('robustness', () => {
  test('a cut-away (view: false) in the middle of a stroke invents nothing and keeps the contact', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 1000 }, { id: 'red1', x: 895, y: 1600 }, { id: 'black', x: 889, y: 3245 }], [{ t: 0.3, ball: 'white', vx: 0, vy: 2000 }], { durationS: 7 });
    const doc = toTracks(run, { fps: 30, noiseMm: 1, seed: 41 });
    // Frames 45–60 (1.5–2 s): a broadcast cut-away while the red is rolling.
    for (const f of doc.frames) if (f.i >= 45 && f.i <= 60) {
      f.view = false;
      f.balls = [];
    }
    const { log } = tracksToStrokes(doc, table);
    expect(log.strokes).toHaveLength(1);
    const ev = log.strokes[0]!.events;
    expect(of(ev, 'contact')).toHaveLength(1);
    expect(of(ev, 'pot')).toHaveLength(0);
    expect(of(ev, 'offTable')).toHaveLength(0);
    expect(of(ev, 'touch')).toHaveLength(0);
  });

  test('a ball seen over a pocket hole and then reported sliding back along the cushion (a far-end drop in projection) is potted there', () => {
    const from = { x: 1400, y: 700 };
    const run = simulateTable(table, [{ id: 'white', ...from }, { id: 'black', x: 889, y: 3245 }], [{ t: 0.3, ball: 'white', ...aim(from, { x: 1778, y: 0 }, 1800) }], { durationS: 4 });
    expect(run.truth.pots.map((p) => `${p.ball}@${p.pocket}`)).toEqual(['white@BR']);
    const doc = toTracks(run, { fps: 30, noiseMm: 1, seed: 51 });
    const k = doc.frames.findIndex((f) => f.t > 0.3 && !f.balls.some((b) => b.id === 'white'));
    // What a broadcast camera at the far end reports of a ball dropping: once over the hole, then
    // its centre "moving" back along the cushion as it sinks below the bed plane.
    const ghost = [[1751, 12], [1752, 40], [1752, 62], [1753, 88], [1751, 119]] as const;
    ghost.forEach(([x, y], j) => doc.frames[k + j]!.balls.push({ id: 'white', x, y, conf: 0.8 }));
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'pot').map((p) => `${p.ball}@${p.pocket}`)).toEqual(['white@BR']);
    expect(of(ev, 'pot')[0]!.t).toBeCloseTo(doc.frames[k]!.t, 3);
    expect(of(ev, 'offTable')).toHaveLength(0);
  });

  test('a ball seen sinking in a corner mouth (stopped, then drifting back in the picture) is a pot with no jaw contact', () => {
    const from = { x: 1400, y: 2900 };
    const run = simulateTable(table, [{ id: 'red1', ...from }, { id: 'white', x: 889, y: 700 }], [{ t: 0.3, ball: 'red1', ...aim(from, { x: 1778, y: 3569 }, 1600) }], { durationS: 4 });
    expect(run.truth.pots.map((p) => `${p.ball}@${p.pocket}`)).toEqual(['red1@TR']);
    expect(run.truth.cushions).toEqual([]);
    const doc = toTracks(run, { fps: 30, noiseMm: 1, seed: 53 });
    const k = doc.frames.findIndex((f) => f.t > 0.3 && !f.balls.some((b) => b.id === 'red1'));
    const last = doc.frames[k - 1]!.balls.find((b) => b.id === 'red1')!;
    // An overhead camera off the pocket's vertical: the sinking ball stops at the mouth, then its
    // centre seems to come back towards the table's middle as it goes down.
    // (Offsets as measured on a rendered overhead clip, mm.)
    ([[4, 6], [5, 4], [6, 1], [7, -3], [1, -12], [-1, -20]] as const).forEach(([dx, dy], j) => doc.frames[k + j]!.balls.push({ id: 'red1', x: last.x + dx, y: last.y + dy, conf: 0.9 }));
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'pot').map((p) => `${p.ball}@${p.pocket}`)).toEqual(['red1@TR']);
    expect(of(ev, 'cushion')).toEqual([]);
  });

  test('a ball that meets the jaw and slides along it into the pocket keeps its jaw contact', () => {
    // The black of the rendered S03 clip: into the top-left jaw at 390 mm/s, then along it at
    // 275 mm/s for two frames before it drops (the simulator's truth positions).
    const doc = intoPocket({ ball: 'black', still: { id: 'white', x: 889, y: 700 }, vIn: { x: -372, y: 120 }, kink: { x: 23.2, y: 3523 }, vOut: { x: -15, y: 275 }, seenAfterS: 2.5 / 30 });
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'cushion')).toEqual([expect.objectContaining({ ball: 'black', side: 'left', jaw: 'TL' })]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'black', pocket: 'TL' })]);
  });

  test('seen from behind the top cushion, where a sinking ball also seems to go up the table, a ball sliding along the jaw 55 mm from the pocket keeps its jaw contact (rendered S03 broadcast)', () => {
    const doc = intoPocket({ ball: 'black', still: { id: 'white', x: 889, y: 700 }, vIn: { x: -381, y: 54 }, kink: { x: 24.7, y: 3514 }, vOut: { x: -27, y: 150 }, seenAfterS: 3.5 / 30 });
    const cal = truthHomographies(presetCamera('broadcast', table), R);
    // The camera sees a sinking ball at that corner go up the table (+y), the way this one slides.
    const down = sinkDirectionOf(cal)!(24.7, 3514)!;
    expect(down[1]).toBeGreaterThan(Math.cos((35 * Math.PI) / 180));
    const ev = tracksToStrokes({ ...doc, calibration: cal }, table).log.strokes[0]!.events;
    expect(of(ev, 'cushion')).toEqual([expect.objectContaining({ ball: 'black', side: 'left' })]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'black', pocket: 'TL' })]);
  });

  test('a ball reflected off the jaw\'s angled face (seen going on into the corner) is a jaw contact', () => {
    // The same black through the shipped detector: after the jaw it was placed going on into the
    // corner (−228, +564 mm/s) — against the straight cushion's line no rebound, against the jaw's
    // face (45° into the pocket) a clear one.
    const doc = intoPocket({ ball: 'black', still: { id: 'white', x: 889, y: 700 }, vIn: { x: -291, y: 39 }, kink: { x: 23.6, y: 3523.5 }, vOut: { x: -228, y: 564 }, seenAfterS: 2.5 / 30 });
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'cushion')).toEqual([expect.objectContaining({ ball: 'black', side: 'left', jaw: 'TL' })]);
    expect(of(ev, 'cushion')[0]!.t).toBeCloseTo(2.0, 1);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'black', pocket: 'TL' })]);
  });

  test('a ball missed for a moment in the jaw and seen again beside it, rolling out, is not potted (Task2 clip 13)', () => {
    // The black into the top-left jaw, lost for 4 frames, then seen again 25 mm away rolling out
    // slowly along the top cushion with a noisy track (pauses of a frame).
    const frames: TracksDoc['frames'] = [];
    for (let i = 0; i <= 150; i++) {
      const t = i / 30;
      // The white, struck at 0.5 s, stuns dead on the black at 1 s.
      const wy = t < 0.5 ? 2900 : Math.min(3300 - 2 * R, 2900 + (t - 0.5) * 2 * (3300 - 2 * R - 2900));
      const balls: TracksDoc['frames'][number]['balls'] = [{ id: 'white', x: 600, y: wy, conf: 0.99 }];
      if (t < 1) balls.push({ id: 'black', x: 600, y: 3300, conf: 0.9 });
      else if (t <= 2) balls.push({ id: 'black', x: 600 - 560 * (t - 1), y: 3300 + 220 * (t - 1), conf: 0.9 });
      else if (t > 2.14 && t < 3.5) {
        const u = t - 2.14;
        // 200 mm/s with a frame's pause every 6 frames.
        const x = 65 + 200 * (u - (i % 6 === 0 ? 1 / 30 : 0));
        balls.push({ id: 'black', x, y: 3520 - 3 * u, conf: 0.8 });
      } else if (t >= 3.5) balls.push({ id: 'black', x: 65 + 200 * 1.36, y: 3516, conf: 0.9 });
      frames.push({ i, t, balls });
    }
    const ev = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', source: { uri: 'synthetic', fps: 30 }, frames }, table).log.strokes[0]!.events;
    expect(of(ev, 'pot')).toEqual([]);
    // A ball that comes back at its spot long after (a respot) still left the table.
    const respot = frames.map((f) => ({ ...f, balls: f.balls.filter((b) => b.id !== 'black' || f.t <= 2 || f.t >= 3.5).map((b) => (b.id === 'black' && f.t >= 3.5 ? { ...b, x: 889, y: 3245 } : b)) }));
    const ev2 = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', source: { uri: 'synthetic', fps: 30 }, frames: respot }, table).log.strokes.flatMap((st) => st.events);
    expect(of(ev2, 'pot')).toEqual([expect.objectContaining({ ball: 'black', pocket: 'TL' })]);
    // A "black" seen 0.3 s after it dropped but across the table (a false detection: Task2 clip 5)
    // is not the black coming back out of the jaw.
    const far = frames.map((f) => ({ ...f, balls: f.balls.filter((b) => b.id !== 'black' || f.t <= 2).concat(f.t > 2.3 && f.t < 2.5 ? [{ id: 'black', x: 1500, y: 3300, conf: 0.5 }] : []) }));
    const ev3 = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', source: { uri: 'synthetic', fps: 30 }, frames: far }, table).log.strokes.flatMap((st) => st.events);
    expect(of(ev3, 'pot')).toEqual([expect.objectContaining({ ball: 'black', pocket: 'TL' })]);
  });

  test('a ball that hangs in the jaws for a few frames and then drops is potted, not touched (rendered S03 overhead, v8)', () => {
    const frames: TracksDoc['frames'] = [];
    const red0 = { x: 1500, y: 3151 }, stop = { x: 1762.8, y: 3549.7 };
    for (let i = 0; i <= 120; i++) {
      const t = i / 30;
      // The white, struck at 0.7 s, stuns dead on red1 at 1.4 s.
      const wy = t < 0.7 ? 2700 : Math.min(red0.y - 2 * R, 2700 + ((t - 0.7) / 0.7) * (red0.y - 2 * R - 2700));
      const balls: TracksDoc['frames'][number]['balls'] = [{ id: 'white', x: red0.x, y: wy, conf: 0.99 }];
      if (t <= 1.4) balls.push({ id: 'red1', ...red0, conf: 0.9 });
      else if (t <= 2.1) balls.push({ id: 'red1', x: red0.x + (stop.x - red0.x) * ((t - 1.4) / 0.7), y: red0.y + (stop.y - red0.y) * ((t - 1.4) / 0.7), conf: 0.9 });
      else if (t <= 2.3) balls.push({ id: 'red1', ...stop, conf: 0.9 });
      else if (t <= 2.4) balls.push({ id: 'red1', x: stop.x + 40 * (t - 2.3) / 0.1, y: stop.y + 60 * (t - 2.3) / 0.1, conf: 0.6 });
      frames.push({ i, t, balls });
    }
    const ev = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', source: { uri: 'synthetic', fps: 30 }, frames }, table).log.strokes[0]!.events;
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'red1', pocket: 'TR' })]);
    expect(of(ev, 'touch')).toEqual([]);
  });

  test('a ball entering a corner that only slows and bends a little before it is lost is dropping, not on the jaw (S07 in-off white, v8)', () => {
    // The in-off white of the rendered S07 under the overhead camera through detector v8.
    const doc = intoPocket({ ball: 'white', still: { id: 'black', x: 889, y: 3245 }, vIn: { x: 366, y: 257 }, kink: { x: 1753.5, y: 3532.6 }, vOut: { x: 132, y: 191 }, seenAfterS: 7.5 / 30 });
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'cushion')).toEqual([]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'white', pocket: 'TR' })]);
  });

  test('a ball sinking in a corner, seen moving towards the point under the camera, is a pot with no jaw contact (given the calibration)', () => {
    // The in-off white of the rendered S07 clip under the overhead camera: into the top-right mouth
    // at (242, 223) mm/s, then its centre "comes back" towards the table's middle as it drops.
    const frames = intoPocket({ ball: 'white', still: { id: 'black', x: 889, y: 3245 }, vIn: { x: 242, y: 223 }, kink: { x: 1771.4, y: 3550.9 }, vOut: { x: -72, y: -133 }, seenAfterS: 4.5 / 30 }).frames;
    const overhead = overheadHomographies(2500);
    const withCal: TracksDoc = { format: 'cueref.tracks/1', game: 'snooker', source: { uri: 'synthetic', fps: 30 }, calibration: overhead, frames };
    const ev = tracksToStrokes(withCal, table).log.strokes[0]!.events;
    expect(of(ev, 'cushion')).toEqual([]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'white', pocket: 'TR' })]);
    // Without the calibration the drift is no rebound either: the white went in along the pocket's
    // axis, past the top jaw's nose and never into its face, so there was nothing there to turn it.
    const { calibration: _none, ...bare } = withCal;
    const bareEv = tracksToStrokes(bare, table).log.strokes[0]!.events;
    expect(of(bareEv, 'cushion')).toEqual([]);
    expect(of(bareEv, 'pot')).toEqual([expect.objectContaining({ ball: 'white', pocket: 'TR' })]);
  });

  test('an in-off white that stalls in a far corner\'s mouth, then "rolls" back up the cushion, seen to the stroke\'s last frame and hidden from there to the end: potted there (rendered S26-S27 broadcast 25 fps)', () => {
    // Truth: the white drops into BL at 6.28 s; the clip ends at 6.76 s.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/in-off-far-corner-S27-broadcast-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'white', pocket: 'BL', t: expect.closeTo(6.28, 1) })]);
    // Its drop is not read as two jaw contacts.
    expect(of(ev, 'cushion')).toEqual([]);
  });

  test('an in-off white seen at a far corner\'s jaw, then read up the cushion as it falls: the drop, not a jaw contact (rendered S07 broadcast 30 fps)', () => {
    // Truth: the red into TR at 1.50 s, the white into TR at 2.149 s, no cushion. The white turns in TR's
    // mouth at (1755, 3526), 2.13 s, then is read straight up the picture (y 3540 → 3579) to 2.30 s, and lost.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/in-off-near-jaw-S07-broadcast-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'cushion')).toEqual([]);
    expect(of(ev, 'pot').map((e) => [e.ball, e.pocket])).toEqual([['red1', 'TR'], ['white', 'TR']]);
  });

  test('a ball that meets a corner jaw\'s nose and runs on along the jaw into the pocket met the jaw (rendered S03 overhead 30 fps)', () => {
    // Truth: the black meets TL's jaw on the left cushion at 7.935 s and drops at 8.013 s. Read: into
    // the left cushion at 350 mm/s, turned at (29.5, 3520) mm, 5 mm off the nose at (0, 3510) and
    // short of the jaw's face, then on at 320 mm/s along the face. Against the rail's normal it kept a
    // third of its speed into it, against the face's it "rebounded": only the nose's normal (from the
    // nose to the centre) shows the contact, 96 % of the speed along it lost.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/nose-then-drop-S03-overhead-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    const black = of(ev, 'cushion').filter((c) => c.ball === 'black');
    expect(black).toEqual([expect.objectContaining({ side: 'left', jaw: 'TL' })]);
    expect(Math.abs(black[0]!.t - 7.935)).toBeLessThan(0.02);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'black', pocket: 'TL' })]);
  });

  test('reads of a potted ball after its drop meet no jaw (rendered short frame, broadcast 30 fps)', () => {
    // Truth: the yellow meets BR's bottom jaw at 2.396 s and drops at 2.469 s. Its reads go on for
    // 0.3 s after the drop (something else in the corner, read as the yellow), with a turn at 2.53 s
    // 6.5 mm off BR's nose: a jaw contact 65 ms after the pot found at 2.467 s.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/reads-after-drop-short-frame-broadcast-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    const [pot] = of(ev, 'pot');
    expect(pot).toEqual(expect.objectContaining({ ball: 'yellow', pocket: 'BR' }));
    expect(of(ev, 'cushion').filter((c) => c.ball === 'yellow' && c.t > pot!.t + 0.04)).toEqual([]);
  });

  test.each([30, 60])('a pawn pushed along the cushion it lay against meets no cushion, however its reads jitter about the line (rendered N02 broadcast %i fps)', (fps) => {
    // Truth: the striker drives into the row of pawns along the bottom cushion at 1.247 s and meets
    // the cushion; b1, at the row's end against the cushion, is pushed along it to rest at x 230 mm,
    // no contact. Read 1–2 mm either side of the line: at 30 fps a "graze" 2 mm deep, at 60 fps a
    // kink 73 mm/s into the line and 3 mm/s out.
    const doc = JSON.parse(readFileSync(new URL(`./fixtures/along-cushion-N02-broadcast-${fps}.tracks.json`, import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, builtinProfile('novus')).log.strokes[0]!.events;
    expect(of(ev, 'cushion').filter((c) => c.ball === 'b1')).toEqual([]);
    expect(of(ev, 'cushion').filter((c) => c.ball === 'striker')).toEqual([expect.objectContaining({ side: 'bottom', t: expect.closeTo(1.247, 1) })]);
  });

  test('a cue ball that leaves the table over a cushion did not rebound from it first (rendered S39 broadcast 60 fps)', () => {
    // Truth: the white leaves the table over the top cushion at 2.917 s, no cushion. Read at
    // (470, 3523) mm at 2.917 s, then 110 mm back down the table for a frame (its raised image),
    // then up and past the top cushion's line to (399, 3586) at 3.083 s: a top-cushion "rebound".
    const doc = JSON.parse(readFileSync(new URL('./fixtures/flies-off-S39-broadcast-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'offTable')).toEqual([expect.objectContaining({ ball: 'white' })]);
    expect(of(ev, 'cushion').filter((c) => c.ball === 'white')).toEqual([]);
  });

  // A ball read off its place for a while before the strike, then where it lay again, was not
  // touched. S39 overhead 60 fps: the green on the baulk line at (597, 737) throughout, read at
  // (598, 738) to 0.6 s, at (607, 747) — 12.4 mm off, the cue beside it — to 0.87 s, then at
  // (598.6, 738.4): two rests 12 mm apart, each taken in turn for a push (TOUCHED_BALL). S42
  // broadcast 60 fps: the blue on its spot (889, 1784.5), read at (887, 1787) to 0.6 s, (885, 1777)
  // to 0.95 s, (885, 1793) to 1.18 s, then (887.5, 1785) under the striker's arm: the middle hop
  // was called TOUCHED_BALL.
  test.each([
    ['the green, one hop and back (rendered S39 overhead 60 fps)', 'read-shifted-back-S39-overhead-60'],
    ['the blue, two hops and back (rendered S42 broadcast 60 fps)', 'read-hops-back-S42-broadcast-60'],
  ])('a read that goes off its place and comes back before the strike is no touch: %s', (_what, fixture) => {
    const doc = JSON.parse(readFileSync(new URL(`./fixtures/${fixture}.tracks.json`, import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'strike')).toEqual([expect.objectContaining({ ball: 'white' })]);
    expect(of(ev, 'touch')).toEqual([]);
  });

  test('a cue ball passing a ball 60 mm off, read a frame towards it, neither jumped it nor hit it (rendered S39 overhead 60 fps)', () => {
    // Truth: the white rolls up past the blue, nearest 60 mm (centres) at 5.95 s, and first hits
    // the pink at 6.86 s. Read at (844, 1789) at 5.933 s, 13 mm towards the blue: the fitted path
    // ran 45 mm from the blue, which never moved — a jump over it (JUMP_SHOT), or without that a
    // contact with it taken for the first.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/pass-by-blue-S39-overhead-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes.at(-1)!.events;
    expect(of(ev, 'jump')).toEqual([]);
    const contacts = of(ev, 'contact').filter((c) => c.a === 'white' || c.b === 'white').sort((u, v) => u.t - v.t);
    expect(contacts[0]).toEqual(expect.objectContaining({ a: 'white', b: 'pink', t: expect.closeTo(6.86, 1) }));
  });

  test('a ball pushed between two strokes, while the cue ball lay at rest, is the next stroke\'s touch (rendered S12 broadcast 60 fps)', () => {
    // Truth: red potted (stroke 0); the white at rest from 4.0 s; a sleeve pushes the blue at 4.95 s;
    // the white is struck at 5.40 s. Read: the blue hidden from 4.70 s and seen 20 mm off at 5.37 s.
    // That hidden move kept the first stroke's activity open into the second; split at the second
    // strike, the touch went with the first stroke — the foul to the wrong player.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/touch-between-strokes-S12-broadcast-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const strokes = tracksToStrokes(doc, table).log.strokes;
    expect(strokes).toHaveLength(2);
    expect(of(strokes[0]!.events, 'touch')).toEqual([]);
    expect(of(strokes[1]!.events, 'touch')).toEqual([expect.objectContaining({ ball: 'blue' })]);
    expect(of(strokes[1]!.events, 'strike')).toEqual([expect.objectContaining({ ball: 'white', t: expect.closeTo(5.4, 1) })]);
  });

  test('a pawn pushed while hidden by the hand is touched, though a neighbour\'s read jumped over the rail and back meanwhile (rendered N30 broadcast 60 fps)', () => {
    // Truth: a hand pushes b3 (here b5) from (452, 16) to (452, 41) at 0.65 s, hidden. Read: b5
    // hidden 0.40–1.07 s and seen 25 mm off; its neighbour b6 read at (400, −1), over the rail, and
    // back at (423, 14) — a ball "passing by" that explained b5's move, so no touch was found.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/hidden-push-N30-broadcast-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, builtinProfile('novus')).log.strokes[0]!.events;
    expect(of(ev, 'touch')).toEqual([expect.objectContaining({ ball: 'b5' })]);
  });

  test('a flyer\'s sightings before the tracker named it (`trail`) are its path: its cushion 20 ms after it was first reported (rendered power break, broadcast 25 fps)', () => {
    // Truth: red11 meets the top cushion at 1.492 s. The tracker reports it from 1.48 s, with its reads at 1.40 and 1.44 s as its trail.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/flyer-trail-power-break-broadcast-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    const top = of(ev, 'cushion').filter((c) => c.ball === 'red8');
    expect(top.map((c) => c.side)).toEqual(['top']);
    expect(Math.abs(top[0]!.t - 1.492)).toBeLessThan(0.02);
  });

  test('the same in-off at 60 fps, where the fall is read as a crawl from the mouth speeding up the cushion, cut into pieces too short to meet: potted there, and no cushion after the drop (rendered S26-S27 broadcast 60 fps)', () => {
    // Truth: the white drops into BL at 6.28 s. Read: (26, 30) at 6.28 s, then x 21–24 mm, y 51 → 131 mm by 6.47 s, then lost.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/in-off-far-corner-S27-broadcast-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'white', pocket: 'BL', t: expect.closeTo(6.28, 1) })]);
    expect(of(ev, 'cushion')).toEqual([]);
  });

  test('the same at 60 fps, where the stroke ends (the others at rest) before the recording does: hidden from its last sighting to the end, it is still a pot (rendered S13 broadcast 60 fps)', () => {
    const doc = JSON.parse(readFileSync(new URL('./fixtures/sank-far-corner-S13-broadcast-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const yellowStates = doc.frames.map((f) => f.balls.find((b) => b.id === 'yellow')?.state);
    const lastSeen = yellowStates.lastIndexOf('moving');
    expect(yellowStates.slice(lastSeen + 1).every((st) => st === 'occluded')).toBe(true);
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'yellow', pocket: 'BR', t: expect.closeTo(7.65, 1) })]);
  });

  test('a ball that turns in a far corner\'s mouth onto the way a sinking ball seems to go, faster and faster, and is then coasted on unseen to the end is potted there (rendered S13 broadcast 25 fps, with its calibration)', () => {
    // Truth: the yellow drops into BR at 7.65 s. The camera behind the baulk end sees it "roll"
    // back down the table from the mouth (27 → 130 mm from the cushion in 0.2 s, 0.2 → 0.9 m/s)
    // and the tracker coasts it on as occluded to the end of the clip: the path reaches no pocket.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/sank-far-corner-S13-broadcast-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const lastYellow = doc.frames.at(-1)!.balls.find((b) => b.id === 'yellow')!;
    expect(lastYellow).toMatchObject({ state: 'occluded' });
    expect(lastYellow.y).toBeGreaterThan(400);
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'yellow', pocket: 'BR', t: expect.closeTo(7.65, 1) })]);
    expect(of(ev, 'cushion')).toEqual([]);
    // Without the calibration nothing says which way a sinking ball seems to go: no pot. Nor a jaw
    // rebound: the turn reverses the ball off both of BR's jaws at once, which only a falling ball does.
    const { calibration: _none, ...bare } = doc;
    const evBare = tracksToStrokes(bare as TracksDoc, table).log.strokes[0]!.events;
    expect(of(evBare, 'pot')).toEqual([]);
    expect(of(evBare, 'cushion').filter((e) => e.ball === 'yellow')).toEqual([]);
  });

  test('a jaw that takes most of a ball\'s speed and sends it on is a contact, though the ball drops soon after; a fast drop read on slowly is not', () => {
    // Rendered short frame, overhead 25 fps, through the real detector: the green meets the middle
    // pocket's far jaw at 7.30 s (truth), 420 → 176 mm/s and turned 78°, and drops at 7.43. Its
    // speed after is near the "stopped" share (0.35), so it read as the drop itself.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/jaw-then-drop-short-frame-overhead-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'cushion').filter((e) => e.ball === 'green')).toEqual([expect.objectContaining({ side: 'left', jaw: 'ML', t: expect.closeTo(7.3, 1) })]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'green', pocket: 'ML' })]);
    // Rendered P18, overhead 30 fps: a stripe into the top-left corner at 1296 mm/s, read on at 133
    // mm/s turned 84° as it falls from sight: the drop, with no jaw (it keeps 10 % of its speed).
    const fast = JSON.parse(readFileSync(new URL('./fixtures/fast-drop-P18-overhead-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const evFast = tracksToStrokes(fast, builtinProfile('pool8-9ft')).log.strokes[0]!.events;
    expect(of(evFast, 'pot').map((e) => `${e.ball}@${e.pocket}`)).toEqual(['9@TL', 'cue@TL']);
    expect(of(evFast, 'cushion').filter((e) => e.ball === '9')).toEqual([]);
  });

  test('a slow ball grazing a corner jaw past its nose, keeping its speed, met the jaw (rendered short frame, broadcast 30 fps)', () => {
    // Truth: the pink at 117 mm/s along TR's top jaw, touched at 28.834 s (2 mm/s into its face),
    // turned 60°, dropped at 29.02 s. Read 16 mm past the nose, 9 mm/s into the face: not a drop
    // (it kept 91 % of its speed), so it needs no run into the jaw to have met it.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/jaw-graze-short-frame-broadcast-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'cushion').filter((e) => e.ball === 'pink')).toEqual([expect.objectContaining({ side: 'top', jaw: 'TR', t: expect.closeTo(28.83, 1) })]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'pink', pocket: 'TR' })]);
  });

  test('a resting ball whose read shifts and settles 5 mm away, never a radius off, was not touched (rendered S41 broadcast 30 fps)', () => {
    // Truth: the green lies on its spot (597, 737) all stroke. Read at 742 until 18.70 s, 733 for a
    // frame as the player leaves the table, then at rest at 737 from 19.23 s: a "start" at
    // 131 mm/s no contact explains, called a touch before.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/read-shift-S41-broadcast-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes.flatMap((s) => s.events);
    expect(of(ev, 'touch')).toEqual([]);
    expect(ev.filter((e) => e.type === 'strike').map((e) => e.ball)).toEqual(['white']);
  });

  test('a cue ball read creeping 6 mm as the cue is addressed, then off at a stroke\'s speed: struck when it went off (rendered S33 broadcast 30 fps)', () => {
    // Truth: struck at 1.10 s. Read at (890.2, 2051.2) until 0.93 s, then 6 mm off by 1.10 s (a
    // piece fitted at 137 mm/s, faster than a creep's 60), then off at 714 mm/s.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/addressed-S33-broadcast-30-first-1.6s.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(ev.find((e) => e.type === 'strike')).toMatchObject({ ball: 'white', t: expect.closeTo(1.1, 1) });
  });

  test('a "ball" read for 0.07 s over the rail, then "struck", is no striker; the red the cue struck from rest is (rendered F21 broadcast 30 fps: WRONG_CUE_BALL)', () => {
    // Truth: the cue strikes red1 (tracked `red4`) at 1.1 s; the white never moves. Read: `red8`
    // at (584, 39) from 0.70 s — the hand over the bottom rail — "starting" at 0.76 s and gone.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/hand-read-F21-broadcast-30-first-2s.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const { log } = tracksToStrokes(doc, table);
    const ev = log.strokes[0]!.events;
    expect(ev.find((e) => e.type === 'strike')).toMatchObject({ ball: 'red4', t: expect.closeTo(1.05, 1) });
    // (So the referee calls WRONG_CUE_BALL: the strike's ball is not the white.)
    expect(of(ev, 'touch')).toEqual([]);
  });

  test("a cue ball read off for a frame as a hand goes by, at rest again 1.8 mm away, was not struck: the strike is its real start (rendered S38 broadcast 25 fps)", () => {
    // Truth: the blue respotted by hand at 3.32 s, the white struck at 3.92 s. Read: the white at
    // (1049, 1301.5), then (1047, 1293) at 3.76 s (conf 0.68), at rest at (1049, 1303.3) from
    // 3.80, off at 3.92; the blue first seen on its spot at 3.80.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/bumped-white-S38-broadcast-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    const strike = ev.find((e) => e.type === 'strike')!;
    expect(strike).toMatchObject({ ball: 'white', t: expect.closeTo(3.92, 1) });
    expect(strike.t).toBeGreaterThan(3.9);
    // So the blue, set down before it, is a placement (a respot), not a ball put down mid-stroke.
    expect(of(ev, 'place')).toEqual([expect.objectContaining({ ball: 'blue' })]);
    expect(of(ev, 'place')[0]!.t).toBeLessThan(strike.t);
  });

  test('a clear rebound off a jaw read 8 mm from its face is a contact, as one off a straight cushion may be (rendered short frame, overhead 25 fps, the camera height from the spots)', () => {
    // The same green at ML's far jaw, its positions measured with the overhead camera's height
    // (calibration/spotHeight.ts): the kink's centre is 8.01 mm from where it would touch the
    // face, 336 → -77 mm/s across it. Within the cushion tolerance (8 mm) once, twice it for a
    // clear rebound, as the straight cushions allow.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/jaw-then-drop-short-frame-overhead-25-height.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes.flatMap((s) => s.events);
    expect(of(ev, 'cushion').filter((e) => e.ball === 'green')).toEqual([expect.objectContaining({ side: 'left', jaw: 'ML', t: expect.closeTo(7.3, 1) })]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'green', pocket: 'ML' })]);
  });

  test('a ball that turns past a jaw\'s nose without running into it or its face dropped: no contact (rendered S26-S27, overhead 25 fps)', () => {
    // Truth: the black into TR at 2.089 s along the pocket's axis (540 mm/s), no cushion; the white
    // meets the top cushion at 2.13 s. Read: at (1749, 3560) at 2.08 s, 17 mm past the top
    // cushion's line and 24 mm past its nose, then drifting back towards the camera as it falls —
    // a "rebound" of 98 mm/s off the top cushion's line, where past the nose there is none.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/drop-along-axis-S26-S27-overhead-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'cushion').map((e) => [e.ball, e.side])).toEqual([['white', 'top']]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'black', pocket: 'TR' })]);
    // At 30 fps the fits merged the approach and the drop into one kink read against two lines:
    // the top cushion at 2.06 s and, 84 ms later, TR's right jaw out of the black's reach — two
    // turns, not a corner's pair, so the jaw out of reach is no contact either.
    const at30 = JSON.parse(readFileSync(new URL('./fixtures/drop-merged-kink-S26-S27-overhead-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev30 = tracksToStrokes(at30, table).log.strokes[0]!.events;
    expect(of(ev30, 'cushion').map((e) => [e.ball, e.side])).toEqual([['white', 'top']]);
    expect(of(ev30, 'pot')).toEqual([expect.objectContaining({ ball: 'black', pocket: 'TR' })]);
  });

  test('a cue ball carried by hand to the D, lost under the hand and predicted off the table, is placed there and struck from there', () => {
    // Rendered S26-S27, overhead 30 fps, through the real detector (from 3.8 s): after the black is
    // potted the white is carried from (1274, 3364) to the D at 9 m/s, read three times under the
    // hand, then predicted on through the baulk cushion and called off the table at 5.13 s; it is
    // seen set down at (800, 648) at 5.23 s, 67 mm from its last sighting, and struck at 5.28 s
    // into BL. Once: a strike at the pick-up, from 2.6 m outside the D, and a cushion off the
    // prediction (CUE_BALL_NOT_IN_D, STRUCK_BEFORE_RESPOT).
    const doc = JSON.parse(readFileSync(new URL('./fixtures/carried-to-D-S26-S27-overhead-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const strokes = tracksToStrokes(doc, table).log.strokes;
    expect(strokes).toHaveLength(1);
    const ev = strokes[0]!.events;
    expect(strokes[0]!.t).toBeCloseTo(5.28, 1);
    const place = of(ev, 'place').find((e) => e.ball === 'white')!;
    expect(Math.hypot(place.x - 800, place.y - 650)).toBeLessThan(10);
    expect(place.t).toBeLessThan(strokes[0]!.t!);
    expect(of(ev, 'cushion')).toEqual([]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'white', pocket: 'BL' })]);
  });

  test("a kink off both jaws of one pocket is no contact (no ball meets both at once): lost soon after, it is the drop", () => {
    // Rendered fine cut, broadcast 60 fps, through the real detector: red1 goes straight into the far
    // top-right corner (truth: no contact, potted at 1.81 s). From behind the baulk end the fall
    // reads as a rebound off the corner: one kink reversing both ways, read as both of TR's jaws.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/far-corner-drop-fine-cut-broadcast-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'cushion').filter((e) => e.ball === 'red1')).toEqual([]);
    expect(of(ev, 'pot')).toEqual([expect.objectContaining({ ball: 'red1', pocket: 'TR' })]);
    expect(of(ev, 'contact')[0]).toMatchObject({ a: 'white', b: 'red1' });
    // Rendered N05, broadcast 25 fps (striker and a1 only): the striker, slowed by a1 150 mm short
    // of the top-left corner, kinks; its path before, run on, meets both of TL's jaws' lines within
    // the kink's frames. Not lost for 0.44 s, so not the drop either: neither jaw, just the contact.
    const n05 = JSON.parse(readFileSync(new URL('./fixtures/both-jaws-far-N05-broadcast-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const evN05 = tracksToStrokes(n05, builtinProfile('novus')).log.strokes[0]!.events;
    expect(of(evN05, 'cushion')).toEqual([]);
    expect(of(evN05, 'contact')).toEqual([expect.objectContaining({ a: 'striker', b: 'a1', t: expect.closeTo(1.315, 2) })]);
    expect(of(evN05, 'pot').map((e) => `${e.ball}@${e.pocket}`)).toEqual(['a1@TL', 'striker@TL']);
  });

  test.each([
    ['is first seen later (missed by the detector in the pack)', 3.5, 0],
    ['is never seen', 99, 1],
  ])('a ball started by an unseen ball after the first contact: no touch when the unseen ball %s', (_what, appearS, touches) => {
    // A straight chain white → red1 → red2 → red3, 100 mm gaps; red2 is not detected until appearS.
    const y1 = 1600, y2 = y1 + 2 * R + 100, y3 = y2 + 2 * R + 100;
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 1000 }, { id: 'red1', x: 889, y: y1 }, { id: 'red2', x: 889, y: y2 }, { id: 'red3', x: 889, y: y3 }], [{ t: 0.3, ball: 'white', vx: 0, vy: 2200 }], { durationS: 6 });
    expect(run.truth.contacts.map((c) => `${c.a}-${c.b}`).slice(0, 3)).toEqual(['white-red1', 'red1-red2', 'red2-red3']);
    const doc = toTracks(run, { fps: 30, noiseMm: 1, seed: 52, appearAt: { red2: appearS } });
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'contact')[0]).toMatchObject({ a: 'white', b: 'red1' });
    expect(of(ev, 'touch').filter((e) => e.ball === 'red3')).toHaveLength(touches);
  });

  test('a red lost out on the cloth as a pack breaks, which the tracker coasts off the bed, is not called off the table (rendered S39 overhead, 30 fps)', () => {
    // Tracks through the shipped detector and tracker (white, pink and three reds of the stroke
    // that breaks the pack): red9 leaves the pack at 1.3 m/s, is lost 630 mm from the nearest
    // cushion at 7.0 s, and the tracker's coasting takes it over the bed's edge (state offTable at 7.67 s).
    const doc = JSON.parse(readFileSync(new URL('./fixtures/lost-mid-pack-S39-overhead-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    expect(doc.frames.some((f) => f.balls.some((b) => b.id === 'red9' && b.state === 'offTable'))).toBe(true);
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'offTable')).toEqual([]);
    expect(of(ev, 'pot')).toEqual([]);
    expect(of(ev, 'contact')[0]).toMatchObject({ a: 'white', b: 'pink' });
  });

  test('a resting red whose detected centre jumps 20 mm and back (one ball of a touching pair read two ways) is not touched', () => {
    // Tracks of a rendered clip through the shipped detector and tracker: red5's centre flips
    // between two reads 20 mm apart, in runs of frames, while the cue ball rolls to the black.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/flicker-S08-overhead-60.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const xs = doc.frames.flatMap((f) => f.balls.filter((b) => b.id === 'red5' && f.t > 1.3 && f.t < 1.7).map((b) => b.x));
    expect(Math.max(...xs) - Math.min(...xs)).toBeGreaterThan(15);
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    expect(of(ev, 'contact')[0]).toMatchObject({ a: 'white', b: 'black' });
    expect(of(ev, 'touch')).toEqual([]);
  });

  test('a break into the pack at 4 m/s, the white read 5–9 mm off and its samples either side of the contact taken for one piece (rendered S01 overhead 25 fps): the white struck the apex red first', () => {
    // Through the shipped detector and tracker (the white and the reds). The apex red (the
    // tracker's red2) touches others in the pack and leaves 54° off the line of centres; a red
    // lying still beside it also sits 2R from it. Before, the first contact was read red13→red2,
    // and the white's later contact with the blue was called WRONG_BALL_FIRST.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/break-into-pack-S01-overhead-25.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const first = of(tracksToStrokes(doc, table).log.strokes[0]!.events, 'contact')[0];
    expect(first).toMatchObject({ a: 'white', b: 'red2' });
    // The simulator's truth: 1.583 s.
    expect(Math.abs(first!.t - 1.583)).toBeLessThan(0.01);
  });

  test('the cue ball onto the black with the black misread 5 mm towards it on the frame before: both kinked, the contact is found (rendered S24 overhead)', () => {
    // Through the shipped detector: beside the arriving white, black's centre is read 5 mm off
    // on the frame before the contact, and the fits miss 2R by 9–10 mm (tolerance ~8 mm).
    const doc = JSON.parse(readFileSync(new URL('./fixtures/black-misread-S24-overhead-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    const first = of(ev, 'contact')[0];
    expect(first).toMatchObject({ a: 'white', b: 'black' });
    // The simulator's truth: 1.389 s.
    expect(Math.abs(first!.t - 1.389)).toBeLessThan(0.02);
    // A worse fit is doubtful.
    expect(first!.conf).toBeLessThan(0.7);
  });

  test('the black grazing the top cushion at 220 mm/s (80 mm/s into it, 30 out), seen with ±4 mm of jitter: a top-cushion contact (rendered S24 overhead)', () => {
    // The segmenter does not split at so small a turn; the piece's parabola bends through it.
    const doc = JSON.parse(readFileSync(new URL('./fixtures/black-misread-S24-overhead-30.tracks.json', import.meta.url), 'utf8')) as TracksDoc;
    const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
    const top = of(ev, 'cushion').filter((e) => e.ball === 'black' && e.side === 'top');
    // The simulator's truth: 3.634 s.
    expect(top).toHaveLength(1);
    expect(Math.abs(top[0]!.t - 3.634)).toBeLessThan(0.05);
    // And nothing else new: the right cushion at the corner and the pot, as before.
    expect(of(ev, 'cushion').filter((e) => e.ball === 'black').map((e) => e.side)).toEqual(['top', 'right']);
  });

  test('a resting red nudged 20 mm by a sleeve during the stroke is touched', () => {
    const strikes = [{ t: 0.3, ball: 'white', vx: 0, vy: 900 }, { t: 1.0, ball: 'red1', vx: Math.sqrt(2 * 300 * 20), vy: 0 }];
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 800 }, { id: 'red1', x: 1400, y: 2500 }], strikes, { durationS: 4, decelMmPerS2: 300 });
    const ev = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 0.5, seed: 54 }), table).log.strokes[0]!.events;
    expect(of(ev, 'touch')).toEqual([expect.objectContaining({ ball: 'red1' })]);
  });

  test('a red moved 23 mm under a sleeve (occluded for 0.6 s, no frame of it moving) is touched; one only hidden is not', () => {
    const as = 'occluded';
    // Rendered S12: the blue under a sleeve, seen again 23 mm off at rest.
    const decel = 300;
    for (const [moveMm, touched] of [[23, true], [0, false]] as const) {
      const strikes = [{ t: 0.5, ball: 'white', vx: 0, vy: 900 }, ...(moveMm ? [{ t: 1.3, ball: 'red1', vx: Math.sqrt(2 * decel * moveMm), vy: 0 }] : [])];
      const run = simulateTable(table, [{ id: 'white', x: 400, y: 800 }, { id: 'red1', x: 1300, y: 2500 }], strikes, { durationS: 5, decelMmPerS2: decel });
      const doc = toTracks(run, { fps: 30, noiseMm: 0.5, seed: 58, occlude: { from: 36, to: 54, balls: ['red1'], as } });
      const ev = tracksToStrokes(doc, table).log.strokes[0]!.events;
      expect(of(ev, 'touch').map((e) => e.ball), `moved ${moveMm} mm`).toEqual(touched ? ['red1'] : []);
    }
  });

  test('a cue ball uncovered by the hand 0.1 s before the strike is placed where it was put, not where it rolled', () => {
    const spot = { x: 1110, y: 690 };
    const run = simulateTable(table, [{ id: 'white', ...spot }, { id: 'black', x: 889, y: 3245 }], [{ t: 1.1, ball: 'white', vx: -100, vy: 3000 }], { durationS: 5 });
    const { log } = tracksToStrokes(toTracks(run, { fps: 30, noiseMm: 1, seed: 55, appearAt: { white: 0.97 } }), table);
    const place = of(log.strokes[0]!.events, 'place').find((e) => e.ball === 'white')!;
    expect(Math.hypot(place.x - spot.x, place.y - spot.y)).toBeLessThan(3);
    expect(of(log.strokes[0]!.events, 'strike')).toEqual([expect.objectContaining({ ball: 'white' })]);
  });

  test('a "ball" first seen after the strike on a handful of frames and lost is not a pot (an arm read as pink); seen longer, it is', () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 800 }, { id: 'black', x: 889, y: 3245 }], [{ t: 0.3, ball: 'white', vx: 0, vy: 900 }], { durationS: 4 });
    const withGhost = (frames: number) => {
      const doc = toTracks(run, { fps: 30, noiseMm: 0.5, seed: 56 });
      const k = doc.frames.findIndex((f) => f.t > 0.8);
      // Sweeping towards the top-right corner at 1.8 m/s, then gone (the tracker's pocketed).
      for (let j = 0; j < frames; j++) doc.frames[k + j]!.balls.push({ id: 'pink', x: 1300 + 30 * j, y: 2900 + 30 * j, conf: 0.4, state: 'moving' });
      doc.frames[k + frames]!.balls.push({ id: 'pink', x: 1300 + 30 * (frames - 1), y: 2900 + 30 * (frames - 1), conf: 0.4, state: 'pocketed' });
      return tracksToStrokes(doc, table).log.strokes[0]!.events;
    };
    const flick = withGhost(4);
    expect(of(flick, 'pot')).toEqual([]);
    expect(of(flick, 'offTable')).toEqual([]);
    expect(of(withGhost(12), 'pot').map((p) => `${p.ball}@${p.pocket}`)).toEqual(['pink@TR']);
  });

  test('event parameters are range-checked', () => {
    expect(() => tracksToStrokes(toTracks(simulateTable(table, [{ id: 'white', x: 500, y: 500 }], [], { durationS: 0.5 }), { fps: 30 }), table, { params: { atRestMs: 5 } })).toThrow(/field atRestMs/);
  });
});

describe('positions written', () => {
  test("the log says the camera's frame interval (frameS, the referee's tie window): from the tracks' fps, else from the frames' timestamps", () => {
    const doc = intoPocket({ ball: 'white', still: { id: 'black', x: 889, y: 3245 }, vIn: { x: 242, y: 223 }, kink: { x: 1771.4, y: 3550.9 }, vOut: { x: -72, y: -133 }, seenAfterS: 0.15 });
    expect(tracksToStrokes(doc, table).log.frameS).toBeCloseTo(1 / 30, 6);
    // No fps given, frames 40 ms apart: 25 fps.
    const { source: _s, ...bare } = doc;
    const at25 = { ...bare, frames: bare.frames.map((f) => ({ ...f, t: f.i / 25 })) };
    expect(tracksToStrokes(at25, table).log.frameS).toBeCloseTo(0.04, 6);
  });

  test('property: separateOverlaps leaves no pair overlapping by noise, and moves each ball at most what it must', async () => {
    const { separateOverlaps } = await import('../../src/events/strokes.js');
    const fc = (await import('fast-check')).default;
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.double({ min: -3, max: 3, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true })), { minLength: 5, maxLength: 5 }), (noise) => {
        // A row of five touching balls, each centre off by up to 3 mm.
        const truth = noise.map((_, i) => ({ id: `red${i + 1}`, x: 500 + i * 2 * R, y: 1000 }));
        const balls = truth.map((b, i) => ({ ...b, x: b.x + noise[i]![0], y: b.y + noise[i]![1] }));
        const before = balls.map((b) => ({ ...b }));
        separateOverlaps(balls, () => R);
        for (let i = 0; i < balls.length; i++) for (let j = i + 1; j < balls.length; j++) expect(Math.hypot(balls[i]!.x - balls[j]!.x, balls[i]!.y - balls[j]!.y)).toBeGreaterThanOrEqual(2 * R - 0.02);
        balls.forEach((b, i) => expect(Math.hypot(b.x - before[i]!.x, b.y - before[i]!.y)).toBeLessThan(15));
      }),
      { numRuns: 100 },
    );
  });
});
