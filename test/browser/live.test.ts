/**
 * The live scoreboard in chromium: a call pushed over the WebSocket shows up (summary, foul-free,
 * scores, the ball on the drawn table), the camera-lost banner appears when the stream drops and
 * goes when it is back, a page opened late gets the current state, and the token is enforced.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Feed, FeedItem, OpenFeed } from '../../src/live/feed.js';
import { startLiveServer, type LiveServer } from '../../src/live/server.js';
import { LiveSession } from '../../src/live/session.js';
import { calibration, fakeDetector, fakeFrame, ManualClock, snookerFrame, table } from '../live/scenario.js';
import { chromiumPath, launchBrowser } from './chromium.js';

function gate(): { wait: Promise<void>; open: () => void } {
  let open!: () => void;
  const wait = new Promise<void>((r) => (open = r));
  return { wait, open };
}

const TOKEN = 'test-token-0123456789abcdef';

describe.skipIf(!chromiumPath)('live scoreboard page', () => {
  let browser: Browser;
  let server: LiveServer;
  let session: LiveSession;
  let running: Promise<void>;
  const go = gate(), drop = gate(), back = gate();

  beforeAll(async () => {
    const frame = snookerFrame();
    const clock = new ManualClock();
    let opened = 0;
    // Connection 1: waits for the page, plays stroke A (called at ~2 s) up to 4 s, then waits and drops.
    // Connection 2: waits, then plays on from 12 s (the table at rest) to 13 s.
    const open: OpenFeed = async () => {
      const n = opened++;
      async function* items(): AsyncGenerator<FeedItem> {
        if (n === 0) await go.wait;
        else await back.wait;
        const [from, to] = n === 0 ? [0, 4] : [12, 13];
        for (let i = from * 30; i <= to * 30; i++) {
          clock.ms = (i / 30) * 1000;
          yield { type: 'frame', frame: fakeFrame(i, clock.ms) };
        }
        if (n === 0) {
          await drop.wait;
          throw new Error('stream dropped (test)');
        }
        await new Promise(() => undefined); // stays connected
      }
      const feed: Feed = { finite: false, [Symbol.asyncIterator]: items, close: async () => undefined };
      return feed;
    };
    session = new LiveSession({
      game: 'snooker',
      table,
      calibration,
      detector: fakeDetector(frame),
      open,
      outDir: mkdtempSync(join(tmpdir(), 'cueref-live-page-')),
      clock,
      lostAfterMs: 0,
      players: ['Ronnie', 'Judd'],
      reconnect: { initialMs: 1 },
      log: () => undefined,
    });
    server = await startLiveServer({ session, table, port: 0, token: TOKEN });
    running = session.start();
    browser = await launchBrowser();
  });

  afterAll(async () => {
    go.open();
    drop.open();
    back.open();
    await session?.close();
    await running?.catch(() => undefined);
    await server?.close();
    await browser?.close();
  });

  test('shows a pushed call and the camera-lost banner; a late page gets the state', async () => {
    const page = await browser.newPage();
    await page.goto(server.url);
    await page.waitForSelector('main[data-ws="open"]');
    expect(await page.locator('#p0 .name').textContent()).toBe('Ronnie');
    expect(await page.locator('#banner').isHidden()).toBe(true);

    go.open();
    const call = page.locator('#calls li[data-stroke="0"]');
    await call.waitFor({ timeout: 10_000 });
    expect(await call.textContent()).toContain('white→red; potted red TR');
    expect(await call.getAttribute('class')).toBe('legal');
    await page.waitForFunction(() => document.querySelector('main')?.dataset.scores === '1-0');
    expect(await page.locator('#p0 .score').textContent()).toBe('1');
    expect(await page.locator('#p0').getAttribute('class')).toContain('to-play');
    expect(await page.locator('#break').textContent()).toBe('1');
    expect(await page.locator('#ballon').textContent()).toBe('any colour');
    // The white is drawn where the session last saw it (topDownSvg's mapping: SVG x = table y).
    const white = session.snapshot().balls.find(([id]) => id === 'white')!;
    await page.waitForFunction(() => document.querySelector('g.ball[data-ball="white"]')?.getAttribute('visibility') === null);
    const tf = await page.locator('g.ball[data-ball="white"]').getAttribute('transform');
    const [sx, sy] = /translate\(([-\d.]+) ([-\d.]+)\)/.exec(tf!)!.slice(1).map(Number);
    expect(sx).toBeCloseTo(white[2], -1);
    expect(sy).toBeCloseTo(table.bed.width - white[1], -1);
    // Balls of the game not on this table stay hidden (every id is drawn once, hidden until seen).
    expect(session.snapshot().balls.some(([id]) => id === 'red15')).toBe(false);
    expect(await page.locator('g.ball[data-ball="red15"]').getAttribute('visibility')).toBe('hidden');

    drop.open();
    await page.waitForSelector('#banner:not([hidden])', { timeout: 10_000 });
    expect(await page.locator('#banner').textContent()).toMatch(/CAMERA LOST/);

    // A page opened now gets the current state: the call, the scores, and the banner.
    const late = await browser.newPage();
    await late.goto(server.url);
    await late.waitForSelector('#calls li[data-stroke="0"]');
    expect(await late.locator('#p0 .score').textContent()).toBe('1');
    expect(await late.locator('#banner').isVisible()).toBe(true);
    await late.close();

    back.open();
    await page.waitForSelector('#banner[hidden]', { state: 'attached', timeout: 10_000 });
    expect(await page.locator('#status').getAttribute('data-status')).toBe('live');
    await page.close();
  });

  test('without the token: 401 on the page, the state and the WebSocket', async () => {
    const base = server.url.replace(/\?.*$/, '');
    for (const path of ['', 'state', 'calls.json']) expect((await fetch(base + path)).status, path).toBe(401);
    expect((await fetch(base + 'state?token=wrong-token-0123456789')).status).toBe(401);
    expect((await fetch(base + `state?token=${TOKEN}`)).status).toBe(200);
    const wsBase = base.replace(/^http/, 'ws') + 'ws';
    const upgrade = (url: string, headers: Record<string, string> = {}) =>
      new Promise<number>((resolve) => {
        const ws = new WebSocket(url, { headers });
        ws.on('open', () => (ws.close(), resolve(101)));
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('error', () => resolve(-1));
      });
    expect(await upgrade(wsBase)).toBe(401);
    expect(await upgrade(`${wsBase}?token=${TOKEN}`)).toBe(101);
    // Another site's page cannot open the socket, even with the token (no CORS for WebSockets).
    expect(await upgrade(`${wsBase}?token=${TOKEN}`, { origin: 'http://evil.example' })).toBe(403);
  });

  test("the operator's page sends the next stroke's nomination, which every page shows", async () => {
    const operator = await startLiveServer({ session, table, port: 0, token: TOKEN, operator: true });
    try {
      const page = await browser.newPage();
      await page.goto(operator.url);
      await page.waitForSelector('main[data-ws="open"]');
      expect(await page.locator('#next-shown').textContent()).toBe('nothing entered');
      await page.selectOption('select[name="nominated"]', 'yellow');
      await page.selectOption('select[name="decision"]', 'play');
      await page.click('#next-form button[type="submit"]');
      await page.waitForFunction(() => document.querySelector('main')?.dataset.next === JSON.stringify({ nominated: 'yellow', decision: 'play' }));
      expect(await page.locator('#next-shown').textContent()).toBe('next stroke: nominated yellow · decision play');
      expect(session.snapshot().next).toEqual({ nominated: 'yellow', decision: 'play' });
      // A refused input is shown on the form, and nothing changes.
      await page.evaluate(() => {
        const sel = document.querySelector<HTMLSelectElement>('select[name="decision"]')!;
        const o = document.createElement('option');
        o.value = 'sideways';
        sel.appendChild(o);
        sel.value = 'sideways';
      });
      await page.click('#next-form button[type="submit"]');
      await page.waitForFunction(() => (document.getElementById('next-error')?.textContent ?? '') !== '');
      expect(await page.locator('#next-error').textContent()).toMatch(/decision/);
      expect(session.snapshot().next).toEqual({ nominated: 'yellow', decision: 'play' });
      await page.click('#next-clear');
      await page.waitForFunction(() => document.querySelector('main')?.dataset.next === '{}');
      await page.close();
    } finally {
      await operator.close();
    }
  });
});
