/**
 * Set and match scoring (spec §11; LNF-comp): a set is won by the first player with all 8 pawns
 * pocketed and no penalty debt; the first-series clean sweep; the match ends at `setsToWin` set
 * wins or after `maxSets` sets (a level result is a draw, as the protocol's 3:3 allows).
 */
import type { NovusState } from './state.js';
import { other, PAWNS_PER_PLAYER } from './state.js';
import type { Player } from './geometry.js';

/** A player has finished: no pawn of his left on the board and no debt outstanding. */
export const cleared = (s: NovusState, p: Player): boolean => s.pocketed[p].length === PAWNS_PER_PLAYER && s.debt[p] === 0;

/** Record a set's end (mutates the clone the engine works on) and decide the match. */
export function finishSet(s: NovusState, winner: Player): void {
  s.set.over = true;
  s.set.winner = winner;
  s.setScores[winner] += 1;
  s.setsPlayed += 1;
  const { maxSets, setsToWin } = s.config;
  if (s.setScores[winner] >= setsToWin) {
    s.matchOver = true;
    s.matchWinner = winner;
  } else if (s.setsPlayed >= maxSets) {
    s.matchOver = true;
    s.matchWinner = s.setScores[0] === s.setScores[1] ? null : s.setScores[0] > s.setScores[1] ? 0 : 1;
  }
}

/** The match is lost outright (loss of game, spec §8: all MANUAL, or a third warning). */
export function forfeitMatch(s: NovusState, loser: Player): void {
  s.set.over = true;
  s.set.winner = other(loser);
  s.matchOver = true;
  s.matchWinner = other(loser);
}

/** Who strikes first in the set after `s` (LNF-comp: "follows the protocol"; configurable). */
export function nextSetFirstStriker(s: NovusState): Player {
  const w = s.set.winner ?? s.set.firstStriker;
  switch (s.config.nextSetFirstStrike) {
    case 'alternate':
      return other(s.set.firstStriker);
    case 'loser':
      return other(w);
    case 'winner':
      return w;
  }
}
