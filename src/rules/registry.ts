/**
 * One rules module per game behind one contract, chosen by an exhaustive switch (chessops'
 * variant.ts). `refereeLog` runs a whole stroke log through it.
 */
import type { BaseCall, CallsDoc } from '../core/contracts/calls.js';
import { strokeLogSchema, type StrokeLog } from '../core/contracts/strokes.js';
import type { InputErrorInfo } from '../core/errors.js';
import { assertNever, type GameId } from '../core/games.js';
import { err, ok, type Result } from '../core/result.js';
import { defaultProfileFor, parseTableProfile, type TableProfile } from '../core/table.js';
import type { RulesEngine } from './contract.js';
import { novusRules } from './novus/index.js';
import { pool8Rules } from './pool8/index.js';
import { snookerRules } from './snooker/index.js';

export function engineFor(game: GameId): RulesEngine<unknown> {
  switch (game) {
    case 'snooker':
      return snookerRules as RulesEngine<unknown>;
    case 'pool8':
      return pool8Rules as RulesEngine<unknown>;
    case 'novus':
      return novusRules as RulesEngine<unknown>;
    default:
      return assertNever(game);
  }
}

/** Zod issues → one InputErrorInfo naming the stroke index and the field path. */
export function parseStrokeLog(raw: unknown): Result<StrokeLog, InputErrorInfo> {
  const parsed = strokeLogSchema.safeParse(raw);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0]!;
  const path = issue.path.map(String);
  const info: InputErrorInfo = {
    code: 'BAD_STROKE_LOG',
    field: path.join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]') || '(root)',
    message: `not a valid cueref.strokes/1: ${issue.message}`,
  };
  if (path[0] === 'strokes' && path[1] !== undefined) info.stroke = Number(path[1]);
  return err(info);
}

/**
 * A stroke without `rest` whose successor has `before`: the balls stopped where the next stroke
 * found them, less what left the table in between (a colour respotted or a cue ball placed in hand
 * is the rules' business, not the log's). Hand-entered logs often give only one of the two.
 */
export function fillRestFromNextBefore(log: StrokeLog): StrokeLog {
  const strokes = log.strokes.map((s, i) => {
    const next = log.strokes[i + 1];
    if (s.rest || !next?.before) return s;
    const gone = new Set(s.events.flatMap((e) => (e.type === 'pot' || e.type === 'offTable' ? [e.ball] : [])));
    return { ...s, rest: next.before.filter((b) => !gone.has(b.id)), restInferred: true };
  });
  return { ...log, strokes };
}

export function refereeLog(raw: unknown, tableOverride?: TableProfile): Result<CallsDoc, InputErrorInfo> {
  const parsed = parseStrokeLog(raw);
  if (!parsed.ok) return parsed;
  const log = fillRestFromNextBefore(parsed.value);
  let table = tableOverride;
  if (!table && log.table !== undefined) {
    try {
      table = parseTableProfile(log.table, 'the log\'s table');
    } catch (e) {
      return err({ code: 'BAD_TABLE_PROFILE', field: 'table', message: (e as Error).message });
    }
  }
  table ??= defaultProfileFor(log.game);
  if (table.game !== log.game) {
    return err({ code: 'TABLE_GAME_MISMATCH', field: 'table', message: `the table profile is for ${table.game} but the log is ${log.game}` });
  }
  const engine = engineFor(log.game);
  const init = engine.init(log, table);
  if (!init.ok) return init;
  let state = init.value;
  const calls: BaseCall[] = [];
  for (let i = 0; i < log.strokes.length; i++) {
    const out = engine.applyStroke(state, log.strokes[i]!, i);
    if (!out.ok) return out;
    state = out.value.state;
    calls.push(out.value.call);
  }
  const doc: CallsDoc = { format: 'cueref.calls/1', game: log.game, calls, final: engine.describe(state) };
  if (log.variant !== undefined) doc.variant = log.variant;
  if (log.players) doc.players = log.players;
  return ok(doc);
}
