/**
 * What a judge (break or normal shot) decided, before it is applied to the state and written as a
 * call. Keeping the decision as data lets the break and shot judges stay small and the engine apply
 * every outcome the same way.
 */
import type { FoulCall, ReviewEntry } from '../../core/contracts/calls.js';
import type { PocketId } from '../../core/games.js';
import type { Group } from './balls.js';
import type { InHandZone } from './profiles.js';
import type { PendingChoice, Player } from './state.js';

export interface Verdict {
  fouls: FoulCall[];
  /** The rack is decided on this stroke: the winner. */
  rackWinner: Player | null;
  /** The break is replayed on a fresh rack (blackball black on the break): who breaks it. */
  rerackBreaker: Player | null;
  /** The rack ends drawn (stalemate): re-racked, the original breaker breaks again. */
  stalemate: boolean;
  /** Who plays next (ignored when the rack is over). */
  next: Player;
  /** Visits the next player has, counting the one he starts (1 unless a visits profile says more). */
  nextVisits: number;
  /** The next shot is a blackball free shot. */
  nextFreeShot: boolean;
  nextInHand: InHandZone | null;
  nextInHandOptional: boolean;
  /** The next shot is played from the kitchen after a break foul (P4 applies). */
  nextKitchenShot: boolean;
  pending: PendingChoice | null;
  /** Groups after the stroke (shooter's group first known here). */
  assign: { player: Player; group: Group } | null;
  /** Balls to put back on the long string (the 8 after B1/B2, blackball balls off the table). */
  spot: string[];
  /** Balls the rules put in a pocket for the opponent (Brazil). */
  awarded: string[];
  breakLegal: boolean | null;
  /** The shooter's call for this shot, as judged (explicit or inferred), and whether it was made. */
  call: { ball: string; pocket: PocketId | 'safety'; inferred: boolean } | null;
  callFulfilled: boolean | null;
  points: number;
  review: ReviewEntry[];
  /** What happened, for the summary line. */
  notes: string[];
  /** Failed shot at the 8 (Canada's three misses). */
  eightMiss: boolean;
}

export function baseVerdict(next: Player): Verdict {
  return {
    fouls: [],
    rackWinner: null,
    rerackBreaker: null,
    stalemate: false,
    next,
    nextVisits: 1,
    nextFreeShot: false,
    nextInHand: null,
    nextInHandOptional: false,
    nextKitchenShot: false,
    pending: null,
    assign: null,
    spot: [],
    awarded: [],
    breakLegal: null,
    call: null,
    callFulfilled: null,
    points: 0,
    review: [],
    notes: [],
    eightMiss: false,
  };
}
