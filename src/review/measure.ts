/**
 * The measured evidence behind a call, in the units a referee reads: contact times in ms after the
 * strike, gaps between balls in mm (surface to surface: 0 is touching), the cameras' confidences.
 * Pure: a stroke log (and the table for ball sizes) in, numbers out.
 */
import type { BallPos, Stroke, StrokeLog } from '../core/contracts/strokes.js';
import type { TableProfile } from '../core/table.js';
import { eventLabel } from '../report/labels.js';
import { cueBallId } from './decisions.js';

export interface ContactMeasure {
  /** Index of the event in the stroke (as in strokes.json). */
  event: number;
  a: string;
  b: string;
  t: number;
  /** Time after the strike, ms (null without a strike). */
  afterStrikeMs: number | null;
  conf: number | null;
  /** A contact of the ball struck (the ones that decide "first contact"). */
  cue: boolean;
}

export interface GapMeasure {
  ball: string;
  /** Surface-to-surface distance from the cue ball, mm (centre distance less both radii; 0 = touching). */
  gapMm: number;
}

export interface LowConfidenceEvent {
  event: number;
  type: string;
  label: string;
  conf: number;
}

export interface Measurements {
  strikeT: number | null;
  contacts: ContactMeasure[];
  /** Time between the cue ball's first two contacts with different balls, ms: the margin of a "first contact" call. */
  firstContactGapMs: number | null;
  pots: { event: number; ball: string; pocket: string; t: number; conf: number | null }[];
  lowConfidence: LowConfidenceEvent[];
  /** The balls nearest the cue ball where it stopped (the touching-ball question), nearest first. */
  cueGapsAtRest: GapMeasure[];
  /** The same before the stroke (was the declared touching ball really touching?). */
  cueGapsBefore: GapMeasure[];
}

/** How many neighbours of the cue ball are listed. */
const NEIGHBOURS = 3;

const r1 = (v: number): number => Math.round(v * 10) / 10;



/** Positions at the strike: the stroke's `before`, else the previous stroke's rest, else the listed start. */
export function positionsBefore(log: StrokeLog, index: number): BallPos[] | null {
  const s = log.strokes[index];
  if (s?.before) return s.before;
  const prev = log.strokes[index - 1];
  if (prev?.rest) return prev.rest;
  if (index === 0 && Array.isArray(log.start?.balls)) return log.start.balls;
  return null;
}

/** Positions at rest: the stroke's `rest`, else the next stroke's `before`. */
export function positionsAfter(log: StrokeLog, index: number): BallPos[] | null {
  return log.strokes[index]?.rest ?? log.strokes[index + 1]?.before ?? null;
}

export function cueGaps(balls: readonly BallPos[] | null, cue: string, table: TableProfile): GapMeasure[] {
  if (!balls) return [];
  const c = balls.find((b) => b.id === cue);
  if (!c) return [];
  const reach = table.cueBallDiameter / 2 + table.ballDiameter / 2;
  return balls
    .filter((b) => b.id !== cue)
    .map((b) => ({ ball: b.id, gapMm: r1(Math.hypot(b.x - c.x, b.y - c.y) - reach) }))
    .sort((p, q) => p.gapMm - q.gapMm)
    .slice(0, NEIGHBOURS);
}

function strikeBall(s: Stroke, fallback: string): { ball: string; t: number | null } {
  const strike = s.events.find((e) => e.type === 'strike');
  return strike && strike.type === 'strike' ? { ball: strike.ball, t: strike.t } : { ball: fallback, t: null };
}

/**
 * Evidence for stroke `index`. `minConf`: events below it are listed as low-confidence (the
 * rules' own review threshold is 0.8).
 */
export function measureStroke(log: StrokeLog, index: number, table: TableProfile, minConf = 0.8): Measurements {
  const s = log.strokes[index];
  if (!s) throw new RangeError(`no stroke ${index}`);
  const cueDefault = cueBallId(log.game);
  const strike = strikeBall(s, cueDefault);
  const cue = strike.ball;
  const contacts: ContactMeasure[] = [];
  const pots: Measurements['pots'] = [];
  const lowConfidence: LowConfidenceEvent[] = [];
  s.events.forEach((e, k) => {
    if (e.type === 'contact') {
      contacts.push({
        event: k,
        a: e.a,
        b: e.b,
        t: e.t,
        afterStrikeMs: strike.t === null ? null : r1((e.t - strike.t) * 1000),
        conf: e.conf ?? null,
        cue: e.a === cue || e.b === cue,
      });
    }
    if (e.type === 'pot') pots.push({ event: k, ball: e.ball, pocket: e.pocket, t: e.t, conf: e.conf ?? null });
    if (e.conf !== undefined && e.conf < minConf) lowConfidence.push({ event: k, type: e.type, label: eventLabel(e), conf: e.conf });
  });
  const cueContacts = contacts.filter((c) => c.cue).sort((p, q) => p.t - q.t);
  let firstContactGapMs: number | null = null;
  const first = cueContacts[0];
  if (first) {
    const other = (c: ContactMeasure): string => (c.a === cue ? c.b : c.a);
    const second = cueContacts.find((c) => other(c) !== other(first));
    if (second) firstContactGapMs = r1((second.t - first.t) * 1000);
  }
  return {
    strikeT: strike.t,
    contacts,
    firstContactGapMs,
    pots,
    lowConfidence,
    cueGapsAtRest: cueGaps(positionsAfter(log, index), cue, table),
    cueGapsBefore: cueGaps(positionsBefore(log, index), cue, table),
  };
}
