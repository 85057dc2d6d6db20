/**
 * The ball detector: pre-processing, the injected runner, post-processing. One model load serves
 * any number of frames; the input tensor is reused between frames.
 */
import type { GameId } from '../core/games.js';
import type { Detections } from './detections.js';
import type { ModelSidecar } from './model.js';
import { postprocess } from './postprocess.js';
import { preprocess, type Rgb } from './preprocess.js';
import type { ModelRunner } from './runner.js';

export interface DetectorOptions {
  game: GameId;
  minConf?: number;
}

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

  async detect(frame: Rgb): Promise<Detections> {
    const { width: W, height: H } = this.side.input;
    const { box } = preprocess(frame, this.side.input, this.tensor);
    const res = await this.runner.run(this.tensor, H, W);
    const hm = res[this.side.outputs.heatmap];
    const off = res[this.side.outputs.offset];
    const rad = res[this.side.outputs.radius];
    if (!hm || !off || !rad) throw new Error(`model outputs ${Object.keys(res).join(', ')} lack ${JSON.stringify(this.side.outputs)}`);
    const [, C, h, w] = hm.dims as [number, number, number, number];
    return postprocess(
      { heatmap: hm.data, offset: off.data, radius: rad.data, channels: C, h, w },
      { classes: this.side.classes, allowed: this.allowed, stride: this.side.stride, box, minConf: this.opts.minConf },
    );
  }
}
