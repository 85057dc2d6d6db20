/**
 * The kind classifier: a second look at each ball the detector found, at the frame's own
 * resolution, to say which kind it is. The detector's heatmaps are a quarter of its input's
 * resolution, where a pool ball is ~5 input px in radius: they place balls well and confuse a
 * stripe's white caps with a solid's number disc (Padova: 41 of 230 boxes). The classifier sees a
 * 32×32 patch with the ball at 8 px radius (`patch.ts`, the sampler its training patches were cut
 * with: models/training/dataset.ts --patches, models/training/kinds.py) and the detector's kind
 * is replaced by the classifier's where it is sure. The detector's confidence (that a ball is
 * there) is kept. Which kinds it may change, per game, is the detector sidecar's `kinds.among`, by
 * measurement (models/README.md): pool's solids and stripes. Not the one-ball kinds: a fast cue
 * ball's smear, read as two peaks, was rightly named `cue` twice by the classifier, and the tracker
 * then followed the smear's ends (the rendered P01 broadcast break: first contact wrong); the
 * tracker names one-ball kinds over time. Not snooker's colours: on the Bucharest broadcast it
 * read blues for greens (Task1: 27 → 33 balls miscounted).
 */
import { z } from 'zod';
import { GAMES, type GameId } from '../core/games.js';
import type { DetectionRow } from './detections.js';
import { ballPatch, PATCH_BALL_RADIUS_PX, PATCH_PX } from './patch.js';
import type { Rgb } from './preprocess.js';
import type { ModelRunner } from './runner.js';
import { readSidecar } from './model.js';

export const kindSidecarSchema = z.object({
  format: z.literal('cueref.kindmodel/1'),
  name: z.string(),
  /** Logit order. */
  classes: z.array(z.string()).min(1),
  /** Which classes each game's balls are told among. */
  games: z.partialRecord(z.enum(GAMES), z.array(z.string())),
  input: z.object({
    patchPx: z.literal(PATCH_PX),
    ballRadiusPx: z.literal(PATCH_BALL_RADIUS_PX),
    mean: z.tuple([z.number(), z.number(), z.number()]),
    std: z.tuple([z.number(), z.number(), z.number()]),
  }),
  outputs: z.object({ logits: z.string() }),
  training: z.record(z.string(), z.unknown()).optional(),
  metrics: z.record(z.string(), z.unknown()).optional(),
});
export type KindSidecar = z.infer<typeof kindSidecarSchema>;

export function loadKindSidecar(path: string): KindSidecar {
  return readSidecar(path, kindSidecarSchema, 'kind classifier sidecar', 'it ships in models/ (see models/README.md)');
}

/** The classifier's kind replaces the detector's only when its probability is at least this. */
export const KIND_MIN_P = 0.5;
/** Patches per inference (a frame has at most 22 balls; the detector's weak peaks add a few). */
const BATCH = 32;

export interface KindReading {
  class: string;
  /** Softmax probability among the game's classes. */
  p: number;
}

export class KindClassifier {
  private readonly idx: number[];
  private readonly among: ReadonlySet<string>;
  private readonly tensor = new Float32Array(BATCH * 3 * PATCH_PX * PATCH_PX);
  private readonly patch = new Uint8Array(PATCH_PX * PATCH_PX * 3);

  constructor(
    private readonly runner: ModelRunner,
    private readonly side: KindSidecar,
    game: GameId,
    among: readonly string[],
  ) {
    this.among = new Set(among);
    const forGame = side.games[game];
    if (!forGame || forGame.length === 0) throw new Error(`kind classifier '${side.name}' has no classes for ${game}`);
    this.idx = forGame.map((c) => {
      const k = side.classes.indexOf(c);
      if (k < 0) throw new Error(`kind classifier '${side.name}': ${game} class '${c}' is not one of its outputs`);
      return k;
    });
  }

  /** Each ball's kind by the classifier, in the order of `rows`. */
  async read(frame: Rgb, rows: readonly DetectionRow[]): Promise<KindReading[]> {
    const out: KindReading[] = [];
    const plane = PATCH_PX * PATCH_PX;
    const { mean, std } = this.side.input;
    for (let start = 0; start < rows.length; start += BATCH) {
      const n = Math.min(BATCH, rows.length - start);
      for (let k = 0; k < n; k++) {
        const b = rows[start + k]!;
        ballPatch(frame, b.u, b.v, b.r, this.patch);
        const base = k * 3 * plane;
        for (let p = 0; p < plane; p++) {
          for (let c = 0; c < 3; c++) this.tensor[base + c * plane + p] = (this.patch[p * 3 + c]! / 255 - mean[c]!) / std[c]!;
        }
      }
      const res = await this.runner.run(this.tensor.subarray(0, n * 3 * plane), PATCH_PX, PATCH_PX, n);
      const logits = res[this.side.outputs.logits];
      if (!logits) throw new Error(`kind classifier outputs ${Object.keys(res).join(', ')} lack '${this.side.outputs.logits}'`);
      const C = this.side.classes.length;
      for (let k = 0; k < n; k++) out.push(softmaxAmong(logits.data, k * C, this.idx, this.side.classes));
    }
    return out;
  }

  /**
   * The rows with each kind the classifier is sure of (p ≥ KIND_MIN_P) in place of the detector's,
   * where both kinds are among `among` (the detector sidecar's `kinds.among[game]`). Pure apart
   * from the inference.
   */
  async relabel(frame: Rgb, rows: readonly DetectionRow[]): Promise<DetectionRow[]> {
    if (rows.length === 0) return [];
    const kinds = await this.read(frame, rows);
    const among = this.among;
    return rows.map((r, i) => {
      const k = kinds[i]!;
      return k.p >= KIND_MIN_P && k.class !== r.class && among.has(r.class) && among.has(k.class) ? { ...r, class: k.class } : r;
    });
  }
}

/** The most likely of the allowed classes, with its softmax probability among them. */
export function softmaxAmong(logits: Float32Array, offset: number, allowed: readonly number[], classes: readonly string[]): KindReading {
  let max = -Infinity, best = allowed[0]!;
  for (const k of allowed) {
    const l = logits[offset + k]!;
    if (l > max) [max, best] = [l, k];
  }
  let sum = 0;
  for (const k of allowed) sum += Math.exp(logits[offset + k]! - max);
  return { class: classes[best]!, p: 1 / sum };
}
