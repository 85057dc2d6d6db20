/**
 * What the detector can say about a ball (its class) and what the tracker must decide (its kind
 * and id), per game. Kinds have capacities: one white and one of each colour, up to 15 reds
 * (snooker); cue, eight, seven solids, seven stripes (pool, where a numbered class names the ball
 * outright); one striker and eight pawns a side (Novus).
 */
import { assertNever, type GameId } from '../core/games.js';

export const DETECTION_CLASSES: Record<GameId, readonly string[]> = {
  snooker: ['white', 'red', 'yellow', 'green', 'brown', 'blue', 'pink', 'black'],
  pool8: ['cue', 'eight', 'solid', 'stripe', ...Array.from({ length: 15 }, (_, k) => String(k + 1))],
  novus: ['striker', 'pawnA', 'pawnB'],
};

/** Kind of a class: pool numbers fold into their group (a "3" is a solid that also names its id). */
export function kindOfClass(game: GameId, cls: string): string {
  if (game === 'pool8' && /^\d+$/.test(cls)) {
    const n = Number(cls);
    return n === 8 ? 'eight' : n <= 7 ? 'solid' : 'stripe';
  }
  return cls;
}

/** Kind of a ball id (the contract's ids: red7 → red, 3 → solid, a4 → pawnA). */
export function kindOfId(game: GameId, id: string): string {
  switch (game) {
    case 'snooker':
      return id.startsWith('red') ? 'red' : id;
    case 'pool8':
      return id === 'cue' ? 'cue' : kindOfClass(game, id);
    case 'novus':
      return id === 'striker' ? 'striker' : id.startsWith('a') ? 'pawnA' : 'pawnB';
    default:
      return assertNever(game);
  }
}

/** A class that names one ball only (the white, a colour, pool's cue, eight and numbers, the striker). */
export function isSingleBallClass(game: GameId, cls: string): boolean {
  if (game === 'pool8' && /^\d+$/.test(cls)) return true;
  return idsOfKind(game, cls).length === 1;
}

/** Every id a kind may take, in allocation order. */
export function idsOfKind(game: GameId, kind: string): string[] {
  switch (game) {
    case 'snooker':
      return kind === 'red' ? Array.from({ length: 15 }, (_, k) => `red${k + 1}`) : DETECTION_CLASSES.snooker.includes(kind) ? [kind] : [];
    case 'pool8':
      if (kind === 'cue') return ['cue'];
      if (kind === 'eight') return ['8'];
      if (kind === 'solid') return ['1', '2', '3', '4', '5', '6', '7'];
      if (kind === 'stripe') return ['9', '10', '11', '12', '13', '14', '15'];
      return [];
    case 'novus':
      if (kind === 'striker') return ['striker'];
      if (kind === 'pawnA') return Array.from({ length: 8 }, (_, k) => `a${k + 1}`);
      if (kind === 'pawnB') return Array.from({ length: 8 }, (_, k) => `b${k + 1}`);
      return [];
    default:
      return assertNever(game);
  }
}

/** Kinds of a game (the classes without pool's numbers). */
export function kindsOf(game: GameId): string[] {
  return game === 'pool8' ? ['cue', 'eight', 'solid', 'stripe'] : [...DETECTION_CLASSES[game]];
}

/** The id a pool detection names outright ("3"), if any. */
export function namedId(game: GameId, cls: string): string | undefined {
  return game === 'pool8' && /^\d+$/.test(cls) ? cls : undefined;
}
