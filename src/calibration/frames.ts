/**
 * Getting a frame to calibrate: still images are decoded with sharp; videos and streams go through
 * the video stage (`../video/source.js`, the only place that runs ffmpeg), imported on demand so
 * that still-image calibration works without it.
 */
import { existsSync } from 'node:fs';
import { extname } from 'node:path';
import sharp from 'sharp';
import { InputError } from '../core/errors.js';
import type { RgbFrame } from './image.js';

const STILL = new Set(['.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff', '.bmp']);

export const isStillImage = (uri: string): boolean => STILL.has(extname(uri).toLowerCase());

export async function readStill(path: string): Promise<RgbFrame> {
  if (!existsSync(path)) throw new InputError({ code: 'FILE_NOT_FOUND', message: `image '${path}' does not exist` });
  try {
    const { data, info } = await sharp(path).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    return { width: info.width, height: info.height, rgb: new Uint8Array(data.buffer, data.byteOffset, data.length) };
  } catch (e) {
    throw new InputError({ code: 'BAD_IMAGE', message: `cannot decode image '${path}' (${(e as Error).message})` });
  }
}

export async function writePng(path: string, f: RgbFrame): Promise<void> {
  await sharp(Buffer.from(f.rgb.buffer, f.rgb.byteOffset, f.rgb.length), { raw: { width: f.width, height: f.height, channels: 3 } }).png().toFile(path);
}

interface VideoFrame {
  index: number;
  ptsMs: number;
  width: number;
  height: number;
  rgb: Uint8Array;
}

/**
 * The frames of a video at and after `atSeconds` (up to `count`, `stepSeconds` apart): calibration
 * tries them in turn, so one frame with a player over the cushion does not fail the run.
 */
export async function readVideoFrames(uri: string, atSeconds: number, count: number, stepSeconds: number): Promise<{ frame: RgbFrame; ptsMs: number }[]> {
  type Source = AsyncIterable<VideoFrame> & { close?: () => Promise<void> };
  let mod: { openSource: (uri: string, opts?: Record<string, unknown>) => Source | Promise<Source> };
  try {
    // A variable specifier: the video stage is optional at type-check time (it lands separately).
    const spec = '../video/source.js';
    mod = (await import(spec)) as typeof mod;
  } catch (e) {
    throw new InputError({
      code: 'NO_VIDEO_SUPPORT',
      message: `cannot read video '${uri}': the video stage (src/video/source.ts) is not available (${(e as Error).message}); extract a frame as PNG and calibrate that`,
    });
  }
  const out: { frame: RgbFrame; ptsMs: number }[] = [];
  const startMs = atSeconds * 1000;
  let nextMs = startMs;
  const src = await mod.openSource(uri, atSeconds > 0 ? { startSec: atSeconds } : {});
  try {
    for await (const f of src) {
      if (f.ptsMs + 1e-6 < nextMs) continue;
      // Copy: a decoder may reuse its frame buffer for the next frame.
      out.push({ frame: { width: f.width, height: f.height, rgb: new Uint8Array(f.rgb) }, ptsMs: f.ptsMs });
      nextMs = f.ptsMs + stepSeconds * 1000;
      if (out.length >= count) break;
    }
  } finally {
    await src.close?.();
  }
  if (!out.length) throw new InputError({ code: 'NO_FRAMES', message: `no frames in '${uri}' at or after ${atSeconds} s` });
  return out;
}
