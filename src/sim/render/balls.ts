/**
 * What each ball looks like and which detection class it belongs to (cueref.detections/1 classes:
 * snooker `white red yellow green brown blue pink black`; pool8 `cue eight solid stripe`; novus
 * `striker pawnA pawnB`).
 */
import { assertNever, type GameId } from '../../core/games.js';
import { NOVUS_PAWN_THICKNESS_MM, NOVUS_STRIKER_THICKNESS_MM, type TableProfile } from '../../core/table.js';
import type { Rgb } from './look.js';

export type BallShape = 'sphere' | 'disc';

export interface BallAppearance {
  id: string;
  class: string;
  shape: BallShape;
  /** Main colour (linear-ish sRGB 0–255 as seen under full light). */
  rgb: Rgb;
  /** Pool: the number printed in the white disc; stripes carry a band of `rgb` on white. */
  number?: number;
  stripe?: boolean;
  /** Radius, mm (Novus: disc radius). */
  radiusMm: number;
  /** Novus: hole radius and disc thickness, mm. */
  holeRadiusMm?: number;
  thicknessMm?: number;
}

/** Snooker colours, fitted to ball interiors in the broadcast footage (bucharest) under TV light. */
const SNOOKER_RGB: Record<string, Rgb> = {
  white: [242, 242, 210],
  red: [215, 28, 24],
  yellow: [255, 232, 30],
  green: [20, 140, 78],
  brown: [150, 92, 30],
  blue: [14, 108, 172],
  pink: [252, 136, 140],
  black: [10, 12, 10],
};

/** Standard pool colours 1–8 (stripes 9–15 repeat 1–7). */
const POOL_RGB: Rgb[] = [
  [240, 236, 220], // 0: cue
  [245, 195, 20], // 1 yellow
  [25, 60, 180], // 2 blue
  [210, 30, 30], // 3 red
  [90, 40, 140], // 4 purple
  [240, 110, 20], // 5 orange
  [20, 120, 60], // 6 green
  [120, 30, 30], // 7 maroon
  [18, 18, 20], // 8 black
];

/** Class of a ball id, or an error naming the id when it is not one of the game's. */
export function ballClass(game: GameId, id: string): string {
  switch (game) {
    case 'snooker':
      if (/^red([1-9]|1[0-5])$/.test(id)) return 'red';
      if (id in SNOOKER_RGB && id !== 'red') return id;
      break;
    case 'pool8': {
      if (id === 'cue') return 'cue';
      const n = Number(id);
      if (Number.isInteger(n) && n >= 1 && n <= 15 && String(n) === id) return n === 8 ? 'eight' : n < 8 ? 'solid' : 'stripe';
      break;
    }
    case 'novus':
      if (id === 'striker') return 'striker';
      if (/^a[1-8]$/.test(id)) return 'pawnA';
      if (/^b[1-8]$/.test(id)) return 'pawnB';
      break;
    default:
      return assertNever(game);
  }
  throw new Error(`unknown ${game} ball id '${id}'`);
}

export function ballAppearance(game: GameId, table: TableProfile, id: string): BallAppearance {
  const cls = ballClass(game, id);
  const objR = table.ballDiameter / 2;
  const cueR = table.cueBallDiameter / 2;
  switch (game) {
    case 'snooker':
      return { id, class: cls, shape: 'sphere', rgb: SNOOKER_RGB[cls]!, radiusMm: cls === 'white' ? cueR : objR };
    case 'pool8': {
      if (id === 'cue') return { id, class: cls, shape: 'sphere', rgb: POOL_RGB[0]!, radiusMm: cueR };
      const n = Number(id);
      return { id, class: cls, shape: 'sphere', rgb: POOL_RGB[n > 8 ? n - 8 : n]!, number: n, stripe: n > 8, radiusMm: objR };
    }
    case 'novus': {
      const striker = id === 'striker';
      return {
        id,
        class: cls,
        shape: 'disc',
        rgb: striker ? [190, 30, 30] : cls === 'pawnA' ? [235, 228, 210] : [30, 28, 30],
        radiusMm: striker ? cueR : objR,
        holeRadiusMm: striker ? (table.strikerHoleRadiusMm ?? 7) : (table.pawnHoleRadiusMm ?? 6),
        thicknessMm: striker ? NOVUS_STRIKER_THICKNESS_MM : NOVUS_PAWN_THICKNESS_MM,
      };
    }
    default:
      return assertNever(game);
  }
}
