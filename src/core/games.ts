export const GAMES = ['snooker', 'pool8', 'novus'] as const;
export type GameId = (typeof GAMES)[number];

export const POCKETS = ['BL', 'BR', 'ML', 'MR', 'TL', 'TR'] as const;
export type PocketId = (typeof POCKETS)[number];

export const SIDES = ['left', 'right', 'top', 'bottom'] as const;
export type CushionSide = (typeof SIDES)[number];

/** Snooker's colours in value order. */
export const SNOOKER_COLOURS = ['yellow', 'green', 'brown', 'blue', 'pink', 'black'] as const;

/** Every ball id of a game (the contract's names). */
export function allBallIds(game: GameId): string[] {
  switch (game) {
    case 'snooker':
      return ['white', ...Array.from({ length: 15 }, (_, i) => `red${i + 1}`), ...SNOOKER_COLOURS];
    case 'pool8':
      return ['cue', ...Array.from({ length: 15 }, (_, i) => String(i + 1))];
    case 'novus':
      return ['striker', ...Array.from({ length: 8 }, (_, i) => `a${i + 1}`), ...Array.from({ length: 8 }, (_, i) => `b${i + 1}`)];
  }
}

/** The ball the cue strikes: snooker's white, pool's cue ball, Novus's striker. */
export function cueBallId(game: GameId): string {
  return game === 'snooker' ? 'white' : game === 'pool8' ? 'cue' : 'striker';
}

/** Exhaustiveness guard for switches over closed unions. */
export function assertNever(x: never): never {
  throw new Error(`unreachable: ${JSON.stringify(x)}`);
}
