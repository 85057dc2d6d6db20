import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { DropOldestQueue, LiveClock } from '../../src/video/live.js';
import { openSource } from '../../src/video/source.js';
import type { Frame } from '../../src/video/types.js';
import sharp from 'sharp';
import { ffmpeg, sleep, tempDir } from './media.js';

describe('DropOldestQueue', () => {
  test('keeps the newest items and hands back the one it evicted', () => {
    const q = new DropOldestQueue<number>(3);
    expect([q.push(1), q.push(2), q.push(3)]).toEqual([undefined, undefined, undefined]);
    expect(q.push(4)).toBe(1);
    expect(q.push(5)).toBe(2);
    expect([q.size, q.shift(), q.shift(), q.shift(), q.shift()]).toEqual([3, 3, 4, 5, undefined]);
    expect(() => new DropOldestQueue(0)).toThrow(RangeError);
  });
});

describe('LiveClock', () => {
  test('follows the stream clock, anchored on the arrival of the first frame of each connection', () => {
    const c = new LiveClock(2000);
    // Connection 1 starts 300 ms after opening; stream pts start at 1400 ms (MPEG-TS offset).
    expect(c.place(1400, 300).ptsMs).toBe(300);
    expect(c.place(1440, 345).ptsMs).toBe(340); // jitter in arrival does not move the stamp
    expect(c.place(1480, 370).ptsMs).toBe(380);
    // Reconnect 5 s later: the new stream clock restarts; the outage shows as a gap.
    c.newConnection();
    expect(c.place(0, 5380).ptsMs).toBe(5380);
    expect(c.place(40, 5430).ptsMs).toBe(5420);
  });

  test('frames without timestamps take their arrival time; a clock jump re-anchors; never goes backwards', () => {
    const c = new LiveClock(2000);
    expect(c.place(null, 100).ptsMs).toBe(100);
    expect(c.place(0, 200).ptsMs).toBe(200);
    expect(c.place(90_000, 240)).toEqual({ ptsMs: 240, resynced: true });
    expect(c.place(90_040, 280).ptsMs).toBe(280);
    c.newConnection();
    expect(c.place(0, 270).ptsMs).toBeCloseTo(280.001, 6); // arrival behind the last stamp: nudged forward
  });
});

describe('live HTTP stream (local server)', () => {
  let dir = '';
  let cleanup: () => Promise<void>;
  let ts: Buffer;
  let longTs: Buffer;
  let jpegs: Buffer[] = [];
  let server: Server;
  let url = '';
  /** What the server does on the n-th request (0-based). */
  let behaviour: (n: number, res: ServerResponse) => void = () => {};
  let requests = 0;

  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('live'));
    // 2 s at 25 fps = 50 frames, small GOP so a stream cut mid-way still has decodable pictures.
    await ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=25', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '5', '-f', 'mpegts', join(dir, 's.ts'));
    ts = await readFile(join(dir, 's.ts'));
    await ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=25', '-t', '10', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '5', '-f', 'mpegts', join(dir, 'long.ts'));
    longTs = await readFile(join(dir, 'long.ts'));
    jpegs = await Promise.all(
      Array.from({ length: 12 }, (_, k) => sharp({ create: { width: 32, height: 24, channels: 3, background: { r: 20 * k, g: 0, b: 0 } } }).jpeg({ quality: 95 }).toBuffer()),
    );
    server = createServer((_req, res) => {
      res.setHeader('content-type', 'video/mp2t'); // a behaviour may override it before writing
      behaviour(requests++, res);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/live`;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    await cleanup();
  });

  test('a stream that drops mid-way reconnects with backoff, logs it, and the consumer keeps its loop', async () => {
    requests = 0;
    behaviour = (n, res) => {
      if (n === 0) {
        // First connection: half the stream, then the socket is cut.
        res.write(ts.subarray(0, ts.length >> 1), () => setTimeout(() => res.destroy(), 50));
      } else {
        res.end(ts); // later connections: the whole stream, then EOF
      }
    };
    const logs: string[] = [];
    const src = await openSource(url, { queueFrames: 200, reconnect: { initialMs: 50, maxMs: 200 }, log: (l) => logs.push(l) });
    expect(src.info.kind).toBe('live');
    const frames: Frame[] = [];
    for await (const f of src) {
      frames.push(f);
      if (frames.length === 60) break; // more than one connection's worth (≤ 50 in the first)
    }
    expect(requests).toBeGreaterThanOrEqual(2);
    const reconnects = logs.filter((l) => /connection 1 ended after \d+ frame\(s\) \(.*\); reconnect attempt 1 in 50 ms/.test(l));
    expect(reconnects).toHaveLength(1);
    expect(frames.map((f) => f.index)).toEqual(Array.from({ length: 60 }, (_, i) => i));
    for (let i = 1; i < frames.length; i++) expect(frames[i]!.ptsMs).toBeGreaterThan(frames[i - 1]!.ptsMs);
    expect(frames.every((f) => f.width === 64 && f.height === 48 && f.rgb.length === 64 * 48 * 3)).toBe(true);
    expect([src.info.width, src.info.height]).toEqual([64, 48]);
  });

  test('a slow consumer: the queue stays bounded, the oldest frames are dropped, one log line each', async () => {
    requests = 0;
    behaviour = (_n, res) => res.end(longTs); // 250 frames, all at once
    const logs: string[] = [];
    const src = await openSource(url, { queueFrames: 3, reconnect: { maxAttempts: 0 }, log: (l) => logs.push(l) });
    const frames: Frame[] = [];
    for await (const f of src) {
      frames.push(f);
      if (frames.length >= 8) break;
      await sleep(60); // far slower than the stream arrives
    }
    const drops = logs.filter((l) => /consumer behind, dropped frame #\d+ \(\d+ ms\), queue full at 3; \d+ dropped of \d+ decoded/.test(l));
    expect(drops.length).toBeGreaterThan(10);
    // Every frame the consumer did not see was announced: gaps in index = drop lines so far.
    const seenGaps = frames[frames.length - 1]!.index + 1 - frames.length;
    const droppedIdx = drops.map((l) => Number(/#(\d+)/.exec(l)![1]));
    expect(droppedIdx.filter((i) => i < frames[frames.length - 1]!.index)).toHaveLength(seenGaps);
    // Once behind, what the consumer gets is the newest frames (the queue never held more than 3).
    expect(frames[frames.length - 1]!.index).toBeGreaterThan(40);
    expect(src.warnings).toContainEqual(expect.stringMatching(/\d+ of \d+ decoded frame\(s\) dropped because the consumer fell behind \(queue of 3\)/));
  });

  test('with reconnecting off, the end of a stream that delivered frames ends the loop normally', async () => {
    requests = 0;
    behaviour = (_n, res) => res.end(ts);
    const logs: string[] = [];
    const src = await openSource(url, { queueFrames: 100, reconnect: { maxAttempts: 0 }, log: (l) => logs.push(l) });
    let n = 0;
    for await (const _f of src) n++;
    expect(n).toBe(50);
    expect(requests).toBe(1);
    expect(src.warnings).toEqual([expect.stringMatching(/connection ended after 50 frame\(s\) \(stream ended\); reconnecting is off/)]);
  });

  test('a dead stream (connected, then silent) is noticed by the read timeout and reconnected', async () => {
    requests = 0;
    behaviour = (n, res) => {
      if (n === 0) res.write(ts.subarray(0, ts.length >> 1)); // ...and then nothing, socket left open
      else res.end(ts);
    };
    const logs: string[] = [];
    const t0 = Date.now();
    const src = await openSource(url, { queueFrames: 200, ioTimeoutMs: 400, reconnect: { initialMs: 20 }, log: (l) => logs.push(l) });
    let n = 0;
    for await (const _f of src) if (++n === 40) break;
    expect(requests).toBeGreaterThanOrEqual(2);
    expect(logs.some((l) => /connection 1 ended/.test(l))).toBe(true);
    expect(Date.now() - t0).toBeLessThan(8000);
  });

  test('an MJPEG camera (multipart HTTP, no timestamps) gets arrival times, not the demuxer\'s made-up 25 fps', async () => {
    requests = 0;
    behaviour = (_n, res) => {
      res.setHeader('content-type', 'multipart/x-mixed-replace;boundary=frame');
      // Picture 0 for the first 2 s (ffmpeg's start and probe take over a second on a loaded
      // machine), then pictures 1…11 at 10 fps: those are the ones checked.
      const order = [...Array<number>(20).fill(0), ...Array.from({ length: jpegs.length - 1 }, (_, i) => i + 1)];
      let k = 0;
      const timer = setInterval(() => {
        const jpg = jpegs[order[k]!]!;
        res.write(`--frame\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpg.length}\r\n\r\n`);
        res.write(jpg);
        res.write('\r\n');
        if (++k === order.length) {
          clearInterval(timer);
          res.end('--frame--\r\n');
        }
      }, 100); // 10 fps
    };
    const logs: string[] = [];
    const src = await openSource(url, { queueFrames: 50, reconnect: { maxAttempts: 0 }, log: (l) => logs.push(l) });
    const frames: Frame[] = [];
    for await (const f of src) frames.push(f);
    // Detected on the first connection, reopened straight away with the format named (no backoff).
    expect(logs[0]).toMatch(/the mpjpeg stream has no timestamps; reopening it to stamp frames on arrival/);
    expect(requests).toBe(2);
    // On a loaded machine ffmpeg may still be probing when the first pictures arrive, and pictures can
    // be skipped, so the check is: in order, intact, and stamped at the server's 100 ms spacing.
    expect(frames.every((f) => f.width === 32 && f.height === 24)).toBe(true);
    // Red channel steps by 20 per picture: each frame is one whole picture (JPEG: ±4), in order.
    const moving = frames.filter((f) => f.rgb[0]! > 10);
    expect(moving.length).toBeGreaterThanOrEqual(6);
    const pictureNo = moving.map((f) => f.rgb[0]! / 20);
    for (const n of pictureNo) expect(Math.abs(n - Math.round(n)) * 20).toBeLessThanOrEqual(4);
    for (let k = 1; k < pictureNo.length; k++) expect(Math.round(pictureNo[k]!)).toBeGreaterThan(Math.round(pictureNo[k - 1]!));
    const first = moving[0]!, last = moving.at(-1)!;
    const msPerPicture = (last.ptsMs - first.ptsMs) / (Math.round(pictureNo.at(-1)!) - Math.round(pictureNo[0]!));
    expect(msPerPicture).toBeGreaterThan(70); // 40 would be the invented 25 fps clock
    expect(msPerPicture).toBeLessThan(140);
  });

  test('our own watchdog ends a connection that sends nothing, even when ffmpeg would wait longer', async () => {
    requests = 0;
    behaviour = (n, res) => {
      if (n === 0) res.flushHeaders(); // headers, then silence
      else res.end(ts);
    };
    const logs: string[] = [];
    const src = await openSource(url, { queueFrames: 200, ioTimeoutMs: 60_000, stallTimeoutMs: 300, reconnect: { initialMs: 10 }, log: (l) => logs.push(l) });
    let n = 0;
    for await (const _f of src) if (++n === 10) break;
    expect(logs[0]).toMatch(/connection 1 ended after 0 frame\(s\) \(no data for 300 ms\); reconnect attempt 1 in 10 ms/);
  });

  test('endSec stops a live source after that much stream time', async () => {
    requests = 0;
    behaviour = (_n, res) => res.end(longTs);
    const src = await openSource(url, { queueFrames: 300, endSec: 0.5, log: () => {} });
    const frames: Frame[] = [];
    for await (const f of src) frames.push(f);
    expect(frames.length).toBeGreaterThan(0);
    expect(frames.every((f) => f.ptsMs < 500)).toBe(true);
    // Stream clock: 40 ms apart from the first frame's arrival, whatever the delivery burst.
    expect(frames[1]!.ptsMs - frames[0]!.ptsMs).toBeCloseTo(40, 3);
    expect(requests).toBe(1);
  });

  test('gives up after maxAttempts failures in a row with a clear error', async () => {
    const logs: string[] = [];
    const closedPort = `http://127.0.0.1:9/nothing`; // discard port: connection refused
    const src = await openSource(closedPort, { reconnect: { initialMs: 10, maxAttempts: 2 }, log: (l) => logs.push(l) });
    const err = await (async () => {
      for await (const _f of src) {
        /* no frames expected */
      }
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe('LIVE_SOURCE_LOST');
    expect((err as InputError).message).toMatch(/2 reconnect attempt\(s\) failed, last: ffmpeg exit 1: .*Connection refused/);
    expect(logs.filter((l) => /reconnect attempt \d in/.test(l)).map((l) => /attempt (\d) in (\d+) ms/.exec(l)!.slice(1))).toEqual([
      ['1', '10'],
      ['2', '20'],
    ]);
  });
});
