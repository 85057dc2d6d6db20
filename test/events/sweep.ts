/**
 * The scenario library through the back end: every samples/scenarios/*.json is simulated
 * (src/sim), its truth positions get 1 mm noise and go (a) with ids straight to the event stage and
 * (b) as class-only detections through the tracker; the referee's fouls on our log are compared
 * with its fouls on the simulator's truth log (strokes carrying referee/operator inputs — nominations,
 * decisions, manual fouls — get those inputs copied over, since no tracker can see them).
 *
 *   npx tsx test/events/sweep.ts [fps] [name-filter]
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StrokeLog } from '../../src/core/contracts/strokes.js';
import type { TrackFrame } from '../../src/core/contracts/tracks.js';
import { tracksToStrokes } from '../../src/events/index.js';
import { refereeLog } from '../../src/rules/registry.js';
import { parseScenario, runScenario } from '../../src/sim/scenario/index.js';
import { ballsAt, truthStrokes } from '../../src/sim/truth.js';
import { createTracker, kindOfId, makeDetections } from '../../src/tracking/index.js';
import { gaussian, mulberry32 } from './synth.js';

const MANUAL = new Set(['foul', 'concede', 'requestEnd', 'lots', 'miss', 'stalemate']);

/** Copy what only a referee or operator can enter from the truth log onto ours, stroke by stroke. */
export function withInputs(mine: StrokeLog, truth: StrokeLog): StrokeLog {
  const strokes = mine.strokes.map((s, k) => {
    const t = truth.strokes[k];
    if (!t) return s;
    const out = { ...s, events: [...s.events, ...t.events.filter((e) => MANUAL.has(e.type))].sort((a, b) => a.t - b.t) };
    for (const key of ['nominated', 'calledBall', 'calledPocket', 'decision', 'touching', 'player', 'frozen', 'claimGroup', 'totalSnooker'] as const) {
      if (t[key] !== undefined) (out as Record<string, unknown>)[key] = t[key];
    }
    return out;
  });
  return { ...mine, start: truth.start, ...(truth.variant ? { variant: truth.variant } : {}), ...(truth.config ? { config: truth.config } : {}), strokes };
}

export const fouls = (log: StrokeLog): string => {
  const r = refereeLog(log);
  if (!r.ok) return `ERROR ${r.error.code}`;
  return r.value.calls.map((c) => (c.fouls.map((f) => f.code).join('+') || (c.legal ? 'ok' : '-')) + (c.potted.length ? `[${c.potted.length}]` : '')).join(' / ');
};

if (process.argv[1]?.endsWith('sweep.ts')) {
  const fps = Number(process.argv[2] ?? 30);
  const filter = process.argv[3] ?? '';
  const dir = join(import.meta.dirname, '../../samples/scenarios');
  let same = [0, 0], total = 0;
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json') && f.includes(filter)).sort()) {
    const sc = parseScenario(JSON.parse(readFileSync(join(dir, file), 'utf8')));
    let rec;
    try {
      rec = runScenario(sc, { sampleDtS: 1 / 600 });
    } catch (e) {
      console.log(file, 'SIM FAILED', (e as Error).message);
      continue;
    }
    const truth = truthStrokes(rec);
    const n = Math.floor(rec.durationS * fps) + 1;
    const rng = mulberry32(7);
    const noisy = Array.from({ length: n }, (_, i) => ({ t: i / fps, balls: ballsAt(rec, i / fps).filter((b) => b.state !== 'pocketed' && b.state !== 'offTable').map((b) => ({ id: b.id, x: b.x + gaussian(rng), y: b.y + gaussian(rng) })) }));
    const framesA: TrackFrame[] = noisy.map((f, i) => ({ i, t: f.t, balls: f.balls.map((b) => ({ ...b, conf: 1 })) }));
    const tracker = createTracker(rec.table);
    const cls = (id: string) => (rec.game === 'pool8' ? id : kindOfId(rec.game, id));
    const framesB = noisy.map((f, i) => tracker.step({ i, t: f.t, detections: makeDetections(f.balls.map((b) => ({ x: b.x, y: b.y, class: cls(b.id), conf: 0.95 })), rec.game, i) }));
    const want = fouls(truth);
    const logA = tracksToStrokes({ format: 'cueref.tracks/1', game: rec.game, frames: framesA }, rec.table).log;
    if (process.env['SWEEP_DUMP']) console.log(JSON.stringify(logA.strokes.map((x) => x.events.filter((e) => e.type !== 'cross' && e.type !== 'cushion'))));
    const gotA = fouls(withInputs(logA, truth));
    const gotB = fouls(withInputs(tracksToStrokes({ format: 'cueref.tracks/1', game: rec.game, frames: framesB }, rec.table).log, truth));
    total++;
    if (gotA === want) same[0]!++;
    if (gotB === want) same[1]!++;
    console.log(`${gotA === want ? 'ok ' : 'DIFF'} ${gotB === want ? 'ok ' : 'DIFF'} ${file}\n     truth   ${want}${gotA !== want ? `\n     tracks  ${gotA}` : ''}${gotB !== want ? `\n     tracker ${gotB}` : ''}`);
  }
  console.log(`same calls as the truth log: tracks ${same[0]}/${total}, tracker ${same[1]}/${total} (at ${fps} fps, 1 mm noise)`);
}
