/**
 * The synthetic accuracy suite behind the metrics ratchet (test/events/metrics.json): random
 * strokes on a snooker table (cue ball at an object ball with a random cut and speed, a few other
 * balls about, some pots, many cushions) simulated by test/events/synth.ts, sampled at 25, 30 and
 * 60 fps with 1 mm noise, and run through
 *  - `tracks`: truth ids + noise → events (a user's own tracker feeding the event stage), and
 *  - `tracker`: class-only detections → tracker → events (the whole vision back end).
 * Figures: first contact right (and how many wrong calls were not flagged), contact-time error,
 * pots with the right pocket, phantom pots, cushion F1, rest error, identity switches.
 */
import type { StrokeEvent } from '../../src/core/contracts/strokes.js';
import type { TrackFrame } from '../../src/core/contracts/tracks.js';
import { builtinProfile, type TableProfile } from '../../src/core/table.js';
import { tracksToStrokes } from '../../src/events/index.js';
import { createTracker } from '../../src/tracking/index.js';
import { fakeDetections } from '../tracking/fakeDetector.js';
import { identitySwitches, mulberry32, simulateTable, toTracks, type SynthBall } from './synth.js';

export interface SuiteMetrics {
  strokes: number;
  /** Truth counts behind the rates (a rate over nothing proves nothing). */
  truthPots: number;
  truthCushions: number;
  firstContactAccuracy: number;
  firstContactWrongUnflagged: number;
  contactTimeErrorMsMedian: number;
  contactTimeErrorMsP95: number;
  potPocketAccuracy: number;
  phantomPots: number;
  cushionF1: number;
  restErrorMmMean: number;
  restErrorMmP95: number;
  identitySwitches: number;
}

const COLOURS = ['yellow', 'green', 'brown', 'blue', 'pink', 'black'];

export function randomStroke(table: TableProfile, seed: number): { balls: SynthBall[]; strike: { t: number; ball: string; vx: number; vy: number } } {
  const rng = mulberry32(seed * 7919 + 17);
  const R = table.ballDiameter / 2;
  const W = table.bed.width, L = table.bed.length;
  const balls: SynthBall[] = [];
  const free = (x: number, y: number) => balls.every((b) => Math.hypot(b.x - x, b.y - y) > 2 * R + 8) && x > R + 20 && x < W - R - 20 && y > R + 20 && y < L - R - 20;
  const place = (id: string) => {
    for (let k = 0; k < 500; k++) {
      const x = R + 40 + rng() * (W - 2 * R - 80), y = R + 40 + rng() * (L - 2 * R - 80);
      if (free(x, y)) {
        balls.push({ id, x, y });
        return;
      }
    }
  };
  const nObj = 2 + Math.floor(rng() * 4);
  const ids = [...COLOURS].sort(() => rng() - 0.5).slice(0, nObj);
  if (seed % 2 === 0) {
    // A pot attempt: the object ball 250–1000 mm from a pocket, the cue ball behind it on nearly
    // the same line (a cut of up to ~6°), so that most of these go in and some rattle out.
    const pockets = Object.values(table.pockets);
    for (let tries = 0; tries < 200 && balls.length < 2; tries++) {
      const pk = pockets[Math.floor(rng() * pockets.length)]!;
      const ang = Math.atan2(L / 2 - pk.y, W / 2 - pk.x) + (rng() - 0.5) * 0.8;
      const dObj = 250 + rng() * 750, dCue = dObj + 250 + rng() * 600;
      const lat = (rng() - 0.5) * 2 * R * 0.2;
      const o = { x: pk.x + Math.cos(ang) * dObj, y: pk.y + Math.sin(ang) * dObj };
      const c = { x: pk.x + Math.cos(ang) * dCue - Math.sin(ang) * lat, y: pk.y + Math.sin(ang) * dCue + Math.cos(ang) * lat };
      balls.length = 0;
      if (!free(c.x, c.y)) continue;
      balls.push({ id: 'white', ...c });
      if (!free(o.x, o.y)) {
        balls.length = 0;
        continue;
      }
      balls.push({ id: ids[0]!, ...o });
    }
    if (balls.length < 2) {
      balls.length = 0;
      place('white');
      place(ids[0]!);
    }
    ids.slice(1).forEach(place);
  } else {
    place('white');
    ids.forEach(place);
  }
  // Aim at the first object ball with a cut of up to ±45°.
  const w = balls[0]!, o = balls[1]!;
  const d = Math.hypot(o.x - w.x, o.y - w.y);
  const base = Math.atan2(o.y - w.y, o.x - w.x);
  const maxCut = Math.asin(Math.min(1, (2 * R * 0.95) / d));
  // Pot attempts aim straight (the small cut comes from the lateral offset); others cut up to ±0.6 rad.
  const off = seed % 2 === 0 ? 0 : (rng() * 2 - 1) * Math.min(maxCut, 0.6);
  const speed = 900 + rng() * 2600;
  const t = 0.4 + rng() / 30;
  return { balls, strike: { t, ball: 'white', vx: Math.cos(base + off) * speed, vy: Math.sin(base + off) * speed } };
}

const contactsOfCue = (events: readonly StrokeEvent[]) => events.filter((e): e is Extract<StrokeEvent, { type: 'contact' }> => e.type === 'contact' && (e.a === 'white' || e.b === 'white')).sort((a, b) => a.t - b.t);

const quantile = (v: number[], q: number) => {
  if (v.length === 0) return 0;
  const s = [...v].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * (s.length - 1) + 0.5))]!;
};


export function runSuite(opts: { strokes: number; fpsList: number[]; path: 'tracks' | 'tracker'; seed0?: number; missRate?: number }): SuiteMetrics {
  const table = builtinProfile('snooker');
  let firstTotal = 0, firstRight = 0, wrongUnflagged = 0, switches = 0;
  const timeErr: number[] = [];
  let potsTruth = 0, potsRight = 0, phantom = 0;
  let cushTP = 0, cushFP = 0, cushFN = 0;
  const restErr: number[] = [];
  for (let s = 0; s < opts.strokes; s++) {
    const { balls, strike } = randomStroke(table, (opts.seed0 ?? 0) + s);
    const run = simulateTable(table, balls, [strike], { durationS: 8, decelMmPerS2: 450 });
    for (const fps of opts.fpsList) {
      let frames: TrackFrame[];
      let idMap = new Map<string, string>();
      if (opts.path === 'tracks') {
        frames = toTracks(run, { fps, noiseMm: 1, seed: s * 31 + fps }).frames;
        for (const id of run.ids) idMap.set(id, id);
      } else {
        const tr = createTracker(table);
        frames = fakeDetections(run, { fps, noiseMm: 1, seed: s * 31 + fps, ...(opts.missRate ? { missRate: opts.missRate } : {}) }).frames.map((f) => tr.step(f));
        const m = identitySwitches(run, frames, 15);
        idMap = m.owner;
        switches += m.switches;
      }
      const { log } = tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table);
      const events = log.strokes.flatMap((x) => x.events);
      const mapId = (id: string) => idMap.get(id) ?? `?${id}`;
      // First contact.
      const truthFirst = run.truth.contacts.filter((c) => c.a === 'white' || c.b === 'white')[0];
      const mine = contactsOfCue(events)[0];
      firstTotal++;
      const truthBall = truthFirst ? (truthFirst.a === 'white' ? truthFirst.b : truthFirst.a) : null;
      const mineBall = mine ? mapId(mine.a === 'white' ? mine.b : mine.a) : null;
      if (truthBall === mineBall) {
        firstRight++;
        if (truthFirst && mine) timeErr.push(Math.abs(mine.t - truthFirst.t) * 1000);
      } else if (!mine || (mine.conf ?? 1) >= 0.8) wrongUnflagged++;
      // Pots.
      const myPots = events.filter((e): e is Extract<StrokeEvent, { type: 'pot' }> => e.type === 'pot');
      for (const p of run.truth.pots) {
        potsTruth++;
        if (myPots.some((m) => mapId(m.ball) === p.ball && m.pocket === p.pocket)) potsRight++;
      }
      for (const m of myPots) if (!run.truth.pots.some((p) => p.ball === mapId(m.ball))) phantom++;
      // Cushions: same ball and side within 50 ms.
      const myCush = events.filter((e): e is Extract<StrokeEvent, { type: 'cushion' }> => e.type === 'cushion');
      const used = new Set<number>();
      for (const c of run.truth.cushions) {
        const k = myCush.findIndex((m, i) => !used.has(i) && mapId(m.ball) === c.ball && m.side === c.side && Math.abs(m.t - c.t) < 0.05);
        if (k >= 0) {
          used.add(k);
          cushTP++;
        } else cushFN++;
      }
      cushFP += myCush.length - used.size;
      // Rest positions at the end of the (last) stroke.
      const last = log.strokes.at(-1);
      for (const r of last?.rest ?? []) {
        const q = run.rest.get(mapId(r.id));
        if (q) restErr.push(Math.hypot(q.x - r.x, q.y - r.y));
      }
    }
  }
  const prec = cushTP / Math.max(1, cushTP + cushFP), rec = cushTP / Math.max(1, cushTP + cushFN);
  return {
    strokes: firstTotal,
    truthPots: potsTruth,
    truthCushions: cushTP + cushFN,
    firstContactAccuracy: firstRight / Math.max(1, firstTotal),
    firstContactWrongUnflagged: wrongUnflagged,
    contactTimeErrorMsMedian: quantile(timeErr, 0.5),
    contactTimeErrorMsP95: quantile(timeErr, 0.95),
    potPocketAccuracy: potsTruth ? potsRight / potsTruth : 1,
    phantomPots: phantom,
    cushionF1: prec + rec > 0 ? (2 * prec * rec) / (prec + rec) : 1,
    restErrorMmMean: restErr.reduce((a, b) => a + b, 0) / Math.max(1, restErr.length),
    restErrorMmP95: quantile(restErr, 0.95),
    identitySwitches: switches,
  };
}

// `npx tsx test/events/suite.ts [strokes]` prints the figures (for the report and the ratchet).
if (process.argv[1]?.endsWith('suite.ts')) {
  const n = Number(process.argv[2] ?? 24);
  for (const path of ['tracks', 'tracker'] as const) {
    console.log(path, JSON.stringify(runSuite({ strokes: n, fpsList: [25, 30, 60], path }), null, 1));
  }
  // The detector missing balls: each ball absent on a random 5 % of frames.
  console.log('tracker, 5 % missed', JSON.stringify(runSuite({ strokes: n, fpsList: [25, 30, 60], path: 'tracker', missRate: 0.05 }), null, 1));
}
