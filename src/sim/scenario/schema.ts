/**
 * cueref.scenario/1 — what the simulator plays: a game on a table, an opening layout, and a
 * sequence of strokes with injected non-physical events. Documented in docs/simulate.md.
 * Raw JSON is validated here; `parseScenario` turns zod issues into an InputError naming the
 * stroke and field.
 */
import { z } from 'zod';
import { eventSchema } from '../../core/contracts/strokes.js';
import { DECISIONS } from '../../core/contracts/strokes.js';
import { InputError } from '../../core/errors.js';
import { GAMES, POCKETS } from '../../core/games.js';
import { physicsOverrideSchema } from '../physics/params.js';

const finite = z.number().finite();
const point = z.object({ x: finite, y: finite }).strict();
const ballId = z.string().min(1);
const player = z.union([z.literal(0), z.literal(1)]);
const pocket = z.enum(POCKETS);

export const aimSchema = z.union([
  z.object({ ball: ballId, pocket, adjustDeg: finite.min(-20).max(20).optional() }).strict(),
  z.object({ ball: ballId, cutDeg: finite.min(-89).max(89) }).strict(),
  z.object({ directionDeg: finite }).strict(),
  z.object({ towards: point }).strict(),
]);
export type Aim = z.infer<typeof aimSchema>;

export const spinSchema = z
  .object({
    /** −1 full screw … 0 centre (stun) … 1 full top (tip offset as a fraction of R/2). */
    top: finite.min(-1).max(1).default(0),
    /** −1 full left … 1 full right. */
    side: finite.min(-1).max(1).default(0),
  })
  .strict();

/** What a found stroke must achieve (all given conditions hold). */
export const goalSchema = z
  .object({
    /** Balls that must be potted, each in the given pocket (or any pocket). */
    pots: z.array(z.object({ ball: ballId, pocket: pocket.optional() }).strict()).optional(),
    /** No ball other than those in `pots` may be potted (the cue ball included). */
    onlyThese: z.boolean().optional(),
    /** The cue ball's first contact (null: it touches no ball). */
    firstContact: ballId.nullable().optional(),
    /** At rest the cue ball is snookered on all of `on` (no straight path to any part of any). */
    snookeredOn: z.array(ballId).min(1).optional(),
    /** …and `behind` blocks at least one of those paths. */
    behind: ballId.optional(),
    /** The cue ball comes to rest within `withinMm` of this point. */
    cueBallNear: z.object({ x: finite, y: finite, withinMm: finite.positive() }).strict().optional(),
    /** At least this many distinct object balls touch a cushion. */
    ballsToCushion: z.number().int().min(1).optional(),
  })
  .strict();
export type Goal = z.infer<typeof goalSchema>;

export const findSchema = z
  .object({
    goal: goalSchema,
    /** Aim at this ball (cut angles are searched around it); default: the first ball in goal.pots. */
    ball: ballId.optional(),
    speedsMmPerS: z.array(finite.positive().max(15000)).min(1).optional(),
    spins: z.array(spinSchema).min(1).optional(),
    /** Range and step of the searched cut angle (or direction when no ball), degrees. */
    cutRangeDeg: z.tuple([finite, finite]).optional(),
    stepDeg: finite.positive().max(10).optional(),
  })
  .strict();
export type FindSpec = z.infer<typeof findSchema>;

export const injectSchema = z.discriminatedUnion('type', [
  /** A ball touched before the strike by a hand, sleeve, rest…: it moves by (dx, dy). */
  z.object({ type: z.literal('touch'), ball: ballId, by: z.enum(['cue', 'hand', 'clothing', 'rest', 'other']), moveMm: point.partial().optional() }).strict(),
  /** A ball put on the table by hand (a referee respotting a colour, a ball replaced). */
  z.object({ type: z.literal('place'), ball: ballId, spot: z.string().optional(), x: finite.optional(), y: finite.optional() }).strict(),
  /** A ball taken off the table by hand (it was never there for this stroke). */
  z.object({ type: z.literal('remove'), ball: ballId }).strict(),
  /**
   * A ball left hanging over a pocket edge drops after the balls stop: `hanging` at the stop, `pot`
   * `afterRestS` later (rules-snooker.md §10.2, rules-pool8.md P32/P33). The ball must be on the
   * table when the stroke ends (put it on the lip with `start` or a `place`).
   */
  z.object({ type: z.literal('drop'), ball: ballId, pocket, afterRestS: finite.min(0).max(60) }).strict(),
]);
export type Inject = z.infer<typeof injectSchema>;

const expectSchema = z
  .object({
    pots: z.array(z.object({ ball: ballId, pocket: pocket.optional() }).strict()).optional(),
    /** No other ball is potted. */
    onlyThese: z.boolean().optional(),
    firstContact: ballId.nullable().optional(),
    offTable: z.array(ballId).optional(),
    /** Foul codes the referee must call (checked by the scenario-library test when the game's referee exists). */
    fouls: z.array(z.string()).optional(),
    legal: z.boolean().optional(),
    freeBall: z.boolean().optional(),
    snookered: z.boolean().optional(),
    frameOver: z.boolean().optional(),
    /** The referee called a miss. */
    miss: z.boolean().optional(),
    /** Balls the referee must respot, and on which spot (`nearest` when every spot was taken). */
    respot: z.array(z.object({ ball: ballId, spot: z.string().optional() }).strict()).optional(),
  })
  .strict();
export type Expect = z.infer<typeof expectSchema>;

export const scenarioStrokeSchema = z
  .object({
    note: z.string().optional(),
    player: player.optional(),
    /** Cue ball in hand: where it is placed (default: the game's usual spot, e.g. in the D). */
    place: point.optional(),
    /** The ball the cue strikes (default the cue ball; another id gives WRONG_CUE_BALL). */
    strikeBall: ballId.optional(),
    aim: aimSchema.optional(),
    find: findSchema.optional(),
    speedMmPerS: finite.positive().max(15000).optional(),
    spin: spinSchema.optional(),
    nominated: ballId.optional(),
    calledBall: ballId.optional(),
    calledPocket: z.union([pocket, z.literal('safety')]).optional(),
    decision: z.enum(DECISIONS).optional(),
    touching: z.array(ballId).optional(),
    /**
     * Strike this many seconds after the previous stroke's strike, even if balls are still moving
     * (STRUCK_WHILE_MOVING): no placements or respots happen in between.
     */
    strikeAfterS: finite.positive().max(60).optional(),
    /** The cue ball jumps this ball (a jump shot): no collision while passing over it. */
    jumpOver: ballId.optional(),
    /** Balls that fly off the table at their n-th cushion contact of this stroke. */
    jumpOff: z.array(z.object({ ball: ballId, atCushion: z.number().int().min(1).default(1) }).strict()).optional(),
    /** Non-physical happenings before the strike. */
    inject: z.array(injectSchema).optional(),
    /** Contract events added verbatim (foul, miss, concede, requestEnd, lots, push, doubleHit…); `t` is seconds after the strike (negative = before). */
    events: z.array(z.looseObject({ t: finite, type: z.string() })).optional(),
    /** Colours put back before this stroke: `auto` (as the referee rules), `none`, or a list. */
    respot: z.union([z.literal('auto'), z.literal('none'), z.array(z.object({ ball: ballId, x: finite, y: finite }).strict())]).optional(),
    expect: expectSchema.optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    if (!s.aim && !s.find) ctx.addIssue({ code: 'custom', message: 'a stroke needs `aim` (ball+pocket, ball+cutDeg, directionDeg or towards) or `find` (a goal for the stroke finder)', path: ['aim'] });
    if (s.aim && s.find) ctx.addIssue({ code: 'custom', message: 'give either `aim` or `find`, not both', path: ['find'] });
    if (s.strikeAfterS !== undefined && (s.place || s.inject?.length || s.decision === 'replace')) ctx.addIssue({ code: 'custom', message: 'a stroke struck while balls still move (`strikeAfterS`) has no time for placements, injections or a replacement', path: ['strikeAfterS'] });
    if (s.aim && s.speedMmPerS === undefined) ctx.addIssue({ code: 'custom', message: '`speedMmPerS` is required with `aim` (e.g. 1500 for a medium-pace pot)', path: ['speedMmPerS'] });
  });
export type ScenarioStroke = z.infer<typeof scenarioStrokeSchema>;

export const scenarioSchema = z
  .object({
    format: z.literal('cueref.scenario/1'),
    name: z.string().min(1),
    description: z.string().optional(),
    game: z.enum(GAMES),
    /** A built-in profile name or an inline cueref.table/1 object (default: the game's standard table). */
    table: z.union([z.string(), z.record(z.string(), z.unknown())]).optional(),
    variant: z.string().optional(),
    players: z.tuple([z.string(), z.string()]).optional(),
    /** Camera kinds the scenario is meant for (the library covers overhead and broadcast). */
    cameras: z.array(z.enum(['overhead', 'broadcast', 'oblique'])).optional(),
    seed: z.number().int().min(0).optional(),
    start: z
      .object({
        balls: z.union([z.literal('standard'), z.array(z.object({ id: ballId, x: finite, y: finite }).strict())]).default('standard'),
        /** With `standard`: balls taken away and balls moved (to build a position from the rack). */
        remove: z.array(ballId).optional(),
        move: z.array(z.object({ id: ballId, x: finite, y: finite }).strict()).optional(),
        player: player.optional(),
        scores: z.tuple([finite, finite]).optional(),
        ballOn: z.union([z.string(), z.array(z.string())]).optional(),
        redsLeft: z.number().int().min(0).max(15).optional(),
        inHand: z.boolean().optional(),
        pyramidGapMm: finite.min(0).max(10).optional(),
        rackGapMm: finite.min(0).max(5).optional(),
      })
      .strict()
      .default({ balls: 'standard' }),
    config: z.record(z.string(), z.unknown()).optional(),
    physics: physicsOverrideSchema.optional(),
    timing: z
      .object({
        /** Still frames before the first placement, s. */
        leadInS: finite.min(0).max(30).default(0.5),
        /** Time from placements (cue ball in hand, respots) to the strike, s. */
        placeToStrikeS: finite.min(0.05).max(30).default(0.6),
        /** Time after all balls stop before the next placements, s. */
        afterRestS: finite.min(0.05).max(30).default(0.8),
        /** Still frames after the last stroke, s. */
        tailS: finite.min(0).max(30).default(0.5),
      })
      .strict()
      .default({ leadInS: 0.5, placeToStrikeS: 0.6, afterRestS: 0.8, tailS: 0.5 }),
    strokes: z.array(scenarioStrokeSchema).min(1),
  })
  .strict();
export type Scenario = z.infer<typeof scenarioSchema>;

export function parseScenario(raw: unknown, source = 'scenario'): Scenario {
  const parsed = scenarioSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map(String);
    const field = path.join('.').replace(/\.(\d+)(?=\.|$)/g, '[$1]') || '(root)';
    const info: ConstructorParameters<typeof InputError>[0] = {
      code: 'BAD_SCENARIO',
      field,
      message: `${source} is not a valid cueref.scenario/1: ${issue.message} (see docs/simulate.md)`,
    };
    if (path[0] === 'strokes' && path[1] !== undefined) info.stroke = Number(path[1]);
    throw new InputError(info);
  }
  // Injected contract events are checked against the stroke-log contract here, so a typo fails early.
  parsed.data.strokes.forEach((s, i) => {
    s.events?.forEach((e, j) => {
      const r = eventSchema.safeParse({ ...e, t: Math.max(0, e.t) });
      if (!r.success) {
        throw new InputError({ code: 'BAD_SCENARIO', stroke: i, field: `strokes[${i}].events[${j}]`, message: `not a cueref.strokes/1 event: ${r.error.issues[0]!.message}` });
      }
    });
  });
  return parsed.data;
}
