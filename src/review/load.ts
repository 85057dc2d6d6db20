/**
 * Reading an `analyze` output folder for review. strokes.json and calls.json are required (they are
 * what is reviewed); tracks.jsonl, calibration.json and the clips are optional (older runs, runs
 * without flagged strokes, logs typed by hand). Every file is validated at this edge; errors name
 * the file, the field and what to do.
 */
import { existsSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { CallsDoc } from '../core/contracts/calls.js';
import type { StrokeLog } from '../core/contracts/strokes.js';
import { parseTracksText, type TracksDoc } from '../core/contracts/tracks.js';
import { InputError } from '../core/errors.js';
import { GAMES } from '../core/games.js';
import { defaultProfileFor, parseTableProfile, type TableProfile } from '../core/table.js';
import { parseStrokeLog } from '../rules/registry.js';
import { DECISIONS_FORMAT, decisionsDocSchema, type Decision } from './decisions.js';

export const FILES = {
  strokes: 'strokes.json',
  calls: 'calls.json',
  tracks: 'tracks.jsonl',
  calibration: 'calibration.json',
  decisions: 'decisions.json',
  strokesReviewed: 'strokes.reviewed.json',
  callsReviewed: 'calls.reviewed.json',
  clips: 'clips',
} as const;

/** Clip names the server will ever open: `stroke-NNN.mp4` and nothing else (no paths, no dots). */
export const CLIP_NAME = /^stroke-\d{3,6}\.mp4$/;

/** `clips/stroke-NNN.mp4`: the call's stroke index zero-padded to 3. */
export const clipName = (stroke: number): string => `stroke-${String(stroke).padStart(3, '0')}.mp4`;

const reviewEntrySchema = z.looseObject({ code: z.string(), reason: z.string(), conf: z.number(), ask: z.string().optional() });
const foulSchema = z.looseObject({ code: z.string(), penalty: z.number(), ball: z.string().optional(), detail: z.string() });
const player = z.union([z.literal(0), z.literal(1)]);

/** cueref.calls/1 as far as the review reads it (other fields pass through untouched). */
export const callsDocSchema = z.looseObject({
  format: z.literal('cueref.calls/1'),
  game: z.enum(GAMES),
  variant: z.string().optional(),
  players: z.tuple([z.string(), z.string()]).optional(),
  calls: z.array(
    z.looseObject({
      stroke: z.number().int().nonnegative(),
      player,
      legal: z.boolean(),
      potted: z.array(z.string()),
      points: z.number(),
      fouls: z.array(foulSchema),
      penalty: z.number(),
      scores: z.tuple([z.number(), z.number()]),
      nextPlayer: player,
      inHand: z.boolean(),
      frameOver: z.boolean(),
      winner: z.union([player, z.null()]),
      review: z.array(reviewEntrySchema),
      summary: z.string().default(''),
    }),
  ),
});

export interface ReviewDir {
  dir: string;
  log: StrokeLog;
  /** calls.json as analyze wrote it: the proposals the queue is built from. */
  calls: CallsDoc;
  table: TableProfile;
  tracks: TracksDoc | null;
  decisions: Decision[];
  /** Things that were not loaded and why (an unreadable tracks.jsonl must not stop a review). */
  notes: string[];
}

function readJson(path: string, what: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError({ code: 'FILE_NOT_FOUND', message: `cannot read ${what} '${path}' (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})` });
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError({ code: 'MALFORMED_JSON', message: `${what} '${path}' is not valid JSON: ${(e as Error).message}` });
  }
}

const fieldOf = (path: readonly PropertyKey[]): string => path.map(String).join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]') || '(root)';

export function parseCallsDoc(raw: unknown, source: string): CallsDoc {
  const parsed = callsDocSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError({ code: 'BAD_CALLS', field: fieldOf(issue.path), message: `${source} is not a valid cueref.calls/1: ${issue.message}` });
  }
  return parsed.data as unknown as CallsDoc;
}

export function parseDecisionsDoc(raw: unknown, source: string): Decision[] {
  const parsed = decisionsDocSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError({
      code: 'BAD_DECISIONS',
      field: fieldOf(issue.path),
      message: `${source} is not a valid ${DECISIONS_FORMAT}: ${issue.message} (fix or move the file away to start the review afresh)`,
    });
  }
  return parsed.data.decisions;
}

/** The table: calibration.json's (measured), else the tracks header's, else the log's, else the game's default. */
function tableFor(log: StrokeLog, calibration: unknown, tracks: TracksDoc | null, notes: string[]): TableProfile {
  const candidates: [unknown, string][] = [
    [(calibration as { table?: unknown } | null)?.table, FILES.calibration],
    [tracks?.table, FILES.tracks],
    [log.table, FILES.strokes],
  ];
  for (const [raw, from] of candidates) {
    if (raw === undefined || raw === null) continue;
    try {
      const t = parseTableProfile(raw, `the table in ${from}`);
      if (t.game === log.game) return t;
      notes.push(`the table in ${from} is for ${t.game}, not ${log.game}: ignored`);
    } catch (e) {
      notes.push(`${(e as Error).message}: ignored`);
    }
  }
  return defaultProfileFor(log.game);
}

export function loadReviewDir(dir: string): ReviewDir {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new InputError({ code: 'DIR_NOT_FOUND', message: `'${dir}' is not a folder: give the output folder of \`cueref analyze VIDEO --game G --out DIR\`` });
  }
  const missing = [FILES.strokes, FILES.calls].filter((f) => !existsSync(join(dir, f)));
  if (missing.length) {
    throw new InputError({
      code: 'REVIEW_FILES_MISSING',
      message: `'${dir}' has no ${missing.join(' and no ')}: review needs the strokes.json and calls.json that \`cueref analyze VIDEO --game G --out DIR\` writes`,
    });
  }
  const notes: string[] = [];
  const parsed = parseStrokeLog(readJson(join(dir, FILES.strokes), 'stroke log'));
  if (!parsed.ok) throw new InputError({ ...parsed.error, message: `${join(dir, FILES.strokes)}: ${parsed.error.message}` });
  const log = parsed.value;
  const calls = parseCallsDoc(readJson(join(dir, FILES.calls), 'calls'), `'${join(dir, FILES.calls)}'`);
  if (calls.game !== log.game) throw new InputError({ code: 'BAD_CALLS', field: 'game', message: `calls.json is for ${calls.game} but strokes.json is ${log.game}` });
  for (const c of calls.calls) {
    if (c.stroke >= log.strokes.length) throw new InputError({ code: 'BAD_CALLS', field: 'calls', stroke: c.stroke, message: `calls.json judges stroke ${c.stroke} but strokes.json has ${log.strokes.length} strokes` });
  }
  let tracks: TracksDoc | null = null;
  const tracksPath = join(dir, FILES.tracks);
  if (existsSync(tracksPath)) {
    try {
      tracks = parseTracksText(readFileSync(tracksPath, 'utf8'), FILES.tracks);
    } catch (e) {
      notes.push(`tracks.jsonl not used: ${(e as Error).message}`);
    }
  }
  let calibration: unknown = null;
  const calPath = join(dir, FILES.calibration);
  if (existsSync(calPath)) {
    try {
      calibration = JSON.parse(readFileSync(calPath, 'utf8'));
    } catch (e) {
      notes.push(`calibration.json not used: ${(e as Error).message}`);
    }
  }
  const table = tableFor(log, calibration, tracks, notes);
  const decPath = join(dir, FILES.decisions);
  const decisions = existsSync(decPath) ? parseDecisionsDoc(readJson(decPath, 'decisions'), `'${decPath}'`) : [];
  return { dir, log, calls, table, tracks, decisions, notes };
}

/** Write a file so that a crash leaves the old one or the new one, never half of either. */
export function writeFileAtomic(path: string, text: string): void {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, text);
  renameSync(tmp, path);
}

export function saveDecisions(dir: string, decisions: readonly Decision[]): void {
  const doc = { format: DECISIONS_FORMAT, decisions: [...decisions].sort((a, b) => a.stroke - b.stroke) };
  writeFileAtomic(join(dir, FILES.decisions), JSON.stringify(doc, null, 1) + '\n');
}
