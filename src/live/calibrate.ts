/**
 * The camera for a live session, solved before it starts: a few frames `stepMs` apart from the
 * source's first seconds, each calibrated on its own (`calibrateFrame`), the best solve kept
 * (`betterCalibration`), as `cueref analyze` does. Done on its own connection, before the session
 * opens the source, so the paced clock of a `--realtime` file (or a camera's drop-oldest queue)
 * does not run while the solver works. Given the detector, a camera looking straight down has its
 * height measured from the colours on their spots, as in `analyze`.
 */
import type { Calibration } from '../calibration/contract.js';
import { BestCalibration } from '../calibration/solve.js';
import { InputError } from '../core/errors.js';
import type { TableProfile } from '../core/table.js';
import type { Frame } from '../video/index.js';
import type { SpotHeight } from '../calibration/spotHeight.js';
import { heightFromFrames } from '../pipeline/spotHeight.js';
import type { FrameDetector } from '../pipeline/track.js';
import type { OpenFeed } from './feed.js';

export interface SolveOptions {
  frames?: number;
  stepMs?: number;
  /** Give up after this much stream time without a solve (a player over the table), ms. */
  withinMs?: number;
}

export async function solveFromFeed(open: OpenFeed, table: TableProfile, uri: string, o: SolveOptions = {}, detector?: FrameDetector): Promise<{ calibration: Calibration; tried: number; height?: SpotHeight }> {
  const want = o.frames ?? 3;
  const stepMs = o.stepMs ?? 500;
  const withinMs = o.withinMs ?? 10_000;
  const feed = await open();
  const pick = new BestCalibration(table);
  // The frames that solved, for the camera's height from the colours on their spots (spotHeight.ts).
  const solvedFrames: Frame[] = [];
  try {
    let t0 = NaN;
    let nextMs = -Infinity;
    for await (const item of feed) {
      if (item.type !== 'frame') continue;
      const f: Frame = item.frame;
      if (Number.isNaN(t0)) t0 = f.ptsMs;
      if (f.ptsMs - t0 > withinMs) break;
      if (f.ptsMs + 1e-6 < nextMs) continue;
      nextMs = f.ptsMs + stepMs;
      if (pick.offer(f)) solvedFrames.push(f);
      if (pick.solved >= want) break;
    }
  } finally {
    await feed.close().catch(() => undefined);
  }
  const { best, failure, tried } = pick;
  if (!best) {
    throw new InputError({
      code: `CALIBRATION_${failure?.code ?? 'NO_FRAMES'}`,
      field: 'calibration',
      message: `cannot find the ${table.game} table in ${tried} frame(s) of '${uri}'${failure ? `: ${failure.message}` : ''}. Is the table in view? Solve one by hand (\`cueref calibrate SOURCE --game ${table.game} --corners … --out FILE\`) and pass --calibration FILE`,
    });
  }
  best.source = { uri, atSeconds: 0 };
  const height = detector ? await heightFromFrames(solvedFrames, best, detector, table) : undefined;
  return { calibration: height?.ok ? height.calibration : best, tried, ...(height ? { height } : {}) };
}
