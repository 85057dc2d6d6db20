/**
 * A ball detector from a model on disk: its .onnx and sidecar, and the model its sidecar names for
 * frames of other cloths (`otherCloths`), so every caller — `detect`, `track`, `analyze`, `live`,
 * the benches — gets the same pair.
 */
import { dirname, join } from 'node:path';
import { BallDetector, type DetectorOptions } from './detector.js';
import { loadSidecar, type ModelSidecar } from './model.js';
import { createOnnxRunner, type OnnxOptions } from './onnxRunner.js';

export interface OpenedDetector {
  detector: BallDetector;
  side: ModelSidecar;
  close(): Promise<void>;
}

/** `modelPath`: the model's path without extension (`models/detector`). */
export async function openBallDetector(modelPath: string, opts: DetectorOptions, onnx: OnnxOptions = {}): Promise<OpenedDetector> {
  const side = loadSidecar(`${modelPath}.json`);
  const runner = await createOnnxRunner(`${modelPath}.onnx`, onnx);
  let other: BallDetector | undefined;
  let otherRunner: Awaited<ReturnType<typeof createOnnxRunner>> | undefined;
  if (side.otherCloths) {
    const path = join(dirname(modelPath), side.otherCloths.model);
    try {
      const otherSide = loadSidecar(`${path}.json`);
      otherRunner = await createOnnxRunner(`${path}.onnx`, onnx);
      other = new BallDetector(otherRunner, otherSide, opts);
    } catch (e) {
      await runner.close();
      throw e;
    }
  }
  return {
    detector: new BallDetector(runner, side, opts, other),
    side,
    close: async () => {
      await runner.close();
      await otherRunner?.close();
    },
  };
}
