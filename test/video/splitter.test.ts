import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { BufferPool, FrameSplitter, LineSplitter, isDebugTsLine, parseEncoderPtsLine, parseRawOutputSize } from '../../src/video/splitter.js';

/** A byte stream of `frames` frames where frame k is filled with the value k (so mix-ups show). */
function stream(frameBytes: number, frames: number): Uint8Array {
  const s = new Uint8Array(frameBytes * frames);
  for (let k = 0; k < frames; k++) s.fill(k + 1, k * frameBytes, (k + 1) * frameBytes);
  return s;
}

function splitAt(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [0, ...[...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b), bytes.length];
  return points.slice(1).map((end, i) => bytes.slice(points[i], end));
}

describe('FrameSplitter', () => {
  // A 2×1 rgb frame: 6 bytes. Three frames: 18 bytes.
  const bytes = stream(6, 3);

  test.each([
    ['one chunk holding everything', []],
    ['one byte at a time', Array.from({ length: 18 }, (_, i) => i)],
    ['cut one byte into a frame', [1, 7, 13]],
    ['cut one byte before a frame ends', [5, 11, 17]],
    ['cut exactly on frame boundaries', [6, 12]],
    ['a chunk spanning a boundary', [4, 9]],
  ])('%s', (_name, cuts) => {
    const sp = new FrameSplitter(6);
    const frames = splitAt(bytes, cuts).flatMap((c) => sp.push(c));
    expect(frames.map((f) => Array.from(f))).toEqual([[1, 1, 1, 1, 1, 1], [2, 2, 2, 2, 2, 2], [3, 3, 3, 3, 3, 3]]);
    expect(sp.pendingBytes).toBe(0);
  });

  test('an incomplete last frame stays pending (the caller reports the truncation)', () => {
    const sp = new FrameSplitter(6);
    expect(sp.push(bytes.subarray(0, 10))).toHaveLength(1);
    expect(sp.pendingBytes).toBe(4);
  });

  test('returned frames are independent of later chunks', () => {
    const sp = new FrameSplitter(4);
    const [a] = sp.push(Uint8Array.of(1, 2, 3));
    expect(a).toBeUndefined();
    const out = sp.push(Uint8Array.of(4, 5, 6, 7, 8));
    expect(out.map((f) => Array.from(f))).toEqual([[1, 2, 3, 4], [5, 6, 7, 8]]);
  });

  test('property: any chunking of any stream gives back exactly the frames, in order', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 12 }), fc.array(fc.nat(600), { maxLength: 30 }), (frameBytes, n, cuts) => {
        const s = stream(frameBytes, n);
        const sp = new FrameSplitter(frameBytes);
        const frames = splitAt(s, cuts).flatMap((c) => sp.push(c));
        expect(frames).toHaveLength(n);
        frames.forEach((f, k) => {
          expect(f.length).toBe(frameBytes);
          expect(f.every((v) => v === (k + 1) % 256)).toBe(true);
        });
        expect(sp.pendingBytes).toBe(0);
      }),
    );
  });

  test('property: frames assembled in released buffers are exactly the stream, however it is chunked', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 0, max: 12 }), fc.array(fc.nat(600), { maxLength: 30 }), (frameBytes, n, cuts) => {
        const pool = new BufferPool(2);
        const sp = new FrameSplitter(frameBytes, pool);
        let k = 0;
        for (const c of splitAt(stream(frameBytes, n), cuts)) {
          for (const f of sp.push(c)) {
            // Checked, then handed back at once: the next straddling frame is built in it.
            expect(f.every((v) => v === (k + 1) % 256)).toBe(true);
            k++;
            pool.give(f);
          }
        }
        expect(k).toBe(n);
      }),
    );
  });

  test('a released frame buffer is the one the next straddling frame is built in', () => {
    const pool = new BufferPool();
    const sp = new FrameSplitter(4, pool);
    const [a] = sp.push(Uint8Array.of(1, 2, 3, 4, 5, 6, 7, 8));
    pool.give(a!); // a view of the chunk: not kept
    expect(pool.size).toBe(0);
    expect(sp.push(Uint8Array.of(1, 2, 3))).toEqual([]);
    const [b] = sp.push(Uint8Array.of(4));
    expect(Array.from(b!)).toEqual([1, 2, 3, 4]);
    pool.give(b!); // built by the splitter: kept
    expect(pool.size).toBe(1);
    expect(sp.push(Uint8Array.of(5, 6, 7))).toEqual([]);
    expect(pool.size).toBe(0);
    const [c] = sp.push(Uint8Array.of(8));
    expect(c).toBe(b);
    expect(Array.from(c!)).toEqual([5, 6, 7, 8]);
  });

  test('rejects a non-positive frame size', () => {
    expect(() => new FrameSplitter(0)).toThrow(RangeError);
  });
});

describe('BufferPool', () => {
  test('keeps at most maxSpare own buffers, once each, and gives back only the size asked for', () => {
    const pool = new BufferPool(2);
    const [a, b, c] = [Buffer.allocUnsafe(8192), Buffer.allocUnsafe(8192), Buffer.allocUnsafe(8192)];
    pool.give(a);
    pool.give(a);
    pool.give(b);
    pool.give(c);
    expect(pool.size).toBe(2);
    expect(pool.take(8192)).toBe(b);
    // A stream that changed size: the spare of the old size is dropped, a new buffer made.
    const d = pool.take(100);
    expect(d).not.toBe(a);
    expect(d.byteLength).toBe(100);
    expect(pool.size).toBe(0);
  });

  test('views into a larger buffer are not kept (their neighbours would be overwritten)', () => {
    const pool = new BufferPool();
    const whole = new Uint8Array(64);
    pool.give(whole.subarray(0, 32));
    pool.give(whole.subarray(32));
    expect(pool.size).toBe(0);
  });
});

describe('LineSplitter', () => {
  test('joins lines split across chunks; \\r (progress lines) and \\r\\n both end a line', () => {
    const ls = new LineSplitter();
    expect(ls.push('enc')).toEqual([]);
    expect(ls.push('oder <- a\nfr')).toEqual(['encoder <- a']);
    expect(ls.push('ame=1\rframe=2\r\nlast')).toEqual(['frame=1', 'frame=2']);
    expect(ls.flush()).toEqual(['last']);
    expect(ls.flush()).toEqual([]);
  });
});

describe('ffmpeg log parsing', () => {
  test.each([
    ['encoder <- type:video frame_pts:540000 frame_pts_time:0.54 time_base:1/1000000', 540000],
    ['encoder <- type:video frame_pts:16 frame_pts_time:0.533333 time_base:1/30', 533333.3333333334],
    ['encoder <- type:video frame_pts:NOPTS frame_pts_time:NOPTS time_base:1/1000000', null],
    ['encoder <- type:audio frame_pts:0 frame_pts_time:0 time_base:1/44100', undefined],
    ['muxer <- type:video pkt_pts:0 pkt_pts_time:0', undefined],
    ['[vost#0:0/rawvideo @ 0x55d] encoder <- type:video frame_pts:40000 frame_pts_time:0.04 time_base:1/1000000', 40000],
  ])('parseEncoderPtsLine(%s) = %s µs', (line, us) => {
    expect(parseEncoderPtsLine(line)).toBe(us);
  });

  test('debug_ts bookkeeping lines are recognised, diagnostics are not', () => {
    expect(isDebugTsLine('demuxer -> ist_index:0 type:video next_dts:0')).toBe(true);
    expect(isDebugTsLine('demuxer+ffmpeg -> ist_index:0 type:video pkt_pts:0')).toBe(true);
    expect(isDebugTsLine('decoder -> ist_index:0 type:video frame_pts:0')).toBe(true);
    expect(isDebugTsLine('[vost#0:0/rawvideo @ 0x55d] encoder <- type:video frame_pts:0')).toBe(true);
    expect(isDebugTsLine('[h264 @ 0x1] error while decoding MB 3 2')).toBe(false);
  });

  test('output size from the Output #0 stream line', () => {
    const line = '    Stream #0:0(und): Video: rawvideo (RGB[24] / 0x18424752), rgb24, 1280x720 [SAR 1:1 DAR 16:9], q=2-31, 663552 kb/s, 30 fps, 1000k tbn, 1000k tbc (default)';
    expect(parseRawOutputSize(line)).toEqual({ width: 1280, height: 720 });
    expect(parseRawOutputSize('    Stream #0:0: Video: h264 (High), yuv420p, 1920x1080')).toBeUndefined();
  });
});
