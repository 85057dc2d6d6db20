import { describe, expect, it } from 'vitest';
import { formatDuration, progressFigures } from '../../src/pipeline/progress.js';

describe('progressFigures', () => {
  it('frames/s, × real time and ETA over this invocation', () => {
    // 300 frames (10 s of 30 fps video) in 20 s, 900 of 1800 done (600 already done by a resumed run).
    const f = progressFigures({ doneFrames: 900, startFrames: 600, totalFrames: 1800, elapsedS: 20, videoS: 10 });
    expect(f.fps).toBe(15);
    expect(f.realtime).toBe(0.5);
    expect(f.etaS).toBe(60);
  });

  it('nothing done yet or no total: no figures', () => {
    expect(progressFigures({ doneFrames: 5, startFrames: 5, totalFrames: 10, elapsedS: 1, videoS: 0 }).fps).toBe(0);
    expect(Number.isNaN(progressFigures({ doneFrames: 10, startFrames: 0, totalFrames: 0, elapsedS: 1, videoS: 0.3 }).etaS)).toBe(true);
  });

  it.each([
    [59.6, '1:00'],
    [3725, '1:02:05'],
    [NaN, '--'],
  ])('formatDuration(%s) = %s', (s, text) => expect(formatDuration(s)).toBe(text));
});
