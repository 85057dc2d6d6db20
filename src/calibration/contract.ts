/**
 * cueref.calibration/1: the schema (zod), the in-memory type and `loadCalibration` for every
 * command that takes `--calibration FILE`. Field names are binding (../shared/contracts); extra
 * fields (`method`, `end`, `cloth`, `camera`, `checks`) are additions the contract allows.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { GAMES } from '../core/games.js';
import type { Mat3 } from '../core/mat3.js';
import { completeProfile, tableFileSchema, type TableProfile } from '../core/table.js';

const finite = z.number().finite();
const row = z.tuple([finite, finite, finite]);
export const mat3Schema = z.tuple([row, row, row]);

export const distortionSchema = z.object({
  model: z.literal('radial'),
  fx: finite.positive(),
  fy: finite.positive(),
  cx: finite,
  cy: finite,
  k1: finite,
  k2: finite,
});

export const clothColourSchema = z.object({
  hueDeg: finite.min(0).max(360),
  hueTolDeg: finite.positive().max(180),
  minSat: finite.min(0).max(1),
  minVal: finite.min(0).max(1),
});

export const calibrationSchema = z.object({
  format: z.literal('cueref.calibration/1'),
  game: z.enum(GAMES),
  table: tableFileSchema,
  image: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }),
  imageToTable: mat3Schema,
  ballCentreToTable: mat3Schema,
  distortion: distortionSchema.nullable(),
  reprojectionErrorMm: finite.min(0),
  inliers: z.number().int().min(0),
  found: z.array(z.string()),
  /** How it was solved: from the frame (`auto`), from `--points`, or from four hand-given corners. */
  method: z.enum(['auto', 'points', 'corners']).optional(),
  /** `found`: the baulk end was read from the markings; `assumed`: a default was taken; `given`: the user said which side it is on (`--head`). */
  end: z.enum(['found', 'assumed', 'given']).optional(),
  cloth: clothColourSchema.optional(),
  camera: z
    .object({
      focalPx: finite.positive(),
      focalMeasured: z.boolean(),
      centreMm: z.tuple([finite, finite, finite]),
      /** Where a measured focal length came from when not from the homography: `spots`, colours lying on their spots (spotHeight.ts). */
      focalFrom: z.enum(['spots']).optional(),
    })
    .optional(),
  /** Independent checks, e.g. the baulk line's offset from the profile, mm. */
  checks: z.record(z.string(), finite).optional(),
  /** Table outline in frame pixels (BL, BR, TR, TL bed corners), for overlays and the view gate. */
  cornersPx: z.array(z.tuple([finite, finite])).length(4).optional(),
  source: z.object({ uri: z.string(), atSeconds: finite.min(0).optional() }).optional(),
});

export type CalibrationFile = z.infer<typeof calibrationSchema>;

export interface Calibration extends Omit<CalibrationFile, 'table' | 'imageToTable' | 'ballCentreToTable'> {
  table: TableProfile;
  imageToTable: Mat3;
  ballCentreToTable: Mat3;
}

export function parseCalibration(raw: unknown, source = 'calibration'): Calibration {
  const parsed = calibrationSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new InputError({
      code: 'BAD_CALIBRATION',
      field: issue.path.join('.') || '(root)',
      message: `${source} is not a valid cueref.calibration/1: ${issue.message}`,
    });
  }
  const d = parsed.data;
  if (d.table.game !== d.game) {
    throw new InputError({ code: 'BAD_CALIBRATION', field: 'table.game', message: `${source}: table is for ${d.table.game}, calibration for ${d.game}` });
  }
  return { ...d, table: completeProfile(d.table), imageToTable: d.imageToTable as Mat3, ballCentreToTable: d.ballCentreToTable as Mat3 };
}

/** Read and validate a saved calibration (the `--calibration FILE` of other commands). */
export function loadCalibration(path: string): Calibration {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new InputError({ code: 'FILE_NOT_FOUND', message: `cannot read calibration '${path}' (${(e as NodeJS.ErrnoException).code ?? 'error'})` });
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new InputError({ code: 'MALFORMED_JSON', message: `calibration '${path}' is not valid JSON (${(e as Error).message})` });
  }
  return parseCalibration(json, `'${path}'`);
}

const round = (v: number, digits: number) => Number(v.toPrecision(digits));

/** The JSON document (numbers rounded to what is meaningful: 10 significant digits for matrices). */
export function toCalibrationJson(c: Calibration): CalibrationFile {
  const m = (h: Mat3) => h.map((r) => r.map((v) => round(v, 10))) as CalibrationFile['imageToTable'];
  return {
    ...c,
    imageToTable: m(c.imageToTable),
    ballCentreToTable: m(c.ballCentreToTable),
    reprojectionErrorMm: round(c.reprojectionErrorMm, 4),
  };
}
