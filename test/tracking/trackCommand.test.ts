/** `cueref track`'s composition with an injected detector: frames → detections → tracks.jsonl → strokes.json. */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { trackFrames, loadModelDetector, type VideoFrame } from '../../src/cli/track.js';
import { parseTracksText } from '../../src/core/contracts/tracks.js';
import type { Mat3 } from '../../src/core/mat3.js';
import { builtinProfile } from '../../src/core/table.js';
import { refereeLog } from '../../src/rules/registry.js';
import type { PixelDetection } from '../../src/tracking/index.js';
import { gaussian, mulberry32, simulateTable } from '../events/synth.js';

const table = builtinProfile('snooker');
// One image pixel is 2 mm of bed; the bed's origin is at pixel (40, 30).
const ballCentreToTable: Mat3 = [[2, 0, -80], [0, 2, -60], [0, 0, 1]];
const toPixel = (x: number, y: number) => ({ u: (x + 80) / 2, v: (y + 60) / 2 });

describe('cueref track (injected detector)', () => {
  test('tracks.jsonl as it goes, strokes.json at the end, cut-aways as view: false', async () => {
    const run = simulateTable(table, [{ id: 'white', x: 889, y: 1000 }, { id: 'red1', x: 895, y: 1600 }, { id: 'black', x: 889, y: 3245 }], [{ t: 0.5, ball: 'white', vx: 0, vy: 2000 }], { durationS: 7 });
    const fps = 30;
    const rng = mulberry32(5);
    const frames: VideoFrame[] = Array.from({ length: 7 * fps }, (_, i) => ({ index: i, ptsMs: (i * 1000) / fps, width: 8, height: 8, rgb: new Uint8Array(8 * 8 * 3) }));
    const cutAway = new Set([150, 151, 152]);
    const detector = {
      detect(f: VideoFrame): PixelDetection[] | null {
        if (cutAway.has(f.index)) return null;
        return [...run.at(f.ptsMs / 1000)].map(([id, p]) => {
          const { u, v } = toPixel(p.x + gaussian(rng), p.y + gaussian(rng));
          return { u, v, r: 13, class: id.startsWith('red') ? 'red' : id, conf: 0.95 };
        });
      },
    };
    const outDir = mkdtempSync(join(tmpdir(), 'cueref-track-'));
    const seen: number[] = [];
    const res = await trackFrames(frames, { game: 'snooker', table, calibration: { ballCentreToTable }, detector, outDir, source: { uri: 'fake.mp4', fps }, onFrame: (i) => seen.push(i) });
    expect(res.frames).toBe(frames.length);
    expect(seen).toHaveLength(frames.length);
    const tracks = parseTracksText(readFileSync(res.tracksPath, 'utf8'));
    expect(tracks.frames).toHaveLength(frames.length);
    expect(tracks.frames[151]).toMatchObject({ view: false, balls: [] });
    const w = tracks.frames[5]!.balls.find((b) => b.id === 'white')!;
    expect(Math.hypot(w.x - 889, w.y - 1000)).toBeLessThan(2);
    const log = JSON.parse(readFileSync(res.strokesPath, 'utf8'));
    expect(log.strokes).toHaveLength(1);
    const c = log.strokes[0].events.find((e: { type: string }) => e.type === 'contact');
    expect(c).toMatchObject({ a: 'white', b: 'red1' });
    expect(Math.abs(c.t - run.truth.contacts[0]!.t)).toBeLessThan(0.002);
    const calls = refereeLog(log);
    expect(calls.ok).toBe(true);
  });

  test('no model in models/: a clear NO_DETECTOR error', async () => {
    const empty = mkdtempSync(join(tmpdir(), 'cueref-models-'));
    await expect(loadModelDetector('snooker', empty)).rejects.toThrow(/no ball detector model found in .*NO_DETECTOR/);
  });
});

describe('the default model', () => {
  test('models/detector.onnx, not its partner for other cloths that sorts first; else the first model there', async () => {
    const { defaultModelPath } = await import('../../src/pipeline/track.js');
    const { writeFileSync } = await import('node:fs');
    const dir = mkdtempSync(join(tmpdir(), 'cueref-models-'));
    expect(defaultModelPath(dir)).toBeUndefined();
    writeFileSync(join(dir, 'zz.onnx'), '');
    writeFileSync(join(dir, 'detector-cloths.onnx'), '');
    expect(defaultModelPath(dir)).toBe(join(dir, 'detector-cloths.onnx'));
    writeFileSync(join(dir, 'detector.onnx'), '');
    expect(defaultModelPath(dir)).toBe(join(dir, 'detector.onnx'));
    expect(defaultModelPath(join(dir, 'missing'))).toBeUndefined();
  });
});
