/**
 * Motion gating and the view gate. The gate on its own, on synthetic frames: the first frame and
 * every frame where something on the bed moves run the detector (a strike on the very frame it
 * starts), a ball creeping less than the threshold per frame is still caught against the fixed
 * reference, motion off the bed is ignored, and static stretches run it every N-th frame only.
 * Then `analyze` on the rendered sample: gated and ungated runs find the same stroke at the same
 * time while the detector runs on fewer frames; a cut-away is not analysed.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCalibration } from '../../src/calibration/contract.js';
import { parseTracksText, type TracksDoc } from '../../src/core/contracts/tracks.js';
import { defaultProfileFor } from '../../src/core/table.js';
import type { Mat3 } from '../../src/core/mat3.js';
import { analyze, type AnalyzeResult } from '../../src/pipeline/analyze.js';
import { mergeRegionRun, rowsOf } from '../../src/pipeline/gatedDetection.js';
import { makeDetections } from '../../src/tracking/index.js';
import { bedMask, changedRegions, MotionGate, smallGrey, type GateDecision } from '../../src/pipeline/motionGate.js';
import { replayDetector } from '../../src/pipeline/replayDetector.js';
import { ffmpeg, SAMPLE, writeSampleTruth } from './fixtures.js';

// A 640×360 "camera" looking straight down: the bed (1000 × 2000 mm here) fills x 120…520 px,
// y 80…280 px (table y along the image's x axis), 0.2 px per mm.
const table = { ...defaultProfileFor('snooker'), bed: { width: 1000, length: 2000 } };
const imageToTable: Mat3 = [[0, 5, -400], [5, 0, -600], [0, 0, 1]];
const cal = { imageToTable, table, distortion: null };
const W = 640, H = 360;

function frame(balls: { u: number; v: number }[], extra?: (rgb: Uint8Array) => void) {
  const rgb = new Uint8Array(W * H * 3);
  for (let v = 0; v < H; v++) for (let u = 0; u < W; u++) {
    const i = (v * W + u) * 3;
    const bed = u >= 120 && u < 520 && v >= 80 && v < 280;
    rgb[i] = bed ? 20 : 90;
    rgb[i + 1] = bed ? 120 : 60;
    rgb[i + 2] = bed ? 40 : 30;
  }
  for (const b of balls) for (let v = Math.floor(b.v - 6); v <= b.v + 6; v++) for (let u = Math.floor(b.u - 6); u <= b.u + 6; u++) {
    if ((u - b.u) ** 2 + (v - b.v) ** 2 > 25) continue;
    const i = (v * W + u) * 3;
    rgb[i] = rgb[i + 1] = rgb[i + 2] = 240;
  }
  extra?.(rgb);
  return { width: W, height: H, rgb };
}

/** Run the gate over frames as the pipeline does (every decision but reuse runs the detector). */
function decisions(frames: ReturnType<typeof frame>[], refresh = 5): GateDecision[] {
  const gate = new MotionGate(cal, { refreshEveryFrames: refresh, smallWidthPx: 160 });
  return frames.map((f) => {
    const s = gate.shrink(f);
    const d = gate.decide(s).decision;
    if (d === 'reuse') gate.reused();
    else gate.ran(s);
    return d;
  });
}

describe('smallGrey', () => {
  /** The definition: per cell, (r + 2g + b) / 4 averaged over the samples `step` apart, rounded. */
  function reference(f: { width: number; height: number; rgb: Uint8Array }, smallWidthPx: number): Uint8Array {
    const factor = Math.max(1, Math.floor(f.width / smallWidthPx));
    const w = Math.floor(f.width / factor), h = Math.floor(f.height / factor);
    const step = Math.max(1, Math.floor(factor / 2));
    const off = Math.floor((factor - 1 - step * Math.floor((factor - 1) / step)) / 2);
    const out = new Uint8Array(w * h);
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        let s = 0, n = 0;
        for (let dy = off; dy < factor; dy += step)
          for (let dx = off; dx < factor; dx += step) {
            const i = ((y * factor + dy) * f.width + x * factor + dx) * 3;
            s += (f.rgb[i]! + 2 * f.rgb[i + 1]! + f.rgb[i + 2]!) / 4;
            n++;
          }
        out[y * w + x] = Math.round(s / n);
      }
    return out;
  }

  it.each([
    [1280, 720, 320],
    [960, 540, 320],
    [1600, 900, 320],
    [641, 361, 160],
  ])('%i×%i to %i px wide: the unrolled analysis-size path and the general one match the definition', (W, H, small) => {
    const rgb = new Uint8Array(W * H * 3);
    for (let i = 0; i < rgb.length; i++) rgb[i] = (Math.imul(i, 2654435761) >>> 24) & 255;
    const f = { width: W, height: H, rgb };
    expect(Array.from(smallGrey(f, small).grey)).toEqual(Array.from(reference(f, small)));
  });
});

describe('MotionGate on synthetic frames', () => {
  it('the bed mask covers the bed and not the surround', () => {
    const s = smallGrey(frame([]), 160);
    expect(s.factor).toBe(4);
    const m = bedMask(cal, s, 0);
    expect(m[Math.floor(180 / 4) * s.width + Math.floor(320 / 4)]).toBe(1); // centre of the bed
    expect(m[Math.floor(20 / 4) * s.width + Math.floor(20 / 4)]).toBe(0); // top-left corner of the image
    const area = m.reduce((a, b) => a + b, 0);
    expect(area).toBeGreaterThan(0.9 * (400 / 4) * (200 / 4));
    expect(area).toBeLessThan(1.1 * (400 / 4) * (200 / 4));
  });

  it('static: the detector runs on the first frame and then every N-th frame only', () => {
    const still = Array.from({ length: 12 }, () => frame([{ u: 300, v: 180 }]));
    expect(decisions(still, 5)).toEqual(['view', 'reuse', 'reuse', 'reuse', 'reuse', 'refresh', 'reuse', 'reuse', 'reuse', 'reuse', 'refresh', 'reuse']);
  });

  it('a strike runs the detector on the very frame the ball starts to move, and every moving frame after', () => {
    const pos = [300, 300, 300, 300, 306, 318, 336, 360, 360, 360];
    const d = decisions(pos.map((u) => frame([{ u, v: 180 }])), 50);
    expect(d.slice(0, 4)).toEqual(['view', 'reuse', 'reuse', 'reuse']);
    expect(d.slice(4, 8)).toEqual(['motion', 'motion', 'motion', 'motion']);
    expect(d.slice(8)).toEqual(['reuse', 'reuse']);
  });

  it('a ball creeping 1 px a frame is caught against the fixed reference', () => {
    const d = decisions(Array.from({ length: 10 }, (_, k) => frame([{ u: 300 + k, v: 180 }])), 50);
    expect(d[0]).toBe('view');
    const firstMotion = d.indexOf('motion');
    expect(firstMotion).toBeGreaterThan(0);
    expect(firstMotion).toBeLessThanOrEqual(4);
  });

  it('movement off the bed (a player walking by) does not count', () => {
    const walker = (k: number) => (rgb: Uint8Array) => {
      for (let v = 300; v < 350; v++) for (let u = 20 + 20 * k; u < 60 + 20 * k; u++) rgb.fill(200, (v * W + u) * 3, (v * W + u) * 3 + 3);
    };
    const d = decisions(Array.from({ length: 6 }, (_, k) => frame([{ u: 300, v: 180 }], walker(k))), 50);
    expect(d).toEqual(['view', 'reuse', 'reuse', 'reuse', 'reuse', 'reuse']);
  });
});

describe('regions: detecting only where the bed changed', () => {
  it('changed pixels become one box per place, grown and clipped; overlapping boxes merge', () => {
    const w = 64, h = 40, ref = new Uint8Array(w * h), mask = new Uint8Array(w * h).fill(1);
    const a = ref.slice();
    a[10 * w + 10] = 200; // one place
    a[30 * w + 50] = 200; // another, far away
    expect(changedRegions(a, ref, mask, w, h, 14, 4, 2)).toEqual([[6, 6, 14, 14], [46, 26, 54, 34]]);
    // Two changes 7 px apart: their grown boxes touch and merge into one.
    const b = ref.slice();
    b[10 * w + 10] = 200;
    b[10 * w + 17] = 200;
    expect(changedRegions(b, ref, mask, w, h, 14, 4, 2)).toEqual([[6, 6, 22, 14]]);
    // Outside the mask: nothing.
    expect(changedRegions(a, ref, new Uint8Array(w * h), w, h, 14, 4, 2)).toEqual([]);
  });

  /** The pipeline's use of the gate with regions: a region decision updates the reference only inside its boxes. */
  function runRegions(frames: ReturnType<typeof frame>[], params = {}) {
    const gate = new MotionGate(cal, { refreshEveryFrames: 50, smallWidthPx: 160, ...params }, 5);
    return frames.map((f) => {
      const s = gate.shrink(f);
      const d = gate.decide(s);
      if (d.decision === 'reuse') gate.reused();
      else if (d.regions) gate.ranRegions(s, d.regions);
      else gate.ran(s);
      return d;
    });
  }

  it('one ball rolling: regions round its old and new places, a fraction of the bed', () => {
    const d = runRegions([300, 300, 310, 320].map((u) => frame([{ u, v: 180 }, { u: 200, v: 120 }])));
    expect(d.map((x) => x.decision)).toEqual(['view', 'reuse', 'motion', 'motion']);
    const boxes = d[2]!.regions!;
    expect(boxes).toHaveLength(1);
    // Small px are 4 frame px: the box holds both places of the ball (u 300 and 310, v 180) and not the still ball at (200, 120).
    const [x0, y0, x1, y1] = boxes[0]!;
    expect(x0 * 4).toBeLessThanOrEqual(300 - 5);
    expect(x1 * 4).toBeGreaterThanOrEqual(310 + 5);
    expect(y0 * 4).toBeLessThanOrEqual(180 - 5);
    expect(y1 * 4).toBeGreaterThanOrEqual(180 + 5);
    expect(x0 * 4 > 200 || y1 * 4 < 120).toBe(true);
    expect((x1 - x0) * (y1 - y0)).toBeLessThan(0.05 * 160 * 90);
  });

  it('a change outside the boxes is still caught later: the reference keeps the old pixels there', () => {
    // Ball A rolls (regions round it); ball B creeps 1 px a frame far from A, under the per-frame
    // threshold at first: against the kept reference it adds up and gets its own box.
    const frames = Array.from({ length: 8 }, (_, k) => frame([{ u: 300 + (k ? 10 * k : 0), v: 180 }, { u: 160 + k, v: 110 }]));
    const d = runRegions(frames);
    const nearB = (b: [number, number, number, number]) => b[0] * 4 <= 160 && b[2] * 4 >= 160 && b[1] * 4 <= 110 && b[3] * 4 >= 110;
    expect(d.slice(1).some((x) => x.regions?.some(nearB))).toBe(true);
  });

  it('a whole-frame run at least every fullEveryFrames; no regions when the changes cover too much', () => {
    const rolling = Array.from({ length: 12 }, (_, k) => frame([{ u: 200 + 10 * k, v: 180 }]));
    const d = runRegions(rolling, { fullEveryFrames: 4 });
    expect(d.map((x) => (x.decision === 'motion' ? (x.regions ? 'r' : 'W') : x.decision[0]))).toEqual(['v', 'r', 'r', 'r', 'W', 'r', 'r', 'r', 'W', 'r', 'r', 'r']);
    expect(runRegions(rolling, { regionMaxFrac: 0.001 }).every((x) => !x.regions)).toBe(true);
    expect(runRegions(rolling, { fullEveryFrames: 0 }).every((x) => !x.regions)).toBe(true);
  });
});

describe('mergeRegionRun: what a region run hands the tracker', () => {
  const det = (rows: [number, number, number, string][]) => makeDetections(rows.map(([x, y, conf, c]) => ({ x, y, conf, class: c })), 'snooker');
  // The box holds x ≥ 1140 mm (a cue coming over the white from the right).
  const inBox = (x: number) => x >= 1140;
  const places = (d: ReturnType<typeof det>) => rowsOf(d).map(([x, y, , c]) => [Math.round(x * 10) / 10, Math.round(y * 10) / 10, c]);
  it('carries the balls outside the boxes and adds the fresh ones', () => {
    const prev = det([[600, 740, 0.9, 'green'], [1200, 900, 0.9, 'red']]);
    const fresh = det([[1230, 910, 0.8, 'red']]);
    expect(places(mergeRegionRun(prev, fresh, inBox, 26.25, 'snooker', 7))).toEqual([[600, 740, 'green'], [1230, 910, 'red']]);
  });
  it('a ball straddling a box edge is one ball: the fresh look replaces the carried one (rendered short frame, broadcast 25 fps)', () => {
    // The white's stale centre lies just outside the box, its fresh one just inside, 9 mm apart.
    const prev = det([[1138.3, 529.3, 0.84, 'white'], [600, 740, 0.9, 'green']]);
    const fresh = det([[1141.2, 537.6, 0.59, 'white']]);
    expect(places(mergeRegionRun(prev, fresh, inBox, 26.25, 'snooker', 7))).toEqual([[600, 740, 'green'], [1141.2, 537.6, 'white']]);
    // Two balls touching across the edge (centres 2R apart) are both kept.
    const touching = det([[1113, 529, 0.84, 'white']]);
    expect(mergeRegionRun(touching, fresh, inBox, 26.25, 'snooker', 7).length).toBe(2);
  });
});

describe('analyze with gating (rendered sample, replayed detections)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cueref-gating-'));
  let truth: TracksDoc;
  let gated: AnalyzeResult;
  let ungated: AnalyzeResult;
  let cut: AnalyzeResult;
  const asked: number[] = [];
  beforeAll(async () => {
    truth = parseTracksText(readFileSync(writeSampleTruth(join(dir, 'truth.tracks.json')), 'utf8'));
    gated = await analyze(SAMPLE, { game: 'snooker', outDir: join(dir, 'gated'), detector: replayDetector(truth), clips: false });
    const calibration = loadCalibration(gated.paths.calibration);
    ungated = await analyze(SAMPLE, { game: 'snooker', outDir: join(dir, 'ungated'), detector: replayDetector(truth), calibration, gate: { refreshEveryFrames: 1 }, clips: false });
    // A cut-away: frames 0.6–0.9 s (18–27) replaced by a grey card, like a broadcast cutting to the crowd.
    const video = join(dir, 'cutaway.mp4');
    ffmpeg(['-i', SAMPLE, '-vf', "drawbox=enable='between(t,0.59,0.91)':x=0:y=0:w=iw:h=ih:color=gray:t=fill", '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', video]);
    cut = await analyze(video, { game: 'snooker', outDir: join(dir, 'cut'), detector: replayDetector(truth, { onDetect: (i) => asked.push(i) }), calibration, clips: false });
  }, 180_000);

  it('the detector runs on fewer frames, and the fraction is reported', () => {
    expect(ungated.detector.runs).toBe(ungated.frames);
    expect(ungated.detector.fraction).toBe(1);
    expect(gated.detector.runs).toBeLessThan(0.9 * gated.frames);
    // Most moving frames ran on their changed parts only (the replayed detector can).
    expect(gated.detector.regionRuns).toBeGreaterThan(0.5 * gated.detector.byDecision.motion);
    expect(ungated.detector.regionRuns).toBe(0);
    expect(gated.detector.runs + gated.detector.reused + gated.detector.outOfView).toBe(gated.frames);
    expect(gated.detector.fraction).toBeCloseTo(gated.detector.runs / gated.frames, 10);
    expect(gated.notes.some((n) => n.startsWith(`detector ran on ${gated.detector.runs} of ${gated.frames} frames`))).toBe(true);
    expect(readFileSync(gated.paths.report, 'utf8')).toContain(`detector ran on ${gated.detector.runs} of ${gated.frames} frames`);
  });

  it('no stroke start is missed: same strokes, same strike times as the ungated run', () => {
    expect(gated.strokes.strokes.length).toBe(ungated.strokes.strokes.length);
    expect(gated.strokes.strokes.length).toBeGreaterThanOrEqual(1);
    gated.strokes.strokes.forEach((s, k) => expect(Math.abs(s.t! - ungated.strokes.strokes[k]!.t!)).toBeLessThan(1 / 30));
    expect(gated.calls.calls.map((c) => c.fouls.map((f) => f.code))).toEqual(ungated.calls.calls.map((c) => c.fouls.map((f) => f.code)));
    // The first frame the cue ball moves in the truth ran the detector for motion.
    const firstMoving = truth.frames.find((f) => f.balls.some((b) => b.id === 'white' && b.state === 'moving'))!.i;
    const inputs = readFileSync(gated.paths.trackerInput, 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as { i: number; g?: string });
    expect(inputs.find((l) => l.i === firstMoving)!.g).toBe('motion');
  });

  it('a cut-away is not analysed: view:false in tracks.jsonl, the detector never asked, the stroke still found', () => {
    const tracks = parseTracksText(readFileSync(cut.paths.tracks, 'utf8'));
    const out = tracks.frames.filter((f) => f.view === false).map((f) => f.i);
    expect(out.length).toBeGreaterThanOrEqual(8);
    expect(Math.min(...out)).toBeGreaterThanOrEqual(17);
    expect(Math.max(...out)).toBeLessThanOrEqual(28);
    expect(asked.filter((i) => out.includes(i))).toEqual([]);
    expect(cut.detector.outOfView).toBe(out.length);
    expect(cut.strokes.strokes.map((s) => s.t)).toEqual(gated.strokes.strokes.map((s) => s.t));
  });
});
