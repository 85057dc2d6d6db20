/**
 * The review page in headless chromium, against a real server on a fixture folder (test/review/
 * fixture.ts: strokes 1, 5, 7–11 flagged; a clip for stroke 5). With a token, so the page's own
 * use of it (Bearer on the API, ?token= on the clip) is exercised too.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startReview, type RunningReview } from '../../src/review/index.js';
import { makeFixtureDir } from '../review/fixture.js';
import { chromiumPath, launchBrowser } from './chromium.js';

const TOKEN = '0123456789abcdef0123456789abcdef';

describe.skipIf(!chromiumPath)('review page (chromium)', () => {
  let browser: Browser;
  let review: RunningReview;
  let page: Page;
  const problems: string[] = [];

  beforeAll(async () => {
    const [{ dir }, b] = await Promise.all([makeFixtureDir({ clips: [5] }), launchBrowser()]);
    browser = b;
    review = await startReview({ dir, port: 0, token: TOKEN });
    page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    // Console errors include CSP violations and failed requests (a 401 means the page lost its token).
    page.on('console', (m) => {
      if (m.type() === 'error') problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(String(e)));
    await page.goto(review.url);
    await page.waitForSelector('#queue li[data-stroke]');
  });
  afterAll(async () => {
    await browser?.close();
    await review?.close();
  });

  const score = () => page.textContent('#score');
  const selected = () => page.getAttribute('#queue li.sel', 'data-stroke');

  test('loads the queue, the score and every stroke\'s call', async () => {
    expect(await score()).toBe('Ann 68 – 72 Bob (frame in progress)');
    expect(await page.$$eval('#queue li', (els) => els.map((e) => e.getAttribute('data-stroke')))).toEqual(['1', '5', '7', '8', '9', '10', '11']);
    expect(await page.$$eval('#calls-body tr', (rows) => rows.length)).toBe(12);
    expect(await page.textContent('#calls-body tr[data-stroke="5"] td.call')).toBe('FOUL WRONG_BALL_FIRST (4) + MISS');
    expect(await page.textContent('#progress')).toBe('0 / 7 decided');
    // Stroke 1 has no clip: the page says so instead of showing a broken player.
    expect(await page.textContent('#media .noclip')).toMatch(/No clip/);
  });

  test('j selects stroke 5: its clip plays, the replay animates, the rule and measurements are shown', async () => {
    await page.keyboard.press('j');
    expect(await selected()).toBe('5');
    const video = await page.waitForSelector('video#clip');
    expect(await video.getAttribute('src')).toBe(`clips/stroke-005.mp4?token=${TOKEN}`);
    await page.waitForFunction(() => (document.getElementById('clip') as HTMLVideoElement).readyState >= 2, undefined, { timeout: 10_000 });
    await page.evaluate(() => (document.getElementById('clip') as HTMLVideoElement).play());
    await page.waitForFunction(() => (document.getElementById('clip') as HTMLVideoElement).currentTime > 0.2, undefined, { timeout: 10_000 });
    expect(await page.evaluate(() => (document.getElementById('clip') as HTMLVideoElement).error)).toBeNull();

    await page.click('figure.replay .replay-play');
    await page.waitForFunction(() => Number(document.querySelector<HTMLElement>('figure.replay')!.dataset.frame) > 3, undefined, { timeout: 10_000 });

    const rule = await page.textContent('#details .rule');
    expect(rule).toMatch(/WRONG_BALL_FIRST \(4\) · ball green/);
    expect(rule).toMatch(/Ask: which ball did the cue ball hit first\?/);
    expect(await page.textContent('#measurements')).toMatch(/white → green\s*\+500\.0 ms\s*0\.70/);
  });

  test('k then a accepts stroke 1: marked accepted, the score stays', async () => {
    await page.keyboard.press('k');
    expect(await selected()).toBe('1');
    await page.keyboard.press('a');
    await page.waitForFunction(() => document.getElementById('progress')!.textContent === '1 / 7 decided');
    expect(await page.textContent('#decision-text')).toBe('Accepted');
    expect(await page.textContent('#queue li[data-stroke="1"] .badge')).toBe('accepted');
    expect(await score()).toBe('Ann 68 – 72 Bob (frame in progress)');
  });

  test('overruling stroke 5 (the cue ball hit the yellow first) re-judges the frame without a reload', async () => {
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await page.keyboard.press('j');
    expect(await selected()).toBe('5');
    await page.keyboard.press('o');
    await page.selectOption('#overrule-form select[name=first]', 'yellow');
    await page.click('#apply-overrule');
    await page.waitForFunction(() => document.getElementById('score')!.textContent!.includes('70 – 67'));
    expect(await score()).toBe('Ann 70 – 67 Bob (frame over, Ann wins)');
    expect(await page.textContent('#current-call')).toBe('+2 → 48–60');
    expect(await page.textContent('#decision-text')).toBe('Overruled: first contact yellow');
    expect(await page.textContent('#calls-body tr[data-stroke="6"] td.call')).toBe('FOUL IN_OFF (4)');
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
  });

  test('removing the phantom push on the last black, then undoing it, moves the score both ways', async () => {
    await page.click('#queue li[data-stroke="11"]');
    await page.keyboard.press('o');
    await page.check('#overrule-form input[name=remove][data-type=push]');
    await page.click('#apply-overrule');
    await page.waitForFunction(() => document.getElementById('score')!.textContent!.includes('77 – 60'));
    expect(await score()).toBe('Ann 77 – 60 Bob (frame over, Ann wins)');
    await page.keyboard.press('u');
    await page.waitForFunction(() => document.getElementById('score')!.textContent!.includes('70 – 67'));
    expect(await page.textContent('#progress')).toBe('2 / 7 decided');
  });

  test('decisions survive a reload; export offers the three files', async () => {
    await page.reload();
    await page.waitForFunction(() => document.getElementById('progress')!.textContent === '2 / 7 decided');
    expect(await score()).toBe('Ann 70 – 67 Bob (frame over, Ann wins)');
    await page.click('#export');
    await page.waitForSelector('#exported a');
    expect(await page.$$eval('#exported a', (as) => as.map((a) => a.getAttribute('href')))).toEqual([
      `export/decisions.json?token=${TOKEN}`,
      `export/strokes.reviewed.json?token=${TOKEN}`,
      `export/calls.reviewed.json?token=${TOKEN}`,
    ]);
    const calls = await page.evaluate(async (href) => (await fetch(href)).json(), (await page.getAttribute('#exported a:nth-child(3)', 'href'))!);
    expect(calls.calls.at(-1).scores).toEqual([70, 67]);
    expect(problems).toEqual([]);
  });
});
