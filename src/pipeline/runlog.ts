/**
 * The files `analyze` appends to as it goes, read back after a crash. A process killed with
 * SIGKILL (or a machine losing power) can leave the last line of a JSON Lines file half written;
 * everything before it is whole, because each line is handed to the kernel in one `writeSync`
 * before the next frame starts. So a reader keeps every complete line up to the first one that
 * does not end in a newline or does not parse, and reports the byte offset where the good part
 * ends: the resume truncates there and appends.
 */
import { closeSync, createReadStream, existsSync, fstatSync, openSync, readSync, writeSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { parseTrackFrame, parseTracksHeader, checkFrameOrder, type TrackFrame, type TracksHeader } from '../core/contracts/tracks.js';
import { InputError } from '../core/errors.js';

export interface JsonLine {
  value: unknown;
  /** Raw text of the line, without the newline. */
  text: string;
  /** Byte offset just after this line's newline. */
  end: number;
}

/**
 * Complete, parseable lines of a JSON Lines file, one at a time, up to the first torn or bad one
 * (then `next` returns null). Reads 1 MB at a time: a resume of an hour-long run replays ~200 MB
 * of logs, which read whole and parsed at once held ~900 MB.
 */
export class JsonLinesReader {
  /** The file's size in bytes (0 when it does not exist). */
  readonly size: number;
  private readonly fd: number | null;
  private buf = Buffer.alloc(0);
  /** File offset of buf[0]. */
  private bufAt = 0;
  private readAt = 0;
  private done = false;

  constructor(path: string) {
    this.fd = existsSync(path) ? openSync(path, 'r') : null;
    this.size = this.fd === null ? 0 : fstatSync(this.fd).size;
  }

  next(): JsonLine | null {
    if (this.done || this.fd === null) return this.finish();
    for (;;) {
      const nl = this.buf.indexOf(0x0a);
      if (nl >= 0) {
        const text = this.buf.subarray(0, nl).toString('utf8');
        let value: unknown;
        try {
          value = JSON.parse(text);
        } catch {
          return this.finish();
        }
        const end = this.bufAt + nl + 1;
        this.buf = this.buf.subarray(nl + 1);
        this.bufAt = end;
        return { value, text, end };
      }
      const chunk = Buffer.alloc(1 << 20);
      const n = readSync(this.fd, chunk, 0, chunk.length, this.readAt);
      if (n === 0) return this.finish(); // a last line without its newline: torn
      this.readAt += n;
      this.buf = this.buf.length ? Buffer.concat([this.buf, chunk.subarray(0, n)]) : chunk.subarray(0, n);
    }
  }

  /** Stop reading (closes the file; `next` returns null from then on). */
  close(): void {
    this.finish();
  }

  private finish(): null {
    if (!this.done && this.fd !== null) closeSync(this.fd);
    this.done = true;
    return null;
  }
}

/**
 * An append-only JSON Lines file written one whole line per `writeSync`: what is on disk after a
 * kill is every line written before it, and at most one torn line (which the reader drops).
 */
export class LineAppender {
  private fd: number | null;

  constructor(readonly path: string, mode: 'w' | 'a') {
    this.fd = openSync(path, mode);
  }

  write(line: string): void {
    if (this.fd === null) throw new Error(`${this.path} is closed`);
    const b = Buffer.from(line.endsWith('\n') ? line : line + '\n', 'utf8');
    let off = 0;
    while (off < b.length) off += writeSync(this.fd, b, off);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }
}

/**
 * DIR/tracks.jsonl read back line by line (an hour of frames is hundreds of MB of text: never one
 * string), each frame validated like `parseTracksText` and handed to `onFrame` (which keeps what it
 * needs: never all of an hour's frame objects, ~300 MB of heap). Returns the header and the count.
 */
export async function scanTracksJsonl(path: string, onFrame: (f: TrackFrame) => void): Promise<{ header: TracksHeader; frames: number }> {
  const rl = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let header: TracksHeader | undefined;
  let prev: TrackFrame | undefined;
  let frames = 0;
  let n = 0;
  for await (const l of rl) {
    n++;
    if (l.trim() === '') continue;
    let obj: unknown;
    try {
      obj = JSON.parse(l);
    } catch (e) {
      throw new InputError({ code: 'MALFORMED_JSON', message: `${path} line ${n} is not valid JSON: ${(e as Error).message}` });
    }
    if (!header) {
      header = parseTracksHeader(obj);
      continue;
    }
    const f = parseTrackFrame(obj, { index: frames, line: n });
    checkFrameOrder(prev, f, frames);
    prev = f;
    frames++;
    onFrame(f);
  }
  if (!header) throw new InputError({ code: 'BAD_TRACKS', message: `${path} is empty: no cueref.tracks/1 header` });
  return { header, frames };
}
