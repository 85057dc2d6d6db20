/**
 * A review folder as `cueref analyze` writes it, built from a sample stroke log with three strokes
 * the cameras were unsure of, judged by the real referee:
 *   stroke 1  the black's pot seen with conf 0.6                → LOW_CONFIDENCE_POT (proposal +7)
 *   stroke 5  the cameras saw white→green (conf 0.7) while Bob
 *             was on the yellow and potted it                   → WRONG_BALL_FIRST (4) + LOW_CONFIDENCE_CONTACT
 *   stroke 11 an inferred push (conf 0.6) on the last black     → PUSH_STROKE (7), ASSISTED
 * plus tracks.jsonl (balls moving in straight lines from before to rest) and, on request, a clip.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StrokeLog } from '../../src/core/contracts/strokes.js';
import { formatTracksJsonl, type TrackFrame } from '../../src/core/contracts/tracks.js';
import { refereeLog } from '../../src/rules/registry.js';
import { createMp4Writer } from '../../src/video/encode.js';

export const SAMPLE = join(import.meta.dirname, '../../samples/strokes/snooker-short-frame.json');

export function fixtureLog(): StrokeLog {
  const log = JSON.parse(readFileSync(SAMPLE, 'utf8')) as StrokeLog;
  const s1 = log.strokes[1]!;
  s1.events = s1.events.map((e) => (e.type === 'pot' ? { ...e, conf: 0.6 } : e));
  const s5 = log.strokes[5]!;
  s5.events = s5.events.map((e) => (e.type === 'contact' ? { ...e, b: 'green', conf: 0.7 } : e));
  const s11 = log.strokes[11]!;
  s11.events = [...s11.events.slice(0, 1), { t: 103.21, type: 'push', conf: 0.6 }, ...s11.events.slice(1)];
  return log;
}

/** Straight-line motion from the positions before each stroke to its rest, 15 fps, 0.5 s before to 2 s after the strike. */
export function fixtureFrames(log: StrokeLog): TrackFrame[] {
  const frames: TrackFrame[] = [];
  let prev = Array.isArray(log.start?.balls) ? log.start.balls : [];
  let i = 0;
  for (const s of log.strokes) {
    const t0 = s.events.find((e) => e.type === 'strike')!.t;
    const rest = s.rest ?? prev;
    const placed = s.events.flatMap((e) => (e.type === 'place' ? [{ id: e.ball, x: e.x, y: e.y }] : []));
    const before = [...prev.filter((b) => !placed.some((p) => p.id === b.id)), ...placed];
    for (let k = 0; k <= 37; k++) {
      const t = t0 - 0.5 + k / 15;
      const u = Math.min(1, Math.max(0, (t - t0) / 1.5));
      const balls = before.map((b) => {
        const r = rest.find((x) => x.id === b.id);
        if (!r) return u >= 1 ? { id: b.id, x: b.x, y: b.y, state: 'pocketed' as const } : { id: b.id, x: b.x, y: b.y };
        return { id: b.id, x: b.x + u * (r.x - b.x), y: b.y + u * (r.y - b.y), conf: 0.95 };
      });
      frames.push({ i: i++, t: Math.round(t * 1e5) / 1e5, balls });
    }
    prev = rest;
  }
  return frames;
}

/** A 2 s clip the browser can decode (H.264 yuv420p, like analyze's clips), 64×48 at 10 fps, brightening. */
export async function writeClip(path: string): Promise<void> {
  const w = createMp4Writer({ path, width: 64, height: 48, fps: 10, preset: 'ultrafast' });
  for (let k = 0; k < 20; k++) await w.write(new Uint8Array(64 * 48 * 3).fill(20 + k * 10));
  await w.close();
}

export interface Fixture {
  dir: string;
  log: StrokeLog;
}

export async function makeFixtureDir(o: { clips?: number[]; tracks?: boolean } = {}): Promise<Fixture> {
  const dir = mkdtempSync(join(tmpdir(), 'cueref-review-'));
  const log = fixtureLog();
  const calls = refereeLog(log);
  if (!calls.ok) throw new Error(calls.error.message);
  writeFileSync(join(dir, 'strokes.json'), JSON.stringify(log, null, 1));
  writeFileSync(join(dir, 'calls.json'), JSON.stringify(calls.value, null, 1));
  if (o.tracks !== false) {
    writeFileSync(join(dir, 'tracks.jsonl'), formatTracksJsonl({ format: 'cueref.tracks/1', game: 'snooker', source: { uri: 'fixture.mp4', fps: 15 }, frames: fixtureFrames(log) }));
  }
  if (o.clips?.length) {
    mkdirSync(join(dir, 'clips'));
    for (const s of o.clips) await writeClip(join(dir, 'clips', `stroke-${String(s).padStart(3, '0')}.mp4`));
  }
  return { dir, log };
}
