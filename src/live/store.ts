/**
 * What a live session keeps on disk, in its output folder:
 *
 *   strokes.jsonl  append-only: line 1 the cueref.strokes/1 header (game, players, opening
 *                  layout, table), then one stroke per line, each written (and fsync'ed) before its
 *                  call is pushed. `header + strokes` is a cueref.strokes/1 log.
 *   calls.json     cueref.calls/1, rewritten atomically (temp file + rename) after each call.
 *   session.jsonl  append-only: what the session saw that is not a stroke (camera lost/back,
 *                  strokes interrupted or refused, with the refused stroke), for review.
 *
 * A restart reads strokes.jsonl back and re-referees it (calls.json is derived, never read). A torn
 * last line (the process killed mid-write) is dropped with a warning and the file cut back to its
 * last complete line, so the next append starts clean.
 */
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, truncateSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { CallsDoc } from '../core/contracts/calls.js';
import { strokeLogSchema, strokeSchema, type Stroke } from '../core/contracts/strokes.js';
import { InputError } from '../core/errors.js';
import type { LogHeader } from './referee.js';

const headerSchema = strokeLogSchema.omit({ strokes: true });

/** One line of session.jsonl. */
export const sessionRecordSchema = z
  .object({
    /** Wall clock, ISO 8601. */
    at: z.string(),
    kind: z.enum(['opened', 'status', 'flag', 'refused', 'closed', 'next']),
    /** Stream time, s, when known. */
    t: z.number().optional(),
    code: z.string().optional(),
    detail: z.string().optional(),
    stroke: z.unknown().optional(),
  })
  .loose();
export type SessionRecord = z.infer<typeof sessionRecordSchema>;

export interface RestoredLog {
  header: LogHeader | null;
  strokes: Stroke[];
  /** Review flags raised by earlier runs (session.jsonl `flag` and `refused` records). */
  flags: SessionRecord[];
  warnings: string[];
}

export class LiveStore {
  readonly paths: { strokes: string; calls: string; session: string };

  constructor(readonly dir: string) {
    mkdirSync(dir, { recursive: true });
    this.paths = { strokes: join(dir, 'strokes.jsonl'), calls: join(dir, 'calls.json'), session: join(dir, 'session.jsonl') };
  }

  /** Read what an earlier run left (nothing: a new frame). */
  load(): RestoredLog {
    const warnings: string[] = [];
    const out: RestoredLog = { header: null, strokes: [], flags: [], warnings };
    if (existsSync(this.paths.strokes)) {
      const lines = completeLines(this.paths.strokes, warnings);
      lines.forEach((line, k) => {
        if (!line.trim()) return;
        let raw: unknown;
        try {
          raw = JSON.parse(line);
        } catch (e) {
          throw new InputError({ code: 'LIVE_LOG_CORRUPT', field: `strokes.jsonl line ${k + 1}`, message: `${this.paths.strokes} line ${k + 1} is not JSON (${(e as Error).message}): move the folder aside or fix the line` });
        }
        if (k === 0) {
          const h = headerSchema.safeParse(raw);
          if (!h.success) throw new InputError({ code: 'LIVE_LOG_CORRUPT', field: `strokes.jsonl line 1.${h.error.issues[0]!.path.join('.')}`, message: `${this.paths.strokes} does not start with a cueref.strokes/1 header: ${h.error.issues[0]!.message}` });
          out.header = h.data;
          return;
        }
        const s = strokeSchema.safeParse(raw);
        if (!s.success) throw new InputError({ code: 'LIVE_LOG_CORRUPT', stroke: k - 1, field: `strokes.jsonl line ${k + 1}.${s.error.issues[0]!.path.join('.')}`, message: `${this.paths.strokes} line ${k + 1} is not a stroke: ${s.error.issues[0]!.message}` });
        out.strokes.push(s.data);
      });
    }
    if (existsSync(this.paths.session)) {
      for (const line of completeLines(this.paths.session, warnings)) {
        if (!line.trim()) continue;
        try {
          const r = sessionRecordSchema.safeParse(JSON.parse(line));
          if (r.success && (r.data.kind === 'flag' || r.data.kind === 'refused')) out.flags.push(r.data);
        } catch {
          warnings.push(`${this.paths.session}: a line that is not JSON was skipped`);
        }
      }
    }
    return out;
  }

  writeHeader(header: LogHeader): void {
    appendDurably(this.paths.strokes, JSON.stringify(header) + '\n');
  }

  appendStroke(stroke: Stroke): void {
    appendDurably(this.paths.strokes, JSON.stringify(stroke) + '\n');
  }

  /** calls.json, atomically: a reader (or a crash) sees the old file or the new one, never half. */
  writeCalls(doc: CallsDoc): void {
    const tmp = `${this.paths.calls}.tmp`;
    const fd = openSync(tmp, 'w');
    try {
      writeSync(fd, JSON.stringify(doc, null, 1) + '\n');
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, this.paths.calls);
  }

  record(r: Omit<SessionRecord, 'at'>): void {
    // Not fsync'ed: a lost status line costs nothing; strokes are what must survive.
    appendDurably(this.paths.session, JSON.stringify({ at: new Date().toISOString(), ...r }) + '\n', false);
  }
}

function appendDurably(path: string, text: string, sync = true): void {
  const fd = openSync(path, 'a');
  try {
    writeSync(fd, text);
    if (sync) fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** The file's complete lines; a torn last line is cut off the file (and reported). */
function completeLines(path: string, warnings: string[]): string[] {
  const text = readFileSync(path, 'utf8');
  if (text === '' || text.endsWith('\n')) return text.split('\n').slice(0, -1);
  const cut = text.lastIndexOf('\n') + 1;
  warnings.push(`${path}: the last line was incomplete (the process stopped while writing it) and was dropped`);
  truncateSync(path, Buffer.byteLength(text.slice(0, cut), 'utf8'));
  return text.slice(0, cut).split('\n').slice(0, -1);
}
