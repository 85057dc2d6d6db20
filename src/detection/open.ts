/**
 * A ball detector from a model on disk: its .onnx and sidecar, and the model its sidecar names for
 * frames of other cloths (`otherCloths`), so every caller — `detect`, `track`, `analyze`, `live`,
 * the benches — gets the same pair.
 */
import { dirname, join } from 'node:path';
import { BallDetector, type DetectorOptions } from './detector.js';
import { KindClassifier, loadKindSidecar } from './kinds.js';
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
  const runners: Awaited<ReturnType<typeof createOnnxRunner>>[] = [];
  const close = async () => {
    for (const r of runners) await r.close();
  };
  try {
    runners.push(await createOnnxRunner(`${modelPath}.onnx`, onnx));
    // The kind classifier, for the games it serves (one for the pair: it looks at the frame itself).
    let kinds: KindClassifier | undefined;
    const among = side.kinds?.among[opts.game];
    if (side.kinds && among && !opts.noKinds) {
      const path = join(dirname(modelPath), side.kinds.model);
      const kindSide = loadKindSidecar(`${path}.json`);
      const kindRunner = await createOnnxRunner(`${path}.onnx`, onnx);
      runners.push(kindRunner);
      kinds = new KindClassifier(kindRunner, kindSide, opts.game, among);
    }
    let other: BallDetector | undefined;
    if (side.otherCloths) {
      const path = join(dirname(modelPath), side.otherCloths.model);
      const otherSide = loadSidecar(`${path}.json`);
      const otherRunner = await createOnnxRunner(`${path}.onnx`, onnx);
      runners.push(otherRunner);
      other = new BallDetector(otherRunner, otherSide, opts, undefined, kinds);
    }
    return { detector: new BallDetector(runners[0]!, side, opts, other, kinds), side, close };
  } catch (e) {
    await close();
    throw e;
  }
}
