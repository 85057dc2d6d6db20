/** The detector as the view wants it: second looks at every group only for snooker from above (outlineCentres.ts). */
import { describe, expect, it } from 'vitest';
import { bedForeshortening } from '../../src/calibration/ballSize.js';
import { builtinProfile, defaultProfileFor, detectedCentreHeightMm } from '../../src/core/table.js';
import { OUTLINE_MIN_FORESHORTENING, viewDetectorFor } from '../../src/pipeline/outlineCentres.js';
import type { DetectCallOptions, FrameDetector } from '../../src/pipeline/track.js';
import { presetCamera, truthHomographies } from '../../src/sim/camera.js';

/** A detector that finds nothing and remembers what each call asked. */
function recorder(): FrameDetector & { asked: (DetectCallOptions | undefined)[] } {
  const asked: (DetectCallOptions | undefined)[] = [];
  return {
    asked,
    detect: (_f, o) => (asked.push(o), []),
    detectRegions: async (_f, _b, o) => (asked.push({ ...(o.looks ? { looks: o.looks } : {}) }), []),
  };
}

const frame = { index: 0, ptsMs: 0, t: 0, width: 1280, height: 720, rgb: new Uint8Array(1280 * 720 * 3) };

describe('viewDetectorFor', () => {
  for (const game of ['snooker'] as const) {
    const table = defaultProfileFor(game);
    const calOf = (kind: 'overhead' | 'broadcast') => ({ imageToTable: truthHomographies(presetCamera(kind, table, { width: 1280, height: 720 }), detectedCentreHeightMm(table)).imageToTable });

    it(`${game}: from above every group gets a second look, whole frame and regions; from the broadcast angle the detector's own mode`, async () => {
      const over = calOf('overhead'), broad = calOf('broadcast');
      expect(bedForeshortening(over, table)).toBeGreaterThanOrEqual(OUTLINE_MIN_FORESHORTENING);
      expect(bedForeshortening(broad, table)).toBeLessThan(OUTLINE_MIN_FORESHORTENING);
      const a = recorder();
      const fromAbove = viewDetectorFor(a, game, over, table);
      await fromAbove.detect(frame);
      await fromAbove.detectRegions!(frame, [{ u0: 0, v0: 0, u1: 10, v1: 10 }], { contextPx: 8 });
      expect(a.asked.map((o) => o?.looks)).toEqual(['groups', 'groups']);
      const b = recorder();
      const low = viewDetectorFor(b, game, broad, table);
      await low.detect(frame);
      await low.detectRegions!(frame, [{ u0: 0, v0: 0, u1: 10, v1: 10 }], { contextPx: 8 });
      expect(b.asked.map((o) => o?.looks)).toEqual([undefined, undefined]);
    });
  }

  it.each(['pool8', 'novus'] as const)('%s from above: the detector\'s own mode (its rack is found whole; the looks moved it)', async (game) => {
    const table = defaultProfileFor(game);
    const a = recorder();
    await viewDetectorFor(a, game, { imageToTable: truthHomographies(presetCamera('overhead', table, { width: 1280, height: 720 }), detectedCentreHeightMm(table)).imageToTable }, table).detect(frame);
    expect(a.asked.map((o) => o?.looks)).toEqual([undefined]);
  });

  it('no bed homography (a stand-in calibration): the detector as it is', async () => {
    const a = recorder();
    expect(viewDetectorFor(a, 'snooker', {}, builtinProfile('snooker'))).toBe(a);
  });
});
