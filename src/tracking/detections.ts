/**
 * Detections as the tracker takes them: a columnar struct of typed arrays in table mm (the ball's
 * centre projected to the bed), checked when built (roboflow/supervision's Detections). The
 * pipeline maps the detector's pixel detections through the calibration's `ballCentreToTable`
 * homography with `mapDetections`: that matrix already corrects for the ball's height (a ball's
 * centre sits R above the cloth), so no parallax is left for the tracker. The homography maps the
 * *undistorted* frame (the contract's calibration), so a detection in the camera's own pixels has
 * the lens distortion taken out first: left in, a barrel lens (k1 = −0.02) moves a ball at the
 * end of the table ~20 mm towards the middle under an overhead camera.
 */
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import type { GameId } from '../core/games.js';
import type { RadialLens } from '../core/lens.js';
import { undistortPixel } from '../core/lens.js';
import { imageBallRadius } from '../core/ballImage.js';
import { applyH, type Mat3 } from '../core/mat3.js';
import type { BareProbe } from './bareCloth.js';
import { DETECTION_CLASSES, isSingleBallClass } from './classes.js';

export interface TableDetections {
  readonly length: number;
  /** Ball centres on the bed, mm. */
  readonly x: Float64Array;
  readonly y: Float64Array;
  /** Detector confidence, 0…1. */
  readonly conf: Float32Array;
  /** Class names (one of DETECTION_CLASSES[game]). */
  readonly cls: readonly string[];
}

/** One detection in image pixels, as cueref.detections/1 has it. */
export interface PixelDetection {
  u: number;
  v: number;
  r: number;
  class: string;
  conf: number;
  /**
   * The pixel is already free of lens distortion (a stand-in detector that projects known
   * positions through a homography), so `mapDetections` must not undistort it again.
   */
  ideal?: boolean;
}

/** One detection in table mm (the row form users write by hand or from their own detector). */
export interface TableDetection {
  x: number;
  y: number;
  class: string;
  conf: number;
}

/** What the tracker takes per frame. `view: false`: the table is not in view (no detections). */
export interface DetectionFrame {
  i: number;
  /** Seconds from the start of the recording. */
  t: number;
  detections: TableDetections;
  view?: boolean;
  /**
   * Whether the frame shows bare cloth where a ball's centre would be (`bareCloth.ts`): lets the
   * tracker tell a ball gone from one hidden. Without it a ball never detected again stays hidden.
   */
  bare?: BareProbe;
}

const tableDetectionSchema = z.object({ x: z.number().finite(), y: z.number().finite(), class: z.string().min(1), conf: z.number().min(0).max(1) });

/** Build the columnar form, checking every row (errors name the frame and the field). */
export function makeDetections(rows: readonly unknown[], game: GameId, frame?: number): TableDetections {
  const n = rows.length;
  const x = new Float64Array(n), y = new Float64Array(n), conf = new Float32Array(n);
  const cls: string[] = [];
  const classes = DETECTION_CLASSES[game];
  rows.forEach((raw, k) => {
    const parsed = tableDetectionSchema.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new InputError({ code: 'BAD_DETECTION', ...(frame !== undefined ? { frame } : {}), field: `detections[${k}].${issue.path.join('.')}`, message: issue.message });
    }
    const d = parsed.data;
    if (!classes.includes(d.class)) {
      throw new InputError({ code: 'UNKNOWN_CLASS', ...(frame !== undefined ? { frame } : {}), field: `detections[${k}].class`, message: `'${d.class}' is not a ${game} class (${classes.join(', ')})` });
    }
    x[k] = d.x;
    y[k] = d.y;
    conf[k] = d.conf;
    cls.push(d.class);
  });
  return { length: n, x, y, conf, cls };
}

export const emptyDetections = (): TableDetections => ({ length: 0, x: new Float64Array(0), y: new Float64Array(0), conf: new Float32Array(0), cls: [] });

/**
 * A blob this many times a ball's image radius (where it lies) is not one ball. Real balls on the
 * Bucharest broadcast frames come out at 0.68–1.22× (the black smallest: its rim melts into the
 * shadow); a referee's white glove on the bed read as `white` at 1.49–1.54×, an arm on the rail at
 * 2.5×, a pack of reds read as one red at 1.46–1.82×.
 */
export const MAX_BLOB_TO_BALL_RADIUS = 1.4;

/**
 * Pixel detections → table mm through `ballCentreToTable` (image point of a ball's centre → the
 * point of the bed under it). The homography carries the scale, so the detector's radius is used
 * only as a sanity bound: a detection of a one-ball class (the white, a colour, pool's cue, eight
 * or a numbered ball, Novus's striker) much larger than a ball there is something else — a glove,
 * a shirt cuff, an arm — and is dropped, or it would take that ball's identity (the tracker gives
 * a one-ball class to its best-evidenced claimant). A large red, solid, stripe or pawn is kept:
 * it is a pack seen as one blob, and still says that balls of that kind are there.
 */
export function mapDetections(pixels: readonly PixelDetection[], calibration: { ballCentreToTable: Mat3; distortion?: RadialLens | null }, game: GameId, frame?: number, ballRadiusMm?: number): TableDetections {
  const lens = calibration.distortion;
  const rows: TableDetection[] = [];
  pixels.forEach((p, k) => {
    if (![p.u, p.v, p.r, p.conf].every(Number.isFinite) || p.r <= 0) {
      throw new InputError({ code: 'BAD_DETECTION', ...(frame !== undefined ? { frame } : {}), field: `detections[${k}]`, message: 'a pixel detection needs finite u, v, conf and a positive r' });
    }
    const [u, v] = lens && !p.ideal ? undistortPixel(lens, p.u, p.v) : [p.u, p.v];
    const [x, y] = applyH(calibration.ballCentreToTable, u, v);
    if (ballRadiusMm && notOneBall(game, p.class, p.r, calibration.ballCentreToTable, x, y, ballRadiusMm)) return;
    rows.push({ x, y, class: p.class, conf: p.conf });
  });
  return makeDetections(rows, game, frame);
}

/** A detection of a one-ball class far larger than a ball at its place on the bed (see mapDetections). */
export function notOneBall(game: GameId, cls: string, radiusPx: number, ballCentreToTable: Mat3, x: number, y: number, ballRadiusMm: number): boolean {
  return isSingleBallClass(game, cls) && radiusPx > MAX_BLOB_TO_BALL_RADIUS * imageBallRadius(ballCentreToTable, x, y, ballRadiusMm);
}
