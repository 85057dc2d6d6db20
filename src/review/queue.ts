/**
 * The review queue: the strokes whose call a referee should look at, and why. A stroke is queued
 * when its call carries review entries (the rules' ASSISTED calls and doubts), when an event the
 * call rests on was seen with low confidence, or when a foul was called on an inference the cameras
 * make with doubt (push, double hit, jump; or any foul the rules flag under its own code).
 * Pure: calls and the stroke log in, the queue out, in stroke order.
 */
import type { BaseCall, CallsDoc } from '../core/contracts/calls.js';
import type { StrokeLog } from '../core/contracts/strokes.js';
import { eventLabel } from '../report/labels.js';

/** Fouls a camera only ever infers (docs/rules-snooker.md: ASSISTED), whatever the call's review says. */
export const ASSISTED_FOUL_CODES: ReadonlySet<string> = new Set(['PUSH_STROKE', 'DOUBLE_HIT', 'JUMP_SHOT']);

/** Events below this confidence queue their stroke (the rules' own review threshold). */
export const DEFAULT_MIN_CONF = 0.8;

export type FlagReason =
  | { kind: 'review'; code: string; reason: string; conf: number; ask?: string }
  | { kind: 'lowConfidence'; event: number; type: string; label: string; conf: number }
  | { kind: 'assistedFoul'; code: string; detail: string };

export interface QueueEntry {
  stroke: number;
  reasons: FlagReason[];
}

export function flagReasons(call: BaseCall, log: StrokeLog, minConf = DEFAULT_MIN_CONF): FlagReason[] {
  const reasons: FlagReason[] = call.review.map((r) => ({ kind: 'review' as const, code: r.code, reason: r.reason, conf: r.conf, ...(r.ask ? { ask: r.ask } : {}) }));
  const events = log.strokes[call.stroke]?.events ?? [];
  events.forEach((e, k) => {
    if (e.conf !== undefined && e.conf < minConf) reasons.push({ kind: 'lowConfidence', event: k, type: e.type, label: eventLabel(e), conf: e.conf });
  });
  const reviewed = new Set(call.review.map((r) => r.code));
  for (const f of call.fouls) {
    if (ASSISTED_FOUL_CODES.has(f.code) || reviewed.has(f.code)) reasons.push({ kind: 'assistedFoul', code: f.code, detail: f.detail });
  }
  return reasons;
}

/**
 * Queue from the proposals (calls.json) and, when given, the calls as they stand after decisions:
 * a stroke stays queued once decided (the referee can change his mind), and a stroke a decision
 * newly puts in doubt joins the queue.
 */
export function buildQueue(log: StrokeLog, proposals: CallsDoc, current?: CallsDoc, minConf = DEFAULT_MIN_CONF): QueueEntry[] {
  const byStroke = new Map<number, FlagReason[]>();
  for (const doc of current ? [proposals, current] : [proposals]) {
    for (const c of doc.calls) {
      if (byStroke.has(c.stroke)) continue;
      const reasons = flagReasons(c, log, minConf);
      if (reasons.length) byStroke.set(c.stroke, reasons);
    }
  }
  return [...byStroke].sort((a, b) => a[0] - b[0]).map(([stroke, reasons]) => ({ stroke, reasons }));
}
