/**
 * Feeds: the live source's connection statuses in order with its frames (a real ffmpeg decode of
 * a local HTTP stream that drops), the frame-only eviction of FeedQueue, and the pull-based pacing
 * of a file at recording speed.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { pacedFeed, type FeedItem } from '../../src/live/feed.js';
import { FeedQueue, liveFeed } from '../../src/video/live.js';
import { parseSourceOptions } from '../../src/video/options.js';
import type { Frame } from '../../src/video/index.js';
import { ffmpeg, tempDir } from '../video/media.js';
import { fakeFrame, ManualClock } from './scenario.js';

describe('FeedQueue', () => {
  test('evicts the oldest frame when full, never a status, and keeps the order', () => {
    const q = new FeedQueue(2);
    const f = (i: number) => ({ type: 'frame' as const, frame: fakeFrame(i, i * 40) });
    q.push(f(0));
    q.push({ type: 'status', status: 'lost', detail: 'x' });
    q.push(f(1));
    expect(q.push(f(2))?.index).toBe(0);
    expect(q.push(f(3))?.index).toBe(1);
    const out: string[] = [];
    for (let it = q.shift(); it; it = q.shift()) out.push(it.type === 'frame' ? `f${it.frame.index}` : it.status);
    expect(out).toEqual(['lost', 'f2', 'f3']);
  });
});

describe('pacedFeed (a file at recording speed)', () => {
  test('waits for frames that are early and skips to the newest due frame when the consumer is late', async () => {
    const clock = new ManualClock();
    async function* frames(): AsyncGenerator<Frame> {
      for (let i = 0; i < 30; i++) yield fakeFrame(i, i * 100); // 10 fps
    }
    const got: number[] = [];
    const dropped: number[] = [];
    for await (const item of pacedFeed(frames(), clock, (n) => dropped.push(n))) {
      if (item.type !== 'frame') continue;
      got.push(item.frame.index);
      expect(clock.ms).toBeGreaterThanOrEqual(item.frame.ptsMs); // never handed out before its time
      // The consumer spends 250 ms on frames 5..9 (slower than the 100 ms spacing), 0 otherwise.
      if (item.frame.index >= 5 && item.frame.index < 10) clock.ms += 250;
    }
    expect(got.slice(0, 6)).toEqual([0, 1, 2, 3, 4, 5]);
    // From 5 on: 5 at 500 ms (+250 → 750: newest due is 7), 7 (→ 1000: 10), then every frame again.
    expect(got.slice(5, 9)).toEqual([5, 7, 10, 11]);
    expect(got.at(-1)).toBe(29);
    expect(dropped).toEqual([30 - got.length]);
  });
});

describe('liveFeed statuses (local HTTP stream through ffmpeg)', () => {
  let dir = '';
  let cleanup: () => Promise<void>;
  let ts: Buffer;
  let server: Server;
  let url = '';
  let behaviour: (n: number, res: ServerResponse) => void = () => undefined;
  let requests = 0;

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('live-feed'));
    await ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=25', '-t', '1', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '5', '-f', 'mpegts', join(dir, 's.ts'));
    ts = await readFile(join(dir, 's.ts'));
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'video/mp2t');
      behaviour(requests++, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/cam`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await cleanup();
  });

  test('connecting, live, frames, lost (with the wait), reconnecting, live: in order, and frames keep counting', async () => {
    requests = 0;
    behaviour = (n, res) => {
      if (n === 1) res.destroy(); // the first reconnect fails outright
      else res.end(ts); // a whole second of stream, then EOF (the camera "drops")
    };
    const feed = liveFeed(url, parseSourceOptions({ queueFrames: 100, reconnect: { initialMs: 30, maxMs: 60 } }), () => undefined);
    const seen: string[] = [];
    let frames = 0;
    const items: FeedItem[] = [];
    for await (const item of feed) {
      items.push(item);
      if (item.type === 'frame') {
        frames++;
        if (seen.at(-1) !== 'frames') seen.push('frames');
      } else seen.push(item.status);
      if (frames >= 40) break;
    }
    expect(seen).toEqual(['connecting', 'live', 'frames', 'lost', 'reconnecting', 'lost', 'reconnecting', 'live', 'frames']);
    const lost = items.filter((i): i is Extract<FeedItem, { type: 'status' }> => i.type === 'status' && i.status === 'lost');
    expect(lost.map((l) => l.retryInMs)).toEqual([30, 60]);
    const reconnecting = items.filter((i): i is Extract<FeedItem, { type: 'status' }> => i.type === 'status' && i.status === 'reconnecting');
    expect(reconnecting.map((r) => r.attempt)).toEqual([1, 2]);
    const idx = items.flatMap((i) => (i.type === 'frame' ? [i.frame.index] : []));
    expect(idx).toEqual(Array.from({ length: 40 }, (_, k) => k));
    expect(requests).toBe(3);
  });
});
