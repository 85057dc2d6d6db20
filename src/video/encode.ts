/**
 * Raw RGB frames → H.264 mp4 through ffmpeg's stdin. The renderer produces frames far faster than
 * libx264 encodes them at high resolution, so `write` waits for the pipe to drain (backpressure)
 * instead of queueing gigabytes of raw video in memory.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { InputError } from '../core/errors.js';
import { ffmpegPath } from './ffmpegPath.js';

export interface Mp4WriterOptions {
  path: string;
  width: number;
  height: number;
  fps: number;
  /** x264 constant rate factor: lower is better quality and bigger files (18 ≈ visually lossless, 23 default, 28 small). */
  crf?: number;
  /** x264 preset: faster presets cost file size, not quality at a given crf. */
  preset?: string;
}

export interface Mp4Writer {
  write(rgb: Uint8Array): Promise<void>;
  close(): Promise<void>;
}

/** Pure argument builder, tested on its own. yuv420p needs even dimensions. */
export function mp4EncodeArgs(opts: Mp4WriterOptions): string[] {
  return [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${opts.width}x${opts.height}`, '-r', String(opts.fps),
    '-i', 'pipe:0',
    '-an',
    '-c:v', 'libx264', '-preset', opts.preset ?? 'veryfast', '-crf', String(opts.crf ?? 20),
    // Convert with the BT.709 matrix and tag the stream so: broadcast HD is BT.709, and an untagged
    // or mismatched stream makes decoders shift every colour by a few levels.
    '-vf', 'scale=out_color_matrix=bt709:out_range=tv',
    '-pix_fmt', 'yuv420p',
    '-colorspace', 'bt709', '-color_primaries', 'bt709', '-color_trc', 'bt709',
    '-movflags', '+faststart',
    opts.path,
  ];
}

const STDERR_TAIL_CHARS = 2000;

export function createMp4Writer(opts: Mp4WriterOptions): Mp4Writer {
  const { width, height, fps } = opts;
  if (!Number.isInteger(width) || !Number.isInteger(height) || width <= 0 || height <= 0 || width % 2 || height % 2) {
    throw new InputError({ code: 'BAD_VIDEO_SIZE', field: 'width/height', message: `H.264 yuv420p needs even positive integer sizes, got ${width}×${height}` });
  }
  if (!(fps > 0) || !Number.isFinite(fps)) {
    throw new InputError({ code: 'BAD_FPS', field: 'fps', message: `fps must be a positive number, got ${fps}` });
  }
  const frameBytes = width * height * 3;
  const proc: ChildProcess = spawn(ffmpegPath(), mp4EncodeArgs(opts), { stdio: ['pipe', 'ignore', 'pipe'] });
  let stderr = '';
  proc.stderr!.setEncoding('utf8');
  proc.stderr!.on('data', (s: string) => {
    stderr = (stderr + s).slice(-STDERR_TAIL_CHARS);
  });
  let failure: Error | undefined;
  const fail = (why: string): Error => new Error(`ffmpeg encoding '${opts.path}' failed: ${why}${stderr.trim() ? `\n${stderr.trim()}` : ''}`);
  const exited = new Promise<void>((resolve) => {
    proc.on('error', (e) => {
      failure ??= fail(e.message);
      resolve();
    });
    proc.on('close', (code, signal) => {
      if (code !== 0) failure ??= fail(signal ? `killed by ${signal}` : `exit code ${code}`);
      else if (pipeError) failure ??= fail(pipeError.message);
      resolve();
    });
  });
  const stdin = proc.stdin!;
  // EPIPE when ffmpeg dies early: the pipe breaks before ffmpeg's own message has been read, so the
  // failure is built when the process has exited (with its stderr), not here.
  let pipeError: Error | undefined;
  stdin.on('error', (e) => {
    pipeError ??= e;
  });
  const throwIfFailed = async (): Promise<void> => {
    if (failure) throw failure;
    if (pipeError) {
      await exited;
      throw failure ?? fail(pipeError.message);
    }
  };
  let closed = false;
  let frames = 0;

  return {
    async write(rgb: Uint8Array): Promise<void> {
      if (closed) throw new Error('Mp4Writer.write after close');
      if (rgb.length !== frameBytes) {
        throw new InputError({ code: 'BAD_FRAME_SIZE', frame: frames, message: `frame has ${rgb.length} bytes, expected ${frameBytes} (${width}×${height} rgb24)` });
      }
      await throwIfFailed();
      frames++;
      // Copy: callers reuse their frame buffer for the next render while the pipe still holds this one.
      const ok = stdin.write(Buffer.from(rgb));
      if (!ok) {
        await new Promise<void>((resolve) => {
          const done = (): void => {
            stdin.off('drain', done);
            proc.off('close', done);
            resolve();
          };
          stdin.on('drain', done);
          proc.on('close', done);
        });
      }
      await throwIfFailed();
    },
    async close(): Promise<void> {
      if (!closed) {
        closed = true;
        stdin.end();
      }
      await exited;
      await throwIfFailed();
    },
  };
}
