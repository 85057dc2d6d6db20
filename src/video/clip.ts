/**
 * Clips (mp4, H.264) of frames with drawn overlays: the flagged-stroke clips of the report and the
 * review page. Encoding goes through `createMp4Writer` (encode.ts), which already waits on the pipe,
 * so a fast producer cannot queue raw video in memory.
 *
 * mp4/H.264 here is constant frame rate. With `timing: 'pts'` (default) each output tick shows the
 * latest input frame at or before it, so a variable-rate or gappy source (a live stream that dropped
 * frames) plays back at real speed; `timing: 'sequential'` writes every frame exactly once.
 */
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InputError } from '../core/errors.js';
import { createMp4Writer } from './encode.js';
import { ffmpegPath } from './ffmpegPath.js';
import type { VideoColourTags } from './probe.js';
import { drawOverlay, type Shape } from './overlay.js';
import type { Frame } from './types.js';

/** The font the overlay scripts name (assOverlay.ts ASS_FONT_FAMILY): no visible glyphs, 612 bytes. */
const DRAW_FONT = fileURLToPath(new URL('../../assets/fonts/cueref-draw.ttf', import.meta.url));

export interface ClipOptions {
  /** Output frame rate. Default 30. */
  fps?: number;
  timing?: 'pts' | 'sequential';
  /** Shapes to draw on each frame (drawn on a copy: the caller's frames are left untouched). */
  overlay?: (frame: Frame) => readonly Shape[];
  /** x264 quality (lower = better, bigger); see encode.ts. */
  crf?: number;
  preset?: string;
}

export interface ClipResult {
  framesIn: number;
  framesWritten: number;
  width: number;
  height: number;
  /** Length of the written clip: framesWritten / fps. */
  durationMs: number;
}

/**
 * Constant-rate schedule for timestamped frames. Pure and streaming: call `next(ptsMs)` when a
 * frame arrives; it returns how many output ticks the *previous* frame fills (those before the new
 * frame's time). `finish()` returns the ticks of the last frame (one). Frames closer together than
 * a tick get 0 ticks: the clip keeps the one on screen at each tick.
 */
export class CfrSchedule {
  private readonly tickMs: number;
  private t0: number | undefined;
  private ticks = 0;
  private pending = false;

  constructor(fps: number) {
    this.tickMs = 1000 / fps;
  }

  next(ptsMs: number): number {
    if (this.t0 === undefined) {
      this.t0 = ptsMs;
      this.pending = true;
      return 0;
    }
    // Ticks k with t0 + k*tick < ptsMs belong to the previous frame (small epsilon: 33.333… ms steps).
    const upTo = Math.ceil((ptsMs - this.t0) / this.tickMs - 1e-6);
    const n = Math.max(0, upTo - this.ticks);
    this.ticks += n;
    return n;
  }

  finish(): number {
    if (!this.pending) return 0;
    this.pending = false;
    this.ticks += 1;
    return 1;
  }
}

/**
 * H.264 needs even sides: pad an odd frame with one black column/row on the right/bottom
 * (no pixel is lost or moved, so overlay coordinates stay valid). Returns the input when even.
 */
export function padToEven(rgb: Uint8Array, width: number, height: number): { rgb: Uint8Array; width: number; height: number } {
  if (width % 2 === 0 && height % 2 === 0) return { rgb, width, height };
  const w2 = width + (width % 2);
  const h2 = height + (height % 2);
  const out = new Uint8Array(w2 * h2 * 3);
  for (let v = 0; v < height; v++) out.set(rgb.subarray(v * width * 3, (v + 1) * width * 3), v * w2 * 3);
  return { rgb: out, width: w2, height: h2 };
}

/** Write `frames` to an mp4 at `path`. All frames must have the size of the first. */
export async function writeClip(path: string, frames: AsyncIterable<Frame> | Iterable<Frame>, opts: ClipOptions = {}): Promise<ClipResult> {
  const fps = opts.fps ?? 30;
  const timing = opts.timing ?? 'pts';
  const schedule = new CfrSchedule(fps);
  let writer: ReturnType<typeof createMp4Writer> | undefined;
  let size: { width: number; height: number } | undefined;
  let framesIn = 0;
  let framesWritten = 0;
  let held: Uint8Array | undefined; // the prepared previous frame, waiting for its tick count

  const prepare = (f: Frame): Uint8Array => {
    if (!size) size = { width: f.width, height: f.height };
    if (f.width !== size.width || f.height !== size.height) {
      throw new InputError({ code: 'CLIP_SIZE_CHANGED', frame: f.index, message: `frame is ${f.width}×${f.height} but the clip is ${size.width}×${size.height}: scale the source to one size` });
    }
    const shapes = opts.overlay?.(f) ?? [];
    const rgb = shapes.length ? drawOverlay(Uint8Array.from(f.rgb), f.width, f.height, shapes) : f.rgb;
    const even = padToEven(rgb, f.width, f.height);
    writer ??= createMp4Writer({ path, width: even.width, height: even.height, fps, ...(opts.crf !== undefined ? { crf: opts.crf } : {}), ...(opts.preset !== undefined ? { preset: opts.preset } : {}) });
    return even.rgb;
  };
  const emit = async (rgb: Uint8Array, times: number): Promise<void> => {
    for (let k = 0; k < times; k++) {
      await writer!.write(rgb);
      framesWritten++;
    }
  };

  try {
    for await (const f of frames) {
      framesIn++;
      if (timing === 'sequential') {
        await emit(prepare(f), 1);
        continue;
      }
      const ticks = schedule.next(f.ptsMs);
      if (held) await emit(held, ticks);
      held = prepare(f);
    }
    if (held) await emit(held, schedule.finish());
    if (!writer) throw new InputError({ code: 'CLIP_EMPTY', message: `no frames to write to '${path}': check the source and the start/end times` });
    await writer.close();
  } catch (e) {
    // Let ffmpeg finish (and report) rather than leave a half-written process behind.
    await writer?.close().catch(() => {});
    throw e;
  }
  return { framesIn, framesWritten, width: size!.width, height: size!.height, durationMs: (framesWritten * 1000) / fps };
}

export interface BurnClipOptions {
  /** Recording seconds to cut: [startSec, endSec). */
  startSec: number;
  endSec: number;
  /** Output size (even sides); the source is scaled to it with area averaging when it differs. */
  size: { width: number; height: number };
  /** ASS script of the overlay (assOverlay.ts), timed from the clip's start. */
  assScript?: string;
  /**
   * The source's colour tags (probe's `colour`), written on the clip: the pixels pass through in
   * YUV, so they keep their meaning only with their tags (an untagged HD clip of a BT.709 source
   * plays with shifted colours).
   */
  colour?: VideoColourTags;
  crf?: number;
  preset?: string;
}

/** Pure argument builder for `burnClip` (run in a folder holding `overlay.ass`, `fonts/` and `fonts.conf`). */
export function burnClipArgs(video: string, path: string, o: BurnClipOptions): string[] {
  const filters = [`scale=${o.size.width}:${o.size.height}:flags=area`];
  if (o.assScript !== undefined) filters.push('ass=overlay.ass:fontsdir=fonts');
  filters.push('format=yuv420p');
  return [
    '-hide_banner', '-nostdin', '-loglevel', 'error', '-y',
    // Input-side seek: ffmpeg decodes from the keyframe before and drops frames up to the start,
    // and times the output from the start — the time base of the script.
    ...(o.startSec > 0 ? ['-ss', o.startSec.toFixed(3)] : []),
    '-t', Math.max(0.001, o.endSec - o.startSec).toFixed(3),
    '-i', video,
    '-map', '0:v:0', '-an', '-sn', '-dn',
    '-vf', filters.join(','),
    '-c:v', 'libx264', '-preset', o.preset ?? 'veryfast', '-crf', String(o.crf ?? 20),
    ...(o.colour?.range ? ['-color_range', o.colour.range] : []),
    ...(o.colour?.space ? ['-colorspace', o.colour.space] : []),
    ...(o.colour?.primaries ? ['-color_primaries', o.colour.primaries] : []),
    ...(o.colour?.transfer ? ['-color_trc', o.colour.transfer] : []),
    '-movflags', '+faststart',
    path,
  ];
}

/**
 * Cut [startSec, endSec) of `video` to an H.264 mp4 at `size`, with the overlay burnt in by ffmpeg
 * in the same pass (no frame goes through node): one process decodes, scales, draws and encodes.
 * Its fonts are its own (assets/fonts) and fontconfig reads an empty configuration, so the
 * drawing does not depend on the fonts a machine has. Throws with ffmpeg's message on failure
 * (e.g. an FFMPEG_PATH build without libass: the caller can fall back to `writeClip`).
 */
export async function burnClip(video: string, path: string, o: BurnClipOptions): Promise<void> {
  if (o.size.width % 2 || o.size.height % 2) throw new InputError({ code: 'BAD_VIDEO_SIZE', field: 'size', message: `H.264 yuv420p needs even sides, got ${o.size.width}×${o.size.height}` });
  const dir = mkdtempSync(join(tmpdir(), 'cueref-clip-'));
  try {
    if (o.assScript !== undefined) {
      writeFileSync(join(dir, 'overlay.ass'), o.assScript);
      mkdirSync(join(dir, 'fonts'));
      copyFileSync(DRAW_FONT, join(dir, 'fonts', basename(DRAW_FONT)));
    }
    writeFileSync(join(dir, 'fonts.conf'), '<?xml version="1.0"?>\n<fontconfig></fontconfig>\n');
    const args = burnClipArgs(resolvePath(video), resolvePath(path), o);
    await new Promise<void>((done, fail) => {
      const proc = spawn(ffmpegPath(), args, { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, FONTCONFIG_FILE: join(dir, 'fonts.conf') } });
      let stderr = '';
      proc.stderr!.setEncoding('utf8');
      proc.stderr!.on('data', (s: string) => {
        stderr = (stderr + s).slice(-2000);
      });
      proc.on('error', (e) => fail(new Error(`ffmpeg cutting '${path}' failed: ${e.message}`)));
      proc.on('close', (code, signal) => {
        if (code === 0) done();
        else fail(new Error(`ffmpeg cutting '${path}' failed: ${signal ? `killed by ${signal}` : `exit code ${code}`}${stderr.trim() ? `\n${stderr.trim()}` : ''}`));
      });
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
