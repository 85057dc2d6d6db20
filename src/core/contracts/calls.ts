/** cueref.calls/1 — what the referee decided (../shared/contracts/README.md). */
import type { GameId } from '../games.js';

export interface FoulCall {
  code: string;
  penalty: number;
  ball?: string;
  detail: string;
}

export interface ReviewEntry {
  code: string;
  reason: string;
  conf: number;
  /** What the referee is asked to decide. */
  ask?: string;
}

export interface RespotCall {
  ball: string;
  x: number;
  y: number;
  /** The spot used, or `nearest` when every spot was taken. */
  spot: string;
}

/** Fields every game's call carries. Games add their own (snooker: freeBall, snookered…). */
export interface BaseCall {
  stroke: number;
  player: 0 | 1;
  legal: boolean;
  potted: string[];
  points: number;
  fouls: FoulCall[];
  penalty: number;
  scores: [number, number];
  nextPlayer: 0 | 1;
  inHand: boolean;
  frameOver: boolean;
  winner: 0 | 1 | null;
  review: ReviewEntry[];
  /** One line a person can read: what happened and what was called. */
  summary: string;
  [extra: string]: unknown;
}

export interface CallsDoc {
  format: 'cueref.calls/1';
  game: GameId;
  variant?: string;
  players?: [string, string];
  calls: BaseCall[];
  /** The state after the last stroke, for a reader who wants to continue (live mode). */
  final?: Record<string, unknown>;
}
