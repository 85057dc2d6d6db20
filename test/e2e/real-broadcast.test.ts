/**
 * A real broadcast clip end to end (issue 7): Bucharest Task2 clip 1 (a red potted in the pocket
 * the annotators number 2, top-right as seen) through `analyze` with the shipped model; the report
 * must show the pot. Skips with a message when ../shared/real is not beside the repository.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { builtinProfile } from '../../src/core/table.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { imagePocketNumbers } from './bucharest.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CLIP = resolve(ROOT, '../shared/real/bucharest-snooker-broadcast/train/Task2/1.mp4');
const have = existsSync(CLIP);
if (!have) console.warn(`real-footage test skipped: ${CLIP} not found`);

describe.skipIf(!have)('Bucharest Task2 clip 1 through analyze', () => {
  test('the report shows the red potted in the top-right pocket (as seen)', async () => {
    const truth = readFileSync(resolve(CLIP, '../ground-truth/1_gt.txt'), 'utf8').trim().split(/\s+/);
    expect(truth).toEqual(['YES', '2', 'red']);
    const out = join(mkdtempSync(join(tmpdir(), 'cueref-real-')), 'run');
    const res = await analyze(CLIP, { game: 'snooker', outDir: out, modelsDir: join(ROOT, 'models') });
    const pots = res.strokes.strokes.flatMap((s) => s.events.filter((e) => e.type === 'pot')) as { ball: string; pocket: string }[];
    const numbers = imagePocketNumbers(res.calibration, builtinProfile('snooker'));
    expect(pots.map((p) => [p.ball.replace(/\d+$/, ''), numbers.get(p.pocket)])).toContainEqual(['red', 2]);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const pot = pots.find((p) => p.ball.startsWith('red'))!;
    expect(html).toContain(`${pot.ball} potted ${pot.pocket}`);
  }, 240_000);
});

const GLOVE = resolve(ROOT, '../shared/real/bucharest-snooker-broadcast/train/Task3/23.mp4');
describe.skipIf(!existsSync(GLOVE))('Bucharest Task3 clip 23: a referee\'s white glove on the bed', () => {
  test('the glove, read as a white larger than a ball, does not take the cue ball\'s identity', async () => {
    const { openSource } = await import('../../src/video/index.js');
    const { calibrateFrame } = await import('../../src/calibration/solve.js');
    const { loadModelDetector, trackFrames } = await import('../../src/pipeline/track.js');
    const { applyH, inv3 } = await import('../../src/core/mat3.js');
    const table = builtinProfile('snooker');
    const src = await openSource(GLOVE);
    const frames = [];
    for await (const f of src) if (frames.push(f) >= 12) break;
    await src.close().catch(() => undefined);
    const cal = calibrateFrame(frames[0]!, { table });
    if (!cal.ok) throw new Error(`no calibration: ${cal.error.message}`);
    const detector = await loadModelDetector('snooker', join(ROOT, 'models'));
    // The detector reports the glove as a `white` too, far larger than a ball (the v5 model even
    // scored it above the cue ball: 0.69 against 0.48; v8 0.60 against 0.65).
    const raw = (await detector.detect(frames[0]!))!.filter((d) => d.class === 'white');
    const cue = raw.find((d) => Math.hypot(d.u - 585.5, d.v - 136.5) < 5)!;
    expect(raw.some((d) => Math.hypot(d.u - cue.u, d.v - cue.v) > 30 && d.r > 1.4 * cue.r && d.conf > 0.5)).toBe(true);
    const out = mkdtempSync(join(tmpdir(), 'cueref-real-'));
    const res = await trackFrames(frames, { game: 'snooker', table, calibration: cal.value.calibration, detector, outDir: out });
    expect(res.frames).toBe(12);
    const last = JSON.parse(readFileSync(res.tracksPath, 'utf8').trim().split('\n').at(-1)!) as { balls: { id: string; x: number; y: number }[] };
    const white = last.balls.find((b) => b.id === 'white')!;
    // The annotated cue ball's box: (577, 127)–(594, 146) in the camera's pixels.
    const [u, v] = applyH(inv3(cal.value.calibration.ballCentreToTable), white.x, white.y);
    expect(Math.hypot(u - 585.5, v - 136.5)).toBeLessThan(6);
  }, 120_000);
});

const STRUCK = resolve(ROOT, '../shared/real/bucharest-snooker-broadcast/train/Task2/6.mp4');
describe.skipIf(!existsSync(STRUCK))('Bucharest Task2 clip 6: the black hit off its spot, never detected moving', () => {
  test('the chain sees the black gone (bare cloth), the white struck it, and pots it in the near-right pocket (as seen)', async () => {
    const truth = readFileSync(resolve(STRUCK, '../ground-truth/6_gt.txt'), 'utf8').trim().split(/\s+/);
    expect(truth).toEqual(['YES', '4', 'black']);
    const { openSource } = await import('../../src/video/index.js');
    const { calibrateFrame, betterCalibration } = await import('../../src/calibration/solve.js');
    const { loadModelDetector, trackFrames } = await import('../../src/pipeline/track.js');
    const table = builtinProfile('snooker');
    const src = await openSource(STRUCK);
    const frames = [];
    for await (const f of src) frames.push(f);
    await src.close().catch(() => undefined);
    let cal = null;
    for (const f of [frames[0]!, frames[12]!, frames[24]!]) {
      const r = calibrateFrame(f, { table });
      if (r.ok) cal = cal ? betterCalibration(r.value.calibration, cal) : r.value.calibration;
    }
    if (!cal) throw new Error('no calibration');
    const detector = await loadModelDetector('snooker', join(ROOT, 'models'));
    const res = await trackFrames(frames, { game: 'snooker', table, calibration: cal, detector, outDir: mkdtempSync(join(tmpdir(), 'cueref-real-')) });
    const events = res.log.strokes.flatMap((s) => s.events);
    expect(events.find((e) => e.type === 'contact')).toMatchObject({ a: 'white', b: 'black' });
    const pots = events.filter((e) => e.type === 'pot') as { ball: string; pocket: string }[];
    const numbers = imagePocketNumbers(cal, table);
    expect(pots.map((p) => [p.ball, numbers.get(p.pocket)])).toEqual([['black', 4]]);
    // No stroke read from the repeated frames of this 25-in-30 fps broadcast: no placements.
    expect(events.filter((e) => e.type === 'place')).toEqual([]);
  }, 120_000);
});
