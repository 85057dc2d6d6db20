/**
 * Live behind the motion gate, on a rendered sample video (real pixels, so the gate sees the balls
 * move) with the simulator's truth replayed as the detector: the same call as with the detector on
 * every frame, with most frames reused or detected round the moving balls only.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { parseTracksText } from '../../src/core/contracts/tracks.js';
import { defaultProfileFor } from '../../src/core/table.js';
import { solveFromFeed } from '../../src/live/calibrate.js';
import { sourceFeed } from '../../src/live/feed.js';
import { LiveSession, type LiveMessage, type LiveSessionOptions } from '../../src/live/session.js';
import { replayDetector } from '../../src/pipeline/replayDetector.js';
import { SAMPLE, writeSampleTruth } from '../pipeline/fixtures.js';

const table = defaultProfileFor('snooker');

async function run(calibration: LiveSessionOptions['calibration'], truthPath: string, gate?: LiveSessionOptions['gate']) {
  const detector = replayDetector(parseTracksText(readFileSync(truthPath, 'utf8')));
  const s = new LiveSession({ game: 'snooker', table, calibration, detector, open: sourceFeed(SAMPLE, { log: () => undefined }), outDir: mkdtempSync(join(tmpdir(), 'cueref-live-gated-')), lostAfterMs: 0, log: () => undefined, ...(gate ? { gate } : {}) });
  const calls: LiveMessage[] = [];
  s.subscribe((m) => {
    if (m.type === 'call') calls.push(m);
  });
  await s.start();
  await s.close();
  const brief = calls.flatMap((m) => (m.type === 'call' ? [[m.call.summary, m.call.fouls.map((f) => f.code), m.call.scores]] : []));
  return { brief, use: s.detectorUse(), asked: detector.calls, frames: s.snapshot().frames };
}

describe('live with the motion gate (rendered S07 in-off, replayed detections)', () => {
  let every: Awaited<ReturnType<typeof run>>;
  let gated: Awaited<ReturnType<typeof run>>;
  beforeAll(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cueref-live-gated-'));
    const truth = writeSampleTruth(join(dir, 'truth.tracks.json'));
    const { calibration } = await solveFromFeed(sourceFeed(SAMPLE, { log: () => undefined }), table, SAMPLE);
    every = await run(calibration, truth);
    gated = await run(calibration, truth, {});
  }, 120_000);

  test('without the gate the detector runs on every frame', () => {
    expect(every.use).toEqual({ whole: every.frames, regions: 0, reused: 0 });
  });

  test('with it: the same call (in-off, 4 away), the detector asked on far fewer frames, mostly round the moving balls', () => {
    expect(every.brief.length).toBeGreaterThanOrEqual(1);
    expect(every.brief[0]![1]).toEqual(['IN_OFF']);
    expect(gated.brief).toEqual(every.brief);
    expect(gated.frames).toBe(every.frames);
    expect(gated.use.whole + gated.use.regions + gated.use.reused).toBe(gated.frames);
    expect(gated.use.reused).toBeGreaterThan(0.2 * gated.frames);
    expect(gated.use.regions).toBeGreaterThan(gated.use.whole);
    expect(gated.asked).toBe(gated.use.whole + gated.use.regions);
  });
});
