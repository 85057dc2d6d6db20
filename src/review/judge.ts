/**
 * Judge the stroke log again with the referee's decisions applied: the score follows every
 * decision because the rules, not the page, compute it.
 */
import type { BaseCall, CallsDoc } from '../core/contracts/calls.js';
import type { StrokeLog } from '../core/contracts/strokes.js';
import type { InputErrorInfo } from '../core/errors.js';
import { err, ok, type Result } from '../core/result.js';
import type { TableProfile } from '../core/table.js';
import { refereeLog } from '../rules/registry.js';
import { applyDecisions, type Decision } from './decisions.js';

export interface Judged {
  /** strokes.json with every decision applied (what strokes.reviewed.json holds). */
  log: StrokeLog;
  /** The calls of that log (calls.reviewed.json); each decided call carries `reviewed`. */
  calls: CallsDoc;
}

/**
 * Review entries the pipeline added when it repaired the cameras' log (`VISION_*`, see
 * pipeline/reconcile.ts): judging strokes.json again cannot know them, so they are carried over.
 */
const PIPELINE_REVIEW = /^VISION_/;

export function judge(log: StrokeLog, original: CallsDoc, table: TableProfile, decisions: readonly Decision[]): Result<Judged, InputErrorInfo> {
  const applied = applyDecisions(log, decisions);
  if (!applied.ok) return applied;
  const res = refereeLog(applied.value, table);
  if (!res.ok) {
    return err({ ...res.error, message: `the referee refuses the log with these decisions: ${res.error.message}` });
  }
  const byStroke = new Map(decisions.map((d) => [d.stroke, d]));
  const carried = new Map<number, BaseCall['review']>();
  for (const c of original.calls) {
    const kept = c.review.filter((r) => PIPELINE_REVIEW.test(r.code));
    if (kept.length) carried.set(c.stroke, kept);
  }
  const calls = res.value.calls.map((c) => {
    const extra = carried.get(c.stroke);
    const d = byStroke.get(c.stroke);
    const out: BaseCall = extra ? { ...c, review: [...c.review, ...extra.filter((r) => !c.review.some((x) => x.code === r.code))] } : { ...c };
    if (d) out.reviewed = { action: d.action, at: d.at, ...(d.note ? { note: d.note } : {}) };
    return out;
  });
  return ok({ log: applied.value, calls: { ...res.value, calls } });
}
