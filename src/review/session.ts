/**
 * One review of one output folder: the proposals, the referee's decisions, and the calls as they
 * stand. Decisions are checked by judging the whole log with them before they are kept (a decision
 * the rules refuse is answered, never saved), saved atomically to DIR/decisions.json, and read
 * back (validated) when the review is opened again.
 *
 * The page's data (`pageState`) is built here, so the server only moves JSON.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import type { BaseCall, CallsDoc, FoulCall, ReviewEntry } from '../core/contracts/calls.js';
import type { GameId } from '../core/games.js';
import { InputError, type InputErrorInfo } from '../core/errors.js';
import { err, ok, type Result } from '../core/result.js';
import { topDownSvg } from '../report/topdown.js';
import { impliedByAccept, type Decision, type DecisionInput, type Correction } from './decisions.js';
import { judge, type Judged } from './judge.js';
import { clipName, FILES, loadReviewDir, saveDecisions, writeFileAtomic, type ReviewDir } from './load.js';
import { eventLabel } from '../report/labels.js';
import { measureStroke, type Measurements } from './measure.js';
import { buildQueue, DEFAULT_MIN_CONF, type FlagReason } from './queue.js';
import { strokeReplay, type ReplaySource } from './replay.js';

/** Codes offered when the referee adds a foul by hand (any UPPER_SNAKE_CASE code is accepted). */
export const FOUL_CODES: Readonly<Record<GameId, readonly string[]>> = {
  snooker: ['TOUCHED_BALL', 'PUSH_STROKE', 'DOUBLE_HIT', 'JUMP_SHOT', 'FEET_OFF_FLOOR', 'MEASURING', 'PLAYED_OUT_OF_TURN', 'NO_NOMINATION', 'STRUCK_WHILE_MOVING', 'STRUCK_BEFORE_RESPOT', 'TOUCHING_BALL_MOVED', 'BALL_OFF_TABLE_USED', 'NON_STANDARD_CUE', 'CONFERRING', 'WRONG_CUE_BALL'],
  pool8: ['TOUCHED_BALL', 'DOUBLE_HIT', 'PUSH_STROKE', 'JUMP_SHOT', 'STRUCK_WHILE_MOVING', 'NO_RAIL', 'BAD_PLACEMENT', 'OFF_TABLE'],
  novus: ['TOUCHED_PAWN', 'DOUBLE_HIT', 'CUE_FAULT', 'MOVED_IN_OPPONENT_TURN', 'PAWN_TOUCHED_PLACING', 'BAD_STRIKER_PLACEMENT', 'DELAY', 'WARNING'],
};

export interface CallView {
  stroke: number;
  player: 0 | 1;
  playerName: string;
  summary: string;
  /** "+5", "legal", "FOUL IN_OFF (4)", with "+ MISS". */
  callText: string;
  foul: boolean;
  scores: [number, number];
  break: number | null;
  fouls: FoulCall[];
  review: ReviewEntry[];
  miss: boolean;
  touching: string[];
  frameOver: boolean;
}

export interface QueueItemView {
  stroke: number;
  t: number | null;
  reasons: FlagReason[];
  proposal: CallView;
  current: CallView;
  decision: Decision | null;
  /** URL of the clip (relative to the page), or null when DIR/clips has none for this stroke. */
  clip: string | null;
  /** The top-down drawing with its replay (HTML from report/topdown.ts). */
  figure: string;
  replaySource: ReplaySource;
  measurements: Measurements;
  /** The stroke's events as in strokes.json (indices for `removeEvent`). */
  events: { index: number; t: number; type: string; label: string; conf: number | null }[];
  /** Ball ids the stroke concerns (for "first contact was" and a foul's ball). */
  balls: string[];
  hasNextStroke: boolean;
}

export interface PageState {
  title: string;
  game: GameId;
  variant: string | null;
  players: [string, string];
  score: { scores: [number, number]; line: string; frameOver: boolean; winner: 0 | 1 | null };
  calls: (CallView & { flagged: boolean; decided: Decision['action'] | null })[];
  queue: QueueItemView[];
  decided: number;
  foulCodes: readonly string[];
  notes: string[];
}

export interface SessionOptions {
  /** Events below this confidence queue their stroke (default 0.8, the rules' own threshold). */
  minConf?: number;
  /** Clock for decision times (tests). */
  now?: () => Date;
}

export function callText(c: BaseCall): string {
  if (c.fouls.length) return `FOUL ${c.fouls.map((f) => f.code).join(' + ')} (${c.penalty})${c.miss === true ? ' + MISS' : ''}`;
  if (c.legal) return c.points > 0 ? `+${c.points}` : 'legal';
  return 'no foul';
}

function callView(c: BaseCall, players: readonly [string, string]): CallView {
  return {
    stroke: c.stroke,
    player: c.player,
    playerName: players[c.player],
    summary: c.summary,
    callText: callText(c),
    foul: c.fouls.length > 0,
    scores: c.scores,
    break: typeof c.break === 'number' ? c.break : null,
    fouls: c.fouls,
    review: c.review,
    miss: c.miss === true,
    touching: Array.isArray(c.touching) ? (c.touching as unknown[]).filter((b): b is string => typeof b === 'string') : [],
    frameOver: c.frameOver,
  };
}

export function scoreOf(doc: CallsDoc, players: readonly [string, string]): PageState['score'] {
  const last = doc.calls.at(-1);
  const scores: [number, number] = last ? [last.scores[0], last.scores[1]] : [0, 0];
  const frameOver = last?.frameOver ?? false;
  const winner = last?.winner ?? null;
  const state = frameOver ? (winner === null ? 'frame drawn' : `frame over, ${players[winner]} wins`) : 'frame in progress';
  return { scores, line: `${players[0]} ${scores[0]} – ${scores[1]} ${players[1]} (${state})`, frameOver, winner };
}

export class ReviewSession {
  readonly rd: ReviewDir;
  private decisions = new Map<number, Decision>();
  private judged: Judged;
  private readonly minConf: number;
  private readonly now: () => Date;
  /** Figures depend only on the log's positions and the tracks, which decisions do not change. */
  private readonly figures = new Map<number, { html: string; source: ReplaySource }>();

  constructor(rd: ReviewDir, o: SessionOptions = {}) {
    this.rd = rd;
    this.minConf = o.minConf ?? DEFAULT_MIN_CONF;
    this.now = o.now ?? (() => new Date());
    for (const d of rd.decisions) this.decisions.set(d.stroke, d);
    const j = judge(rd.log, rd.calls, rd.table, [...this.decisions.values()]);
    if (!j.ok) {
      throw new InputError({ ...j.error, message: `${join(rd.dir, FILES.decisions)} no longer applies to strokes.json: ${j.error.message} (move the file away to start afresh)` });
    }
    this.judged = j.value;
  }

  static open(dir: string, o: SessionOptions = {}): ReviewSession {
    return new ReviewSession(loadReviewDir(dir), o);
  }

  /** The folder's name, for headings. */
  get title(): string {
    return basename(resolve(this.rd.dir));
  }

  get current(): Judged {
    return this.judged;
  }

  get allDecisions(): Decision[] {
    return [...this.decisions.values()].sort((a, b) => a.stroke - b.stroke);
  }

  /** Record a decision (replacing any earlier one on the stroke); the rules must accept the result. */
  decide(input: DecisionInput): Result<Judged, InputErrorInfo> {
    const { log } = this.rd;
    if (input.stroke >= log.strokes.length) return err({ code: 'BAD_DECISION', field: 'stroke', message: `there is no stroke ${input.stroke} (the log has ${log.strokes.length})` });
    let corrections: Correction[] = input.corrections;
    if (input.action === 'accept') {
      const call = this.judged.calls.calls.find((c) => c.stroke === input.stroke);
      corrections = call ? impliedByAccept(call, input.stroke + 1 < log.strokes.length) : [];
    }
    const d: Decision = { stroke: input.stroke, action: input.action, corrections, at: this.now().toISOString(), ...(input.note ? { note: input.note } : {}) };
    const next = new Map(this.decisions);
    next.set(d.stroke, d);
    return this.commit(next);
  }

  /** Withdraw the decision on a stroke (back to the proposal). */
  undo(stroke: number): Result<Judged, InputErrorInfo> {
    if (!this.decisions.has(stroke)) return err({ code: 'NO_DECISION', stroke, message: `stroke ${stroke} has no decision to undo` });
    const next = new Map(this.decisions);
    next.delete(stroke);
    return this.commit(next);
  }

  private commit(next: Map<number, Decision>): Result<Judged, InputErrorInfo> {
    const decisions = [...next.values()];
    const j = judge(this.rd.log, this.rd.calls, this.rd.table, decisions);
    if (!j.ok) return j;
    // Saved before the page is told: a decision the page shows is a decision on disk.
    saveDecisions(this.rd.dir, decisions);
    this.decisions = next;
    this.judged = j.value;
    return ok(j.value);
  }

  /** Write strokes.reviewed.json and calls.reviewed.json beside decisions.json; returns the paths. */
  exportFiles(): Record<'decisions' | 'strokes' | 'calls', string> {
    const { dir } = this.rd;
    saveDecisions(dir, this.allDecisions);
    const strokes = join(dir, FILES.strokesReviewed);
    const calls = join(dir, FILES.callsReviewed);
    writeFileAtomic(strokes, JSON.stringify(this.judged.log, null, 1) + '\n');
    writeFileAtomic(calls, JSON.stringify(this.judged.calls, null, 1) + '\n');
    return { decisions: join(dir, FILES.decisions), strokes, calls };
  }

  private figure(stroke: number, highlight: string[]): { html: string; source: ReplaySource } {
    const cached = this.figures.get(stroke);
    if (cached) return cached;
    const { log, table, tracks } = this.rd;
    const r = strokeReplay(log, stroke, tracks?.frames ?? null);
    const html = r.frames.length
      ? topDownSvg({ game: log.game, table, paths: r.paths, ...(r.frames.length > 1 ? { replay: r.frames } : { balls: Object.entries(r.frames[0]!.balls).map(([id, [x, y]]) => ({ id, x, y })) }), highlight, widthPx: 560, title: `Stroke ${stroke}: replay` })
      : '<p class="empty">No positions for this stroke.</p>';
    const out = { html, source: r.source };
    this.figures.set(stroke, out);
    return out;
  }

  pageState(): PageState {
    const { log, calls: proposals, dir } = this.rd;
    const players: [string, string] = log.players ?? proposals.players ?? ['Player A', 'Player B'];
    const current = this.judged.calls;
    const queue = buildQueue(log, proposals, current, this.minConf);
    const queued = new Set(queue.map((q) => q.stroke));
    const byStroke = (doc: CallsDoc) => new Map(doc.calls.map((c) => [c.stroke, c]));
    const prop = byStroke(proposals);
    const cur = byStroke(current);
    const items: QueueItemView[] = queue.map(({ stroke, reasons }) => {
      const s = log.strokes[stroke]!;
      const p = prop.get(stroke) ?? cur.get(stroke)!;
      const c = cur.get(stroke) ?? p;
      const m = measureStroke(log, stroke, this.rd.table, this.minConf);
      const first = m.contacts.find((x) => x.cue);
      const highlight = [...new Set([...(first ? [first.a, first.b] : []), ...p.fouls.flatMap((f) => (f.ball ? [f.ball] : []))])];
      const fig = this.figure(stroke, highlight);
      const ids = new Set<string>();
      for (const b of [...(s.before ?? []), ...(s.rest ?? [])]) ids.add(b.id);
      for (const g of [...m.cueGapsBefore, ...m.cueGapsAtRest]) ids.add(g.ball);
      for (const e of s.events) {
        for (const k of ['ball', 'a', 'b', 'over'] as const) {
          const v = (e as Record<string, unknown>)[k];
          if (typeof v === 'string') ids.add(v);
        }
      }
      const clip = clipName(stroke);
      return {
        stroke,
        t: s.t ?? s.events.find((e) => e.type === 'strike')?.t ?? s.events[0]?.t ?? null,
        reasons,
        proposal: callView(p, players),
        current: callView(c, players),
        decision: this.decisions.get(stroke) ?? null,
        clip: existsSync(join(dir, FILES.clips, clip)) ? `clips/${clip}` : null,
        figure: fig.html,
        replaySource: fig.source,
        measurements: m,
        events: s.events.map((e, index) => ({ index, t: e.t, type: e.type, label: eventLabel(e), conf: e.conf ?? null })),
        balls: [...ids].sort(),
        hasNextStroke: stroke + 1 < log.strokes.length,
      };
    });
    return {
      title: this.title,
      game: log.game,
      variant: log.variant ?? null,
      players,
      score: scoreOf(current, players),
      calls: current.calls.map((c) => ({ ...callView(c, players), flagged: queued.has(c.stroke), decided: this.decisions.get(c.stroke)?.action ?? null })),
      queue: items,
      decided: items.filter((q) => q.decision).length,
      foulCodes: FOUL_CODES[log.game],
      notes: this.rd.notes,
    };
  }
}
