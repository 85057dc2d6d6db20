/**
 * Still images and image sequences, decoded with sharp (no ffmpeg process per image).
 * A sequence is a directory (every image in it, in natural order: 2.png before 10.png) or a printf
 * pattern (`frames/%05d.png`, ordered by the number). Frame i is at i * 1000 / fps ms: a sequence
 * carries no timestamps of its own, so its rate is yours to state (default 25, as ffmpeg's image2).
 */
import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, extname, join } from 'node:path';
import sharp from 'sharp';
import { InputError } from '../core/errors.js';
import { expectedSize } from './args.js';
import { DEFAULT_SEQUENCE_FPS, type SourceOptions } from './options.js';
import { makeFrameSource } from './frameSource.js';
import type { Frame, FrameSource, SourceInfo, VideoLog } from './types.js';

export const IMAGE_EXTENSIONS = ['.png', '.jpg', '.jpeg', '.webp', '.tif', '.tiff', '.avif', '.gif'] as const;

export interface DecodedImage {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/**
 * Read one image as packed RGB: EXIF orientation applied (phone photos), alpha dropped,
 * grey and CMYK converted to sRGB, optionally resized (same size rules as ffmpeg's `scale`).
 */
export async function readImageRgb(path: string, scale?: SourceOptions['scale']): Promise<DecodedImage> {
  try {
    let img = sharp(path, { failOn: 'error' }).rotate();
    if (scale && (scale.width !== undefined || scale.height !== undefined)) {
      const meta = await sharp(path).metadata();
      // EXIF orientations 5–8 are quarter turns: the displayed sides are swapped.
      const quarter = (meta.orientation ?? 1) >= 5;
      const target = expectedSize({ width: meta.width ?? 0, height: meta.height ?? 0, rotationDeg: quarter ? 90 : 0 }, scale);
      img = img.resize(target.width, target.height, { fit: 'fill' });
    }
    const { data, info } = await img.removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    if (info.channels !== 3) throw new Error(`expected 3 channels after conversion, got ${info.channels}`);
    return { rgb: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height };
  } catch (e) {
    const msg = (e as Error).message;
    if (/missing|no such file|ENOENT/i.test(msg)) {
      throw new InputError({ code: 'FILE_NOT_FOUND', message: `no such image '${path}': check the path` });
    }
    throw new InputError({ code: 'IMAGE_UNREADABLE', message: `cannot read image '${path}' (${msg}): give a PNG, JPEG, WebP, TIFF, AVIF or GIF file` });
  }
}

export async function imageSource(path: string, opts: SourceOptions, _log: VideoLog): Promise<FrameSource> {
  if (opts.startSec !== undefined || opts.endSec !== undefined) {
    throw new InputError({ code: 'BAD_VIDEO_OPTION', field: opts.startSec !== undefined ? 'startSec' : 'endSec', message: `'${path}' is a single image: startSec/endSec do not apply` });
  }
  // Decode now: a bad image should fail at open, like a bad video file does at probe.
  const img = await readImageRgb(path, opts.scale);
  const info: SourceInfo = { kind: 'image', uri: path, width: img.width, height: img.height, frameCount: 1 };
  return makeFrameSource(info, [], async function* () {
    yield { index: 0, ptsMs: 0, ...img };
  });
}

/** Regex for the file names a printf pattern (`%d`, `%05d`) matches; the number is group 1. Pure. */
export function patternToRegExp(namePattern: string): RegExp {
  const parts = namePattern.split(/%0?\d*d/);
  if (parts.length !== 2) {
    throw new InputError({ code: 'BAD_SEQUENCE_PATTERN', message: `'${namePattern}' needs exactly one %d (or %05d) in the file name` });
  }
  const esc = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  return new RegExp(`^${esc(parts[0]!)}(\\d+)${esc(parts[1]!)}$`);
}

/** The files of a sequence, in frame order. Pure over a directory listing. */
export function orderSequence(names: string[], namePattern?: string): string[] {
  if (namePattern !== undefined) {
    const re = patternToRegExp(namePattern);
    return names
      .map((n) => ({ n, m: re.exec(n) }))
      .filter((x): x is { n: string; m: RegExpExecArray } => x.m !== null)
      .sort((a, b) => Number(a.m[1]) - Number(b.m[1]))
      .map((x) => x.n);
  }
  const collator = new Intl.Collator('en', { numeric: true });
  return names.filter((n) => (IMAGE_EXTENSIONS as readonly string[]).includes(extname(n).toLowerCase())).sort(collator.compare);
}

export async function sequenceSource(uri: string, opts: SourceOptions, _log: VideoLog): Promise<FrameSource> {
  const isDir = (await stat(uri).catch(() => undefined))?.isDirectory() === true;
  const dir = isDir ? uri : dirname(uri);
  const names = await readdir(dir).catch(() => {
    throw new InputError({ code: 'FILE_NOT_FOUND', message: `no such directory '${dir}' for the image sequence '${uri}': check the path` });
  });
  const ordered = orderSequence(names, isDir ? undefined : basename(uri));
  if (ordered.length === 0) {
    throw new InputError({ code: 'EMPTY_SEQUENCE', message: `no images match '${uri}': expected files like ${isDir ? 'frame0001.png in the directory' : basename(uri).replace(/%0?(\d*)d/, (_m, w: string) => '1'.padStart(Number(w || 1), '0'))}` });
  }
  const fps = opts.fps ?? DEFAULT_SEQUENCE_FPS;
  const frameMs = 1000 / fps;
  // Frames whose time falls in [start, end).
  const first = Math.ceil(((opts.startSec ?? 0) * 1000) / frameMs - 1e-9);
  const endExclusive = opts.endSec !== undefined ? Math.min(ordered.length, Math.ceil((opts.endSec * 1000) / frameMs - 1e-9)) : ordered.length;
  const files = ordered.slice(first, Math.max(first, endExclusive)).map((n) => join(dir, n));
  // The size of the first image tells consumers what to expect (later ones may differ: frames carry theirs).
  const head = files[0] !== undefined ? await readImageRgb(files[0], opts.scale) : undefined;
  const info: SourceInfo = {
    kind: 'sequence',
    uri,
    width: head?.width ?? 0,
    height: head?.height ?? 0,
    fps,
    durationMs: files.length * frameMs,
    frameCount: files.length,
  };
  return makeFrameSource(info, [], async function* (): AsyncGenerator<Frame, void, void> {
    // Read one image ahead: sharp decodes on the libuv pool while the consumer works on this frame.
    // One, not more: memory stays at two frames however slow the consumer.
    let next: Promise<DecodedImage> | undefined = head ? Promise.resolve(head) : undefined;
    try {
      for (let i = 0; i < files.length; i++) {
        const img = await next!;
        next = i + 1 < files.length ? readImageRgb(files[i + 1]!, opts.scale) : undefined;
        next?.catch(() => {}); // surfaced when awaited; avoid an unhandled rejection if the loop is left
        yield { index: i, ptsMs: (first + i) * frameMs, ...img };
      }
    } finally {
      next = undefined;
    }
  });
}
