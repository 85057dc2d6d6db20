/** ModelRunner over onnxruntime-node: the only module that imports it (ARCHITECTURE rule 5). */
import { existsSync } from 'node:fs';
import * as ort from 'onnxruntime-node';
import { InputError } from '../core/errors.js';
import type { ModelRunner } from './runner.js';

export interface OnnxOptions {
  /** Threads for one inference: the machine's cores by default (2 in CI). */
  intraOpThreads?: number;
}

export async function createOnnxRunner(modelPath: string, opts: OnnxOptions = {}): Promise<ModelRunner> {
  if (!existsSync(modelPath)) {
    throw new InputError({ code: 'MODEL_NOT_FOUND', message: `no detector model at '${modelPath}': the model ships in models/ (see models/README.md)` });
  }
  const session = await ort.InferenceSession.create(modelPath, {
    executionProviders: ['cpu'],
    graphOptimizationLevel: 'all',
    intraOpNumThreads: opts.intraOpThreads ?? 0,
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
