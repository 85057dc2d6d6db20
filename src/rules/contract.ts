/**
 * The game-neutral rules contract: `applyStroke(state, stroke) → {state, call}`. Pure: no I/O, no
 * clock. Fouls are data in the call; only input that cannot be judged (unknown ball, events out of
 * order, a decision the situation does not allow) is an error, returned as a Result.
 */
import type { BaseCall } from '../core/contracts/calls.js';
import type { Stroke, StrokeLog } from '../core/contracts/strokes.js';
import type { InputErrorInfo } from '../core/errors.js';
import type { GameId } from '../core/games.js';
import type { Result } from '../core/result.js';
import type { TableProfile } from '../core/table.js';

export interface StrokeOutcome<S, C extends BaseCall = BaseCall> {
  state: S;
  call: C;
}

export interface RulesEngine<S, C extends BaseCall = BaseCall> {
  readonly game: GameId;
  /** Variants (rule profiles) this engine accepts in the log's `variant`. */
  readonly variants: readonly string[];
  /** Validates the log header (`start`, `variant`, `config`) and builds the opening state. */
  init(log: StrokeLog, table: TableProfile): Result<S, InputErrorInfo>;
  /** Judges one stroke. `index` is only for error messages and the call's `stroke` field. */
  applyStroke(state: S, stroke: Stroke, index: number): Result<StrokeOutcome<S, C>, InputErrorInfo>;
  /** A JSON summary of the state (for `final` in cueref.calls/1 and for live scoreboards). */
  describe(state: S): Record<string, unknown>;
}
