/** Builders for snooker stroke logs in tests: positions from the standard layout, terse events. */
import type { CallsDoc } from '../../../src/core/contracts/calls.js';
import type { StrokeEvent } from '../../../src/core/contracts/strokes.js';
import { builtinProfile, type PointMm } from '../../../src/core/table.js';
import { refereeLog } from '../../../src/rules/registry.js';
import { standardLayout } from '../../../src/rules/snooker/state.js';

export const TABLE = builtinProfile('snooker');
export const R = TABLE.ballDiameter / 2;
export const SPOT = TABLE.spots as Record<'yellow' | 'green' | 'brown' | 'blue' | 'pink' | 'black', PointMm>;

export type Pos = { id: string; x: number; y: number };

/** The standard layout with changes: `null` removes a ball, a point moves or adds it. */
export function layout(changes: Record<string, PointMm | null> = {}, base = standardLayout(TABLE, R)): Pos[] {
  const m: Record<string, PointMm> = { ...base };
  for (const [id, p] of Object.entries(changes)) {
    if (p === null) delete m[id];
    else m[id] = p;
  }
  return Object.entries(m).map(([id, p]) => ({ id, x: p.x, y: p.y }));
}

/** Only the listed balls. */
export function only(balls: Record<string, PointMm>): Pos[] {
  return Object.entries(balls).map(([id, p]) => ({ id, x: p.x, y: p.y }));
}

/** Colours on their spots (for building colour-sequence positions). */
export function spots(...colours: (keyof typeof SPOT)[]): Record<string, PointMm> {
  return Object.fromEntries(colours.map((c) => [c, { ...SPOT[c] }]));
}

export const e = {
  strike: (t: number, ball = 'white'): StrokeEvent => ({ t, type: 'strike', ball }),
  hit: (t: number, b: string, a = 'white'): StrokeEvent => ({ t, type: 'contact', a, b }),
  pot: (t: number, ball: string, pocket: 'BL' | 'BR' | 'ML' | 'MR' | 'TL' | 'TR' = 'TR'): StrokeEvent => ({ t, type: 'pot', ball, pocket }),
  place: (t: number, ball: string, x: number, y: number): StrokeEvent => ({ t, type: 'place', ball, x, y }),
  off: (t: number, ball: string): StrokeEvent => ({ t, type: 'offTable', ball }),
  cushion: (t: number, ball: string, side: 'left' | 'right' | 'top' | 'bottom'): StrokeEvent => ({ t, type: 'cushion', ball, side }),
};

export interface StrokeIn {
  events: StrokeEvent[];
  before?: Pos[];
  rest?: Pos[];
  nominated?: string;
  decision?: string;
  touching?: string[];
  player?: 0 | 1;
  paths?: Record<string, [number, number, number][]>;
}

export interface StartIn {
  player?: 0 | 1;
  scores?: [number, number];
  balls?: 'standard' | Pos[];
  ballOn?: string | string[];
  inHand?: boolean;
}

export function makeLog(start: StartIn, strokes: StrokeIn[], extra: Record<string, unknown> = {}) {
  return { format: 'cueref.strokes/1', game: 'snooker', players: ['A', 'B'], start, strokes, ...extra };
}

export function referee(start: StartIn, strokes: StrokeIn[], extra: Record<string, unknown> = {}): CallsDoc {
  const r = refereeLog(makeLog(start, strokes, extra));
  if (!r.ok) throw new Error(`referee refused the log: ${r.error.message} [${r.error.code}]`);
  return r.value;
}

export const codes = (call: { fouls: { code: string }[] }) => call.fouls.map((f) => f.code).sort();
export const reviewCodes = (call: { review: { code: string }[] }) => call.review.map((r) => r.code);
