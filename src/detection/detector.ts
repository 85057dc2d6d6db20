/**
 * The ball detector: pre-processing, the injected runner, post-processing. One model load serves
 * any number of frames; the input tensor is reused between frames.
 */
import type { GameId } from '../core/games.js';
import type { Mat3 } from '../core/mat3.js';
import type { Detections } from './detections.js';
import type { ModelSidecar } from './model.js';
import { postprocess } from './postprocess.js';
import { preprocess, tableViewFor, type Rgb } from './preprocess.js';
import type { ModelRunner } from './runner.js';

export interface DetectorOptions {
  game: GameId;
  minConf?: number;
}

/** What the network looks at: the whole frame, or the bed rectified by a calibration. */
export type DetectorView = { kind: 'frame' } | { kind: 'table'; imageToTable: Mat3; bed: { width: number; length: number }; marginMm?: number };

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
    const toFrameH = view.kind === 'table' ? tableViewFor(view.imageToTable, view.bed, W, H, view.marginMm) : undefined;
    const { view: inputView } = preprocess(frame, this.side.input, this.tensor, toFrameH);
    const res = await this.runner.run(this.tensor, H, W);
    const hm = res[this.side.outputs.heatmap];
    const off = res[this.side.outputs.offset];
    const rad = res[this.side.outputs.radius];
    if (!hm || !off || !rad) throw new Error(`model outputs ${Object.keys(res).join(', ')} lack ${JSON.stringify(this.side.outputs)}`);
    const [, C, h, w] = hm.dims as [number, number, number, number];
    return postprocess(
      { heatmap: hm.data, offset: off.data, radius: rad.data, channels: C, h, w },
      { classes: this.side.classes, allowed: this.allowed, stride: this.side.stride, view: inputView, minConf: this.opts.minConf },
    );
  }
}
