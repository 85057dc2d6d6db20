import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { openSource } from '../../src/video/source.js';
import { collect, tempDir } from './media.js';

let dir = '';
let cleanup: () => Promise<void>;

/** A w×h RGB image whose every pixel is (k, 2k, 3k): frame identity readable from any pixel. */
function solid(w: number, h: number, k: number): Sharp {
  return sharp({ create: { width: w, height: h, channels: 3, background: { r: k, g: 2 * k, b: 3 * k } } });
}

beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('images'));
  await solid(8, 6, 10).png().toFile(join(dir, 'one.png'));
  await sharp({ create: { width: 4, height: 2, channels: 4, background: { r: 200, g: 100, b: 50, alpha: 0.5 } } }).png().toFile(join(dir, 'alpha.png'));
  await solid(4, 2, 40).grayscale().png().toFile(join(dir, 'grey.png'));
  await writeFile(join(dir, 'broken.png'), 'not a png');
  await mkdir(join(dir, 'seq'));
  // 12 frames, named without zero padding on purpose: natural order must put 2 before 10.
  for (let k = 0; k < 12; k++) await solid(8, 6, k + 1).png().toFile(join(dir, 'seq', `f${k}.png`));
  await writeFile(join(dir, 'seq', 'README.txt'), 'not an image');
  await mkdir(join(dir, 'pat'));
  for (let k = 1; k <= 5; k++) await solid(8, 6, 10 * k).png().toFile(join(dir, 'pat', `cam_${String(k).padStart(4, '0')}.png`));
});
afterAll(() => cleanup());

const firstPixel = (rgb: Uint8Array): number[] => Array.from(rgb.subarray(0, 3));

describe('single image', () => {
  test('PNG → one rgb frame at 0 ms', async () => {
    const src = await openSource(join(dir, 'one.png'));
    expect(src.info).toEqual({ kind: 'image', uri: join(dir, 'one.png'), width: 8, height: 6, frameCount: 1 });
    const frames = await collect(src);
    expect(frames).toHaveLength(1);
    expect(frames[0]!).toMatchObject({ index: 0, ptsMs: 0, width: 8, height: 6 });
    expect(frames[0]!.rgb.length).toBe(8 * 6 * 3);
    expect(firstPixel(frames[0]!.rgb)).toEqual([10, 20, 30]);
  });

  test('alpha is dropped and grey becomes rgb: always 3 bytes per pixel', async () => {
    const [a] = await collect(await openSource(join(dir, 'alpha.png')));
    expect(a!.rgb.length).toBe(4 * 2 * 3);
    expect(firstPixel(a!.rgb)).toEqual([200, 100, 50]);
    const [g] = await collect(await openSource(join(dir, 'grey.png')));
    expect(g!.rgb.length).toBe(4 * 2 * 3);
    const [r, gg, b] = firstPixel(g!.rgb);
    expect(r).toBe(gg);
    expect(gg).toBe(b);
  });

  test('scaling keeps the aspect ratio with one side given', async () => {
    const src = await openSource(join(dir, 'one.png'), { scale: { width: 4 } });
    const [f] = await collect(src);
    expect([f!.width, f!.height, f!.rgb.length]).toEqual([4, 4, 4 * 4 * 3]); // 6*4/8 = 3 → even 4, as ffmpeg's -2
  });

  test('an unreadable image fails at open with a clear code', async () => {
    const err = await openSource(join(dir, 'broken.png')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe('IMAGE_UNREADABLE');
    const missing = await openSource(join(dir, 'nope.png')).catch((e: unknown) => e);
    expect((missing as InputError).code).toBe('FILE_NOT_FOUND');
  });
});

describe('image sequence', () => {
  test('a directory: images in natural order, timestamps from the stated fps', async () => {
    const src = await openSource(join(dir, 'seq'), { fps: 20 });
    expect(src.info).toMatchObject({ kind: 'sequence', width: 8, height: 6, fps: 20, frameCount: 12, durationMs: 600 });
    const frames = await collect(src);
    expect(frames.map((f) => firstPixel(f.rgb)[0])).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(frames.map((f) => f.ptsMs)).toEqual([0, 50, 100, 150, 200, 250, 300, 350, 400, 450, 500, 550]);
  });

  test('a printf pattern, default 25 fps, with start/end and scaling', async () => {
    const src = await openSource(join(dir, 'pat', 'cam_%04d.png'), { startSec: 0.04, endSec: 0.12, scale: { width: 4, height: 2 } });
    const frames = await collect(src);
    expect(frames.map((f) => f.ptsMs)).toEqual([40, 80]);
    expect(frames.map((f) => firstPixel(f.rgb)[0])).toEqual([20, 30]);
    expect(frames.map((f) => f.index)).toEqual([0, 1]);
    expect(frames.every((f) => f.width === 4 && f.height === 2)).toBe(true);
  });

  test('a pattern that matches nothing says what it expected', async () => {
    const err = await openSource(join(dir, 'pat', 'img_%05d.jpg')).catch((e: unknown) => e);
    expect((err as InputError).code).toBe('EMPTY_SEQUENCE');
    expect((err as InputError).message).toMatch(/img_00001\.jpg/);
  });
});
