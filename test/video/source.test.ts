import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { openSource } from '../../src/video/source.js';
import { VFR_EXPECTED_MS, cfrClip, collect, ffmpeg, pidsMentioning, sleep, tempDir, vfrClip } from './media.js';

let dir = '';
let cleanup: () => Promise<void>;
const logs: string[] = [];
const log = (line: string): void => {
  logs.push(line);
};

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('source'));
  await Promise.all([
    cfrClip(join(dir, 'cfr.mp4'), { fps: 10, seconds: 1 }),
    vfrClip(join(dir, 'vfr.mkv')),
    // 30 s at 10 fps of 64×48: far more than the pipes can hold, so backpressure is observable.
    cfrClip(join(dir, 'long.mp4'), { fps: 10, seconds: 30 }),
    cfrClip(join(dir, 'three.mp4'), { fps: 10, seconds: 3 }),
    // 640×480: 0.9 MB a frame, more than a pipe chunk, so every frame is a buffer of its own.
    cfrClip(join(dir, 'vga.mp4'), { fps: 10, seconds: 1, size: '640x480' }),
  ]);
  const three = await readFile(join(dir, 'three.mp4'));
  await writeFile(join(dir, 'half.mp4'), three.subarray(0, three.length >> 1));
});
afterAll(() => cleanup());

describe('file source', () => {
  test('decodes every frame with its size, index and real timestamp', async () => {
    const src = await openSource(join(dir, 'cfr.mp4'), { log });
    expect(src.info).toEqual({ kind: 'file', uri: join(dir, 'cfr.mp4'), width: 64, height: 48, fps: 10, durationMs: 1000 });
    const frames = await collect(src);
    expect(frames.map((f) => f.index)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(frames.map((f) => f.ptsMs)).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
    for (const f of frames) {
      expect([f.width, f.height, f.rgb.length]).toEqual([64, 48, 64 * 48 * 3]);
    }
    expect(src.warnings).toEqual([]);
  });

  test('pixels are the real picture: testsrc frames differ and are not blank', async () => {
    const frames = await collect(await openSource(join(dir, 'cfr.mp4'), { log }));
    const sum = (a: Uint8Array): number => a.reduce((s, v) => s + v, 0);
    expect(sum(frames[0]!.rgb)).toBeGreaterThan(64 * 48 * 3 * 40);
    expect(Buffer.compare(Buffer.from(frames[0]!.rgb), Buffer.from(frames[5]!.rgb))).not.toBe(0);
  });

  test('released frames: their buffers are reused and every frame still reads as decoded', async () => {
    const digest = (a: Uint8Array): string => createHash('sha1').update(a).digest('hex');
    const kept = (await collect(await openSource(join(dir, 'vga.mp4'), { log }))).map((f) => digest(f.rgb));
    const src = await openSource(join(dir, 'vga.mp4'), { log });
    const reused: string[] = [];
    const buffers = new Set<ArrayBufferLike>();
    for await (const f of src) {
      reused.push(digest(f.rgb));
      buffers.add(f.rgb.buffer);
      src.release(f);
    }
    expect(reused).toEqual(kept);
    expect(new Set(kept).size).toBeGreaterThan(5); // testsrc moves: frames differ
    // Two frames ahead are read while the consumer works (READ_AHEAD_FRAMES), so a few buffers
    // circulate, not one per frame.
    expect(buffers.size).toBeLessThanOrEqual(4);
  });

  test('variable frame rate: timestamps are the recorded ones (100 ms, then 40 ms apart), not index / fps', async () => {
    const frames = await collect(await openSource(join(dir, 'vfr.mkv'), { log }));
    expect(frames.map((f) => f.ptsMs)).toEqual(VFR_EXPECTED_MS);
  });

  test('start and end select [start, end) and keep recording time', async () => {
    const src = await openSource(join(dir, 'vfr.mkv'), { startSec: 0.3, endSec: 0.62, log });
    expect(src.info.durationMs).toBe(320);
    const frames = await collect(src);
    expect(frames.map((f) => f.ptsMs)).toEqual([300, 400, 500, 540, 580]);
    expect(frames.map((f) => f.index)).toEqual([0, 1, 2, 3, 4]);
  });

  test('scaling happens inside ffmpeg and the scaled size is reported up front', async () => {
    const src = await openSource(join(dir, 'cfr.mp4'), { scale: { width: 32 }, log });
    expect([src.info.width, src.info.height]).toEqual([32, 24]);
    const frames = await collect(src);
    expect(frames).toHaveLength(10);
    expect(frames.every((f) => f.width === 32 && f.height === 24 && f.rgb.length === 32 * 24 * 3)).toBe(true);
  });

  test('backpressure: a consumer that stops pulling stops ffmpeg (it stays blocked, not done), then gets every frame', async () => {
    const path = join(dir, 'long.mp4');
    const src = await openSource(path, { log });
    const it = src[Symbol.asyncIterator]();
    expect((await it.next()).value?.index).toBe(0);
    // Undisturbed, ffmpeg decodes these 300 tiny frames in well under a second.
    await sleep(1000);
    expect(await pidsMentioning(path)).toHaveLength(1);
    let n = 1;
    while (!(await it.next()).done) n++;
    expect(n).toBe(300);
    expect(await pidsMentioning(path)).toHaveLength(0);
  });

  test('breaking out of the loop early kills ffmpeg', async () => {
    const path = join(dir, 'long.mp4');
    const src = await openSource(path, { log });
    for await (const f of src) if (f.index === 2) break;
    expect(await pidsMentioning(path)).toHaveLength(0);
  });

  test('close() from outside the loop ends it and frees ffmpeg', async () => {
    const path = join(dir, 'long.mp4');
    const src = await openSource(path, { log });
    const seen: number[] = [];
    for await (const f of src) {
      seen.push(f.index);
      if (f.index === 1) await src.close();
    }
    expect(seen).toEqual([0, 1]);
    expect(await pidsMentioning(path)).toHaveLength(0);
  });

  test('a source is read once', async () => {
    const src = await openSource(join(dir, 'cfr.mp4'), { log });
    await collect(src);
    expect(() => src[Symbol.asyncIterator]()).toThrow(/only once/);
  });

  test('a truncated file gives the frames that decode plus warnings, and does not hang', async () => {
    logs.length = 0;
    const src = await openSource(join(dir, 'half.mp4'), { log });
    const frames = await collect(src);
    expect(frames.length).toBeGreaterThan(3);
    expect(frames.length).toBeLessThan(30);
    expect(src.warnings.some((w) => /looks truncated/.test(w))).toBe(true);
    expect(logs).toEqual(src.warnings);
  });

  test('a file whose picture data is all destroyed: a clear error from the loop, not a hang', async () => {
    const bytes = Buffer.from(await readFile(join(dir, 'three.mp4')));
    const mdat = bytes.indexOf('mdat');
    bytes.fill(0, mdat + 4); // the index (moov, at the front) survives, every frame is zeros
    await writeFile(join(dir, 'zeroed.mp4'), bytes);
    const src = await openSource(join(dir, 'zeroed.mp4'), { log });
    expect(src.info.durationMs).toBe(3000); // the probe still believes the header
    const err = await collect(src).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe('VIDEO_DECODE_FAILED');
    expect((err as InputError).message).toMatch(/no frame could be decoded from .*zeroed\.mp4/);
  });

  test('garbage in the middle of a file: the frames around it, and a warning quoting ffmpeg', async () => {
    const bytes = Buffer.from(await readFile(join(dir, 'three.mp4')));
    const at = Math.floor(bytes.length / 2);
    for (let i = at; i < at + 600; i++) bytes[i] = (i * 7) & 255;
    await writeFile(join(dir, 'garbled.mp4'), bytes);
    const src = await openSource(join(dir, 'garbled.mp4'), { log });
    const frames = await collect(src);
    expect(frames.length).toBeGreaterThan(15); // of 30: the damage costs a GOP or so, not the file
    expect(frames.some((f) => f.ptsMs >= 2500)).toBe(true); // decoding resumed after the damage
    expect(src.warnings.some((w) => /ffmpeg reported \d+ problem\(s\) with the data, e\.g\. ".+"; some frames may be damaged or missing/.test(w))).toBe(true);
  });

  test('a start past the end yields no frames and says so', async () => {
    const src = await openSource(join(dir, 'cfr.mp4'), { startSec: 5, log });
    expect(await collect(src)).toEqual([]);
    expect(src.warnings).toEqual([expect.stringMatching(/no frames between 5\.000 s and the end of the selected span/)]);
  });

  test('bad options are InputErrors naming the field', async () => {
    const bad = [
      [{ startSec: -1 }, 'startSec'],
      [{ startSec: 2, endSec: 1 }, 'endSec'],
      [{ scale: { width: 0 } }, 'scale.width'],
      [{ bogus: 1 }, '(options)'],
    ] as const;
    for (const [opts, field] of bad) {
      const err = await openSource(join(dir, 'cfr.mp4'), opts as never).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(InputError);
      expect((err as InputError).code).toBe('BAD_VIDEO_OPTION');
      expect((err as InputError).field).toBe(field);
    }
  });

  test('probe errors surface at open', async () => {
    const err = await openSource(join(dir, 'nope.mp4')).catch((e: unknown) => e);
    expect((err as InputError).code).toBe('FILE_NOT_FOUND');
  });

  test('a resolution change mid-stream keeps frames aligned (ffmpeg scales to the first size)', async () => {
    const a = join(dir, 'a.ts');
    const b = join(dir, 'b.ts');
    await ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10', '-t', '0.5', '-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mpegts', a);
    await ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=32x24:rate=10', '-t', '0.5', '-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mpegts', '-output_ts_offset', '0.5', b);
    await writeFile(join(dir, 'ab.ts'), Buffer.concat([await readFile(a), await readFile(b)]));
    const frames = await collect(await openSource(join(dir, 'ab.ts'), { log }));
    expect(frames).toHaveLength(10);
    expect(frames.every((f) => f.width === 64 && f.height === 48 && f.rgb.length === 64 * 48 * 3)).toBe(true);
    expect(frames.map((f) => Math.round(f.ptsMs))).toEqual([0, 100, 200, 300, 400, 500, 600, 700, 800, 900]);
  });

  test('mpeg-ts (non-zero start time) still starts at 0 ms', async () => {
    const ts = join(dir, 'clip.ts');
    await ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10', '-t', '0.5', '-c:v', 'libx264', '-preset', 'ultrafast', '-f', 'mpegts', ts);
    const frames = await collect(await openSource(ts, { log }));
    expect(frames.map((f) => Math.round(f.ptsMs))).toEqual([0, 100, 200, 300, 400]);
  });
});
