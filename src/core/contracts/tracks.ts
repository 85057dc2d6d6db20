/**
 * cueref.tracks/1 — what the vision front end saw (../shared/contracts/README.md): one identity per
 * ball, positions in table mm (centre projected to the bed), one entry per frame. Read as one JSON
 * document or as JSON Lines (a header line without `frames`, then one frame per line), validated at
 * the edge: every error names the frame (its `i`) and the field. Frames must come in time order.
 */
import { z } from 'zod';
import { InputError } from '../errors.js';
import { GAMES } from '../games.js';

export const TRACK_STATES = ['rest', 'moving', 'occluded', 'pocketed', 'offTable'] as const;
export type TrackStateName = (typeof TRACK_STATES)[number];

const finite = z.number().finite();
const row = z.tuple([finite, finite, finite]);
const mat3 = z.tuple([row, row, row]);

export const trackedBallSchema = z.object({
  id: z.string().min(1),
  x: finite,
  y: finite,
  conf: z.number().min(0).max(1).optional(),
  state: z.enum(TRACK_STATES).optional(),
  /** Height of the centre above the cloth, mm, when known (a jumping or falling ball). */
  z: finite.optional(),
  /** Kind as decided by the tracker's vote (`red`, `solid`, `pawnA`…), when it differs from the id's. */
  kind: z.string().optional(),
  /**
   * On the one frame where the tracker re-decided this ball's kind: the id it was reported under
   * until then (its frames under that id are this ball's; a reader joins them).
   */
  was: z.string().min(1).optional(),
  /**
   * On the first frame a ball is reported, when it is moving then: where it was seen on the
   * frames before, while the tracker had not yet given it an id ([frame i, x mm, y mm]). A ball
   * first seen flying is confirmed only after a few sightings, and those are its path.
   */
  trail: z.array(z.tuple([z.number().int().nonnegative(), finite, finite])).optional(),
});
export type TrackedBall = z.infer<typeof trackedBallSchema>;

const calibrationRefSchema = z
  .object({ imageToTable: mat3.optional(), ballCentreToTable: mat3.optional(), reprojectionErrorMm: finite.min(0).optional() })
  .loose();

export const trackFrameSchema = z.object({
  i: z.number().int().nonnegative(),
  t: finite.nonnegative(),
  balls: z.array(trackedBallSchema).default([]),
  /** false: the table is not in view (broadcast cut-away, a player over the lens): no balls. */
  view: z.boolean().optional(),
  calibration: calibrationRefSchema.optional(),
});
export type TrackFrame = z.infer<typeof trackFrameSchema>;

export const tracksHeaderSchema = z
  .object({
    format: z.literal('cueref.tracks/1'),
    game: z.enum(GAMES),
    source: z
      .object({ uri: z.string().optional(), fps: finite.positive().optional(), width: finite.optional(), height: finite.optional() })
      .loose()
      .optional(),
    calibration: calibrationRefSchema.optional(),
    /** A cueref.table/1 profile (whole or partial), when the producer knows the table. */
    table: z.unknown().optional(),
  })
  .loose();
export type TracksHeader = z.infer<typeof tracksHeaderSchema>;

export interface TracksDoc extends TracksHeader {
  frames: TrackFrame[];
}

function fieldPath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]') || '(root)';
}

function bad(message: string, extra: { frame?: number; field?: string } = {}): InputError {
  return new InputError({ code: 'BAD_TRACKS', message, ...extra });
}

/** Validate one frame; `where` names it for errors (its position in the file). */
export function parseTrackFrame(raw: unknown, where: { index: number; line?: number }): TrackFrame {
  const parsed = trackFrameSchema.safeParse(raw);
  if (parsed.success) {
    const f = parsed.data;
    const seen = new Set<string>();
    f.balls.forEach((b, k) => {
      if (seen.has(b.id)) throw bad(`ball id '${b.id}' appears twice in one frame`, { frame: f.i, field: `frames[${where.index}].balls[${k}].id` });
      seen.add(b.id);
    });
    if (f.view === false && f.balls.length > 0) {
      throw bad('a frame with "view": false must not list balls', { frame: f.i, field: `frames[${where.index}].balls` });
    }
    return f;
  }
  const issue = parsed.error.issues[0]!;
  const i = typeof (raw as { i?: unknown })?.i === 'number' ? ((raw as { i: number }).i) : where.index;
  const line = where.line !== undefined ? ` (line ${where.line})` : '';
  throw bad(`not a valid cueref.tracks/1 frame${line}: ${issue.message}`, { frame: i, field: `frames[${where.index}]${issue.path.length ? '.' + fieldPath(issue.path) : ''}` });
}

export function parseTracksHeader(raw: unknown): TracksHeader {
  const parsed = tracksHeaderSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw bad(`not a valid cueref.tracks/1 header: ${issue.message}`, { field: fieldPath(issue.path) });
}

/** Frames must be in strictly increasing time and index: events are timed from them. */
export function checkFrameOrder(prev: TrackFrame | undefined, f: TrackFrame, index: number): void {
  if (!prev) return;
  if (!(f.t > prev.t)) throw bad(`time ${f.t} s is not after the previous frame's ${prev.t} s (frames must be in time order)`, { frame: f.i, field: `frames[${index}].t` });
  if (!(f.i > prev.i)) throw bad(`index ${f.i} is not after the previous frame's ${prev.i}`, { frame: f.i, field: `frames[${index}].i` });
}

/** A whole document (already JSON-parsed). */
export function parseTracksDoc(raw: unknown): TracksDoc {
  const header = parseTracksHeader(raw);
  const framesRaw = (raw as { frames?: unknown }).frames;
  if (!Array.isArray(framesRaw)) throw bad('a cueref.tracks/1 document needs a "frames" array (or write it as JSON Lines)', { field: 'frames' });
  const frames: TrackFrame[] = [];
  framesRaw.forEach((fr, k) => {
    const f = parseTrackFrame(fr, { index: k });
    checkFrameOrder(frames[frames.length - 1], f, k);
    frames.push(f);
  });
  const { frames: _drop, ...rest } = header as TracksHeader & { frames?: unknown };
  void _drop;
  return { ...rest, frames };
}

/**
 * Text in either form: a JSON document, or JSON Lines (header line, then one frame per line;
 * blank lines allowed). JSON Lines errors name the line as well as the frame.
 */
export function parseTracksText(text: string, source = 'tracks'): TracksDoc {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{')) throw bad(`${source} is neither JSON nor JSON Lines (it must start with '{')`);
  const lines = text.split(/\r?\n/);
  const firstLine = lines.findIndex((l) => l.trim() !== '');
  let first: unknown;
  try {
    first = JSON.parse(lines[firstLine]!);
  } catch {
    // Not one object per line: a pretty-printed JSON document.
    let whole: unknown;
    try {
      whole = JSON.parse(text);
    } catch (e) {
      throw new InputError({ code: 'MALFORMED_JSON', message: `${source} is not valid JSON: ${(e as Error).message}` });
    }
    return parseTracksDoc(whole);
  }
  if (Array.isArray((first as { frames?: unknown }).frames)) {
    if (lines.slice(firstLine + 1).some((l) => l.trim() !== '')) throw bad(`${source}: a JSON document with "frames" must be alone in the file`);
    return parseTracksDoc(first);
  }
  const header = parseTracksHeader(first);
  const frames: TrackFrame[] = [];
  for (let n = firstLine + 1; n < lines.length; n++) {
    const l = lines[n]!;
    if (l.trim() === '') continue;
    let obj: unknown;
    try {
      obj = JSON.parse(l);
    } catch (e) {
      throw new InputError({ code: 'MALFORMED_JSON', message: `${source} line ${n + 1} is not valid JSON: ${(e as Error).message}`, field: `frames[${frames.length}]` });
    }
    const f = parseTrackFrame(obj, { index: frames.length, line: n + 1 });
    checkFrameOrder(frames[frames.length - 1], f, frames.length);
    frames.push(f);
  }
  return { ...header, frames };
}

const r2 = (v: number) => Math.round(v * 100) / 100;
const r5 = (v: number) => Math.round(v * 1e5) / 1e5;

/** A frame as written: positions to 0.01 mm, times to 10 µs (stable, small files). */
export function roundFrame(f: TrackFrame): TrackFrame {
  const out: TrackFrame = { i: f.i, t: r5(f.t), balls: f.balls.map((b) => ({ ...b, x: r2(b.x), y: r2(b.y), ...(b.conf !== undefined ? { conf: Math.round(b.conf * 1000) / 1000 } : {}) })) };
  if (f.view !== undefined) out.view = f.view;
  if (f.calibration) out.calibration = f.calibration;
  return out;
}

/** JSON Lines: the header line, then one frame per line. */
export function tracksHeaderLine(header: TracksHeader): string {
  const { frames: _f, ...h } = header as TracksHeader & { frames?: unknown };
  void _f;
  return JSON.stringify(h) + '\n';
}

export function trackFrameLine(f: TrackFrame): string {
  return JSON.stringify(roundFrame(f)) + '\n';
}

export function formatTracksJsonl(doc: TracksDoc): string {
  return tracksHeaderLine(doc) + doc.frames.map(trackFrameLine).join('');
}
