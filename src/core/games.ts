export const GAMES = ['snooker', 'pool8', 'novus'] as const;
export type GameId = (typeof GAMES)[number];

export const POCKETS = ['BL', 'BR', 'ML', 'MR', 'TL', 'TR'] as const;
export type PocketId = (typeof POCKETS)[number];

export const SIDES = ['left', 'right', 'top', 'bottom'] as const;
export type CushionSide = (typeof SIDES)[number];

/** Exhaustiveness guard for switches over closed unions. */
export function assertNever(x: never): never {
  throw new Error(`unreachable: ${JSON.stringify(x)}`);
}
