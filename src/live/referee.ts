/**
 * The referee, one stroke at a time: the game's rules engine (`engineFor`) applied to each stroke
 * as the segmenter hands it out, with the same vision repairs the offline pipeline makes
 * (`refereeVisionLog`: a detector's phantom ball is dropped, never allowed to cost the match its
 * calls), so a live session and `cueref analyze` on the same strokes give the same calls — except
 * for a ball hidden at the start (reconcile.ts step 0): `analyze` sees the whole log and puts it in
 * the opening layout; a live session has judged the earlier strokes already and drops it.
 *
 * Fast path: `dropUnknownBalls` on the new stroke, then `applyStroke` on the kept state — O(1) per
 * stroke. When the rules refuse the stroke, the judged log plus the new stroke goes through
 * `refereeVisionLog` (its repairs only ever touch the new stroke: the earlier ones were accepted)
 * and the state is replayed from the repaired log. A stroke that no repair makes acceptable is
 * refused: no call, a flag, and it is not written to the log (so the log on disk is exactly the
 * strokes that have calls, and a restart replays it to the same calls).
 */
import type { BaseCall, CallsDoc, ReviewEntry } from '../core/contracts/calls.js';
import { strokeSchema, type BallPos, type FrameStart, type Stroke, type StrokeLog } from '../core/contracts/strokes.js';
import { InputError } from '../core/errors.js';
import type { GameId } from '../core/games.js';
import type { TableProfile } from '../core/table.js';
import { dropUnknownBalls, implicitFreeBall, refereeVisionLog } from '../pipeline/reconcile.js';
import { engineFor } from '../rules/registry.js';

/** The log's header: everything of a cueref.strokes/1 document but its strokes. */
export type LogHeader = Omit<StrokeLog, 'strokes'>;

export type RefereeResult = { ok: true; call: BaseCall; judged: Stroke } | { ok: false; reason: string };

export class LiveReferee {
  private readonly engine;
  private header: LogHeader | null = null;
  private state: unknown = undefined;
  /** The strokes as judged (after repairs), index = call index. */
  private readonly judged: Stroke[] = [];
  readonly calls: BaseCall[] = [];

  constructor(
    readonly game: GameId,
    readonly table: TableProfile,
    private readonly players: [string, string] = ['Player 1', 'Player 2'],
    private readonly variant?: string,
    /** A frame joined midway: its score, player at the table and ball on where the camera starts (absent: 0–0, player 0). */
    private readonly start: FrameStart = {},
  ) {
    this.engine = engineFor(game);
  }

  get started(): boolean {
    return this.header !== null;
  }

  get logHeader(): LogHeader | null {
    return this.header;
  }

  get playerNames(): [string, string] {
    return this.header?.players ?? this.players;
  }

  /** The header for a new frame whose opening layout the cameras saw. */
  headerFor(balls: BallPos[]): LogHeader {
    const h: LogHeader = { format: 'cueref.strokes/1', game: this.game, players: this.players, start: { player: 0, scores: [0, 0], ...this.start, balls }, table: this.table };
    if (this.variant !== undefined) h.variant = this.variant;
    return h;
  }

  /** Start judging under a header (a new frame's, or the one read back from the log). */
  begin(header: LogHeader): void {
    if (header.game !== this.game) {
      throw new InputError({ code: 'LIVE_LOG_GAME_MISMATCH', field: 'game', message: `the live log is a ${header.game} frame, not ${this.game}: use another --out folder or --game ${header.game}` });
    }
    const init = this.engine.init({ ...header, strokes: [] }, this.table);
    if (!init.ok) throw new InputError({ ...init.error, code: `LIVE_LOG_${init.error.code}`, message: `the live log's header is refused by the referee: ${init.error.message}` });
    this.header = header;
    this.state = init.value;
    this.judged.length = 0;
    this.calls.length = 0;
  }

  /** Judge the next stroke. */
  add(raw: Stroke): RefereeResult {
    if (!this.header) throw new Error('LiveReferee.add before begin()');
    const parsed = strokeSchema.safeParse(raw);
    if (!parsed.success) return { ok: false, reason: `the events stage wrote an invalid stroke: ${parsed.error.issues[0]!.message}` };
    const stroke = parsed.data;
    const i = this.judged.length;
    const one = dropUnknownBalls({ ...this.header, strokes: [stroke] });
    let candidate = one.log.strokes[0]!;
    let out = this.engine.applyStroke(this.state, candidate, i);
    const repairs = [...one.repairs];
    if (out.ok) {
      // A free ball played with no nomination heard (see pipeline/reconcile.ts, step 3).
      const nom = implicitFreeBall(this.game, this.calls.at(-1), candidate, out.value.call, i);
      if (nom) {
        const again = this.engine.applyStroke(this.state, nom.stroke, i);
        if (again.ok) {
          candidate = nom.stroke;
          out = again;
          repairs.push(nom.repair);
        }
      }
    }
    if (out.ok) {
      const call = repairs.length ? withReview(out.value.call, repairs.map((r) => ({ code: r.code, reason: r.reason, conf: r.conf ?? 0, ...(r.ask ? { ask: r.ask } : {}) }))) : out.value.call;
      this.state = out.value.state;
      this.judged.push(candidate);
      this.calls.push(call);
      return { ok: true, call, judged: candidate };
    }
    // Slow path: the offline repairs, on the judged log plus this stroke.
    // Without step 0 (hidden balls put in the opening layout): the live state began from the
    // header's layout, and a ball admitted to it now would be unknown to the replay below. A live
    // session judges each stroke as it comes, so a ball hidden at the start is dropped as before.
    const full = refereeVisionLog({ ...this.header, strokes: [...this.judged, stroke] }, this.table, undefined, { admitHidden: false });
    if (!full.ok) return { ok: false, reason: `the referee refused the stroke: ${full.error.message}` };
    const judged = full.value.log.strokes[i]!;
    const call = full.value.calls.calls[i]!;
    // Replay for the state after the repaired stroke (rare: only when a repair was needed).
    const init = this.engine.init({ ...this.header, strokes: [] }, this.table);
    if (!init.ok) return { ok: false, reason: init.error.message };
    let state = init.value;
    for (let k = 0; k <= i; k++) {
      const r = this.engine.applyStroke(state, full.value.log.strokes[k]!, k);
      if (!r.ok) return { ok: false, reason: r.error.message };
      state = r.value.state;
    }
    this.state = state;
    this.judged.push(judged);
    this.calls.push(call);
    return { ok: true, call, judged };
  }

  /** The game's state summary (`describe`), for the scoreboard. */
  describe(): Record<string, unknown> | null {
    return this.header ? this.engine.describe(this.state) : null;
  }

  /** cueref.calls/1 for everything judged so far. */
  callsDoc(): CallsDoc {
    const doc: CallsDoc = { format: 'cueref.calls/1', game: this.game, calls: [...this.calls] };
    const final = this.describe();
    if (final) doc.final = final;
    if (this.header?.variant !== undefined) doc.variant = this.header.variant;
    doc.players = this.playerNames;
    return doc;
  }
}

function withReview(call: BaseCall, extra: ReviewEntry[]): BaseCall {
  return { ...call, review: [...call.review, ...extra] };
}
