/**
 * A ball gone from where it lay (bare cloth: `bareCloth.ts`) through `analyze`'s vision stage:
 * the tracker stops reporting it, the probe's answers go into tracker-input.jsonl, and a run
 * stopped half-way and resumed replays them to exactly the uninterrupted run's tracks.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { Calibration } from '../../src/calibration/contract.js';
import type { Mat3 } from '../../src/core/mat3.js';
import { builtinProfile } from '../../src/core/table.js';
import type { FrameDetector, VideoFrame } from '../../src/pipeline/track.js';
import { VisionRun, type VisionOptions } from '../../src/pipeline/vision.js';

const table = builtinProfile('snooker');
// An overhead camera at 0.2 px per mm: table x down the image, y across it, bed corner at (100, 100) px.
const toTable: Mat3 = [[0, 5, -500], [5, 0, -500], [0, 0, 1]];
const calibration = { format: 'cueref.calibration/1', game: 'snooker', table, image: { width: 1280, height: 720 }, imageToTable: toTable, ballCentreToTable: toTable, distortion: null, reprojectionErrorMm: 0.5, cloth: { hueDeg: 132, hueTolDeg: 20, minSat: 0.4, minVal: 0.2 } } as unknown as Calibration;
const px = (x: number, y: number) => ({ u: 100 + y / 5, v: 100 + x / 5 });
const WHITE = { x: 600, y: 1000 }, BLACK = { x: 889, y: 3245 };
/** The black is there (and detected) up to this frame; from it on, gone — bare cloth where it lay. */
const GONE_AT = 10;
const N = 45;

function frameAt(i: number): VideoFrame {
  const W = 1280, H = 720;
  const rgb = new Uint8Array(W * H * 3);
  for (let p = 0; p < W * H; p++) {
    rgb[p * 3] = 20;
    rgb[p * 3 + 1] = 120;
    rgb[p * 3 + 2] = 40;
  }
  const balls: [typeof WHITE, number][] = [[WHITE, 240], ...(i < GONE_AT ? [[BLACK, 10] as [typeof WHITE, number]] : [])];
  for (const [b, grey] of balls) {
    const { u, v } = px(b.x, b.y);
    for (let y = Math.floor(v - 6); y <= v + 6; y++) for (let x = Math.floor(u - 6); x <= u + 6; x++) {
      if ((x - u) ** 2 + (y - v) ** 2 > 5.25 ** 2) continue;
      rgb.fill(grey, (y * W + x) * 3, (y * W + x) * 3 + 3);
    }
  }
  return { index: i, ptsMs: (i * 1000) / 30, width: W, height: H, rgb };
}

const detector: FrameDetector = {
  detect: (f) => [
    { ...px(WHITE.x, WHITE.y), r: 5.25, class: 'white', conf: 0.9 },
    ...(f.index < GONE_AT ? [{ ...px(BLACK.x, BLACK.y), r: 5.25, class: 'black', conf: 0.9 }] : []),
  ],
};

const options = (outDir: string): VisionOptions => ({ game: 'snooker', table, calibration, detector, outDir, source: { uri: 'synthetic', width: 1280, height: 720 }, gate: { refreshEveryFrames: 1 }, viewGate: false });

async function runFrames(run: VisionRun, from: number, to: number) {
  for (let i = from; i < to; i++) await run.process(frameAt(i));
  run.close();
}

describe('a ball gone from where it lay, through the vision stage and --resume', () => {
  test('no longer reported 0.6 s after its last sighting; the answers recorded; the resumed run replays them exactly', async () => {
    const whole = mkdtempSync(join(tmpdir(), 'cueref-vanish-'));
    await runFrames(VisionRun.start(options(whole)), 0, N);
    const lines = readFileSync(join(whole, 'tracks.jsonl'), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as { i: number; balls: { id: string; state: string }[] });
    const withBlack = lines.filter((f) => f.balls.some((b) => b.id === 'black')).map((f) => f.i);
    // Last seen on frame 9; occluded until 0.6 s later (frame 27), then not reported at all.
    expect(Math.max(...withBlack)).toBe(GONE_AT - 1 + 17);
    expect(lines.at(-1)!.balls.map((b) => b.id)).toEqual(['white']);
    const inputs = readFileSync(join(whole, 'tracker-input.jsonl'), 'utf8');
    // Where the black lay, to the millimetre its outline is drawn to (the pipeline fits centres to outlines).
    expect(inputs).toMatch(/"b":\[\[88[89](\.\d+)?,324[45](\.\d+)?\]\]/);

    // Stopped after frame 30 (once the black was gone), resumed: the same tracks, nothing replayed wrong.
    const parts = mkdtempSync(join(tmpdir(), 'cueref-vanish-'));
    await runFrames(VisionRun.start(options(parts)), 0, 31);
    const { run, point } = VisionRun.resume(options(parts));
    expect(point.frames).toBe(31);
    expect(point.disagreed).toBe(0);
    await runFrames(run, 31, N);
    expect(readFileSync(join(parts, 'tracks.jsonl'), 'utf8')).toBe(readFileSync(join(whole, 'tracks.jsonl'), 'utf8'));
  });

  test('a stored frame the replay disagrees with (tracks written by another version of the tracker): the run goes on from that frame, each frame once', async () => {
    const whole = mkdtempSync(join(tmpdir(), 'cueref-vanish-'));
    await runFrames(VisionRun.start(options(whole)), 0, N);
    const parts = mkdtempSync(join(tmpdir(), 'cueref-vanish-'));
    await runFrames(VisionRun.start(options(parts)), 0, 31);
    // Frame 20's stored tracks say the white is 1 mm elsewhere.
    const path = join(parts, 'tracks.jsonl');
    const lines = readFileSync(path, 'utf8').split('\n');
    const k = lines.findIndex((l) => l.startsWith('{"i":20,'));
    lines[k] = lines[k]!.replace(/"x":(\d+)/, (_, x: string) => `"x":${Number(x) + 1}`);
    writeFileSync(path, lines.join('\n'));
    const { run, point } = VisionRun.resume(options(parts));
    expect(point.frames).toBe(20);
    expect(point.disagreed).toBe(11);
    // Before, the tracker had taken frame 20 in during the check and refused it again
    // (FRAMES_OUT_OF_ORDER).
    await runFrames(run, 20, N);
    expect(readFileSync(path, 'utf8')).toBe(readFileSync(join(whole, 'tracks.jsonl'), 'utf8'));
  });
});
