/** The detector's pure parts with a fake runner (MediaPipe object_detector_test style). */
import { describe, expect, test } from 'vitest';
import { BallDetector, normaliseByCloth } from '../../src/detection/detector.js';
import { makeDetections, toRows, filterDetections } from '../../src/detection/detections.js';
import type { ModelSidecar } from '../../src/detection/model.js';
import { letterboxFor, preprocess, tableViewFor, toFrame } from '../../src/detection/preprocess.js';
import { applyH, inv3, type Mat3 } from '../../src/core/mat3.js';
import type { ModelRunner } from '../../src/detection/runner.js';

const CLASSES = ['white', 'red', 'yellow', 'green', 'brown', 'blue', 'pink', 'black', 'cue', 'eight', 'solid', 'stripe'];
const side: ModelSidecar = {
  format: 'cueref.model/1',
  name: 'fake',
  classes: CLASSES,
  games: { snooker: CLASSES.slice(0, 8), pool8: CLASSES.slice(8) },
  input: { width: 64, height: 48, mean: [0, 0, 0], std: [1, 1, 1] },
  stride: 4,
  offsetOrigin: 'corner',
  outputs: { heatmap: 'hm', offset: 'off', radius: 'rad' },
};

interface Ball { u: number; v: number; r: number; cls: string; conf: number }

/**
 * A runner that draws Gaussian peaks where the balls are (in network-input pixels), with offsets
 * from the cell's corner (`corner`) or, as train.py's `--offset-origin centre` writes them, from
 * the cell centred nearest the ball, plus 0.5.
 */
function fakeRunner(balls: Ball[], origin: 'corner' | 'centre' = 'corner'): ModelRunner {
  const h = side.input.height / side.stride, w = side.input.width / side.stride, C = CLASSES.length;
  return {
    async run() {
      const hm = new Float32Array(C * h * w), off = new Float32Array(2 * h * w), rad = new Float32Array(h * w);
      for (const b of balls) {
        const c = CLASSES.indexOf(b.cls);
        const gx = b.u / side.stride, gy = b.v / side.stride;
        const cx = origin === 'centre' ? Math.floor(gx + 0.5) : Math.floor(gx), cy = origin === 'centre' ? Math.floor(gy + 0.5) : Math.floor(gy);
        const base = origin === 'centre' ? 0.5 : 0;
        for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) {
          const val = b.conf * Math.exp(-((x - cx) ** 2 + (y - cy) ** 2) / 2);
          const k = c * h * w + y * w + x;
          hm[k] = Math.max(hm[k]!, val);
        }
        off[cy * w + cx] = gx - cx + base;
        off[h * w + cy * w + cx] = gy - cy + base;
        rad[cy * w + cx] = b.r;
      }
      return { hm: { data: hm, dims: [1, C, h, w] }, off: { data: off, dims: [1, 2, h, w] }, rad: { data: rad, dims: [1, 1, h, w] } };
    },
    async close() {},
  };
}

const frame = (width: number, height: number) => ({ width, height, rgb: new Uint8Array(width * height * 3) });

describe('BallDetector with a fake runner', () => {
  test('recovers sub-pixel centres, radii and classes through the letterbox', async () => {
    // A 128×72 frame into a 64×48 input: scale 0.5, 6 input px of padding top and bottom.
    const det = new BallDetector(fakeRunner([
      { u: 20.3, v: 17.7, r: 3, cls: 'red', conf: 0.9 },
      { u: 41.9, v: 30.2, r: 3.5, cls: 'black', conf: 0.8 },
    ]), side, { game: 'snooker' });
    const d = toRows(await det.detect(frame(128, 72)));
    expect(d).toHaveLength(2);
    const red = d.find((x) => x.class === 'red')!;
    expect(red.u).toBeCloseTo(40.6, 3);
    expect(red.v).toBeCloseTo((17.7 - 6) / 0.5, 3);
    expect(red.r).toBeCloseTo(6, 5);
    expect(d.find((x) => x.class === 'black')!.conf).toBeCloseTo(0.8, 5);
  });

  test("a model whose offsets are from the cell's centre (sidecar offsetOrigin: centre) is decoded from there", async () => {
    // 20.3 input px is 5.075 cells: the cell centred at 5 (offset +0.075); 41.9 is 10.475 cells
    // (cell 10, +0.475); 17.7 is 4.425 (cell 4, +0.425); 30.2 is 7.55 (cell 8, −0.45). Read as
    // corner offsets, every centre would be 2 input px (4 frame px) too far right and down.
    const balls = [
      { u: 20.3, v: 17.7, r: 3, cls: 'red', conf: 0.9 },
      { u: 41.9, v: 30.2, r: 3.5, cls: 'black', conf: 0.8 },
    ];
    const centred = new BallDetector(fakeRunner(balls, 'centre'), { ...side, offsetOrigin: 'centre' }, { game: 'snooker' });
    const d = toRows(await centred.detect(frame(128, 72)));
    expect(d.map((x) => [x.class, +x.u.toFixed(3), +x.v.toFixed(3)])).toEqual([['red', 40.6, 23.4], ['black', 83.8, 48.4]]);
    const misread = toRows(await new BallDetector(fakeRunner(balls, 'centre'), side, { game: 'snooker' }).detect(frame(128, 72)));
    expect(misread[0]!.u - d[0]!.u).toBeCloseTo(4, 3);
  });

  test('one ball seen as two classes keeps the strongest; other games\' classes are dropped', async () => {
    const det = new BallDetector(fakeRunner([
      { u: 30, v: 20, r: 3, cls: 'red', conf: 0.9 },
      { u: 30.5, v: 20.4, r: 3, cls: 'brown', conf: 0.5 },
      { u: 10, v: 40, r: 3, cls: 'stripe', conf: 0.95 },
    ]), side, { game: 'snooker' });
    const d = toRows(await det.detect(frame(64, 48)));
    expect(d.map((x) => x.class)).toEqual(['red']);
  });

  test('faint peaks under the threshold are not balls', async () => {
    const det = new BallDetector(fakeRunner([{ u: 30, v: 20, r: 3, cls: 'red', conf: 0.2 }]), side, { game: 'snooker', minConf: 0.3 });
    expect((await det.detect(frame(64, 48))).count).toBe(0);
  });
  test('with weakConf, peaks between it and minConf are reported too (never on a stronger ball); without, not', async () => {
    const peaks = [
      { u: 30, v: 20, r: 3, cls: 'red', conf: 0.9 },
      { u: 50, v: 30, r: 3, cls: 'white', conf: 0.23 },
      { u: 10, v: 10, r: 3, cls: 'pink', conf: 0.1 },
    ];
    const plain = toRows(await new BallDetector(fakeRunner(peaks), side, { game: 'snooker' }).detect(frame(64, 48)));
    expect(plain.map((x) => x.class)).toEqual(['red']);
    const weak = toRows(await new BallDetector(fakeRunner(peaks), side, { game: 'snooker', weakConf: 0.15 }).detect(frame(64, 48)));
    expect(weak.map((x) => `${x.class}:${x.conf.toFixed(2)}`)).toEqual(['red:0.90', 'white:0.23']);
  });
});

describe('the table view (bed rectified by the calibration)', () => {
  // A camera looking down at an angle: image → table homography of a 2000 × 1000 mm bed.
  const tableToImage: Mat3 = [[0.05, 0.004, 10], [0.001, 0.03, 8], [0, 0.00002, 1]];
  const imageToTable = inv3(tableToImage);
  const bed = { width: 1000, length: 2000 };

  test('the bed fills the input: its corners land inside, the long side along the width', () => {
    const h = tableViewFor(imageToTable, bed, 64, 48, 0);
    const toTable = (x: number, y: number) => applyH(imageToTable, ...applyH(h, x, y));
    // 2000 × 1000 mm into 64 × 48 px: 0.032 px/mm, the bed 32 px tall, centred (8 px above and below).
    expect(toTable(0, 8)[0]).toBeCloseTo(0, 6);
    expect(toTable(0, 8)[1]).toBeCloseTo(0, 6);
    expect(toTable(64, 8)[1]).toBeCloseTo(2000, 6);
    expect(toTable(64, 40)[0]).toBeCloseTo(1000, 6);
    expect(toTable(32, 24)).toEqual([expect.closeTo(500, 6), expect.closeTo(1000, 6)]);
  });

  test('a ball found on the rectified input comes back at its frame pixel', async () => {
    const det = new BallDetector(fakeRunner([{ u: 30.4, v: 20.6, r: 2, cls: 'red', conf: 0.9 }]), side, { game: 'snooker' });
    const d = toRows(await det.detect(frame(160, 120), { kind: 'table', imageToTable, bed, marginMm: 50 }));
    expect(d).toHaveLength(1);
    const h = tableViewFor(imageToTable, bed, 64, 48, 50);
    const [u, v] = applyH(h, 30.4, 20.6);
    expect(d[0]!.u).toBeCloseTo(u, 3);
    expect(d[0]!.v).toBeCloseTo(v, 3);
    // The radius scales by the local input → frame scale.
    expect(d[0]!.r).toBeCloseTo(2 * toFrame({ kind: 'homography', inputToFrame: h }, 30.4, 20.6).scale, 4);
  });

  test('sampling through the view reads the frame pixel it maps to', () => {
    const w = 160, hgt = 120, rgb = new Uint8Array(w * hgt * 3);
    for (let y = 0; y < hgt; y++) for (let x = 0; x < w; x++) rgb.fill(x, (y * w + x) * 3, (y * w + x) * 3 + 3);
    const h = tableViewFor(imageToTable, bed, 64, 48, 0);
    const { tensor } = preprocess({ width: w, height: hgt, rgb }, { width: 64, height: 48, mean: [0, 0, 0], std: [1, 1, 1] }, undefined, h);
    const [u] = applyH(h, 20.5, 10.5);
    // A horizontal ramp: the sample equals the frame column (pixel centres at +0.5).
    expect(tensor[10 * 64 + 20]! * 255).toBeCloseTo(u - 0.5, 3);
  });
});

describe('preprocess', () => {
  test('letterbox keeps the aspect ratio and centres the frame', () => {
    expect(letterboxFor(1280, 720, 640, 384)).toEqual({ scale: 0.5, padX: 0, padY: 12 });
  });

  test('bilinear resize of a horizontal ramp stays a ramp; padding is black', () => {
    const w = 8, h = 4, rgb = new Uint8Array(w * h * 3);
    for (let y = 0; y < h; y++) for (let x = 0; x < w; x++) rgb.fill(x * 32, (y * w + x) * 3, (y * w + x) * 3 + 3);
    const { tensor, view } = preprocess({ width: w, height: h, rgb }, { width: 4, height: 4, mean: [0, 0, 0], std: [1, 1, 1] });
    expect(view).toEqual({ kind: 'letterbox', box: { scale: 0.5, padX: 0, padY: 1 } });
    // Row 0 is padding; row 1 samples between source columns 0/1, 2/3, … → 16, 80, 144, 208.
    expect(Array.from(tensor.slice(0, 4))).toEqual([0, 0, 0, 0]);
    expect(Array.from(tensor.slice(4, 8)).map((v) => Math.round(v * 255))).toEqual([16, 80, 144, 208]);
  });
});

describe('columnar detections', () => {
  test('built checked, filtered without copying rows by hand', () => {
    const d = makeDetections([{ u: 1, v: 2, r: 3, conf: 0.5, class: 'red' }, { u: 4, v: 5, r: 3, conf: 0.9, class: 'white' }], CLASSES);
    expect(filterDetections(d, (i) => d.conf[i]! > 0.6).count).toBe(1);
    expect(() => makeDetections([{ u: 1, v: 2, r: 3, conf: 0.5, class: 'purple' }], CLASSES)).toThrow(/purple/);
    expect(() => makeDetections([{ u: NaN, v: 2, r: 3, conf: 0.5, class: 'red' }], CLASSES)).toThrow(/bad values/);
  });
});

describe('cloth normalisation (models trained with clothNormalise)', () => {
  const input = { width: 16, height: 8, mean: [0.5, 0.4, 0.3] as [number, number, number], std: [0.2, 0.25, 0.3] as [number, number, number], clothNormalise: { region: [4, 2, 12, 6] as [number, number, number, number], target: [20, 140, 30] as [number, number, number], gainRange: [0.25, 4] as [number, number] } };
  const tensorOf = (rgb: (x: number, y: number) => [number, number, number]) => {
    const t = new Float32Array(3 * 16 * 8);
    for (let y = 0; y < 8; y++) for (let x = 0; x < 16; x++) rgb(x, y).forEach((v, c) => (t[c * 128 + y * 16 + x] = (v / 255 - input.mean[c]!) / input.std[c]!));
    return t;
  };
  const rgbAt = (t: Float32Array, x: number, y: number) => [0, 1, 2].map((c) => (t[c * 128 + y * 16 + x]! * input.std[c]! + input.mean[c]!) * 255);

  test('a teal cast cloth becomes the target cloth; a ball under the same light scales alike', () => {
    // Cloth (100, 160, 120) everywhere, one "red ball" pixel (200, 60, 80) outside the region.
    const t = tensorOf((x, y) => (x === 0 && y === 0 ? [200, 60, 80] : [100, 160, 120]));
    const gains = normaliseByCloth(t, input);
    expect(gains[0]).toBeCloseTo(0.25, 6); // 20/100 = 0.2, clamped
    expect(gains[1]).toBeCloseTo(140 / 160, 5);
    expect(gains[2]).toBeCloseTo(0.25, 6);
    expect(rgbAt(t, 8, 4).map((v) => Math.round(v))).toEqual([25, 140, 30]);
    expect(rgbAt(t, 0, 0).map((v) => Math.round(v * 10) / 10)).toEqual([50, 52.5, 20]);
  });

  test('the median ignores balls in the region; values stay within 0–255', () => {
    const t = tensorOf((x, y) => (x === 5 && y === 3 ? [255, 255, 255] : [10, 70, 15]));
    const gains = normaliseByCloth(t, input);
    gains.forEach((g) => expect(g).toBeCloseTo(2, 5));
    expect(Math.round(rgbAt(t, 5, 3)[0]!)).toBe(255);
  });
});

describe('a partner model for other cloths (the sidecar\'s otherCloths)', () => {
  // The main model knows green cloths only (onlyOutside); its partner was trained on others too.
  const greenOnly: ModelSidecar = {
    ...side,
    input: { ...side.input, mean: [0, 0, 0], std: [1 / 255, 1 / 255, 1 / 255], clothNormalise: { region: [0, 0, 64, 48], target: [18, 146, 28], gainRange: [0.25, 4], onlyOutside: { games: ['snooker'], min: [0, 85, 0], max: [58, 211, 61], marginLevels: 10 } } },
    otherCloths: { model: 'partner' },
  };
  const clothFrame = (rgb: [number, number, number]) => {
    const f = frame(64, 48);
    for (let k = 0; k < 64 * 48; k++) f.rgb.set(rgb, 3 * k);
    return f;
  };
  const pair = (game: 'snooker' | 'pool8') => {
    const partner = new BallDetector(fakeRunner([{ u: 20, v: 20, r: 3, cls: game === 'snooker' ? 'white' : 'cue', conf: 0.9 }]), side, { game });
    return new BallDetector(fakeRunner([{ u: 40, v: 20, r: 3, cls: game === 'snooker' ? 'red' : 'eight', conf: 0.9 }]), greenOnly, { game }, partner);
  };

  test('a green cloth is the main model\'s; a teal one (Bern, ≈ 100, 170, 150) goes to the partner, whole frame and regions alike', async () => {
    const det = pair('snooker');
    expect(toRows(await det.detect(clothFrame([18, 150, 30]))).map((d) => d.class)).toEqual(['red']);
    expect(toRows(await det.detect(clothFrame([100, 170, 150]))).map((d) => d.class)).toEqual(['white']);
    const box = [{ u0: 0, v0: 0, u1: 64, v1: 48 }];
    expect(toRows(await det.detectRegions(clothFrame([100, 170, 150]), box, { contextPx: 8 })).map((d) => d.class)).toEqual(['white']);
    expect(toRows(await det.detectRegions(clothFrame([18, 150, 30]), box, { contextPx: 8 })).map((d) => d.class)).toEqual(['red']);
  });

  test('games the cloth range is not for (pool on blue cloth) stay with the main model', async () => {
    expect(toRows(await pair('pool8').detect(clothFrame([48, 152, 188]))).map((d) => d.class)).toEqual(['eight']);
  });

  test("otherCloths.outside: a pool table in a cloth the main model never saw (red, green) goes to the partner; its own blue stays, and no gains are applied to pool", async () => {
    const ranged: ModelSidecar = { ...greenOnly, otherCloths: { model: 'partner', outside: { pool8: { min: [26, 88, 97], max: [108, 202, 251], marginLevels: 10 } } } };
    const partner = new BallDetector(fakeRunner([{ u: 20, v: 20, r: 3, cls: 'cue', conf: 0.9 }]), side, { game: 'pool8' });
    const seen: number[][] = [];
    const main = fakeRunner([{ u: 40, v: 20, r: 3, cls: 'eight', conf: 0.9 }]);
    const spy: typeof main = { ...main, run: async (t, h, w, b) => (seen.push([t[0]!, t[h * w]!, t[2 * h * w]!]), main.run(t, h, w, b)) };
    const det = new BallDetector(spy, ranged, { game: 'pool8' }, partner);
    const classes = async (rgb: [number, number, number]) => toRows(await det.detect(clothFrame(rgb))).map((d) => d.class);
    expect(await classes([48, 152, 188])).toEqual(['eight']);
    // The main model saw the blue cloth's own bytes: pool is not normalised by the snooker range.
    expect(seen.at(-1)!.map(Math.round)).toEqual([48, 152, 188]);
    expect(await classes([125, 35, 45])).toEqual(['cue']); // burgundy
    expect(await classes([18, 184, 30])).toEqual(['cue']); // tournament green
    // Inside the margin (B 90 against a floor of 97 − 10) it stays.
    expect(await classes([48, 152, 90])).toEqual(['eight']);
    const box = [{ u0: 0, v0: 0, u1: 64, v1: 48 }];
    expect(toRows(await det.detectRegions(clothFrame([125, 35, 45]), box, { contextPx: 8 })).map((d) => d.class)).toEqual(['cue']);
    expect(toRows(await det.detectRegions(clothFrame([48, 152, 188]), box, { contextPx: 8 })).map((d) => d.class)).toEqual(['eight']);
    // Snooker keeps its own rule (onlyOutside), which this range is not for: a green cloth stays.
    const snooker = new BallDetector(fakeRunner([{ u: 40, v: 20, r: 3, cls: 'red', conf: 0.9 }]), ranged, { game: 'snooker' }, new BallDetector(fakeRunner([{ u: 20, v: 20, r: 3, cls: 'white', conf: 0.9 }]), side, { game: 'snooker' }));
    expect(toRows(await snooker.detect(clothFrame([18, 150, 30]))).map((d) => d.class)).toEqual(['red']);
  });
});
