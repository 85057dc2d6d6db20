/**
 * Analysis size: `analyze` shrinks a video larger than 1280×720 inside ffmpeg, calibrates, gates
 * and detects at that size, and keeps the calibration in the video's pixels. The mapping is pinned
 * three ways: pure (the size rule, the composed homographies), through the pipeline on a 1080p copy
 * of the rendered sample against a run on the 720p original (same detections, replayed: a ball
 * maps to the same table mm at either size within 1 mm), and through a resume of the 1080p run.
 */
import fc from 'fast-check';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, test } from 'vitest';
import { loadCalibration, type Calibration } from '../../src/calibration/contract.js';
import { parseTracksText } from '../../src/core/contracts/tracks.js';
import { distortPixel } from '../../src/core/lens.js';
import { applyH, inv3 } from '../../src/core/mat3.js';
import { builtinProfile } from '../../src/core/table.js';
import { analyze, analyzeInferenceThreads, type AnalyzeResult } from '../../src/pipeline/analyze.js';
import { analysisSize, scaleCalibration, scalePx } from '../../src/pipeline/analysisSize.js';
import { loadReplayDetector } from '../../src/pipeline/replayDetector.js';
import { ffmpeg, SAMPLE, writeSampleTruth } from './fixtures.js';

describe('analysisSize', () => {
  test.each([
    [{ width: 1920, height: 1080 }, { width: 1280, height: 720 }],
    [{ width: 3840, height: 2160 }, { width: 1280, height: 720 }],
    [{ width: 1280, height: 720 }, null], // already fits: decoded as is
    [{ width: 640, height: 480 }, null], // never enlarged
    [{ width: 1440, height: 1080 }, { width: 960, height: 720 }], // 4:3: the height is the tighter side
    [{ width: 2560, height: 1080 }, { width: 1280, height: 540 }], // ultra-wide: the width is
    [{ width: 1920, height: 1088 }, { width: 1270, height: 720 }], // the height is tighter; 1270.6 → even 1270 (ffmpeg's -2)
    [{ width: 1080, height: 1920 }, { width: 406, height: 720 }], // portrait phone video
    [{ width: 0, height: 0 }, null], // a live source before its first frame
  ])('%j → %j', (src, want) => {
    expect(analysisSize(src)).toEqual(want);
  });
});

const table = builtinProfile('snooker');
/** A plausible overhead calibration of a 1920×1080 video (a homography with perspective, a lens). */
const cal1080: Calibration = {
  format: 'cueref.calibration/1',
  game: 'snooker',
  table,
  image: { width: 1920, height: 1080 },
  imageToTable: [
    [0.012, 2.41, -410.5],
    [-2.38, 0.02, 4021.7],
    [1.1e-6, 2.3e-6, 1],
  ],
  ballCentreToTable: [
    [0.0118, 2.405, -405.2],
    [-2.376, 0.021, 4013.9],
    [1.0e-6, 2.2e-6, 1],
  ],
  distortion: { model: 'radial', fx: 1144, fy: 1144, cx: 960, cy: 540, k1: -0.02, k2: 0.001 },
  reprojectionErrorMm: 0.3,
  inliers: 40,
  found: ['cloth'],
  cornersPx: [
    [300, 900],
    [1600, 905],
    [1610, 150],
    [290, 140],
  ],
};

describe('scaleCalibration', () => {
  const to720 = scaleCalibration(cal1080, { width: 1280, height: 720 });

  it('maps a point of the analysis frame to the table mm its place in the video maps to (exact, property)', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1919, noNaN: true }), fc.double({ min: 0, max: 1079, noNaN: true }), (u, v) => {
        const s = 1280 / 1920;
        for (const m of ['imageToTable', 'ballCentreToTable'] as const) {
          const [x0, y0] = applyH(cal1080[m], u, v);
          const [x1, y1] = applyH(to720[m], scalePx(u, s), scalePx(v, s));
          expect(Math.hypot(x1 - x0, y1 - y0)).toBeLessThan(1e-6);
        }
      }),
    );
  });

  it('moves the lens with the pixels: distorting in the analysis frame = distorting in the video, then scaling', () => {
    const s = 1280 / 1920;
    for (const [u, v] of [[0, 0], [960, 540], [1919, 1079], [200, 900]] as const) {
      const [du, dv] = distortPixel(cal1080.distortion!, u, v);
      const [au, av] = distortPixel(to720.distortion!, scalePx(u, s), scalePx(v, s));
      expect(au).toBeCloseTo(scalePx(du, s), 9);
      expect(av).toBeCloseTo(scalePx(dv, s), 9);
    }
    expect(to720.distortion).toMatchObject({ k1: -0.02, k2: 0.001 });
  });

  it('scales the image size and the outline, and comes back to the original', () => {
    expect(to720.image).toEqual({ width: 1280, height: 720 });
    expect(to720.cornersPx![0]![0]).toBeCloseTo(scalePx(300, 2 / 3), 9);
    const back = scaleCalibration(to720, { width: 1920, height: 1080 });
    for (const m of ['imageToTable', 'ballCentreToTable'] as const) {
      back[m].forEach((row, i) => row.forEach((x, j) => expect(x).toBeCloseTo(cal1080[m][i]![j]!, 12)));
    }
    expect(back.cornersPx![2]![1]).toBeCloseTo(150, 9);
    expect(scaleCalibration(cal1080, { width: 1920, height: 1080 })).toBe(cal1080);
  });
});

test('analyze leaves one core to ffmpeg on a small machine', () => {
  expect([1, 2, 4, 16].map((c) => analyzeInferenceThreads(c))).toEqual([1, 1, 3, 15]);
});

// ---------------------------------------------------------------------------------------------
// Through the pipeline: the 720p sample and a 1080p copy of it, detections replayed from the
// sample's truth (in 720p pixels: the replay detector scales them to whatever the frames are).

const dir = mkdtempSync(join(tmpdir(), 'cueref-analysis-size-'));
const truthPath = join(dir, 'truth.tracks.json');
const video1080 = join(dir, 'video-1080.mp4');
let r720: AnalyzeResult, r1080: AnalyzeResult;

beforeAll(async () => {
  writeSampleTruth(truthPath);
  // Upscaled with bicubic, shrunk back by analyze with area averaging: close to, not exactly, the original frames.
  ffmpeg(['-i', SAMPLE, '-vf', 'scale=1920:1080:flags=bicubic', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '12', '-pix_fmt', 'yuv420p', video1080]);
  const common = { game: 'snooker' as const, clips: false, detectorLabel: 'replay' };
  r720 = await analyze(SAMPLE, { ...common, outDir: join(dir, 'run-720'), detector: loadReplayDetector(truthPath) });
  r1080 = await analyze(video1080, { ...common, outDir: join(dir, 'run-1080'), detector: loadReplayDetector(truthPath) });
}, 120_000);

describe('analyze on a 1080p video (a 1080p copy of the rendered sample)', () => {
  it('analyses at 1280×720 and says so; calibration.json and the tracks header stay in the video\'s 1920×1080 pixels', () => {
    expect(r1080.analysisSize).toEqual({ width: 1280, height: 720 });
    expect(r720.analysisSize).toEqual({ width: 1280, height: 720 });
    expect(r1080.notes.some((n) => /analysed at 1280×720 \(the video is 1920×1080\)/.test(n))).toBe(true);
    expect(r720.notes.some((n) => /analysed at/.test(n))).toBe(false);
    const cal = loadCalibration(r1080.paths.calibration);
    expect(cal.image).toEqual({ width: 1920, height: 1080 });
    const header = JSON.parse(readFileSync(r1080.paths.tracks, 'utf8').split('\n')[0]!);
    expect(header.source).toMatchObject({ width: 1920, height: 1080 });
    expect(header.calibration.ballCentreToTable).toEqual(cal.ballCentreToTable);
    const manifest = JSON.parse(readFileSync(r1080.paths.manifest, 'utf8'));
    expect(manifest.settings.analysisSize).toEqual({ width: 1280, height: 720 });
    expect(manifest.video).toMatchObject({ width: 1920, height: 1080 });
  });

  it('a ball position maps to the same table mm at either size (within 1 mm)', () => {
    // Every ball the truth shows on every 10th frame, at its pixel in the 720p video and at the
    // same place in the 1080p video, through each run's calibration.json.
    const cal720 = loadCalibration(r720.paths.calibration);
    const cal1080f = loadCalibration(r1080.paths.calibration);
    const truth = parseTracksText(readFileSync(truthPath, 'utf8'));
    const toPx = inv3(truth.calibration!.ballCentreToTable as Parameters<typeof inv3>[0]);
    const balls = truth.frames.filter((_, k) => k % 10 === 0).flatMap((f) => f.balls.filter((b) => b.state !== 'pocketed' && b.state !== 'offTable'));
    expect(balls.length).toBeGreaterThanOrEqual(50);
    let worst = 0;
    for (const b of balls) {
      const [u, v] = applyH(toPx, b.x, b.y);
      const [x720, y720] = applyH(cal720.ballCentreToTable, u, v);
      const [x1080, y1080] = applyH(cal1080f.ballCentreToTable, scalePx(u, 1.5), scalePx(v, 1.5));
      worst = Math.max(worst, Math.hypot(x1080 - x720, y1080 - y720));
    }
    expect(worst).toBeLessThan(1);
  });

  it('tracks the same balls to within 1 mm on every frame, and makes the same calls', () => {
    const a = parseTracksText(readFileSync(r720.paths.tracks, 'utf8')).frames;
    const b = parseTracksText(readFileSync(r1080.paths.tracks, 'utf8')).frames;
    expect(b.length).toBe(a.length);
    let worst = 0, n = 0;
    a.forEach((fa, k) => {
      const fb = b[k]!;
      expect(fb.balls.map((x) => x.id).sort()).toEqual(fa.balls.map((x) => x.id).sort());
      for (const ba of fa.balls) {
        const bb = fb.balls.find((x) => x.id === ba.id)!;
        worst = Math.max(worst, Math.hypot(bb.x - ba.x, bb.y - ba.y));
        n++;
      }
    });
    expect(n).toBeGreaterThan(500);
    expect(worst).toBeLessThan(1);
    expect(r1080.calls.calls.map((c) => c.fouls.map((f) => f.code))).toEqual(r720.calls.calls.map((c) => c.fouls.map((f) => f.code)));
    expect(r1080.strokes.strokes.map((s) => s.events.map((e) => `${e.type}`))).toEqual(r720.strokes.strokes.map((s) => s.events.map((e) => `${e.type}`)));
  });

  it('an interrupted 1080p run resumes at the analysis size to byte-identical files', async () => {
    const out = join(dir, 'run-1080-resumed');
    const stop = new AbortController();
    const common = { game: 'snooker' as const, clips: false, detectorLabel: 'replay', outDir: out };
    const first = await analyze(video1080, { ...common, detector: loadReplayDetector(truthPath), signal: stop.signal, onFrame: (i) => i === 40 && stop.abort() });
    expect(first.interrupted).toBe(true);
    const second = await analyze(video1080, { ...common, detector: loadReplayDetector(truthPath), resume: true });
    expect(second.resumed).toMatchObject({ fromFrame: 41 });
    for (const f of ['tracks.jsonl', 'tracker-input.jsonl', 'strokes.json', 'calls.json']) {
      expect(readFileSync(join(out, f), 'utf8'), f).toBe(readFileSync(join(dir, 'run-1080', f), 'utf8'));
    }
    // A resume at another analysis size (here: the video's own) is refused, naming the setting.
    const err = await analyze(video1080, { ...common, detector: loadReplayDetector(truthPath), resume: true, analysisMaxSize: null }).catch((e: unknown) => e);
    expect((err as Error).message).toMatch(/analysisSize/);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  });
});
