/**
 * The ball detector: pre-processing, the injected runner, post-processing. One model load serves
 * any number of frames; the input tensor is reused between frames.
 */
import type { GameId } from '../core/games.js';
import type { Mat3 } from '../core/mat3.js';
import { clusterLooks, fuseLooks } from './clusters.js';
import { makeDetections, toRows, type DetectionRow, type Detections } from './detections.js';
import type { ModelSidecar } from './model.js';
import { postprocess } from './postprocess.js';
import { preprocess, tableViewFor, type InputView, type Rgb } from './preprocess.js';
import type { ModelRunner } from './runner.js';

export interface DetectorOptions {
  game: GameId;
  minConf?: number;
  /**
   * Look again, enlarged, at clusters of touching balls the whole-frame look found (`clusters.ts`):
   * splits packs the coarse look merges. On by default; off gives the single look.
   */
  refineClusters?: boolean;
}

/** What the network looks at: the whole frame, or the bed rectified by a calibration. */
export type DetectorView =
  /**
   * The whole frame letterboxed. `ballRadiusPx` (from the calibration: a ball's radius in frame
   * pixels near the table's centre) shrinks the frame further when balls would come out larger than
   * the model saw most in training (a close overhead camera), so they do; never enlarges.
   */
  | { kind: 'frame'; ballRadiusPx?: number }
  | { kind: 'table'; imageToTable: Mat3; bed: { width: number; length: number }; marginMm?: number };

/** The ball radius in network-input pixels the training renders have most of (overhead, full-size table). */
export const TYPICAL_BALL_RADIUS_INPUT_PX = 4.5;

export class BallDetector {
  private readonly tensor: Float32Array;
  private readonly allowed: ReadonlySet<string>;

  constructor(
    private readonly runner: ModelRunner,
    private readonly side: ModelSidecar,
    private readonly opts: DetectorOptions,
  ) {
    this.tensor = new Float32Array(3 * side.input.width * side.input.height);
    const forGame = side.games[opts.game];
    if (!forGame || forGame.length === 0) throw new Error(`model '${side.name}' has no classes for ${opts.game}`);
    this.allowed = new Set(forGame);
  }

  /**
   * Balls in one frame, in frame pixels. With a `table` view only the rectified bed is searched
   * (the map is rebuilt per call: cheap, and a drifting camera may hand over a new calibration).
   */
  async detect(frame: Rgb, view: DetectorView = { kind: 'frame' }): Promise<Detections> {
    const { width: W, height: H } = this.side.input;
    const toFrameH = view.kind === 'table' ? tableViewFor(view.imageToTable, view.bed, W, H, view.marginMm) : view.ballRadiusPx ? sizedLetterbox(frame, W, H, view.ballRadiusPx) : undefined;
    const { view: inputView } = preprocess(frame, this.side.input, this.tensor, toFrameH);
    const input = this.side.input;
    const gains = input.clothNormalise ? clothGains(this.tensor, input as Required<ModelSidecar['input']>, this.opts.game) : null;
    if (gains) applyClothGains(this.tensor, W * H, input, gains);
    const coarse = await this.infer(this.tensor, W, H, inputView);
    if (this.opts.refineClusters === false || inputView.kind !== 'letterbox') return coarse;
    // Second looks, enlarged, at clusters (only from the plain letterbox: its scale is uniform).
    const rows = toRows(coarse);
    const looks = clusterLooks(rows, inputView.box.scale, frame);
    if (looks.length === 0) return coarse;
    const fine: DetectionRow[][] = [];
    for (const l of looks) {
      const cropInput = { ...input, width: l.width, height: l.height };
      const { tensor, view } = preprocess(frame, cropInput, undefined, l.inputToFrame);
      if (gains) applyClothGains(tensor, l.width * l.height, input, gains);
      fine.push(toRows(await this.infer(tensor, l.width, l.height, view)));
    }
    return makeDetections(fuseLooks(rows, looks, fine), this.side.classes);
  }

  private async infer(tensor: Float32Array, W: number, H: number, view: InputView): Promise<Detections> {
    const res = await this.runner.run(tensor, H, W);
    const hm = res[this.side.outputs.heatmap];
    const off = res[this.side.outputs.offset];
    const rad = res[this.side.outputs.radius];
    if (!hm || !off || !rad) throw new Error(`model outputs ${Object.keys(res).join(', ')} lack ${JSON.stringify(this.side.outputs)}`);
    const [, C, h, w] = hm.dims as [number, number, number, number];
    return postprocess(
      { heatmap: hm.data, offset: off.data, radius: rad.data, channels: C, h, w },
      { classes: this.side.classes, allowed: this.allowed, stride: this.side.stride, view, minConf: this.opts.minConf },
    );
  }
}

/**
 * A letterbox (input → frame map) at a scale that brings balls of `ballRadiusPx` to the typical
 * training size, or undefined when the plain letterbox already does (it is never enlarged).
 */
function sizedLetterbox(frame: Rgb, W: number, H: number, ballRadiusPx: number): Mat3 | undefined {
  const fit = Math.min(W / frame.width, H / frame.height);
  const s = Math.min(fit, TYPICAL_BALL_RADIUS_INPUT_PX / ballRadiusPx);
  if (s >= fit * 0.95) return undefined;
  const padX = (W - frame.width * s) / 2;
  const padY = (H - frame.height * s) / 2;
  return [
    [1 / s, 0, -padX / s],
    [0, 1 / s, -padY / s],
    [0, 0, 1],
  ];
}

/**
 * The sidecar's cloth normalisation, in place on the normalised tensor (training did the same on
 * the 0–255 input: models/training/train.py `cloth_gains`). Returns the gains applied ([1, 1, 1]
 * when the frame's cloth is inside the training range).
 */
export function normaliseByCloth(tensor: Float32Array, input: Required<ModelSidecar['input']>, game?: GameId): [number, number, number] {
  const gains = clothGains(tensor, input, game);
  if (!gains) return [1, 1, 1];
  applyClothGains(tensor, input.width * input.height, input, gains);
  return gains;
}

/** The per-channel gains that bring the frame's cloth to the training median, or null when none is needed. */
function clothGains(tensor: Float32Array, input: Required<ModelSidecar['input']>, game?: GameId): [number, number, number] | null {
  const { width: W, height: H, mean, std, clothNormalise: cn } = input;
  const plane = W * H;
  const [x0, y0, x1, y1] = cn.region;
  const gains: [number, number, number] = [1, 1, 1];
  const medians: [number, number, number] = [0, 0, 0];
  const vals: number[] = [];
  for (let c = 0; c < 3; c++) {
    vals.length = 0;
    for (let y = y0; y < y1; y += 2) for (let x = x0; x < x1; x += 2) vals.push((tensor[c * plane + y * W + x]! * std[c]! + mean[c]!) * 255);
    vals.sort((a, b) => a - b);
    const n = vals.length;
    const med = n % 2 ? vals[n >> 1]! : (vals[n / 2 - 1]! + vals[n / 2]!) / 2;
    medians[c] = med;
    gains[c] = Math.min(cn.gainRange[1], Math.max(cn.gainRange[0], cn.target[c]! / Math.max(med, 1)));
  }
  const only = cn.onlyOutside;
  if (only) {
    if (!game || !only.games.includes(game)) return null;
    const m = only.marginLevels ?? 10;
    if (medians.every((v, c) => v >= only.min[c]! - m && v <= only.max[c]! + m)) return null;
  }
  return gains;
}

/** Scales each channel of a normalised tensor of `plane` pixels per channel by `gains` in 0–1 space. */
function applyClothGains(tensor: Float32Array, plane: number, input: ModelSidecar['input'], gains: readonly number[]): void {
  const { mean, std } = input;
  for (let c = 0; c < 3; c++) {
    const g = gains[c]!, m = mean[c]!, s = std[c]!;
    const base = c * plane;
    for (let i = 0; i < plane; i++) {
      const v = Math.min(1, Math.max(0, (tensor[base + i]! * s + m) * g));
      tensor[base + i] = (v - m) / s;
    }
  }
}
