/**
 * The files `analyze` appends to as it goes, read back after a crash. A process killed with
 * SIGKILL (or a machine losing power) can leave the last line of a JSON Lines file half written;
 * everything before it is whole, because each line is handed to the kernel in one `writeSync`
 * before the next frame starts. So a reader keeps every complete line up to the first one that
 * does not end in a newline or does not parse, and reports the byte offset where the good part
 * ends: the resume truncates there and appends.
 */
import { closeSync, createReadStream, existsSync, openSync, readFileSync, writeSync } from 'node:fs';
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

export interface JsonLinesRead {
  lines: JsonLine[];
  /** Bytes after the last good line (a torn write, or damage), 0 when the file ends cleanly. */
  tornBytes: number;
}

/** Complete, parseable lines of a JSON Lines file, in order, up to the first torn or bad one. */
export function readJsonLinesTolerant(path: string): JsonLinesRead {
  if (!existsSync(path)) return { lines: [], tornBytes: 0 };
  const buf = readFileSync(path);
  const lines: JsonLine[] = [];
  let start = 0;
  while (start < buf.length) {
    const nl = buf.indexOf(0x0a, start);
    if (nl < 0) break;
    const text = buf.subarray(start, nl).toString('utf8');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      break;
    }
    lines.push({ value, text, end: nl + 1 });
    start = nl + 1;
  }
  const goodEnd = lines.at(-1)?.end ?? 0;
  return { lines, tornBytes: buf.length - goodEnd };
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

/** DIR/tracks.jsonl read back whole (tests, short runs). */
export async function readTracksJsonl(path: string): Promise<{ header: TracksHeader; frames: TrackFrame[] }> {
  const frames: TrackFrame[] = [];
  const { header } = await scanTracksJsonl(path, (f) => frames.push(f));
  return { header, frames };
}
