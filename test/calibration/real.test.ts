/**
 * Calibration on real third-party footage in ../shared/real (skipped with a message when absent).
 * A subset keeps this file quick; `npx tsx test/calibration/measureReal.ts` measures every frame.
 */
import { describe, expect, it } from 'vitest';
import { bucharestFrames, evalBern, evalBucharest, evalGate, evalPadova, haveReal, REAL_DIR } from './realSets.js';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

if (!haveReal()) {
  describe('real footage', () => {
    it.skip(`skipped: ${REAL_DIR} is not present`, () => {});
  });
} else {
  describe('real footage', () => {
    it('Bern overhead: annotated ball pixels through ballCentreToTable land within 10 mm (median)', async () => {
      const r = await evalBern();
      expect(r.every((x) => x.ok)).toBe(true);
      const all = r.flatMap((x) => x.errorsMm);
      expect(all.length).toBeGreaterThan(100);
      expect(median(all)).toBeLessThanOrEqual(10);
      // The baulk end is read from the D and baulk line on every frame.
      expect(r.every((x) => x.end === 'found')).toBe(true);
    });

    it('Bucharest broadcast: calibrates ≥ 95 % of frames and the spots fall on the balls standing on them', async () => {
      const frames = bucharestFrames().filter((_, i) => i % 4 === 0);
      const r = await evalBucharest(frames);
      const ok = r.filter((x) => x.ok);
      expect(ok.length / r.length).toBeGreaterThanOrEqual(0.95);
      // Colours are not always on their spots mid-frame; most frames have at least one that is.
      expect(ok.filter((x) => x.spotsOnBalls.length >= 1).length / ok.length).toBeGreaterThanOrEqual(0.8);
    });

    it('view gate: main-camera frames are in view; other broadcast angles are not, and are not calibrated', async () => {
      const g = await evalGate(bucharestFrames().filter((_, i) => i % 6 === 0), 8);
      expect(g.mainAccepted).toBe(g.mainTotal);
      // Task4 clips 1–8 open on other camera angles except clip 4 (a main-camera view of another match).
      expect(g.otherRejected).toBeGreaterThanOrEqual(7);
      expect(g.otherUnsolved).toBeGreaterThanOrEqual(7);
    });

    it('Padova pool: the projected table outline matches the playing-field mask (IoU ≥ 0.8)', async () => {
      const r = await evalPadova(6);
      expect(r.every((x) => x.ok)).toBe(true);
      for (const x of r) expect(x.iou, x.image).toBeGreaterThanOrEqual(0.8);
    });
  });
}
