/**
 * Options of `openSource`, checked with zod: raw user input (CLI flags, JSON) and the validated,
 * defaulted form are different types, and a bad value is an InputError naming the field.
 */
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { SCALE_FLAGS } from './args.js';
import type { VideoLog } from './types.js';

const positiveMs = z.number().finite().positive();

export const sourceOptionsSchema = z
  .object({
    /** Seconds from the start of the recording to the first frame wanted (files, sequences). */
    startSec: z.number().finite().min(0).optional(),
    /** Seconds from the start of the recording where frames stop (exclusive); live: stop after this long. */
    endSec: z.number().finite().positive().optional(),
    /** Scale inside ffmpeg (files, live) or sharp (images, sequences). One side keeps the aspect ratio. */
    scale: z
      .object({ width: z.number().int().min(2).max(16384).optional(), height: z.number().int().min(2).max(16384).optional(), flags: z.enum(SCALE_FLAGS).optional() })
      .strict()
      .optional(),
    /** Frame rate of an image sequence (frame i is at i * 1000 / fps ms). Default 25, as ffmpeg's image2. */
    fps: z.number().finite().positive().max(1000).optional(),
    /** Force live handling (reconnect, bounded queue) on or off; by default decided from the URI. */
    live: z.boolean().optional(),
    /** Live: frames held for a slow consumer before the oldest is dropped. Default 4. */
    queueFrames: z.number().int().min(1).max(1000).optional(),
    /** Live: reconnect backoff. Delay before attempt n (1-based) is min(maxMs, initialMs * factor^(n-1)). */
    reconnect: z
      .object({
        initialMs: positiveMs.optional(),
        maxMs: positiveMs.optional(),
        factor: z.number().finite().min(1).max(10).optional(),
        /** Give up after this many failed attempts in a row (no frame in between). Default unlimited. */
        maxAttempts: z.number().int().min(0).optional(),
      })
      .strict()
      .optional(),
    /** Network read timeout passed to ffmpeg (live). Default 5000 ms. */
    ioTimeoutMs: positiveMs.optional(),
    /** Kill ffmpeg if no data arrives this long while we wait for it. Default 30000 (files), 10000 (live). */
    stallTimeoutMs: positiveMs.optional(),
    /** ffmpeg input format (`-f`), for streams it cannot sniff (e.g. `mjpeg`, `mpegts`, `v4l2`). */
    inputFormat: z.string().regex(/^[\w,]+$/, 'an ffmpeg format name such as mjpeg').optional(),
    /** Where one-line messages go (drops, reconnects, damaged input). Default: stderr. */
    log: z.custom<VideoLog>((v) => typeof v === 'function', 'a function (line: string) => void').optional(),
  })
  .strict();

export type SourceOptionsInput = z.input<typeof sourceOptionsSchema>;
export type SourceOptions = z.output<typeof sourceOptionsSchema>;

export interface ReconnectPolicy {
  initialMs: number;
  maxMs: number;
  factor: number;
  maxAttempts: number;
}

export const DEFAULT_RECONNECT: ReconnectPolicy = { initialMs: 500, maxMs: 10_000, factor: 2, maxAttempts: Infinity };
export const DEFAULT_QUEUE_FRAMES = 4;
export const DEFAULT_SEQUENCE_FPS = 25;
export const DEFAULT_IO_TIMEOUT_MS = 5000;
export const DEFAULT_FILE_STALL_MS = 30_000;
export const DEFAULT_LIVE_STALL_MS = 10_000;

/** Validate raw options; throws InputError `BAD_VIDEO_OPTION` naming the first bad field. */
export function parseSourceOptions(raw: unknown): SourceOptions {
  const r = sourceOptionsSchema.safeParse(raw ?? {});
  if (!r.success) {
    const issue = r.error.issues[0]!;
    const field = issue.path.join('.') || '(options)';
    throw new InputError({ code: 'BAD_VIDEO_OPTION', field, message: `${issue.message}: fix the video option '${field}'` });
  }
  const o = r.data;
  if (o.endSec !== undefined && o.startSec !== undefined && o.endSec <= o.startSec) {
    throw new InputError({ code: 'BAD_VIDEO_OPTION', field: 'endSec', message: `endSec (${o.endSec}) must be after startSec (${o.startSec})` });
  }
  return o;
}
