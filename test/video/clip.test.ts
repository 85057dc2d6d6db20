import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { assScript } from '../../src/video/assOverlay.js';
import { burnClip, CfrSchedule, padToEven, writeClip } from '../../src/video/clip.js';
import { probe } from '../../src/video/probe.js';
import { openSource } from '../../src/video/source.js';
import type { Frame } from '../../src/video/types.js';
import { collect, ffmpeg, tempDir } from './media.js';

let dir = '';
let cleanup: () => Promise<void>;
beforeAll(async () => {
  ({ dir, cleanup } = await tempDir('clip'));
});
afterAll(() => cleanup());

/** Grey w×h frame at ptsMs. */
function grey(index: number, ptsMs: number, w = 32, h = 24, level = 128): Frame {
  return { index, ptsMs, width: w, height: h, rgb: new Uint8Array(w * h * 3).fill(level) };
}

describe('CfrSchedule', () => {
  test.each([
    ['same rate: one tick each', 20, [0, 50, 100, 150], [0, 1, 1, 1], 1],
    ['slower source: frames repeat to keep real time', 20, [0, 100, 200], [0, 2, 2], 1],
    ['variable rate', 10, [0, 100, 140, 180, 400], [0, 1, 1, 0, 2], 1],
    ['faster source: each tick shows the latest frame before it, the others are skipped', 10, [0, 30, 60, 90, 120], [0, 1, 0, 0, 1], 1],
  ])('%s', (_name, fps, pts, ticks, last) => {
    const s = new CfrSchedule(fps);
    expect(pts.map((p) => s.next(p))).toEqual(ticks);
    expect(s.finish()).toBe(last);
    expect(s.finish()).toBe(0);
  });
});

describe('padToEven', () => {
  test('odd sides get a black column/row, pixels stay where they were', () => {
    const rgb = Uint8Array.from([1, 1, 1, 2, 2, 2, 3, 3, 3]); // 3×1
    const p = padToEven(rgb, 3, 1);
    expect([p.width, p.height]).toEqual([4, 2]);
    expect(Array.from(p.rgb.subarray(0, 12))).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3, 0, 0, 0]);
    expect(Array.from(p.rgb.subarray(12))).toEqual(new Array(12).fill(0));
    expect(padToEven(rgb, 2, 2).rgb).toBe(rgb);
  });
});

describe('writeClip', () => {
  test('writes an mp4 with overlays that decodes back at real speed', async () => {
    // 5 frames, 100 ms apart, written at 20 fps: each shows for 2 ticks (last one once) = 9 frames.
    const frames = [0, 1, 2, 3, 4].map((i) => grey(i, i * 100));
    const path = join(dir, 'out.mp4');
    const res = await writeClip(path, frames, {
      fps: 20,
      crf: 10,
      overlay: (f) => [{ kind: 'box', x: 0, y: 0, width: 16, height: 12, color: [255, 0, 0] }, { kind: 'line', from: [0, 20], to: [31, 20], color: [0, 0, 255], widthPx: 2 + f.index }],
    });
    expect(res).toEqual({ framesIn: 5, framesWritten: 9, width: 32, height: 24, durationMs: 450 });
    // The caller's frames are untouched.
    expect(frames[0]!.rgb.every((v) => v === 128)).toBe(true);
    const back = await collect(await openSource(path, { log: () => {} }));
    expect(back).toHaveLength(9);
    expect(back.map((f) => Math.round(f.ptsMs))).toEqual([0, 50, 100, 150, 200, 250, 300, 350, 400]);
    // Pixel (4, 4) is inside the red box, (24, 4) is the grey background (H.264 is lossy: tolerance).
    const px = (f: Frame, u: number, v: number): number[] => Array.from(f.rgb.subarray((v * f.width + u) * 3, (v * f.width + u) * 3 + 3));
    const [r, g, b] = px(back[0]!, 4, 4);
    expect(r).toBeGreaterThan(220);
    expect(g).toBeLessThan(40);
    expect(b).toBeLessThan(40);
    for (const c of px(back[0]!, 24, 4)) expect(Math.abs(c - 128)).toBeLessThan(12);
  });

  test('sequential timing writes each frame once; odd sizes are padded', async () => {
    const frames = [0, 1, 2].map((i) => grey(i, i * 1000, 15, 9));
    const res = await writeClip(join(dir, 'odd.mp4'), frames, { fps: 10, timing: 'sequential' });
    expect(res).toMatchObject({ framesIn: 3, framesWritten: 3, width: 15, height: 9, durationMs: 300 });
    const back = await collect(await openSource(join(dir, 'odd.mp4'), { log: () => {} }));
    expect(back.map((f) => [f.width, f.height])).toEqual([[16, 10], [16, 10], [16, 10]]);
  });

  test('frames of different sizes and empty input are clear errors', async () => {
    await expect(writeClip(join(dir, 'mixed.mp4'), [grey(0, 0), grey(1, 40, 16, 12)])).rejects.toThrow(/CLIP_SIZE_CHANGED/);
    await expect(writeClip(join(dir, 'empty.mp4'), [])).rejects.toThrow(/CLIP_EMPTY/);
  });
});

describe('burnClip', () => {
  test('cuts, scales and burns an ASS overlay in one ffmpeg pass, on the clip’s clock, keeping the colour tags', async () => {
    const src = join(dir, 'grey.mp4');
    await ffmpeg('-f', 'lavfi', '-i', 'color=c=0x808080:size=128x96:rate=10', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', '-g', '5', '-pix_fmt', 'yuv420p', '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709', src);
    const info = await probe(src);
    expect(info.video[0]!.colour).toEqual({ range: 'tv', space: 'bt709', primaries: 'bt709', transfer: 'bt709' });
    // Recording 0.5 s → 1.5 s; a red line appears at recording time 1.0 s (clip time 0.5 s), a yellow ring throughout.
    const script = assScript({ width: 64, height: 48 }, [
      { layer: 0, fromS: 0.5, toS: 1, shape: { kind: 'polyline', points: [[8, 24], [56, 24]], color: [255, 0, 0], widthPx: 4 } },
      { layer: 1, fromS: 0, toS: 1, shape: { kind: 'ring', center: [32, 12], radiusPx: 6, color: [255, 212, 0], widthPx: 2 } },
    ]);
    const out = join(dir, 'burnt.mp4');
    await burnClip(src, out, { startSec: 0.5, endSec: 1.5, size: { width: 64, height: 48 }, assScript: script, crf: 10, colour: info.video[0]!.colour! });
    expect((await probe(out)).video[0]!.colour).toEqual(info.video[0]!.colour);
    const back = await collect(await openSource(out, { log: () => {} }));
    expect(back).toHaveLength(10);
    expect([back[0]!.width, back[0]!.height]).toEqual([64, 48]);
    const px = (f: Frame, u: number, v: number): number[] => Array.from(f.rgb.subarray((v * f.width + u) * 3, (v * f.width + u) * 3 + 3));
    const isGrey = (c: number[]) => c.every((x) => Math.abs(x - 128) < 16);
    // Before its time the line is not there; from its frame on it is (frame 5 = clip 0.5 s).
    expect(isGrey(px(back[4]!, 32, 24))).toBe(true);
    for (const k of [5, 9]) {
      const [r, g, b] = px(back[k]!, 32, 24);
      expect(r).toBeGreaterThan(200);
      expect(Math.max(g!, b!)).toBeLessThan(60);
    }
    // The ring: on its radius, yellow; at its centre, the picture.
    const [r, g, b] = px(back[0]!, 38, 12);
    expect(Math.min(r!, g!)).toBeGreaterThan(170);
    expect(b).toBeLessThan(90);
    expect(isGrey(px(back[0]!, 32, 12))).toBe(true);
  });

  test('odd output sizes and a video that is not there are clear errors', async () => {
    await expect(burnClip(join(dir, 'grey.mp4'), join(dir, 'x.mp4'), { startSec: 0, endSec: 1, size: { width: 63, height: 48 } })).rejects.toThrow(/BAD_VIDEO_SIZE|even sides/);
    await expect(burnClip(join(dir, 'nothing.mp4'), join(dir, 'y.mp4'), { startSec: 0, endSec: 1, size: { width: 64, height: 48 } })).rejects.toThrow(/ffmpeg cutting .*y\.mp4.* failed/);
  });
});
