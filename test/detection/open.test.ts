/** Opening the shipped detector: the model with the partner its sidecar names for other cloths. */
import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { openBallDetector } from '../../src/detection/open.js';

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

  test('a partner that is not there is named in the error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cueref-open-'));
    copyFileSync(join(MODELS, 'detector.onnx'), join(dir, 'detector.onnx'));
    const side = JSON.parse(readFileSync(join(MODELS, 'detector.json'), 'utf8'));
    writeFileSync(join(dir, 'detector.json'), JSON.stringify({ ...side, otherCloths: { model: 'nowhere' } }));
    await expect(openBallDetector(join(dir, 'detector'), { game: 'snooker' })).rejects.toThrow(/nowhere\.json/);
  });
});
