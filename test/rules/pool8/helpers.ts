/** Builders for pool8 stroke logs in tests: short to write, still the contract's JSON. */
import { strokeLogSchema, type StrokeEvent } from '../../../src/core/contracts/strokes.js';
import type { InputErrorInfo } from '../../../src/core/errors.js';
import { builtinProfile } from '../../../src/core/table.js';
import { pool8Rules, type Pool8Call } from '../../../src/rules/pool8/index.js';

export type RawStroke = Record<string, unknown> & { events: StrokeEvent[] };
type Pocket = 'BL' | 'BR' | 'ML' | 'MR' | 'TL' | 'TR';
type Side = 'left' | 'right' | 'top' | 'bottom';

export const ev = {
  strike: (t: number, ball = 'cue'): StrokeEvent => ({ t, type: 'strike', ball }),
  hit: (t: number, b: string, a = 'cue'): StrokeEvent => ({ t, type: 'contact', a, b }),
  rail: (t: number, ball: string, side: Side = 'top'): StrokeEvent => ({ t, type: 'cushion', ball, side }),
  pot: (t: number, ball: string, pocket: Pocket): StrokeEvent => ({ t, type: 'pot', ball, pocket }),
  off: (t: number, ball: string): StrokeEvent => ({ t, type: 'offTable', ball }),
  place: (t: number, ball: string, x: number, y: number): StrokeEvent => ({ t, type: 'place', ball, x, y }),
  touch: (t: number, ball: string, by: 'cue' | 'hand' | 'clothing' | 'rest' | 'other' = 'hand'): StrokeEvent => ({ t, type: 'touch', ball, by }),
  cross: (t: number, ball: string, line: 'headString' | 'centreLine' | 'baulkLine', dir: 'up' | 'down' = 'up'): StrokeEvent => ({ t, type: 'cross', ball, line, dir }),
  hanging: (t: number, ball: string, pocket: Pocket): StrokeEvent => ({ t, type: 'hanging', ball, pocket }),
  jump: (t: number, ball: string, over?: string): StrokeEvent => (over ? { t, type: 'jump', ball, over } : { t, type: 'jump', ball }),
  foul: (t: number, code: string): StrokeEvent => ({ t, type: 'foul', code }),
  doubleHit: (t: number): StrokeEvent => ({ t, type: 'doubleHit' }),
  concede: (t: number, player: 0 | 1): StrokeEvent => ({ t, type: 'concede', player }),
  stalemate: (t: number): StrokeEvent => ({ t, type: 'stalemate' }),
};

/** A legal break: `pots` go down, the cue ball stays up, four balls reach rails. */
export function breakStroke(pots: [string, Pocket][] = [], extra: StrokeEvent[] = [], railBalls = ['2', '5', '9', '14']): RawStroke {
  const events: StrokeEvent[] = [ev.place(0, 'cue', 600, 400), ev.strike(1), ev.hit(1.3, '1')];
  railBalls.forEach((b, i) => events.push(ev.rail(1.5 + i * 0.1, b, i % 2 ? 'left' : 'right')));
  pots.forEach(([b, p], i) => events.push(ev.pot(2.1 + i * 0.1, b, p)));
  events.push(...extra);
  events.sort((a, b) => a.t - b.t);
  return { events };
}

/** An ordinary shot: cue hits `first`, then pots, then a rail if asked. */
export function shot(first: string | null, pots: [string, Pocket][] = [], o: { rail?: boolean; extra?: StrokeEvent[]; t?: number } & Record<string, unknown> = {}): RawStroke {
  const t = o.t ?? 10;
  const events: StrokeEvent[] = [ev.strike(t)];
  if (first) events.push(ev.hit(t + 0.3, first));
  pots.forEach(([b, p], i) => events.push(ev.pot(t + 0.8 + i * 0.1, b, p)));
  if (o.rail ?? pots.length === 0) events.push(ev.rail(t + 1.5, 'cue', 'left'));
  events.push(...(o.extra ?? []));
  events.sort((a, b) => a.t - b.t);
  const { rail: _r, extra: _e, t: _t, ...fields } = o;
  return { ...fields, events };
}

/** Balls on the table for a midway start: the listed object balls plus the 8, standard-ish positions. */
export function layout(ids: string[], cue: [number, number] | null = [635, 600]): { id: string; x: number; y: number }[] {
  const out = ids.map((id, i) => ({ id, x: 150 + (i % 6) * 180, y: 1300 + Math.floor(i / 6) * 250 }));
  if (cue) out.push({ id: 'cue', x: cue[0], y: cue[1] });
  return out;
}

export function makeLog(strokes: RawStroke[], o: { variant?: string; start?: Record<string, unknown>; config?: Record<string, unknown> } = {}): unknown {
  const log: Record<string, unknown> = { format: 'cueref.strokes/1', game: 'pool8', players: ['A', 'B'], strokes };
  if (o.variant) log.variant = o.variant;
  if (o.start) log.start = o.start;
  if (o.config) log.config = o.config;
  return log;
}

export type RunResult = { ok: true; calls: Pool8Call[]; final: Record<string, unknown> } | { ok: false; error: InputErrorInfo; calls: Pool8Call[] };

/** Runs a raw log through the pool8 engine the way `cueref referee` does (parse, init, each stroke). */
export function run(raw: unknown, tableName: 'pool8-9ft' | 'pool8-8ft' | 'pool8-7ft' = 'pool8-9ft'): RunResult {
  const parsed = strokeLogSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`test log does not parse: ${parsed.error.message}`);
  const init = pool8Rules.init(parsed.data, builtinProfile(tableName));
  if (!init.ok) return { ok: false, error: init.error, calls: [] };
  let state = init.value;
  const calls: Pool8Call[] = [];
  for (let i = 0; i < parsed.data.strokes.length; i++) {
    const out = pool8Rules.applyStroke(state, parsed.data.strokes[i]!, i);
    if (!out.ok) return { ok: false, error: out.error, calls };
    state = out.value.state;
    calls.push(out.value.call);
  }
  return { ok: true, calls, final: pool8Rules.describe(state) };
}

/** Runs and returns the calls, failing the test with the error when the log is rejected. */
export function calls(raw: unknown, tableName?: 'pool8-9ft' | 'pool8-8ft' | 'pool8-7ft'): Pool8Call[] {
  const r = run(raw, tableName);
  if (!r.ok) throw new Error(`log rejected: ${JSON.stringify(r.error)}`);
  return r.calls;
}

export const codes = (c: Pool8Call): string[] => c.fouls.map((f) => f.code);

/** Start of a rack joined midway: groups assigned (player 0 first), the given balls on the table. */
export function midway(ids: string[], groups: ['solids' | 'stripes', 'solids' | 'stripes'] | null, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const start: Record<string, unknown> = { player: 0, balls: layout(ids), isBreak: false, ...extra };
  if (groups) start.groups = groups;
  return start;
}
