/** Builders for Novus stroke logs in tests: positions on the default 1000 mm board (contract frame). */
import { strokeLogSchema, type StrokeEvent } from '../../../src/core/contracts/strokes.js';
import type { InputErrorInfo } from '../../../src/core/errors.js';
import { builtinProfile, type TableProfile } from '../../../src/core/table.js';
import { novusRules, type NovusCall, type NovusState } from '../../../src/rules/novus/index.js';

export type Pt = [number, number];
export const TABLE: TableProfile = builtinProfile('novus');
export const S = 1000;
export const R_PAWN = 16;

/** A mid-set position: A's pawns light across y = 700, B's across y = 300, nothing in a dark field. */
export function midLayout(): Record<string, Pt> {
  const out: Record<string, Pt> = {};
  for (let k = 0; k < 8; k++) {
    out[`a${k + 1}`] = [200 + 80 * k, 700];
    out[`b${k + 1}`] = [200 + 80 * k, 300];
  }
  return out;
}

/** `midLayout` without the named pawns (they are pocketed), with some moved. */
export function layout(opts: { without?: string[]; at?: Record<string, Pt>; base?: Record<string, Pt> } = {}): Record<string, Pt> {
  const out = { ...(opts.base ?? midLayout()) };
  for (const id of opts.without ?? []) delete out[id];
  return { ...out, ...(opts.at ?? {}) };
}

export const balls = (m: Record<string, Pt>) => Object.entries(m).map(([id, [x, y]]) => ({ id, x, y }));

type Ev = StrokeEvent;
export const ev = {
  place: (t: number, ball: string, x: number, y: number): Ev => ({ t, type: 'place', ball, x, y }),
  strike: (t: number, ball = 'striker'): Ev => ({ t, type: 'strike', ball }),
  hit: (t: number, b: string, a = 'striker'): Ev => ({ t, type: 'contact', a, b }),
  cushion: (t: number, side: 'left' | 'right' | 'top' | 'bottom', ball = 'striker'): Ev => ({ t, type: 'cushion', ball, side }),
  pot: (t: number, ball: string, pocket: 'BL' | 'BR' | 'TL' | 'TR' = 'TR'): Ev => ({ t, type: 'pot', ball, pocket }),
  off: (t: number, ball: string): Ev => ({ t, type: 'offTable', ball }),
  cross: (t: number, line: 'zone0' | 'zone1', dir: 'in' | 'out', ball = 'striker'): Ev => ({ t, type: 'cross', ball, line, dir }),
  touch: (t: number, ball: string, by: 'hand' | 'cue' | 'clothing' | 'other' = 'hand'): Ev => ({ t, type: 'touch', ball, by }),
  foul: (t: number, code: string, player?: 0 | 1): Ev => ({ t, type: 'foul', code, ...(player !== undefined ? { player } : {}) }),
  stacked: (t: number, ball: string, on: string): Ev => ({ t, type: 'stacked', ball, on }),
  doubleHit: (t: number, conf?: number): Ev => ({ t, type: 'doubleHit', ...(conf !== undefined ? { conf } : {}) }),
  jump: (t: number, ball: string): Ev => ({ t, type: 'jump', ball }),
  concede: (t: number, player: 0 | 1): Ev => ({ t, type: 'concede', player }),
};

/** Striker placements that are legal for each player on the default board (centre of the zone). */
export const PLACE: Record<0 | 1, Pt> = { 0: [500, 60], 1: [500, 940] };

/** A stroke by `player`: striker placed legally, struck at t0, then `events` (their t are offsets from t0). */
export function stroke(player: 0 | 1, events: Ev[], extra: Record<string, unknown> = {}, at: Pt = PLACE[player]) {
  const t0 = 10;
  return {
    events: [ev.place(t0 - 1, 'striker', at[0], at[1]), ev.strike(t0), ...events.map((e) => ({ ...e, t: e.t + t0 }))],
    ...extra,
  };
}

export interface LogOpts {
  start?: Record<string, unknown>;
  config?: Record<string, unknown>;
  variant?: string;
}

export function makeLog(strokes: unknown[], opts: LogOpts = {}) {
  return {
    format: 'cueref.strokes/1',
    game: 'novus',
    ...(opts.variant ? { variant: opts.variant } : {}),
    start: opts.start ?? { player: 0, balls: 'standard' },
    ...(opts.config ? { config: opts.config } : {}),
    strokes,
  };
}

export type RunResult = { ok: true; calls: NovusCall[]; state: NovusState } | { ok: false; error: InputErrorInfo };

/** Runs a raw log through the Novus engine alone (schema → init → strokes), as the registry does. */
export function run(raw: unknown, table: TableProfile = TABLE): RunResult {
  const log = strokeLogSchema.parse(raw);
  const init = novusRules.init(log, table);
  if (!init.ok) return { ok: false, error: init.error };
  let state = init.value;
  const calls: NovusCall[] = [];
  for (let i = 0; i < log.strokes.length; i++) {
    const out = novusRules.applyStroke(state, log.strokes[i]!, i);
    if (!out.ok) return { ok: false, error: out.error };
    state = out.value.state;
    calls.push(out.value.call);
  }
  return { ok: true, calls, state };
}

export function runOk(raw: unknown, table?: TableProfile): { calls: NovusCall[]; state: NovusState } {
  const r = run(raw, table);
  if (!r.ok) throw new Error(`expected the log to be judged, got ${r.error.code}: ${r.error.message} (${r.error.field})`);
  return r;
}

export const codes = (c: NovusCall) => c.fouls.map((f) => f.code).sort();
