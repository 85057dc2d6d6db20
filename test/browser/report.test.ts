/**
 * The report in Debian's chromium: the flagged stroke's clip (H.264 mp4 written by clips.ts)
 * really plays — frames decode and time advances — and the top-down replay's inline script is
 * wired (the slider moves the balls). Detections replayed from the simulator's truth, so the
 * rendered sample's in-off is called and clipped.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseTracksText } from '../../src/core/contracts/tracks.js';
import { analyze, type AnalyzeResult } from '../../src/pipeline/analyze.js';
import { replayDetector } from '../../src/pipeline/replayDetector.js';
import { SAMPLE, writeSampleTruth } from '../pipeline/fixtures.js';
import { chromiumPath, launchBrowser } from './chromium.js';

describe.skipIf(!chromiumPath)('analyze report in chromium', () => {
  let browser: Browser;
  let res: AnalyzeResult;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cueref-report-browser-'));
    const truth = parseTracksText(readFileSync(writeSampleTruth(join(dir, 'truth.tracks.json')), 'utf8'));
    res = await analyze(SAMPLE, { game: 'snooker', outDir: join(dir, 'run'), detector: replayDetector(truth) });
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
  });

  it('the in-off is flagged and its clip plays', async () => {
    expect(res.calls.calls[0]!.fouls.map((f) => f.code)).toContain('IN_OFF');
    expect(res.clips.map((c) => c.stroke)).toEqual([0]);
    const page = await browser.newPage();
    await page.goto(pathToFileURL(res.paths.report).href);
    const r = await page.evaluate(
      () =>
        new Promise<{ t: number; w: number; h: number; err: string | null }>((resolve) => {
          const v = document.querySelector('#stroke-0 video') as HTMLVideoElement;
          v.muted = true;
          const done = () => resolve({ t: v.currentTime, w: v.videoWidth, h: v.videoHeight, err: v.error ? String(v.error.code) : null });
          v.play().then(() => setTimeout(done, 700), (e) => resolve({ t: -1, w: 0, h: 0, err: String(e) }));
        }),
    );
    expect(r.err).toBeNull();
    expect(r.w).toBe(1280);
    expect(r.h).toBe(720);
    expect(r.t).toBeGreaterThan(0.2);
    await page.close();
  });

  it('the top-down replay is wired: moving the slider moves the cue ball', async () => {
    const page = await browser.newPage();
    await page.goto(pathToFileURL(res.paths.report).href);
    const fig = page.locator('#stroke-0 figure[data-topdown-replay]');
    await expect.poll(() => fig.getAttribute('data-wired')).toBe('1');
    const white = fig.locator('g.ball[data-ball="white"]');
    const before = await white.getAttribute('transform');
    const last = Number(await fig.locator('.replay-time').getAttribute('max'));
    expect(last).toBeGreaterThan(10);
    await fig.locator('.replay-time').evaluate((el, v) => {
      (el as HTMLInputElement).value = String(v);
      el.dispatchEvent(new Event('input'));
    }, Math.floor(last / 2));
    expect(await fig.getAttribute('data-frame')).toBe(String(Math.floor(last / 2)));
    expect(await white.getAttribute('transform')).not.toBe(before);
    await page.close();
  });
});
