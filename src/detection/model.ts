/**
 * The detector model's sidecar (models/<name>.json): what the network expects and returns, how it
 * was trained, and what it measured. Read with zod so a mismatched model fails with a clear error.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { GAMES } from '../core/games.js';

export const sidecarSchema = z.object({
  format: z.literal('cueref.model/1'),
  name: z.string(),
  /** All heatmap channels, in output order. */
  classes: z.array(z.string()).min(1),
  /** Which channels each game uses. */
  games: z.partialRecord(z.enum(GAMES), z.array(z.string())),
  input: z.object({
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    /** RGB normalisation: (value/255 - mean) / std per channel. */
    mean: z.tuple([z.number(), z.number(), z.number()]),
    std: z.tuple([z.number(), z.number(), z.number()]),
    /**
     * Cloth normalisation, when the model was trained with it: scale each channel so the median
     * colour of `region` (input px: x0, y0, x1, y1, every other pixel) becomes `target` (0–255),
     * gains clamped to `gainRange` — a light's colour cast scales cloth and balls alike.
     */
    clothNormalise: z
      .object({
        region: z.tuple([z.number().int(), z.number().int(), z.number().int(), z.number().int()]),
        target: z.tuple([z.number(), z.number(), z.number()]),
        gainRange: z.tuple([z.number().positive(), z.number().positive()]),
        /**
         * Normalise only frames whose cloth lies outside what the model was trained on: for these
         * games, when a channel of the median is beyond [min − margin, max + margin] (a model
         * trained without normalisation, helped on cloths and lights it never saw).
         */
        onlyOutside: z
          .object({
            games: z.array(z.enum(GAMES)).min(1),
            min: z.tuple([z.number(), z.number(), z.number()]),
            max: z.tuple([z.number(), z.number(), z.number()]),
            marginLevels: z.number().min(0).default(10),
          })
          .optional(),
      })
      .optional(),
  }),
  /** Output stride of the heatmap relative to the network input, px. */
  stride: z.number().int().positive(),
  /**
   * Where a heatmap cell's offset is measured from (models/training/train.py, OFFSET_ORIGIN):
   * `corner` (models up to v10): cell x spans input px [stride·x, stride·x + stride), offset 0…1
   * from its corner; `centre`: cell x is centred on input px stride·x (where the network's strided
   * convolutions centre it), offset −0.5…0.5 stored as 0…1.
   */
  offsetOrigin: z.enum(['corner', 'centre']).default('corner'),
  outputs: z.object({ heatmap: z.string(), offset: z.string(), radius: z.string() }),
  /**
   * Frames whose cloth lies outside this model's training cloths (`input.clothNormalise.onlyOutside`)
   * go to this model instead of being normalised: a model trained on other cloths as well (the
   * path of its .onnx/.json beside this sidecar, without extension).
   */
  otherCloths: z
    .object({
      model: z.string().min(1),
      /**
       * Per game, the cloth colours this model was trained on (the cloth region's median, 0–255, as
       * `onlyOutside` measures it): a frame of that game whose cloth lies outside, by more than
       * `marginLevels` in a channel, goes to the partner too. For the games `onlyOutside` does not
       * normalise (pool, Novus): without it a pool table in red or green cloth was met by a model that
       * had seen blue ones only (rendered: pool recall 42 %).
       */
      outside: z
        .partialRecord(
          z.enum(GAMES),
          z.object({ min: z.tuple([z.number(), z.number(), z.number()]), max: z.tuple([z.number(), z.number(), z.number()]), marginLevels: z.number().min(0).default(10) }),
        )
        .optional(),
    })
    .optional(),
  /**
   * The kind classifier (src/detection/kinds.ts) that says again the kind of each ball this model
   * finds: its .onnx/.json beside this sidecar, without extension, and per game the kinds it may
   * change between (a game not named keeps the detector's kinds).
   */
  kinds: z.object({ model: z.string().min(1), among: z.partialRecord(z.enum(GAMES), z.array(z.string()).min(2)) }).optional(),
  training: z.record(z.string(), z.unknown()).optional(),
  metrics: z.record(z.string(), z.unknown()).optional(),
});
export type ModelSidecar = z.infer<typeof sidecarSchema>;

export function loadSidecar(path: string): ModelSidecar {
  return readSidecar(path, sidecarSchema, 'detector model sidecar', 'the model ships in models/ (see models/README.md), or pass --model');
}

/** A sidecar read and checked by `schema`: a missing or invalid one is an input error naming the file. */
export function readSidecar<T extends z.ZodType>(path: string, schema: T, what: string, whereFrom: string): z.infer<T> {
  if (!existsSync(path)) throw new InputError({ code: 'MODEL_NOT_FOUND', message: `no ${what} at '${path}': ${whereFrom}` });
  const parsed = schema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
  if (!parsed.success) {
    const i = parsed.error.issues[0]!;
    throw new InputError({ code: 'BAD_MODEL_SIDECAR', field: i.path.join('.'), message: `${what} '${path}' is invalid: ${i.message}` });
  }
  return parsed.data;
}
