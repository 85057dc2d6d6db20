/** Opening the shipped detector: the model with the partner its sidecar names for other cloths. */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openBallDetector } from '../../src/detection/open.js';
import { toRows } from '../../src/detection/detections.js';
import { ffmpeg, SAMPLE } from '../pipeline/fixtures.js';

const MODELS = resolve(import.meta.dirname, '../../models');

describe('openBallDetector', () => {
  test('the shipped detector names its partner, and both load', async () => {
    const o = await openBallDetector(join(MODELS, 'detector'), { game: 'snooker' });
    expect(o.side.otherCloths).toEqual({ model: 'detector-cloths' });
    // A green-cloth frame stays with the main model and runs (no balls on a plain cloth).
    const width = 128, height = 72, rgb = new Uint8Array(width * height * 3);
    for (let k = 0; k < width * height; k++) rgb.set([20, 140, 30], 3 * k);
    expect((await o.detector.detect({ width, height, rgb })).count).toBe(0);
    await o.close();
  });

  test('a region run reads the balls where the whole-frame look does (crops on its grid), wherever the box falls', async () => {
    // Frame 40 of the rendered in-off sample (1280×720, overhead): balls rolling and at rest.
    const dir = mkdtempSync(join(tmpdir(), 'cueref-open-'));
    const raw = join(dir, 'f.rgb');
    ffmpeg(['-i', SAMPLE, '-vf', 'select=eq(n\\,40)', '-frames:v', '1', '-f', 'rawvideo', '-pix_fmt', 'rgb24', raw]);
    const frame = { width: 1280, height: 720, rgb: new Uint8Array(readFileSync(raw)) };
    const o = await openBallDetector(join(MODELS, 'detector'), { game: 'snooker' });
    const whole = toRows(await o.detector.detect(frame)).filter((b) => b.conf >= 0.5);
    expect(whole.length).toBeGreaterThanOrEqual(3);
    const errs: number[] = [];
    for (const b of whole) {
      for (let d = 0; d < 8; d++) {
        // A box of ± 2 radii round the ball, shifted by 0–7 px: every phase of the 8-px cells.
        const core = { u0: b.u - 2 * b.r + d, v0: b.v - 2 * b.r + 0.7 * d, u1: b.u + 2 * b.r + d, v1: b.v + 2 * b.r + 0.7 * d };
        const got = toRows(await o.detector.detectRegions(frame, [core], { contextPx: 4 * b.r, ballRadiusPx: b.r })).filter((g) => g.class === b.class);
        errs.push(Math.min(...got.map((g) => Math.hypot(g.u - b.u, g.v - b.v))));
      }
    }
    await o.close();
    // Centred crops put them 0.7 px off (median) and up to 3 px: 2–9 mm on the table.
    expect(Math.max(...errs)).toBeLessThan(0.3);
  });

  test('a partner that is not there is named in the error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cueref-open-'));
    copyFileSync(join(MODELS, 'detector.onnx'), join(dir, 'detector.onnx'));
    const side = JSON.parse(readFileSync(join(MODELS, 'detector.json'), 'utf8'));
    writeFileSync(join(dir, 'detector.json'), JSON.stringify({ ...side, otherCloths: { model: 'nowhere' } }));
    await expect(openBallDetector(join(dir, 'detector'), { game: 'snooker' })).rejects.toThrow(/nowhere\.json/);
  });
});
