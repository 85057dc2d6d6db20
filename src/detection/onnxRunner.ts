/** ModelRunner over onnxruntime-node: the only module that imports it (ARCHITECTURE rule 5). */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import * as ort from 'onnxruntime-node';
import { InputError } from '../core/errors.js';
import type { ModelRunner } from './runner.js';

export interface OnnxOptions {
  /**
   * Threads for one inference: the cores this process may use by default (2 in CI). Asked of
   * Node, not left to onnxruntime (its 0): on the 2-core machine its own choice ran the detector
   * at one thread's speed (640×384 input: median 13.0 ms with 0 or 1, 7.9 ms with 2; the whole
   * 720p frame in `bench/detector-real.ts`: ~20 ms → 14.3 ms).
   */
  intraOpThreads?: number;
}

export async function createOnnxRunner(modelPath: string, opts: OnnxOptions = {}): Promise<ModelRunner> {
  if (!existsSync(modelPath)) {
    throw new InputError({ code: 'MODEL_NOT_FOUND', message: `no detector model at '${modelPath}': the model ships in models/ (see models/README.md)` });
  }
  const session = await ort.InferenceSession.create(modelPath, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: opts.intraOpThreads ?? availableParallelism(),
  });
  const inputName = session.inputNames[0]!;
  return {
    async run(input, height, width, batch = 1) {
      const feeds = { [inputName]: new ort.Tensor('float32', input, [batch, 3, height, width]) };
      const res = await session.run(feeds);
      const out: Record<string, { data: Float32Array; dims: readonly number[] }> = {};
      for (const [k, t] of Object.entries(res)) out[k] = { data: t.data as Float32Array, dims: t.dims };
      return out;
    },
    async close() {
      await session.release();
    },
  };
}
