/**
 * One ffmpeg decoding process as an async generator of raw frames, with backpressure:
 * we read stdout only when the consumer asks for the next frame, so while it is busy the pipe fills
 * and ffmpeg blocks on write — memory stays at one pipe buffer plus one frame, however slow the
 * consumer. Leaving the loop early kills ffmpeg. Timestamps come from the `-debug_ts` encoder lines
 * on stderr (see args.ts), matched to frames in order; stderr is always drained so ffmpeg can never
 * block on its log.
 *
 * This layer reports what happened (`DecodeEnd`) and never decides whether it was an error: a file
 * that stops early is a warning with the frames kept, a live stream that stops is a reconnect.
 */
import { spawn } from 'node:child_process';
import { type BufferPool, FrameSplitter, LineSplitter, isDebugTsLine, parseEncoderPtsLine, parseRawOutputSize } from './splitter.js';

export interface RawFrame {
  rgb: Uint8Array;
  width: number;
  height: number;
  /** The stream's own timestamp (ms, relative to the input's start, after any -ss); null if it had none. */
  streamPtsMs: number | null;
}

export interface DecodeProcessOptions {
  binary: string;
  args: string[];
  /**
   * Kill ffmpeg when stdout stays silent this long *while we are waiting for data* (time the
   * consumer spends on a frame does not count). Turns every kind of hang (dead socket without a
   * protocol timeout, stuck device, blocked FIFO) into an ordinary end of stream.
   */
  stallTimeoutMs: number;
  /** Abort = stop ffmpeg now, even while a read is pending (close() from outside the loop). */
  signal?: AbortSignal;
  /** Where frame buffers come from: spares a consumer released, else new ones. */
  pool?: BufferPool;
  /** Called with the demuxer name (`mpegts`, `mpjpeg`, `mov,mp4,…`) as soon as ffmpeg opens the input. */
  onInputFormat?: (demuxer: string) => void;
}

export interface DecodeEnd {
  frames: number;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  /** We killed it: no data for stallTimeoutMs. */
  stalled: boolean;
  /** Bytes of an incomplete last frame (the stream stopped mid-frame). */
  leftoverBytes: number;
  /** Lines where ffmpeg reported damaged input (first few kept), and how many there were. */
  decodeErrors: string[];
  decodeErrorCount: number;
  /** Last meaningful stderr lines, for messages. */
  stderrTail: string[];
  spawnError?: Error;
}

/**
 * Demuxers that have no timestamps and make them up from a nominal rate (mpjpeg: HTTP MJPEG
 * cameras, stamped at 25 fps whatever they really send). Callers must not trust their pts:
 * files say so and space frames nominally, live sources switch ffmpeg to wall-clock stamps.
 */
export function inventsTimestamps(demuxer: string): boolean {
  return /^(mpjpeg|mjpeg|image2pipe|\w+_pipe)$/.test(demuxer);
}

const DECODE_PROBLEM = /error|invalid|corrupt|truncat|concealing|partial file|non-existing|missing picture|Packet mismatch|max_analyze_duration/i;
const KEEP_DECODE_ERRORS = 5;
const KEEP_TAIL_LINES = 20;
/** Whole frames decoded ahead of the consumer before we stop reading ffmpeg's output. */
const READ_AHEAD_FRAMES = 2;
/** Grace for ffmpeg to exit after SIGTERM before SIGKILL. */
const TERM_GRACE_MS = 2000;

export async function* decodeProcess(opts: DecodeProcessOptions): AsyncGenerator<RawFrame, DecodeEnd, void> {
  const proc = spawn(opts.binary, opts.args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let spawnError: Error | undefined;
  const exited = new Promise<void>((resolve) => {
    proc.once('close', () => resolve());
    proc.once('error', (e) => {
      spawnError = e;
      resolve();
    });
  });
  const running = (): boolean => proc.exitCode === null && proc.signalCode === null && spawnError === undefined;
  const onAbort = (): void => {
    if (running()) proc.kill('SIGKILL');
  };
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  if (opts.signal?.aborted) onAbort();

  // --- stderr: timestamps, output size, diagnostics ---------------------------------------
  const pts: (number | null)[] = [];
  let size: { width: number; height: number } | undefined;
  let inOutputSection = false;
  let stderrDone = false;
  const tail: string[] = [];
  const decodeErrors: string[] = [];
  let decodeErrorCount = 0;
  let wake: (() => void) | undefined;
  const notify = (): void => {
    const w = wake;
    wake = undefined;
    w?.();
  };
  const until = async (ready: () => boolean): Promise<void> => {
    while (!ready()) await new Promise<void>((r) => (wake = r));
  };
  const onLine = (line: string): void => {
    const p = parseEncoderPtsLine(line);
    if (p !== undefined) {
      pts.push(p === null ? null : p / 1000);
      notify();
      return;
    }
    if (isDebugTsLine(line) || line.trim() === '') return;
    const input = /^Input #0, ([\w,]+), from /.exec(line);
    if (input) opts.onInputFormat?.(input[1]!);
    if (line.startsWith('Output #0')) inOutputSection = true;
    else if (inOutputSection && !size) {
      const s = parseRawOutputSize(line);
      if (s) {
        size = s;
        notify();
      }
    }
    const text = line.replace(/^\[[^\]]+ @ 0x[0-9a-f]+\] /, '').trim();
    if (DECODE_PROBLEM.test(line)) {
      decodeErrorCount++;
      if (decodeErrors.length < KEEP_DECODE_ERRORS) decodeErrors.push(text);
    }
    tail.push(text);
    if (tail.length > KEEP_TAIL_LINES) tail.shift();
  };
  const lines = new LineSplitter();
  proc.stderr.setEncoding('utf8');
  proc.stderr.on('data', (t: string) => lines.push(t).forEach(onLine));
  proc.stderr.on('close', () => {
    lines.flush().forEach(onLine);
    stderrDone = true;
    notify();
  });
  proc.once('error', () => {
    stderrDone = true;
    notify();
  });

  // --- stdout: frames, read ahead by at most READ_AHEAD_FRAMES -------------------------------
  // Flowing mode with pause/resume rather than `for await` over the stream: the async iterator
  // stops reading the pipe while each 64 KiB chunk is processed, which at 1280×720 (42 chunks a
  // frame) left ffmpeg blocked half the time. Here the pipe is drained until READ_AHEAD_FRAMES
  // whole frames wait for the consumer, then paused: ffmpeg blocks on write, memory stays bounded.
  let splitter: FrameSplitter | undefined;
  const early: Buffer[] = []; // chunks that arrived before the frame size was known
  const ready: Uint8Array[] = [];
  let stdoutEnded = false;
  const feed = (chunk: Buffer): void => {
    for (const rgb of splitter!.push(chunk)) ready.push(rgb);
    if (ready.length >= READ_AHEAD_FRAMES) proc.stdout.pause();
  };
  const startSplitting = (): void => {
    if (splitter || !size) return;
    splitter = new FrameSplitter(size.width * size.height * 3, opts.pool);
    for (const c of early.splice(0)) feed(c);
  };
  proc.stdout.on('data', (chunk: Buffer) => {
    // ffmpeg prints the output description before it writes the first frame, but the two pipes
    // are read independently: hold the first bytes until stderr has told us the size.
    startSplitting();
    if (splitter) feed(chunk);
    else {
      early.push(chunk);
      proc.stdout.pause(); // nothing to split with yet: do not let an unknown-size backlog grow
    }
    notify();
  });
  proc.stdout.on('end', () => {
    stdoutEnded = true;
    notify();
  });
  proc.stdout.on('error', () => {
    stdoutEnded = true; // killed under us; the exit status tells the story
    notify();
  });

  let delivered = 0;
  let stalled = false;
  try {
    for (;;) {
      startSplitting();
      if (ready.length === 0) {
        // No size ever (ffmpeg failed before its output description): nothing can be split.
        if (stdoutEnded || (!splitter && stderrDone)) break;
        if (splitter) proc.stdout.resume();
        const timer = setTimeout(() => {
          stalled = true;
          proc.kill('SIGKILL');
        }, opts.stallTimeoutMs);
        await until(() => ready.length > 0 || stdoutEnded || (!splitter && (size !== undefined || stderrDone)));
        clearTimeout(timer);
        continue;
      }
      const rgb = ready.shift()!;
      if (ready.length < READ_AHEAD_FRAMES) proc.stdout.resume();
      await until(() => pts.length > delivered || stderrDone);
      const streamPtsMs = pts[delivered] ?? null;
      delivered++;
      yield { rgb, width: size!.width, height: size!.height, streamPtsMs };
    }
    await exited;
    await until(() => stderrDone);
    const end: DecodeEnd = {
      frames: delivered,
      exitCode: proc.exitCode,
      signal: proc.signalCode,
      stalled,
      leftoverBytes: splitter?.pendingBytes ?? 0,
      decodeErrors,
      decodeErrorCount,
      stderrTail: tail,
    };
    if (spawnError) end.spawnError = spawnError;
    return end;
  } finally {
    opts.signal?.removeEventListener('abort', onAbort);
    if (running()) {
      // The consumer left early (or we are unwinding an error): stop ffmpeg now, not at its next write.
      proc.stdout.destroy();
      proc.kill('SIGTERM');
      const killer = setTimeout(() => proc.kill('SIGKILL'), TERM_GRACE_MS);
      await exited;
      clearTimeout(killer);
    }
  }
}
