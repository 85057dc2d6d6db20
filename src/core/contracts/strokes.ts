/**
 * cueref.strokes/1 — the stroke log (../shared/contracts/README.md). Raw JSON is parsed with
 * these schemas at the edge; game-specific checks (ball ids, positions on the bed) are done by
 * each game's rules module, which knows its balls and table.
 */
import { z } from 'zod';
import { GAMES, POCKETS, SIDES } from '../games.js';

const finite = z.number().finite();
const time = finite.nonnegative();
const conf = z.number().min(0).max(1).optional();
const ballId = z.string().min(1);
const player = z.union([z.literal(0), z.literal(1)]);

// Spellings hand-entered logs use that mean exactly one contract value (accepted in addition to it):
// a pool ball id as a JSON number (`8`), a pocket in lower case or by the pool spec's names
// (`HL HR SL SR FL FR` = `BL BR ML MR TL TR`), `SAFETY`, and decisions in any case or separator.
const ballRef = z.preprocess((v) => (typeof v === 'number' && Number.isInteger(v) && v >= 0 ? String(v) : v), ballId);
const SPEC_POCKETS: Readonly<Record<string, (typeof POCKETS)[number]>> = { HL: 'BL', HR: 'BR', SL: 'ML', SR: 'MR', FL: 'TL', FR: 'TR' };
const normPocket = (v: unknown): unknown => {
  if (typeof v !== 'string') return v;
  const u = v.trim().toUpperCase();
  return (POCKETS as readonly string[]).includes(u) ? u : (SPEC_POCKETS[u] ?? v);
};
const pocketIn = z.preprocess(normPocket, z.enum(POCKETS));
const calledPocketIn = z.preprocess(
  (v) => (typeof v === 'string' && v.trim().toLowerCase() === 'safety' ? 'safety' : normPocket(v)),
  z.union([z.enum(POCKETS), z.literal('safety')]),
);

export const ballPosSchema = z.object({ id: ballRef, x: finite, y: finite });
export type BallPos = z.infer<typeof ballPosSchema>;

const ev = <L extends string, T extends z.ZodRawShape>(type: L, shape: T) =>
  z.object({ t: time, type: z.literal(type), conf, ...shape });

export const eventSchema = z.discriminatedUnion('type', [
  ev('strike', { ball: ballRef }),
  ev('contact', { a: ballRef, b: ballRef }),
  ev('cushion', { ball: ballRef, side: z.enum(SIDES), jaw: pocketIn.optional() }),
  ev('pot', { ball: ballRef, pocket: pocketIn }),
  ev('offTable', { ball: ballRef }),
  ev('place', { ball: ballRef, x: finite, y: finite }),
  ev('touch', { ball: ballRef, by: z.enum(['cue', 'hand', 'clothing', 'rest', 'other']) }),
  ev('push', {}),
  ev('doubleHit', {}),
  ev('jump', { ball: ballRef, over: ballRef.optional() }),
  ev('foul', { code: z.string().regex(/^[A-Z][A-Z0-9_]*$/, 'foul codes are UPPER_SNAKE_CASE'), ball: ballRef.optional(), player: player.optional() }),
  ev('concede', { player }),
  ev('requestEnd', { player }),
  ev('lots', { player, first: player.optional() }),
  ev('hanging', { ball: ballRef, pocket: pocketIn }),
  ev('cross', { ball: ballRef, line: z.enum(['baulkLine', 'headString', 'centreLine', 'zone0', 'zone1', 'centreCircle']), dir: z.enum(['in', 'out', 'up', 'down']) }),
  ev('miss', { called: z.boolean() }),
  // Pool: the incoming player's choice is a stroke field; a stroke may also carry a stalemate call.
  ev('stalemate', {}),
  // Novus (spec rules-novus.md §3.1 STACKED): a pawn came to rest on another pawn or on the striker.
  ev('stacked', { ball: ballId, on: ballId }),
]);
export type StrokeEvent = z.infer<typeof eventSchema>;
export type EventType = StrokeEvent['type'];
export type EventOf<K extends EventType> = Extract<StrokeEvent, { type: K }>;

export const DECISIONS = ['play', 'playAgain', 'replace', 'rerack', 'spot8', 'breakAgain', 'kitchen'] as const;
export type Decision = (typeof DECISIONS)[number];
const DECISION_SPELLINGS: Readonly<Record<string, Decision>> = {
  ...Object.fromEntries(DECISIONS.map((d) => [d.toLowerCase(), d])),
  accept: 'play', accepttable: 'play', taketable: 'play',
  spot: 'spot8', spoteight: 'spot8', spotthe8: 'spot8', spot8ball: 'spot8', respot8: 'spot8',
  rebreak: 'breakAgain', breakagain: 'breakAgain', rerackandbreak: 'rerack', rerackbreak: 'rerack',
};
const decisionIn = z.preprocess((v) => (typeof v === 'string' ? (DECISION_SPELLINGS[v.toLowerCase().replace(/[^a-z0-9]/g, '')] ?? v) : v), z.enum(DECISIONS));

export const strokeSchema = z.object({
  t: time.optional(),
  before: z.array(ballPosSchema).optional(),
  nominated: ballRef.optional(),
  calledBall: ballRef.optional(),
  calledPocket: calledPocketIn.optional(),
  decision: decisionIn.optional(),
  touching: z.array(ballRef).optional(),
  events: z.array(eventSchema),
  rest: z.array(ballPosSchema).optional(),
  paths: z.record(ballId, z.array(z.tuple([time, finite, finite]))).optional(),
  /** Player index who is at the table, when the log knows it (for out-of-turn checks). */
  player: player.optional(),
  /** Pool: balls the referee declared frozen to a cushion before the stroke (rail rule, P2). */
  frozen: z.record(ballId, z.array(z.enum(SIDES))).optional(),
  /** Pool (WPA-2025 open-table exception): the group the shooter claims to play the 8. */
  claimGroup: z.enum(['solids', 'stripes']).optional(),
  /** Blackball: the referee confirmed the striker's total-snooker declaration (no cushion rule). */
  totalSnooker: z.boolean().optional(),
});
export type Stroke = z.infer<typeof strokeSchema>;

export const strokeLogSchema = z.object({
  format: z.literal('cueref.strokes/1'),
  game: z.enum(GAMES),
  variant: z.string().optional(),
  players: z.tuple([z.string(), z.string()]).optional(),
  start: z
    .object({
      player: player.optional(),
      scores: z.tuple([finite, finite]).optional(),
      balls: z.union([z.literal('standard'), z.array(ballPosSchema)]).optional(),
      // Joining a frame midway (snooker): what is on and how many reds are left.
      ballOn: z.union([z.string(), z.array(z.string())]).optional(),
      redsLeft: z.number().int().min(0).max(15).optional(),
      inHand: z.boolean().optional(),
    })
    .loose()
    .optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  table: z.unknown().optional(),
  /**
   * The camera's frame interval, s, when the log was read from video: the referee's tie window
   * (τ_tie, rules-snooker.md §3) is max(the game's tie, half a frame), since contacts less than
   * half a frame apart are ordered by interpolation, not by what a frame showed.
   */
  frameS: z.number().positive().max(1).optional(),
  strokes: z.array(strokeSchema),
});
export type StrokeLog = z.infer<typeof strokeLogSchema>;
/** What the cameras cannot see of a frame joined midway: the score, the player at the table, snooker's ball on. */
export type FrameStart = Pick<NonNullable<StrokeLog['start']>, 'scores' | 'player' | 'ballOn'>;
