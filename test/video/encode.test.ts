/**
 * mp4 writer: argument builder, a real round trip through ffmpeg (encode, decode back, compare),
 * input checks, and ffmpeg's own error surfacing with its stderr.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { createMp4Writer, mp4EncodeArgs } from '../../src/video/encode.js';
import { ffmpegPath } from '../../src/video/ffmpegPath.js';

const dir = mkdtempSync(join(tmpdir(), 'cueref-encode-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A smooth test frame that changes with the index (H.264 keeps smooth content nearly intact). */
function frame(width: number, height: number, k: number): Uint8Array {
  const rgb = new Uint8Array(width * height * 3);
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const p = (j * width + i) * 3;
      rgb[p] = Math.round((i / width) * 200 + 20);
      rgb[p + 1] = Math.round((j / height) * 200 + 20);
      rgb[p + 2] = (k * 20) % 200 + 30;
    }
  }
  return rgb;
}

function decode(path: string, width: number, height: number): Uint8Array[] {
  const r = spawnSync(ffmpegPath(), ['-v', 'error', '-i', path, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'], { maxBuffer: 1 << 28 });
  expect(r.status, r.stderr?.toString()).toBe(0);
  const buf = r.stdout as Buffer;
  const size = width * height * 3;
  const out: Uint8Array[] = [];
  for (let o = 0; o + size <= buf.length; o += size) out.push(buf.subarray(o, o + size));
  return out;
}

describe('mp4EncodeArgs', () => {
  test('raw rgb24 in on stdin, H.264 yuv420p out with faststart', () => {
    const args = mp4EncodeArgs({ path: 'out.mp4', width: 1280, height: 720, fps: 30, crf: 18 });
    const after = (flag: string): string | undefined => args[args.indexOf(flag) + 1];
    expect(after('-f')).toBe('rawvideo');
    expect(after('-s')).toBe('1280x720');
    expect(after('-r')).toBe('30');
    expect(after('-i')).toBe('pipe:0');
    expect(after('-c:v')).toBe('libx264');
    expect(after('-crf')).toBe('18');
    expect(args.filter((a) => a === '-pix_fmt')).toHaveLength(2);
    expect(args[args.lastIndexOf('-pix_fmt') + 1]).toBe('yuv420p');
    expect(after('-movflags')).toBe('+faststart');
    expect(args.at(-1)).toBe('out.mp4');
  });
});

describe('createMp4Writer', () => {
  test('12 frames round-trip through H.264 with a small error', async () => {
    const path = join(dir, 'rt.mp4');
    const w = createMp4Writer({ path, width: 64, height: 48, fps: 30, crf: 12 });
    const src = Array.from({ length: 12 }, (_, k) => frame(64, 48, k));
    for (const f of src) await w.write(f);
    await w.close();
    expect(statSync(path).size).toBeGreaterThan(500);
    const back = decode(path, 64, 48);
    expect(back).toHaveLength(12);
    for (let k = 0; k < 12; k++) {
      let err = 0;
      for (let p = 0; p < src[k]!.length; p++) err += Math.abs(src[k]![p]! - back[k]![p]!);
      expect(err / src[k]!.length, `frame ${k}`).toBeLessThan(4);
    }
  });

  test('backpressure: 60 frames of 640×360 (40 MB raw) all arrive', async () => {
    const path = join(dir, 'many.mp4');
    const w = createMp4Writer({ path, width: 640, height: 360, fps: 30 });
    const f = frame(640, 360, 0);
    for (let k = 0; k < 60; k++) {
      f[k * 3] = k; // a different frame each time, same buffer reused (the writer copies)
      await w.write(f);
    }
    await w.close();
    const r = spawnSync(ffmpegPath(), ['-v', 'error', '-i', path, '-f', 'null', '-'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(decode(path, 640, 360)).toHaveLength(60);
  });

  test('input errors name the problem', async () => {
    expect(() => createMp4Writer({ path: join(dir, 'x.mp4'), width: 63, height: 48, fps: 30 })).toThrow(InputError);
    expect(() => createMp4Writer({ path: join(dir, 'x.mp4'), width: 64, height: 48, fps: 0 })).toThrow(/fps/);
    const w = createMp4Writer({ path: join(dir, 'y.mp4'), width: 64, height: 48, fps: 30 });
    await expect(w.write(new Uint8Array(10))).rejects.toMatchObject({ code: 'BAD_FRAME_SIZE' });
    await w.close();
  });

  test("ffmpeg's failure surfaces with its stderr", async () => {
    const w = createMp4Writer({ path: join(dir, 'no', 'such', 'dir', 'z.mp4'), width: 64, height: 48, fps: 30 });
    const done = (async () => {
      for (let k = 0; k < 5; k++) await w.write(frame(64, 48, k));
      await w.close();
    })();
    await expect(done).rejects.toThrow(/ffmpeg encoding .* failed[\s\S]*(No such file|Error opening)/);
  });
});

describe('ffmpegPath', () => {
  test('FFMPEG_PATH pointing at nothing is a clear input error', () => {
    const old = process.env.FFMPEG_PATH;
    process.env.FFMPEG_PATH = join(dir, 'missing-ffmpeg');
    try {
      expect(() => ffmpegPath()).toThrow(/FFMPEG_PATH=.*is not a file/);
    } finally {
      if (old === undefined) delete process.env.FFMPEG_PATH;
      else process.env.FFMPEG_PATH = old;
    }
  });

  test('the bundled binary is executable', () => {
    const r = spawnSync(ffmpegPath(), ['-version'], { encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/^ffmpeg version/);
  });
});

describe('rendered frames through H.264', () => {
  test('ball colours survive the BT.709 round trip at the labelled centres', async () => {
    const { builtinProfile } = await import('../../src/core/table.js');
    const { presetCamera } = await import('../../src/sim/camera.js');
    const { Renderer, defaultLook } = await import('../../src/sim/render/index.js');
    const table = builtinProfile('snooker');
    // 640×360: balls of ≈ 8 px radius. (At 4 px, 4:2:0 chroma subsampling alone moves a red
    // ball's centre by ~50 levels on green cloth: real broadcasts have the same limit.)
    const camera = presetCamera('overhead', table, { width: 640, height: 360 });
    const r = new Renderer({ game: 'snooker', table, camera, look: { ...defaultLook('snooker'), specular: 0, noiseSigma: 0.5 }, seed: 1 });
    const balls = [
      { id: 'red1', x: 600, y: 1200, z: 26.25, vx: 0, vy: 0, state: 'rest' as const },
      { id: 'blue', x: 889, y: 1784.5, z: 26.25, vx: 0, vy: 0, state: 'rest' as const },
      { id: 'yellow', x: 1200, y: 2400, z: 26.25, vx: 0, vy: 0, state: 'rest' as const },
    ];
    const path = join(dir, 'rendered.mp4');
    const w = createMp4Writer({ path, width: 640, height: 360, fps: 30, crf: 16 });
    const frames = [];
    for (let i = 0; i < 10; i++) {
      const f = r.render({ i, t: i / 30, balls });
      frames.push(f);
      await w.write(f.rgb);
    }
    await w.close();
    const back = decode(path, 640, 360);
    expect(back).toHaveLength(10);
    const f = frames[5]!, d = back[5]!;
    for (const l of f.labels) {
      // Mean colour over the inner half of the ball's disc.
      const src = [0, 0, 0], dec = [0, 0, 0];
      let n = 0;
      for (let j = Math.round(l.v - l.r / 2); j <= Math.round(l.v + l.r / 2); j++) {
        for (let i = Math.round(l.u - l.r / 2); i <= Math.round(l.u + l.r / 2); i++) {
          if ((i - l.u) ** 2 + (j - l.v) ** 2 > (l.r / 2) ** 2) continue;
          const p = (j * 640 + i) * 3;
          for (let c = 0; c < 3; c++) {
            src[c]! += f.rgb[p + c]!;
            dec[c]! += d[p + c]!;
          }
          n++;
        }
      }
      for (let c = 0; c < 3; c++) expect(Math.abs(dec[c]! - src[c]!) / n, `${l.id} channel ${c}`).toBeLessThan(12);
    }
  });
});
