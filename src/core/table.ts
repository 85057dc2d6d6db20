/**
 * Table profiles (cueref.table/1): every stage takes the table as data, never as constants.
 * Defaults come from ../shared/spec/table-geometry.md; a file gives only what differs and the
 * rest is the game's default scaled to its bed.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from './errors.js';
import { GAMES, POCKETS, type GameId, type PocketId } from './games.js';

export interface PointMm {
  x: number;
  y: number;
}

export interface PocketSpec extends PointMm {
  /** Opening between the jaw noses, mm. */
  mouth: number;
}

export interface TableProfile {
  format: 'cueref.table/1';
  name: string;
  game: GameId;
  bed: { width: number; length: number };
  /** Object-ball (or pawn) diameter, mm. */
  ballDiameter: number;
  /** Cue-ball (or striker) diameter where it differs (UK blackball, Novus striker), mm. */
  cueBallDiameter: number;
  /** Snooker baulk line / blackball baulk line, mm from the bottom cushion. */
  baulkLineY?: number;
  /** Snooker D radius, centred on the brown spot. */
  dRadius?: number;
  /** Pool head string (kitchen boundary), mm from the bottom cushion. */
  headStringY?: number;
  /** Named spots (snooker colours; pool `head`, `centre`, `foot`; Novus `centre`). */
  spots: Record<string, PointMm>;
  /** Pocket centres on the bed outline and their mouths. Novus has only the four corners. */
  pockets: Partial<Record<PocketId, PocketSpec>>;
  /** Novus: distance from a player's own edge to the centre of the zone line, and its width. */
  zoneLineMm?: number;
  zoneLineWidthMm?: number;
  /** Novus: centre-circle radius to the line centre, and line width. */
  centreCircleRadiusMm?: number;
  /** Novus: hole radii of pawns and striker. */
  pawnHoleRadiusMm?: number;
  strikerHoleRadiusMm?: number;
  /** Novus: width of the centre-circle line, mm (defaults to the zone-line width). */
  centreCircleLineWidthMm?: number;
  /**
   * Novus: distance from the left/right edges to the centre of the side lines that close each edge
   * zone towards its pockets (seed 003 rule 12.3), mm. The lines run perpendicular to the own edge.
   */
  sideLineInsetMm?: number;
}

export const PROFILE_NAMES = ['snooker', 'pool8-9ft', 'pool8-8ft', 'pool8-7ft', 'novus'] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

function snookerDefault(width = 1778, length = 3569): TableProfile {
  // Markings scale with the bed (smaller club tables keep the proportions).
  const sx = width / 1778;
  const sy = length / 3569;
  const cx = width / 2;
  const baulk = 737 * sy;
  return {
    format: 'cueref.table/1',
    name: width === 1778 && length === 3569 ? 'snooker' : `snooker-${width}x${length}`,
    game: 'snooker',
    bed: { width, length },
    ballDiameter: 52.5,
    cueBallDiameter: 52.5,
    baulkLineY: baulk,
    dRadius: 292 * sx,
    spots: {
      yellow: { x: cx + 292 * sx, y: baulk },
      green: { x: cx - 292 * sx, y: baulk },
      brown: { x: cx, y: baulk },
      blue: { x: cx, y: length / 2 },
      pink: { x: cx, y: (length / 2 + length) / 2 },
      black: { x: cx, y: length - 324 * sy },
    },
    pockets: {
      BL: { x: 0, y: 0, mouth: 84 },
      BR: { x: width, y: 0, mouth: 84 },
      ML: { x: 0, y: length / 2, mouth: 86 },
      MR: { x: width, y: length / 2, mouth: 86 },
      TL: { x: 0, y: length, mouth: 84 },
      TR: { x: width, y: length, mouth: 84 },
    },
  };
}

function poolDefault(name: ProfileName | string, width: number, length: number): TableProfile {
  const cx = width / 2;
  return {
    format: 'cueref.table/1',
    name,
    game: 'pool8',
    bed: { width, length },
    ballDiameter: 57.15,
    cueBallDiameter: 57.15,
    headStringY: length / 4,
    spots: {
      head: { x: cx, y: length / 4 },
      centre: { x: cx, y: length / 2 },
      foot: { x: cx, y: (3 * length) / 4 },
    },
    pockets: {
      BL: { x: 0, y: 0, mouth: 116 },
      BR: { x: width, y: 0, mouth: 116 },
      ML: { x: 0, y: length / 2, mouth: 128 },
      MR: { x: width, y: length / 2, mouth: 128 },
      TL: { x: 0, y: length, mouth: 116 },
      TR: { x: width, y: length, mouth: 116 },
    },
  };
}

function novusDefault(size = 1000): TableProfile {
  // No authoritative Novus numbers exist (spec §1, Q1): these are the profile's defaults, to be
  // replaced by what calibration measures. Markings scale with the board (early 80 cm boards keep
  // the proportions); pawns, striker and their holes are equipment and do not.
  const k = size / 1000;
  return {
    format: 'cueref.table/1',
    name: size === 1000 ? 'novus' : `novus-${size}`,
    game: 'novus',
    bed: { width: size, length: size },
    ballDiameter: 32,
    cueBallDiameter: 38,
    spots: { centre: { x: size / 2, y: size / 2 } },
    pockets: {
      BL: { x: 0, y: 0, mouth: 60 },
      BR: { x: size, y: 0, mouth: 60 },
      TL: { x: 0, y: size, mouth: 60 },
      TR: { x: size, y: size, mouth: 60 },
    },
    zoneLineMm: 100 * k,
    zoneLineWidthMm: 3,
    centreCircleRadiusMm: 100 * k,
    pawnHoleRadiusMm: 6,
    strikerHoleRadiusMm: 7,
    centreCircleLineWidthMm: 3,
    // The four zone lines drawn as one square: each player's zone is closed by the two side zone
    // lines, so by default the side-line inset equals the zone-line distance.
    sideLineInsetMm: 100 * k,
  };
}

export function builtinProfile(name: ProfileName): TableProfile {
  switch (name) {
    case 'snooker':
      return snookerDefault();
    case 'pool8-9ft':
      return poolDefault(name, 1270, 2540);
    case 'pool8-8ft':
      return poolDefault(name, 1168, 2337);
    case 'pool8-7ft':
      return poolDefault(name, 991, 1981);
    case 'novus':
      return novusDefault();
  }
}

export function defaultProfileFor(game: GameId): TableProfile {
  switch (game) {
    case 'snooker':
      return builtinProfile('snooker');
    case 'pool8':
      return builtinProfile('pool8-9ft');
    case 'novus':
      return builtinProfile('novus');
  }
}

const pointSchema = z.object({ x: z.number().finite(), y: z.number().finite() });
const pocketSchema = pointSchema.extend({ mouth: z.number().positive() });
const positive = z.number().finite().positive();

export const tableFileSchema = z.object({
  format: z.literal('cueref.table/1'),
  name: z.string().optional(),
  game: z.enum(GAMES),
  bed: z.object({ width: positive, length: positive }),
  ballDiameter: positive.optional(),
  cueBallDiameter: positive.optional(),
  baulkLineY: positive.optional(),
  dRadius: positive.optional(),
  headStringY: positive.optional(),
  spots: z.record(z.string(), pointSchema).optional(),
  pockets: z.partialRecord(z.enum(POCKETS), pocketSchema).optional(),
  zoneLineMm: positive.optional(),
  zoneLineWidthMm: positive.optional(),
  centreCircleRadiusMm: positive.optional(),
  pawnHoleRadiusMm: positive.optional(),
  strikerHoleRadiusMm: positive.optional(),
  centreCircleLineWidthMm: positive.optional(),
  sideLineInsetMm: positive.optional(),
});
export type TableFile = z.infer<typeof tableFileSchema>;

/** Fill a partial profile from the game's defaults scaled to its bed. */
export function completeProfile(file: TableFile): TableProfile {
  const { width, length } = file.bed;
  const base =
    file.game === 'snooker'
      ? snookerDefault(width, length)
      : file.game === 'pool8'
        ? poolDefault(file.name ?? `pool8-${width}x${length}`, width, length)
        : novusDefault(width);
  if (file.game === 'pool8') base.headStringY = length / 4;
  const out: TableProfile = {
    ...base,
    ...Object.fromEntries(Object.entries(file).filter(([, v]) => v !== undefined)),
    format: 'cueref.table/1',
    name: file.name ?? base.name,
    spots: { ...base.spots, ...(file.spots ?? {}) },
    pockets: { ...base.pockets, ...(file.pockets ?? {}) },
  } as TableProfile;
  if (file.ballDiameter !== undefined && file.cueBallDiameter === undefined && file.game !== 'novus') {
    out.cueBallDiameter = file.ballDiameter;
  }
  return out;
}

export function parseTableProfile(raw: unknown, source = 'table profile'): TableProfile {
  const parsed = tableFileSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError({
      code: 'BAD_TABLE_PROFILE',
      field: issue.path.join('.') || '(root)',
      message: `${source} is not a valid cueref.table/1: ${issue.message}`,
    });
  }
  return completeProfile(parsed.data);
}

/** `--table` accepts a built-in profile name or a JSON file path. */
export function loadTableProfile(nameOrPath: string): TableProfile {
  if ((PROFILE_NAMES as readonly string[]).includes(nameOrPath)) {
    return builtinProfile(nameOrPath as ProfileName);
  }
  let text: string;
  try {
    text = readFileSync(nameOrPath, 'utf8');
  } catch {
    throw new InputError({
      code: 'FILE_NOT_FOUND',
      message: `cannot read table profile '${nameOrPath}': give a JSON file or one of ${PROFILE_NAMES.join(', ')}`,
    });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new InputError({
      code: 'MALFORMED_JSON',
      message: `table profile '${nameOrPath}' is not valid JSON (${(e as Error).message})`,
    });
  }
  return parseTableProfile(json, `'${nameOrPath}'`);
}

export const ballRadius = (t: TableProfile): number => t.ballDiameter / 2;

/** Novus disc thicknesses, mm (pawns and striker lie flat; the renderer draws them this thick). */
export const NOVUS_PAWN_THICKNESS_MM = 5;
export const NOVUS_STRIKER_THICKNESS_MM = 6;

/**
 * Height above the bed of the point a detector reports as a ball's centre, mm: the centre of a
 * sphere (R), but the centre of a Novus disc's top face (its outline seen from above), which lies
 * at the disc's thickness — 11 mm below R. Mapping a disc's top through the plane at R put the
 * pawns 3–4 mm off at rest under an overhead camera, in opposite directions at the two ends (the
 * parallax of the missing 11 mm). The pawns' thickness is used for the striker too (1 mm more:
 * a tenth of a millimetre of parallax).
 */
export const detectedCentreHeightMm = (t: TableProfile): number => (t.game === 'novus' ? NOVUS_PAWN_THICKNESS_MM : ballRadius(t));

/**
 * The pocket a ball at rest at (x, y) hangs over: between its jaws with its edge reaching the
 * mouth (the line across the opening, the jaw points joined), within `marginMm`. A corner's mouth
 * runs across the corner between the points `mouth/√2` along each cushion; a middle pocket's is the
 * cushion line across its opening. Such a ball may drop on its own later (rules: a hanging ball).
 */
export function pocketHungOver(table: TableProfile, x: number, y: number, radiusMm: number, marginMm: number): PocketId | undefined {
  const { width: W, length: L } = table.bed;
  for (const id of POCKETS) {
    const pk = table.pockets[id];
    if (!pk) continue;
    const dx = Math.abs(x - pk.x), dy = Math.abs(y - pk.y);
    const corner = (pk.x === 0 || pk.x === W) && (pk.y === 0 || pk.y === L);
    if (corner) {
      const a = pk.mouth / Math.SQRT2;
      // Inside the jaws (both offsets short of the jaw points), the edge at or past the mouth line.
      if (dx < a && dy < a && (dx + dy - a) / Math.SQRT2 <= radiusMm + marginMm) return id;
    } else {
      const along = pk.x === 0 || pk.x === W ? dy : dx, across = pk.x === 0 || pk.x === W ? dx : dy;
      if (along < pk.mouth / 2 && across <= radiusMm + marginMm) return id;
    }
  }
  return undefined;
}

/**
 * The pocket whose hole a ball centred at (x, y) hangs over, if any: the centre is more than
 * `marginMm` beyond the line a ball resting against the cushion nose would have (R inside the
 * bed outline), which only the opening of a pocket allows, and within the opening's reach of
 * that pocket. A ball seen there is falling in (or rattling in the jaws); a camera that sees it
 * drop sees its centre slide off the bed plane, so what it reports afterwards is not a path.
 */
export function pocketHoleUnder(table: TableProfile, x: number, y: number, radiusMm: number, marginMm: number): PocketId | undefined {
  const { width: W, length: L } = table.bed;
  const inset = radiusMm - marginMm;
  if (x >= inset && x <= W - inset && y >= inset && y <= L - inset) return undefined;
  for (const id of POCKETS) {
    const pk = table.pockets[id];
    if (pk && Math.hypot(x - pk.x, y - pk.y) <= pk.mouth / 2 + radiusMm) return id;
  }
  return undefined;
}

/**
 * A Novus board's pocket is a round hole cut into its corner: centred this many mouths inside the
 * corner along the diagonal, of this many mouths' radius (the renderer draws it from these).
 */
export const NOVUS_HOLE = { insetMouths: 0.45, radiusMouths: 0.5 } as const;

/**
 * The Novus pocket whose hole a piece centred at (x, y) lies deep over: within `coreFraction` of
 * the hole's radius from its centre. A flat disc centred there has fallen in, so what is seen
 * there is the hole itself, which the detector reads as a black pawn (most of Novus's false pieces
 * on rendered held-out frames). Only the hole's core: a piece at rest near its rim, against the
 * cushions by the jaws, is a piece. Other games: undefined (a cue table's ball over the fall is
 * hanging in the jaws, which the referee must see).
 */
export function novusHoleUnder(table: Pick<TableProfile, 'game' | 'pockets'>, x: number, y: number, coreFraction = 0.5): PocketId | undefined {
  if (table.game !== 'novus') return undefined;
  for (const id of POCKETS) {
    const pk = table.pockets[id];
    if (!pk) continue;
    // Inward along the diagonal from a corner pocket (Novus has no middle pockets).
    const ux = pk.x <= 0 ? 1 : -1, uy = pk.y <= 0 ? 1 : -1;
    const inset = (NOVUS_HOLE.insetMouths * pk.mouth) / Math.SQRT2;
    if (Math.hypot(x - (pk.x + ux * inset), y - (pk.y + uy * inset)) < coreFraction * NOVUS_HOLE.radiusMouths * pk.mouth) return id;
  }
  return undefined;
}
