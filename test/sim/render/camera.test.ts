/**
 * Camera model and presets: projection/undistortion round trips, homographies consistent with the
 * projection, every preset framing every table, and the presets' fit to the real footage's bed
 * corners (pixel positions read off ../shared/real frames; the numbers are here, not the frames).
 */
import { describe, expect, test } from 'vitest';
import fc from 'fast-check';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { applyH } from '../../../src/core/mat3.js';
import { builtinProfile, completeProfile, PROFILE_NAMES } from '../../../src/core/table.js';
import { planeToImage, presetCamera, project, randomCamera, truthHomographies, undistortPixel, type CameraKind } from '../../../src/sim/camera.js';

const REAL = join(import.meta.dirname, '..', '..', '..', '..', 'shared', 'real');

const KINDS: CameraKind[] = ['overhead', 'broadcast', 'oblique'];

describe('camera model', () => {
  test.each(KINDS)('%s: undistortPixel inverts the lens to 1e-6 px over the whole image', (kind) => {
    const cam = presetCamera(kind, builtinProfile('snooker'));
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1279, noNaN: true }), fc.double({ min: 0, max: 719, noNaN: true }), (u, v) => {
        const [uu, vu] = undistortPixel(cam, u, v);
        // Re-apply the distortion to the ideal pixel.
        const x = (uu - cam.cx) / cam.fx, y = (vu - cam.cy) / cam.fy, r2 = x * x + y * y;
        const k = 1 + cam.k1 * r2 + cam.k2 * r2 * r2;
        expect(Math.abs(cam.fx * x * k + cam.cx - u)).toBeLessThan(1e-6);
        expect(Math.abs(cam.fy * y * k + cam.cy - v)).toBeLessThan(1e-6);
      }),
      { numRuns: 200 },
    );
  });

  test.each(KINDS)('%s: the cloth and ball-centre homographies agree with project() after undistortion', (kind) => {
    const table = builtinProfile('snooker');
    const cam = presetCamera(kind, table);
    const R = table.ballDiameter / 2;
    const { imageToTable, ballCentreToTable } = truthHomographies(cam, R);
    for (const [x, y] of [[100, 200], [889, 1784], [1700, 3400], [300, 3000]] as const) {
      for (const [z, H] of [[0, imageToTable], [R, ballCentreToTable]] as const) {
        const [u, v] = project(cam, x, y, z)!;
        const [uu, vu] = undistortPixel(cam, u, v);
        const [bx, by] = applyH(H, uu, vu);
        expect(Math.hypot(bx - x, by - y)).toBeLessThan(1e-3);
        const [pu, pv] = applyH(planeToImage(cam, z), x, y);
        expect(Math.hypot(pu - uu, pv - vu)).toBeLessThan(1e-3);
      }
    }
  });
});

describe('presets frame every table', () => {
  test.each(PROFILE_NAMES.flatMap((p) => KINDS.map((k) => [p, k] as const)))('%s, %s', (profile, kind) => {
    const table = builtinProfile(profile);
    const cam = presetCamera(kind, table, { width: 1280, height: 720 });
    const W = table.bed.width, L = table.bed.length;
    for (const [x, y] of [[0, 0], [W, 0], [0, L], [W, L]] as const) {
      const p = project(cam, x, y, 0)!;
      expect(p[0]).toBeGreaterThan(0);
      expect(p[0]).toBeLessThan(1280);
      expect(p[1]).toBeGreaterThan(0);
      expect(p[1]).toBeLessThan(720);
    }
    // Balls large enough to detect and small enough to be balls: 3–25 px radius at the bed centre.
    const c = project(cam, W / 2, L / 2, table.ballDiameter / 2)!;
    const e = project(cam, W / 2 + table.ballDiameter / 2, L / 2, table.ballDiameter / 2)!;
    const r = Math.hypot(e[0] - c[0], e[1] - c[1]);
    expect(r).toBeGreaterThan(3);
    expect(r).toBeLessThan(25);
  });
});

describe('randomCamera', () => {
  test.each(KINDS)('%s: deterministic, different per seed, and still frames the bed', (kind) => {
    const table = builtinProfile('pool8-9ft');
    expect(randomCamera(kind, table, 5)).toEqual(randomCamera(kind, table, 5));
    expect(randomCamera(kind, table, 5).position).not.toEqual(randomCamera(kind, table, 6).position);
    for (let seed = 0; seed < 20; seed++) {
      const cam = randomCamera(kind, table, seed);
      for (const [x, y] of [[0, 0], [table.bed.width, 0], [0, table.bed.length], [table.bed.width, table.bed.length]] as const) {
        const p = project(cam, x, y, 0)!;
        expect(p[0]).toBeGreaterThan(0);
        expect(p[0]).toBeLessThan(cam.width);
        expect(p[1]).toBeGreaterThan(0);
        expect(p[1]).toBeLessThan(cam.height);
      }
    }
  });
});

describe('presets against the real footage', () => {
  const rms = (pairs: [[number, number], [number, number]][]): number =>
    Math.sqrt(pairs.reduce((a, [p, q]) => a + (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2, 0) / pairs.length);

  test('snooker broadcast: bed corners of bucharest Task1/1.jpg within 12 px rms', () => {
    const table = builtinProfile('snooker');
    const cam = presetCamera('broadcast', table, { width: 1280, height: 720 });
    const W = table.bed.width, L = table.bed.length;
    // Baulk end far (top), yellow on the image's left: x = W is on the left.
    const measured: [[number, number, number], [number, number]][] = [
      [[W, 0, 0], [375, 45]], [[0, 0, 0], [897, 45]], [[W, L, 0], [232, 617]], [[0, L, 0], [1052, 617]],
      [[W / 2, L / 2, table.ballDiameter / 2], [637, 278]], // the blue on its spot
    ];
    expect(rms(measured.map(([w, px]) => [project(cam, ...w)!, px]))).toBeLessThan(12);
  });

  test('pool broadcast: bed corners of padova first frames within 10 px rms (1024×576)', () => {
    const table = builtinProfile('pool8-9ft');
    const cam = presetCamera('broadcast', table, { width: 1024, height: 576 });
    const W = table.bed.width, L = table.bed.length;
    const measured: [[number, number, number], [number, number]][] = [
      [[W, L, 0], [168, 103]], [[W, 0, 0], [858, 103]], [[0, L, 0], [163, 463]], [[0, 0, 0], [862, 463]],
    ];
    expect(rms(measured.map(([w, px]) => [project(cam, ...w)!, px]))).toBeLessThan(10);
  });

  test('club overhead: the bed spans ≈ 85 % of the image width and is centred, as in bern', () => {
    const table = builtinProfile('snooker');
    const cam = presetCamera('overhead', table, { width: 1280, height: 720 });
    const left = project(cam, table.bed.width / 2, 0, 0)!, right = project(cam, table.bed.width / 2, table.bed.length, 0)!;
    expect((right[0] - left[0]) / 1280).toBeGreaterThan(0.83);
    expect((right[0] - left[0]) / 1280).toBeLessThan(0.9);
    expect((left[0] + right[0]) / 2).toBeCloseTo(640, 3);
  });

  const bernCases = join(REAL, 'bern-snooker-overhead', 'without_halo', 'testcases.json');
  test.skipIf(!existsSync(bernCases))('club overhead on the bern table: its 176 annotated balls (skipped without ../shared/real)', () => {
    const cases = JSON.parse(readFileSync(bernCases, 'utf8')) as { cases: { balls: { x: number; y: number; pixelX: number; pixelY: number }[] }[] };
    // The bern table: 1881 × 943 mm, balls of 26.15 mm radius; its annotations put the origin at the
    // bed centre with x along the table (head rail on the right).
    const table = completeProfile({ format: 'cueref.table/1', game: 'snooker', bed: { width: 943, length: 1881 }, ballDiameter: 52.3 });
    const cam = presetCamera('overhead', table, { width: 1280, height: 720 });
    const errors = (): number => {
      const pairs: [[number, number], [number, number]][] = [];
      for (const c of cases.cases) for (const b of c.balls) pairs.push([project(cam, 943 / 2 - b.y, 1881 / 2 + b.x, 26.15)!, [b.pixelX, b.pixelY]]);
      expect(pairs.length).toBeGreaterThan(100);
      return rms(pairs);
    };
    // The preset is centred over the bed; that camera hangs 21 mm off centre (a free fit finds it,
    // and 80° at 1.31 m as the preset has): most of the preset's error is that offset.
    expect(errors()).toBeLessThan(16);
    cam.position = [cam.position[0] + 4.8, cam.position[1] + 21.1, cam.position[2]];
    expect(errors()).toBeLessThan(6);
  });
});
