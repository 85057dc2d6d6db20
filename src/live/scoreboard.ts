/**
 * What the scoreboard shows, game-neutral, from the rules engine's `describe()` and the last call.
 * One exhaustive switch over the games (each engine describes its state its own way).
 */
import type { BaseCall } from '../core/contracts/calls.js';
import { assertNever, type GameId } from '../core/games.js';

export interface Scoreboard {
  players: [string, string];
  scores: [number, number];
  /** Who plays next (0 or 1). */
  toPlay: 0 | 1;
  /** The current break (snooker), else null. */
  break: number | null;
  /** What the player at the table is on, in words (`red`, `yellow`, `solids`, `open table`…). */
  ballOn: string[];
  /** One more line of game state (reds left, groups, set), or ''. */
  detail: string;
  frameOver: boolean;
  winner: 0 | 1 | null;
}

/** A call as the page lists it. */
export interface CallView {
  stroke: number;
  player: 0 | 1;
  summary: string;
  legal: boolean;
  fouls: { code: string; penalty: number; detail: string }[];
  points: number;
  scores: [number, number];
  nextPlayer: 0 | 1;
  break: number | null;
  review: { code: string; reason: string }[];
}

const num = (v: unknown, d = 0): number => (typeof v === 'number' && Number.isFinite(v) ? v : d);
const pair = (v: unknown): [number, number] => (Array.isArray(v) && v.length === 2 ? [num(v[0]), num(v[1])] : [0, 0]);
const who = (v: unknown): 0 | 1 => (v === 1 ? 1 : 0);
const strs = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

export function scoreboardOf(game: GameId, players: [string, string], final: Record<string, unknown> | null): Scoreboard {
  const base: Scoreboard = { players, scores: [0, 0], toPlay: 0, break: null, ballOn: [], detail: '', frameOver: false, winner: null };
  if (!final) return base;
  const winner = final.winner === 0 || final.winner === 1 ? final.winner : null;
  switch (game) {
    case 'snooker': {
      const ballOn = strs(final.ballOn);
      return {
        ...base,
        scores: pair(final.scores),
        toPlay: who(final.striker),
        break: num(final.break),
        // Six colours after a red: "any colour" reads better than the list.
        ballOn: ballOn.length === 6 ? ['any colour'] : ballOn,
        detail: `reds left ${num(final.redsLeft)}, ${num(final.pointsRemaining)} on the table${final.freeBall === true ? ', free ball' : ''}${final.inHand === true ? ', ball in hand' : ''}`,
        frameOver: final.frameOver === true,
        winner,
      };
    }
    case 'pool8': {
      const next = who(final.nextPlayer);
      const groups = Array.isArray(final.groups) ? final.groups : [];
      const g = groups[next];
      const ballOn = final.tableOpen === true || typeof g !== 'string' ? ['open table'] : [g];
      return {
        ...base,
        scores: pair(final.scores),
        toPlay: next,
        ballOn,
        detail: `rack ${num(final.rack, 1)}${final.inHand === true ? ', ball in hand' : ''}`,
        frameOver: final.rackOver === true,
        winner,
      };
    }
    case 'novus': {
      return {
        ...base,
        scores: pair(final.scores),
        toPlay: who(final.toPlay),
        detail: `set ${num(final.set, 1)}, sets ${pair(final.setScores).join('–')}`,
        frameOver: final.setOver === true,
        winner: final.setWinner === 0 || final.setWinner === 1 ? final.setWinner : winner,
      };
    }
    default:
      return assertNever(game);
  }
}

export function callView(c: BaseCall): CallView {
  return {
    stroke: c.stroke,
    player: c.player,
    summary: c.summary,
    legal: c.legal,
    fouls: c.fouls.map((f) => ({ code: f.code, penalty: f.penalty, detail: f.detail })),
    points: c.points,
    scores: c.scores,
    nextPlayer: c.nextPlayer,
    break: typeof c.break === 'number' ? c.break : null,
    review: c.review.map((r) => ({ code: r.code, reason: r.reason })),
  };
}
