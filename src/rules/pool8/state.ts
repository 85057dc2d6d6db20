/**
 * The 8-ball rack state (spec §2) and its opening from the log header. Plain data, copied on every
 * stroke: the engine never mutates a state it was given.
 */
import { z } from 'zod';
import type { ReviewEntry } from '../../core/contracts/calls.js';
import type { Decision, StrokeLog } from '../../core/contracts/strokes.js';
import type { InputErrorInfo } from '../../core/errors.js';
import type { PocketId } from '../../core/games.js';
import { err, ok, type Result } from '../../core/result.js';
import type { TableProfile } from '../../core/table.js';
import { checkPositions, tieWindowS } from '../validate.js';
import { CUE, EIGHT, GROUPS, KNOWN_IDS, OBJECT_BALLS, groupOf, normaliseId, otherGroup, radiusOf, standardRack, type Group } from './balls.js';
import { resolveProfile, type InHandZone, type Pool8Profile } from './profiles.js';

export type Player = 0 | 1;

export interface BallState {
  /** `table`: on the bed; `pocketed`: in `pocket`; `off`: left the table and not put back. */
  where: 'table' | 'pocketed' | 'off';
  pocket?: PocketId;
  /** Last known position on the bed, mm (absent when the log never gave one). */
  x?: number;
  y?: number;
}

/**
 * A choice the incoming (or breaking) player must make before the next stroke: the spec's break
 * cases B1–B5 and the blackball illegal break. `options` are the decisions the next stroke may carry.
 */
export interface PendingChoice {
  kind: 'eightOnBreak' | 'eightOnBreakFoul' | 'illegalBreak' | 'breakFoul';
  decider: Player;
  options: Decision[];
  /** The player who broke (B1 `breakAgain`, B3 `breakAgain`). */
  breaker: Player;
  /** Zone the cue ball comes with when the decider plays on (a scratch on an illegal break). */
  zone: InHandZone | null;
}

export interface Pool8State {
  profile: Pool8Profile;
  table: TableProfile;
  /** Racks decided in this log, per player. */
  scores: [number, number];
  rack: number;
  /** Who broke (or is to break) this rack. */
  breaker: Player;
  /** Who plays the next stroke (absent a pending choice that changes it). */
  shooter: Player;
  /** The next stroke is a break shot of a fresh rack. */
  atBreak: boolean;
  /** The rack is decided; the next stroke breaks a new rack. */
  rackOver: boolean;
  winner: Player | null;
  tableOpen: boolean;
  groups: [Group | null, Group | null];
  balls: Record<string, BallState>;
  /** Cue ball in hand for the next shooter, and where; `inHandOptional`: he may also play it where it lies. */
  inHand: InHandZone | null;
  inHandOptional: boolean;
  /** The shot follows a break foul with the cue ball in hand in the kitchen: P4 (3.11) applies. */
  kitchenShot: boolean;
  pending: PendingChoice | null;
  /** Visits the shooter has left, counting the current one (blackball two visits, two-shot variants). */
  visits: number;
  /** The next shot is a blackball free shot. */
  freeShot: boolean;
  /** Consecutive fouls, either player (Russia's three-foul stalemate). */
  foulRun: number;
  /** No stroke judged yet and the log's `start.player` absent: the first stroke's `player` says who starts. */
  starterOpen: boolean;
  /** Notes for the first call (config keys that were ignored). */
  notices: ReviewEntry[];
  /** Failed shots at the 8 in a row, per player (Canada). */
  eightMisses: [number, number];
  /** Pocket of each player's last group ball (last-pocket variants). */
  lastGroupPocket: [PocketId | null, PocketId | null];
}

export const other = (p: Player): Player => (p === 0 ? 1 : 0);

export function freshRack(table: TableProfile): Record<string, BallState> {
  const balls: Record<string, BallState> = { [CUE]: { where: 'table' } };
  for (const b of standardRack(table)) balls[b.id] = { where: 'table', x: b.x, y: b.y };
  return balls;
}

export function onTable(s: Pool8State, id: string): boolean {
  return s.balls[id]?.where === 'table';
}

export function objectBallsOnTable(s: Pool8State): string[] {
  return OBJECT_BALLS.filter((b) => onTable(s, b));
}

/** Positions known for balls on the bed (for spotting and placement checks). */
export function knownPositions(s: Pool8State): { id: string; x: number; y: number }[] {
  const out: { id: string; x: number; y: number }[] = [];
  for (const [id, b] of Object.entries(s.balls)) {
    if (b.where === 'table' && b.x !== undefined && b.y !== undefined) out.push({ id, x: b.x, y: b.y });
  }
  return out;
}

/** Group names users write: solids/stripes, low/high (US), reds/yellows (blackball: 1–7 red, 9–15 yellow). */
const GROUP_WORDS: Record<string, Group> = { solids: 'solids', solid: 'solids', low: 'solids', lows: 'solids', reds: 'solids', red: 'solids', stripes: 'stripes', stripe: 'stripes', high: 'stripes', highs: 'stripes', yellows: 'stripes', yellow: 'stripes' };
const groupSchema = z.preprocess((v) => (typeof v === 'string' ? (GROUP_WORDS[v.toLowerCase()] ?? v) : v), z.enum(GROUPS as [Group, ...Group[]]).nullable());
/** Groups as a pair `[p0, p1]` or an object `{"0": …, "1": …}`. */
const groupsSchema = z.preprocess(
  (v) => (v && typeof v === 'object' && !Array.isArray(v) ? [(v as Record<string, unknown>)['0'] ?? null, (v as Record<string, unknown>)['1'] ?? null] : v),
  z.tuple([groupSchema, groupSchema]),
);
/** Extra `start` fields a log may give to join a rack midway (the contract's `start` is open). */
const startExtraSchema = z.object({
  groups: groupsSchema.optional(),
  /** What the starting player is on: a group name, the 8, or a list of ball ids (their group). */
  ballOn: z.union([z.string(), z.array(z.string())]).optional(),
  tableOpen: z.boolean().optional(),
  inHandZone: z.enum(['anywhere', 'kitchen', 'baulk']).optional(),
  isBreak: z.boolean().optional(),
  breaker: z.union([z.literal(0), z.literal(1)]).optional(),
});

/**
 * The starting player's group from `start.ballOn`: a group word, ball ids of one group, or the 8
 * (then the group already cleared). Null = open table (`ballOn` lists both groups).
 */
function groupFromBallOn(on: string | string[], balls: Record<string, BallState>): Group | null | 'bad' {
  const list = Array.isArray(on) ? on : [on];
  const words = new Set<Group | 'eight' | null>(list.map((x) => GROUP_WORDS[x.toLowerCase()] ?? (x === EIGHT ? 'eight' : groupOf(x))));
  if (words.has(null) || words.size === 0) return 'bad';
  if (words.size === 1 && words.has('eight')) {
    const cleared = GROUPS.filter((g) => OBJECT_BALLS.every((b) => groupOf(b) !== g || balls[b]!.where !== 'table'));
    return cleared.length === 1 ? cleared[0]! : 'bad';
  }
  words.delete('eight');
  if (words.size === 2) return null;
  return [...words][0] as Group;
}

export function initState(log: StrokeLog, table: TableProfile): Result<Pool8State, InputErrorInfo> {
  const prof = resolveProfile(log.variant, log.config);
  if (!prof.ok) return prof;
  if (table.game !== 'pool8') {
    return err({ code: 'TABLE_GAME_MISMATCH', field: 'table', message: `the pool8 referee needs a pool table profile, got '${table.name}' (${table.game})` });
  }
  const start = log.start ?? {};
  const extra = startExtraSchema.safeParse(start);
  if (!extra.success) {
    const issue = extra.error.issues[0]!;
    return err({ code: 'BAD_START', field: `start.${issue.path.join('.')}`, message: `invalid pool8 start: ${issue.message} (groups: [\"solids\"|\"stripes\"|null, …], inHandZone: anywhere|kitchen|baulk)` });
  }
  const player: Player = start.player ?? 0;
  const scores: [number, number] = start.scores ? [start.scores[0], start.scores[1]] : [0, 0];
  let balls = freshRack(table);
  let atBreak = true;
  if (Array.isArray(start.balls)) {
    start.balls = start.balls.map((b) => ({ ...b, id: normaliseId(b.id) }));
    const bad = checkPositions(start.balls, { table, knownIds: KNOWN_IDS, radiusOf: (id) => radiusOf(table, id) }, 0, 'start.balls');
    if (bad) {
      delete bad.stroke;
      return err(bad);
    }
    balls = { [CUE]: { where: 'pocketed' } };
    for (const id of OBJECT_BALLS) balls[id] = { where: 'pocketed' };
    for (const b of start.balls) balls[b.id] = { where: 'table', x: b.x, y: b.y };
    // A full rack (all 15 object balls listed, no groups) is a break unless the log says otherwise.
    atBreak = extra.data.isBreak ?? (extra.data.groups === undefined && extra.data.ballOn === undefined && OBJECT_BALLS.every((id) => balls[id]!.where === 'table'));
    if (!atBreak && balls[EIGHT]!.where !== 'table') {
      return err({ code: 'BAD_START', field: 'start.balls', message: 'the 8 must be on the table in a rack joined midway (a rack without the 8 is already decided)' });
    }
  }
  let groups = extra.data.groups ?? [null, null];
  if (extra.data.groups === undefined && extra.data.ballOn !== undefined) {
    const g = groupFromBallOn(extra.data.ballOn, balls);
    if (g === 'bad') {
      return err({ code: 'BAD_START', field: 'start.ballOn', message: `cannot tell a group from ballOn ${JSON.stringify(extra.data.ballOn)}: give solids, stripes, 8, or ball ids of one group` });
    }
    if (g !== null) groups = player === 0 ? [g, otherGroup(g)] : [otherGroup(g), g];
  }
  // A rack joined midway with the 8 the only object ball left and nothing said of the groups (a
  // recording started late; the video cannot tell who had which): both groups are down, so whoever
  // shoots is on the 8. Which name each player had no longer decides anything in this rack, so the
  // groups are set only to say that both are cleared (an explicit `tableOpen` keeps the open table).
  const onlyEight = !atBreak && OBJECT_BALLS.every((id) => id === EIGHT || balls[id]!.where !== 'table');
  if (onlyEight && extra.data.groups === undefined && extra.data.ballOn === undefined && extra.data.tableOpen === undefined) groups = ['solids', 'stripes'];
  if ((groups[0] === null) !== (groups[1] === null) || (groups[0] !== null && groups[0] === groups[1])) {
    return err({ code: 'BAD_START', field: 'start.groups', message: 'groups must be both null (open table) or one solids and one stripes' });
  }
  // A cue ball not listed in a midway start is in hand (it was potted).
  const cueInHand = start.inHand === true || balls[CUE]!.where !== 'table';
  if (balls[CUE]!.where !== 'table') balls[CUE] = { where: 'table' };
  const inHand: InHandZone | null = atBreak ? (prof.value.flags.family === 'blackball' ? 'baulk' : 'kitchen') : cueInHand ? (extra.data.inHandZone ?? prof.value.flags.foulZone) : null;
  return ok({
    profile: { ...prof.value, flags: { ...prof.value.flags, tieS: tieWindowS(prof.value.flags.tieS, log.frameS) } },
    table,
    scores,
    rack: 0,
    breaker: extra.data.breaker ?? player,
    shooter: player,
    atBreak,
    rackOver: false,
    winner: null,
    tableOpen: extra.data.tableOpen ?? groups[0] === null,
    groups: [groups[0], groups[1]],
    balls,
    inHand,
    inHandOptional: false,
    kitchenShot: false,
    pending: null,
    visits: 1,
    freeShot: false,
    foulRun: 0,
    starterOpen: start.player === undefined && extra.data.breaker === undefined,
    eightMisses: [0, 0],
    lastGroupPocket: [null, null],
    notices: prof.value.ignoredConfig.length
      ? [{ code: 'CONFIG_IGNORED', reason: `config key ${prof.value.ignoredConfig.join(', ')} is no pool8 rule flag and was ignored (flags: docs/rules-pool8.md)`, conf: 1 }]
      : [],
  });
}
