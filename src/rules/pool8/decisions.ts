/**
 * The choices between strokes (spec §5 decisions): the pending option answered by the next
 * stroke's `decision`, new racks and who breaks them.
 */
import type { Decision, Stroke } from '../../core/contracts/strokes.js';
import type { InputErrorInfo } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';
import { freshRack, other, type Player, type Pool8State } from './state.js';

/** Reset the balls for a new rack broken by `breaker` (on the engine's working copy of the state). */
export function newRack(s: Pool8State, breaker: Player): void {
  s.rack += 1;
  s.balls = freshRack(s.table);
  s.breaker = breaker;
  s.shooter = breaker;
  s.atBreak = true;
  s.rackOver = false;
  s.winner = null;
  s.tableOpen = true;
  s.groups = [null, null];
  s.inHand = s.profile.flags.family === 'blackball' ? 'baulk' : 'kitchen';
  s.inHandOptional = false;
  s.kitchenShot = false;
  s.pending = null;
  s.visits = 1;
  s.freeShot = false;
  s.foulRun = 0;
  s.eightMisses = [0, 0];
  s.lastGroupPocket = [null, null];
}

/** Who breaks after a decided rack (`breakOrder`). */
export function nextBreaker(s: Pool8State, winner: Player): Player {
  const o = s.profile.flags.breakOrder;
  return o === 'winner' ? winner : o === 'loser' ? other(winner) : other(s.breaker);
}

const bad = (code: string, stroke: number, field: string, message: string): Result<never, InputErrorInfo> => err({ code, stroke, field, message });

/** Resolve the choice pending from the previous stroke with this stroke's `decision`. */
export function applyDecision(s: Pool8State, stroke: Stroke, index: number): Result<Decision | null, InputErrorInfo> {
  const d = stroke.decision;
  const p = s.pending;
  if (d === 'playAgain' || d === 'replace') {
    return bad('DECISION_NOT_ALLOWED', index, 'decision', `'${d}' is a snooker decision; pool knows play, spot8, rerack, breakAgain, kitchen`);
  }
  if (!p) {
    if (d === undefined || d === 'play') return ok(null);
    if (d === 'kitchen' && s.inHand !== null) {
      // Taking the cue ball in hand where it was optional (blackball): its `before` is a placement.
      s.inHandOptional = false;
      return ok(d);
    }
    return bad('DECISION_NOT_ALLOWED', index, 'decision', `'${d}' is not allowed here: the previous stroke left no choice to make (only 'play')`);
  }
  const chosen: Decision = d ?? 'play';
  const allowed = new Set<Decision>([...p.options, 'play']);
  // B1 and B3 accept `rerack` for the breaker's/decider's re-rack as the spec's decision table does.
  if (p.kind === 'eightOnBreak') allowed.add('rerack');
  if (!allowed.has(chosen)) {
    return bad('DECISION_NOT_ALLOWED', index, 'decision', `'${chosen}' is not an option after the previous stroke (${p.kind}); player ${p.decider} may choose ${[...allowed].join(', ')}`);
  }
  s.pending = null;
  switch (p.kind) {
    case 'eightOnBreak':
      if (chosen === 'breakAgain' || chosen === 'rerack') newRack(s, p.breaker);
      else s.shooter = p.breaker;
      break;
    case 'eightOnBreakFoul':
      if (chosen === 'rerack') newRack(s, p.decider);
      else s.shooter = p.decider;
      break;
    case 'illegalBreak':
      if (chosen === 'rerack') newRack(s, p.decider);
      else if (chosen === 'breakAgain') newRack(s, p.breaker);
      else s.shooter = p.decider;
      break;
    case 'breakFoul':
      s.shooter = p.decider;
      if (chosen === 'kitchen') s.inHandOptional = false;
      break;
  }
  return ok(chosen);
}

