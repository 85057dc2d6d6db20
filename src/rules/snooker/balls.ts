/** Snooker balls: ids, kinds, values, spots (seed 000 Part I rule 1; contract ball ids). */

export const COLOURS = ['yellow', 'green', 'brown', 'blue', 'pink', 'black'] as const;
export type Colour = (typeof COLOURS)[number];
export type Kind = 'cue' | 'red' | Colour;

export const RED_IDS = Array.from({ length: 15 }, (_, i) => `red${i + 1}`);
export const ALL_IDS: readonly string[] = ['white', ...RED_IDS, ...COLOURS];
export const KNOWN_IDS: ReadonlySet<string> = new Set(ALL_IDS);

export const VALUE: Record<Colour, number> = { yellow: 2, green: 3, brown: 4, blue: 5, pink: 6, black: 7 };

/** Spots in the order a ball whose own spot is taken looks for one: highest value first. */
export const SPOTS_BY_VALUE: readonly Colour[] = ['black', 'pink', 'blue', 'brown', 'green', 'yellow'];

export const isRed = (id: string): boolean => /^red([1-9]|1[0-5])$/.test(id);
export const isColour = (id: string): id is Colour => (COLOURS as readonly string[]).includes(id);

export function kindOf(id: string): Kind {
  if (id === 'white') return 'cue';
  if (isRed(id)) return 'red';
  if (isColour(id)) return id;
  throw new Error(`not a snooker ball: ${id}`);
}

export function valueOf(id: string): number {
  if (id === 'white') return 0;
  if (isRed(id)) return 1;
  if (isColour(id)) return VALUE[id];
  return 0;
}

/** The colour name a call uses for a ball (reds are interchangeable: `red`). */
export const nameOf = (id: string): string => (isRed(id) ? 'red' : id);

/** Colours from `from` (inclusive) up to black, in sequence order. */
export const coloursFrom = (from: Colour): Colour[] => COLOURS.slice(COLOURS.indexOf(from));
