/**
 * Raw byte stream → whole frames. A pipe delivers ffmpeg's rgb24 output in chunks of whatever size
 * the kernel hands over (64 KiB typically), unrelated to frame boundaries: a 1280×720 frame spans
 * ~42 chunks, a 64×48 frame is 9216 bytes and several arrive in one chunk. Pure and synchronous,
 * so it is tested on tiny buffers split at every awkward boundary.
 */

/**
 * Spare frame buffers handed back by a consumer that is done with a frame's pixels
 * (`FrameSource.release`). A 1280×720 frame is 2.7 MB: allocating one per frame made every frame
 * pay the kernel's page faults on first touch and made V8 run a full collection every few frames
 * for the external memory (measured on 278 frames of a 1080p render decoded at 1280×720: 2.5 s
 * without reuse, 1.9 s with it). Bounded, so a consumer that releases nothing, or releases faster
 * than it takes, never grows it.
 */
export class BufferPool {
  private readonly spare: Uint8Array[] = [];
  constructor(private readonly maxSpare = 4) {}

  /** A buffer of exactly `bytes` bytes (old contents: every byte must be overwritten). */
  take(bytes: number): Uint8Array {
    for (;;) {
      const b = this.spare.pop();
      // Slow = its own memory, never a slice of node's shared 8 KiB pool: so it can come back.
      if (!b) return Buffer.allocUnsafeSlow(bytes);
      // A different size is a stream that changed resolution (a live reconnect): drop it.
      if (b.byteLength === bytes) return b;
    }
  }

  /**
   * Hand a buffer back. Only a buffer that owns its whole memory is kept: a view into a larger
   * pipe chunk (small frames arrive several to a chunk) shares it with its neighbours.
   */
  give(buf: Uint8Array): void {
    if (this.spare.length >= this.maxSpare || buf.byteOffset !== 0 || buf.buffer.byteLength !== buf.byteLength) return;
    if (!(buf.buffer instanceof ArrayBuffer) || this.spare.includes(buf)) return;
    this.spare.push(buf);
  }

  /** Spare buffers held (for tests). */
  get size(): number {
    return this.spare.length;
  }
}

export class FrameSplitter {
  readonly frameBytes: number;
  /** The frame being assembled, allocated only when a frame straddles chunks. */
  private partial: Uint8Array | undefined;
  private filled = 0;

  constructor(frameBytes: number, private readonly pool?: BufferPool) {
    if (!Number.isInteger(frameBytes) || frameBytes <= 0) {
      throw new RangeError(`frameBytes must be a positive integer, got ${frameBytes}`);
    }
    this.frameBytes = frameBytes;
  }

  /** Bytes held towards the next frame (0 between frames). Non-zero at end of stream = truncated frame. */
  get pendingBytes(): number {
    return this.filled;
  }

  /**
   * Feed one chunk; returns the frames it completed, in order. Every returned frame is a buffer of
   * its own (a copy, or a view of a chunk the caller hands over and does not reuse), so consumers
   * may keep frames for as long as they like.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    const out: Uint8Array[] = [];
    const n = this.frameBytes;
    let offset = 0;
    if (this.filled > 0) {
      const take = Math.min(n - this.filled, chunk.length);
      this.partial!.set(chunk.subarray(0, take), this.filled);
      this.filled += take;
      offset = take;
      if (this.filled < n) return out;
      out.push(this.partial!);
      this.partial = undefined;
      this.filled = 0;
    }
    // Whole frames inside the chunk: a view, no copy (the chunk is a fresh buffer from the pipe).
    while (chunk.length - offset >= n) {
      out.push(chunk.subarray(offset, offset + n));
      offset += n;
    }
    if (offset < chunk.length) {
      // Uninitialised (or a released frame's old pixels): every byte is overwritten before the
      // frame is handed out; zero-filling 2.7 MB per 720p frame would be wasted work.
      this.partial = this.pool ? this.pool.take(n) : Buffer.allocUnsafe(n);
      this.partial.set(chunk.subarray(offset));
      this.filled = chunk.length - offset;
    }
    return out;
  }
}

/** Text chunks → complete lines (`\n` or `\r` terminated); the tail waits for its end. */
export class LineSplitter {
  private rest = '';

  push(text: string): string[] {
    const parts = (this.rest + text).split(/\r\n|\n|\r/);
    this.rest = parts.pop() ?? '';
    return parts;
  }

  /** The unterminated last line, if any (call at end of stream). */
  flush(): string[] {
    const last = this.rest;
    this.rest = '';
    return last === '' ? [] : [last];
  }
}

/**
 * One `-debug_ts` encoder line → the frame's timestamp in microseconds of the encoder time base.
 * `undefined` for any other line; `null` for a frame that has no timestamp (NOPTS).
 * Example: `encoder <- type:video frame_pts:540000 frame_pts_time:0.54 time_base:1/1000000`.
 */
export function parseEncoderPtsLine(line: string): number | null | undefined {
  const m = /encoder <- type:video frame_pts:(\S+) frame_pts_time:\S+ time_base:(\d+)\/(\d+)/.exec(line);
  if (!m) return undefined;
  const pts = Number(m[1]);
  if (!Number.isFinite(pts)) return null; // "NOPTS"
  return (pts * Number(m[2]) * 1_000_000) / Number(m[3]);
}

/** `-debug_ts` chatter (demuxer/decoder/filter/muxer bookkeeping) that carries no diagnosis. */
export function isDebugTsLine(line: string): boolean {
  // ffmpeg ≥ 6 prefixes them with the component, e.g. `[vost#0:0/rawvideo @ 0x…] encoder <- …`.
  return /^(?:\[[^\]]*\] )?(demuxer|decoder|encoder|muxer|filter)[+\w]* (->|<-) /.test(line);
}

/**
 * Size of the raw output stream, from the `Output #0` section ffmpeg prints before the first frame:
 * `    Stream #0:0(und): Video: rawvideo (RGB[24] / 0x18424752), rgb24, 64x48 [SAR 1:1 DAR 4:3], …`.
 */
export function parseRawOutputSize(line: string): { width: number; height: number } | undefined {
  const m = /Stream #\d+:\d+.*: Video: rawvideo\b.*?, (\d+)x(\d+)/.exec(line);
  return m ? { width: Number(m[1]), height: Number(m[2]) } : undefined;
}
