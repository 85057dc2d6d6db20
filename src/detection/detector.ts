/**
 * The ball detector: pre-processing, the injected runner, post-processing. One model load serves
 * any number of frames; the input tensor is reused between frames.
 */
import type { GameId } from '../core/games.js';
import type { Mat3 } from '../core/mat3.js';
import { clusterLooks, fuseLooks, type LookMode } from './clusters.js';
import { makeDetections, toRows, type DetectionRow, type Detections } from './detections.js';
import type { ModelSidecar } from './model.js';
import { DEFAULT_MIN_CONF, postprocess } from './postprocess.js';
import { cropInput, letterboxFor, preprocess, tableViewFor, type FrameBox, type InputView, type Rgb } from './preprocess.js';
import type { ModelRunner } from './runner.js';
import type { KindClassifier } from './kinds.js';
import { medianInPlace } from '../core/stats.js';

export interface DetectorOptions {
  game: GameId;
  minConf?: number;
  /**
   * Also report peaks from this confidence up to `minConf` ("weak" balls, told apart by their
   * confidence alone), for a tracker that uses them only to keep a ball it already follows, or to
   * name a one-ball kind nobody holds (ByteTrack's low-score pass). A real camera's cue ball under
   * odd light can score 0.23 all clip long, the strongest white in the frame by far (Bucharest
   * Task3 clips 11 and 14). Weak peaks take no part in the second looks. Default: none.
   */
  weakConf?: number;
  /**
   * Look again, enlarged, at clusters the whole-frame look found (`clusters.ts`): splits packs the
   * coarse look merges. `blobs` (default: video) or `groups` (still images; see LookMode); `off`
   * gives the single look.
   */
  clusterLooks?: LookMode | 'off';
  /** Leave the kinds as the detector reads them, even where the sidecar names a kind classifier (benches compare the two). */
  noKinds?: boolean;
}

/** What the network looks at: the whole frame, or the bed rectified by a calibration. */
export type DetectorView =
  /**
   * The whole frame letterboxed. `ballRadiusPx` (from the calibration: a ball's radius in frame
   * pixels near the table's centre) shrinks the frame further when balls would come out larger than
   * the model saw most in training (a close overhead camera), so they do; never enlarges.
   */
  | { kind: 'frame'; ballRadiusPx?: number; looks?: LookMode }
  | { kind: 'table'; imageToTable: Mat3; bed: { width: number; length: number }; marginMm?: number };

/** The ball radius in network-input pixels the training renders have most of (overhead, full-size table). */
export const TYPICAL_BALL_RADIUS_INPUT_PX = 4.5;

export class BallDetector {
  private readonly tensor: Float32Array;
  private scratch = new Float32Array(0);
  private readonly allowed: ReadonlySet<string>;

  /**
   * `otherCloths`: the detector for frames whose cloth is outside this model's training cloths
   * (the sidecar's `otherCloths`); without it such frames are cloth-normalised. `kinds`: the
   * classifier that says each found ball's kind at the frame's resolution (kinds.ts), among the
   * kinds the sidecar's `kinds.among` names for the game.
   */
  constructor(
    private readonly runner: ModelRunner,
    private readonly side: ModelSidecar,
    private readonly opts: DetectorOptions,
    private readonly otherCloths?: BallDetector,
    private readonly kinds?: KindClassifier,
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
    const { gains, partner } = this.clothRoute(input.clothNormalise ? clothMedians(this.tensor, input as Required<ModelSidecar['input']>) : null);
    if (partner) return partner.detect(frame, view);
    if (gains) applyClothGains(this.tensor, W * H, input, gains);
    const all = await this.infer(this.tensor, W, H, inputView);
    if (this.opts.clusterLooks === 'off' || inputView.kind !== 'letterbox') return this.withKinds(frame, all);
    const [coarse, weak] = this.splitWeak(all);
    return this.withKinds(frame, this.withWeak(await this.refine(frame, coarse, inputView.box.scale, gains, undefined, view.kind === 'frame' ? view.looks : undefined), weak));
  }

  /** The balls with the kind classifier's kinds, when there is one. */
  private async withKinds(frame: Rgb, d: Detections): Promise<Detections> {
    if (!this.kinds || d.count === 0) return d;
    return makeDetections(await this.kinds.relabel(frame, toRows(d)), this.side.classes);
  }

  /** Peaks at or above `minConf`, and the weak ones below it (none without `weakConf`). */
  private splitWeak(d: Detections): [Detections, DetectionRow[]] {
    const floor = this.opts.minConf ?? DEFAULT_MIN_CONF;
    if (this.opts.weakConf === undefined || this.opts.weakConf >= floor) return [d, []];
    const rows = toRows(d);
    const strong = rows.filter((r) => r.conf >= floor);
    return strong.length === rows.length ? [d, []] : [makeDetections(strong, this.side.classes), rows.filter((r) => r.conf < floor)];
  }

  /** The looked-again balls plus the weak peaks that no ball of them lies on. */
  private withWeak(d: Detections, weak: readonly DetectionRow[]): Detections {
    if (weak.length === 0) return d;
    const balls = toRows(d);
    const onABall = (w: DetectionRow) => balls.some((b) => Math.hypot(b.u - w.u, b.v - w.v) < Math.max(b.r, w.r));
    return makeDetections([...balls, ...weak.filter((w) => !onABall(w))], this.side.classes);
  }

  /**
   * Balls whose centres lie in the given boxes of the frame (frame px), each box seen at the
   * whole-frame look's scale with `contextPx` of frame around it: what `analyze` runs on a moving
   * frame whose changes are in a few places (the motion gate's regions), at a fraction of the
   * cost of the whole frame. Clusters in a box get their second look as in `detect`, sized by
   * `ballRadiusPx` when given (a box may hold nothing but a pack, so its own balls cannot say).
   */
  async detectRegions(frame: Rgb, cores: readonly FrameBox[], opts: RegionOptions): Promise<Detections> {
    const { contextPx, ballRadiusPx, looks } = opts;
    const input = this.side.input;
    const scale = letterboxFor(frame.width, frame.height, input.width, input.height).scale;
    const { gains, partner } = this.clothRoute(input.clothNormalise ? this.frameClothMedians(frame, scale) : null);
    if (partner) return partner.detectRegions(frame, cores, opts);
    const rows: DetectionRow[] = [];
    for (const core of cores) {
      const crop = { u0: core.u0 - contextPx, v0: core.v0 - contextPx, u1: core.u1 + contextPx, v1: core.v1 + contextPx };
      let found = await this.inferCrop(frame, cropInput(crop, scale, frame), gains);
      if (this.opts.clusterLooks !== 'off') {
        const [coarse, weak] = this.splitWeak(found);
        found = this.withWeak(await this.refine(frame, coarse, scale, gains, ballRadiusPx, looks), weak);
      }
      for (const b of toRows(found)) {
        if (b.u < core.u0 || b.u >= core.u1 || b.v < core.v0 || b.v >= core.v1) continue;
        // Boxes do not overlap, but their contexts do: a ball is kept once.
        if (rows.some((o) => Math.hypot(o.u - b.u, o.v - b.v) < Math.max(o.r, b.r))) continue;
        rows.push(b);
      }
    }
    return makeDetections(this.kinds ? await this.kinds.relabel(frame, rows) : rows, this.side.classes);
  }

  /** Second looks at the clusters among `coarse` (seen at `scale` input px per frame px); `asked`: this call's mode, else the detector's. */
  private async refine(frame: Rgb, coarse: Detections, scale: number, gains: [number, number, number] | null, ballRadiusPx?: number, asked?: LookMode): Promise<Detections> {
    const rows = toRows(coarse);
    const mode: LookMode = asked ?? (this.opts.clusterLooks === 'groups' ? 'groups' : 'blobs');
    const looks = clusterLooks(rows, scale, frame, { mode, ...(ballRadiusPx ? { ballRadiusPx } : {}) });
    if (looks.length === 0) return coarse;
    const fine: DetectionRow[][] = [];
    // The enlarged looks report strong balls only: weak peaks stay out of the fusing (see `weakConf`).
    const floor = this.opts.minConf ?? DEFAULT_MIN_CONF;
    for (const l of looks) fine.push(toRows(await this.inferCrop(frame, l, gains)).filter((r) => r.conf >= floor));
    return makeDetections(fuseLooks(rows, looks, fine, mode), this.side.classes);
  }

  /**
   * The network on a crop of the frame. The crop's tensor is a view of one scratch buffer grown
   * as needed (crops come every moving frame; each is run to the end before the next is filled).
   */
  private async inferCrop(frame: Rgb, crop: { width: number; height: number; inputToFrame: Mat3 }, gains: [number, number, number] | null): Promise<Detections> {
    const input = this.side.input;
    const n = 3 * crop.width * crop.height;
    if (this.scratch.length < n) this.scratch = new Float32Array(n);
    const { tensor, view } = preprocess(frame, { ...input, width: crop.width, height: crop.height }, this.scratch.subarray(0, n), crop.inputToFrame);
    if (gains) applyClothGains(tensor, crop.width * crop.height, input, gains);
    return this.infer(tensor, crop.width, crop.height, view);
  }

  /**
   * What a frame's cloth (its `medians`; null without a cloth section) asks of this model: the
   * partner, when there is one and the cloth is outside this model's (snooker: `onlyOutside`; other
   * games: `otherCloths.outside`), else the normalisation gains, if any.
   */
  private clothRoute(medians: readonly number[] | null): { gains: [number, number, number] | null; partner?: BallDetector } {
    if (!medians) return { gains: null };
    const gains = clothGains(medians, this.side.input as Required<ModelSidecar['input']>, this.opts.game);
    if (!this.otherCloths) return { gains };
    const range = this.side.otherCloths?.outside?.[this.opts.game];
    const m = range?.marginLevels ?? 0;
    const notOurs = range !== undefined && medians.some((v, c) => v < range.min[c]! - m || v > range.max[c]! + m);
    return gains || notOurs ? { gains, partner: this.otherCloths } : { gains };
  }

  /**
   * The cloth medians of a frame without pre-processing it whole: the sidecar's cloth region of the
   * letterboxed input, sampled at every second input px (as `clothMedians` reads it).
   */
  private frameClothMedians(frame: Rgb, scale: number): [number, number, number] {
    const input = this.side.input as Required<ModelSidecar['input']>;
    const [x0, y0, x1, y1] = input.clothNormalise.region;
    const box = letterboxFor(frame.width, frame.height, input.width, input.height);
    const w = Math.ceil((x1 - x0) / 2), h = Math.ceil((y1 - y0) / 2);
    // Mini-input px (x, y) ↔ input px (x0 + 2x + 0.5, y0 + 2y + 0.5) ↔ frame px.
    const toFrameH: Mat3 = [
      [2 / scale, 0, (x0 + 0.5 - box.padX) / scale - 1 / scale],
      [0, 2 / scale, (y0 + 0.5 - box.padY) / scale - 1 / scale],
      [0, 0, 1],
    ];
    const { tensor } = preprocess(frame, { ...input, width: w, height: h }, undefined, toFrameH);
    return clothMedians(tensor, { ...input, width: w, height: h, clothNormalise: { ...input.clothNormalise, region: [0, 0, w, h] } }, 1);
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
      { classes: this.side.classes, allowed: this.allowed, stride: this.side.stride, offsetOrigin: this.side.offsetOrigin, view, minConf: Math.min(this.opts.minConf ?? DEFAULT_MIN_CONF, this.opts.weakConf ?? 1) },
    );
  }
}

export interface RegionOptions {
  /** Frame px seen round each box. */
  contextPx: number;
  /** A ball's radius in frame px, when the caller knows it (the calibration). */
  ballRadiusPx?: number;
  /** Which clusters get a second look in this call (default: the detector's `clusterLooks`). */
  looks?: LookMode;
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
  const gains = clothGains(clothMedians(tensor, input), input, game);
  if (!gains) return [1, 1, 1];
  applyClothGains(tensor, input.width * input.height, input, gains);
  return gains;
}

/** The cloth region's median per channel, 0–255, read from a normalised input tensor. */
function clothMedians(tensor: Float32Array, input: Required<ModelSidecar['input']>, step = 2): [number, number, number] {
  const { width: W, height: H, mean, std, clothNormalise: cn } = input;
  const plane = W * H;
  const [x0, y0, x1, y1] = cn.region;
  const medians: [number, number, number] = [0, 0, 0];
  const vals = new Float64Array(Math.ceil((y1 - y0) / step) * Math.ceil((x1 - x0) / step));
  for (let c = 0; c < 3; c++) {
    let n = 0;
    for (let y = y0; y < y1; y += step) for (let x = x0; x < x1; x += step) vals[n++] = (tensor[c * plane + y * W + x]! * std[c]! + mean[c]!) * 255;
    // Quickselect, not a sort: the same median in linear time (it runs on every detected frame).
    medians[c] = medianInPlace(vals, n);
  }
  return medians;
}

/** The per-channel gains that bring the frame's cloth (its `medians`) to the training median, or null when none is needed. */
function clothGains(medians: readonly number[], input: Required<ModelSidecar['input']>, game?: GameId): [number, number, number] | null {
  const cn = input.clothNormalise;
  const gains = medians.map((med, c) => Math.min(cn.gainRange[1], Math.max(cn.gainRange[0], cn.target[c]! / Math.max(med, 1)))) as [number, number, number];
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
