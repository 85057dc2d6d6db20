/**
 * Clips (mp4, H.264) of frames with drawn overlays: the flagged-stroke clips of the report and the
 * review page. Encoding goes through `createMp4Writer` (encode.ts), which already waits on the pipe,
 * so a fast producer cannot queue raw video in memory.
 *
 * mp4/H.264 here is constant frame rate. With `timing: 'pts'` (default) each output tick shows the
 * latest input frame at or before it, so a variable-rate or gappy source (a live stream that dropped
 * frames) plays back at real speed; `timing: 'sequential'` writes every frame exactly once.
 */
import { InputError } from '../core/errors.js';
import { createMp4Writer } from './encode.js';
import { drawOverlay, type Shape } from './overlay.js';
import type { Frame } from './types.js';

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
