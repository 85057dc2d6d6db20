/**
 * Detections from a synthetic run (test/events/synth.ts), as a detector would give them: table mm
 * with Gaussian noise, the class of each ball's kind, optional class confusion, missed balls and
 * occlusions. Ground truth ids stay with the test.
 */
import type { GameId } from '../../src/core/games.js';
import { kindOfId, makeDetections, type DetectionFrame } from '../../src/tracking/index.js';
import { gaussian, mulberry32, type SynthRun } from '../events/synth.js';

export interface FakeDetectorOptions {
  fps: number;
  noiseMm?: number;
  seed?: number;
  game?: GameId;
  /** Replace a ball's class on a frame (return undefined to keep it): blur, confusion. */
  confuse?: (id: string, speedMmPerS: number, rng: () => number) => string | undefined;
  /** Hide balls on frames [from, to]. */
  occlude?: { from: number; to: number; balls: string[] };
  appearAt?: Record<string, number>;
  /** Probability of missing any one ball on any frame. */
  missRate?: number;
}

export interface FakeDetections {
  frames: DetectionFrame[];
  /** The true id of each detection, per frame (same order). */
  truthIds: string[][];
}

export function fakeDetections(run: SynthRun, o: FakeDetectorOptions): FakeDetections {
  const rng = mulberry32(o.seed ?? 1);
  const game = o.game ?? run.table.game;
  const n = Math.floor(run.durationS * o.fps) + 1;
  const frames: DetectionFrame[] = [];
  const truthIds: string[][] = [];
  for (let i = 0; i < n; i++) {
    const t = i / o.fps;
    const pos = run.at(t);
    const prev = run.at(Math.max(0, t - 0.002));
    const rows: { x: number; y: number; class: string; conf: number }[] = [];
    const ids: string[] = [];
    for (const id of run.ids) {
      const q = pos.get(id);
      if (!q) continue;
      if (o.appearAt?.[id] !== undefined && t < o.appearAt[id]!) continue;
      if (o.occlude && i >= o.occlude.from && i <= o.occlude.to && o.occlude.balls.includes(id)) continue;
      if (o.missRate && rng() < o.missRate) continue;
      const pq = prev.get(id) ?? q;
      const speed = Math.hypot(q.x - pq.x, q.y - pq.y) / 0.002;
      const kind = kindOfId(game, id);
      const cls = o.confuse?.(id, speed, rng) ?? (game === 'pool8' ? id === 'cue' ? 'cue' : id : kind);
      rows.push({ x: q.x + (o.noiseMm ?? 1) * gaussian(rng), y: q.y + (o.noiseMm ?? 1) * gaussian(rng), class: cls, conf: 0.95 });
      ids.push(id);
    }
    frames.push({ i, t, detections: makeDetections(rows, game, i) });
    truthIds.push(ids);
  }
  return { frames, truthIds };
}
