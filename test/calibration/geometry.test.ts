import fc from 'fast-check';
import { describe, expect, it, test } from 'vitest';
import { applyH, inv3 } from '../../src/core/mat3.js';
import { builtinProfile } from '../../src/core/table.js';
import { presetCamera, truthHomographies } from '../../src/sim/camera.js';
import { distortPoint, fitRadialDistortion, undistortPoint, type RadialDistortion } from '../../src/calibration/distortion.js';
import { homographyDlt, hullQuadPoints, ransacLine, type Pt } from './helpers.js';
import { ballCentreToTable, estimateFocalPx, poseFromHomography } from '../../src/calibration/pose.js';

describe('homographyDlt', () => {
  it('recovers a known homography exactly from 4 and from many points (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.double({ min: -0.3, max: 0.3, noNaN: true }), { minLength: 8, maxLength: 8 }),
        (d) => {
          const H = [
            [1 + d[0]!, d[1]!, 100 * d[2]!],
            [d[3]!, 1 + d[4]!, 100 * d[5]!],
            [d[6]! * 1e-3, d[7]! * 1e-3, 1],
          ] as const;
          const src: Pt[] = [[0, 0], [500, 0], [500, 300], [0, 300], [250, 150], [100, 250]];
          const dst = src.map(([x, y]) => applyH(H as never, x, y) as Pt);
          const est = homographyDlt(src, dst)!;
          for (const [x, y] of [[10, 20], [400, 280], [250, 10]] as Pt[]) {
            const [a, b] = applyH(H as never, x, y);
            const [c, e] = applyH(est, x, y);
            expect(Math.hypot(a - c, b - e)).toBeLessThan(1e-6);
          }
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('ransacLine', () => {
  it('ignores a ball-sized cluster of outliers on a cushion edge', () => {
    const pts: Pt[] = [];
    for (let i = 0; i < 200; i++) pts.push([i * 5, 100 + 0.02 * i * 5 + ((i * 7919) % 11) / 50 - 0.1]);
    for (let i = 0; i < 40; i++) pts.push([300 + i, 80 + (i % 9)]);
    const fit = ransacLine(pts, 1.5)!;
    // y = 100 + 0.02 x  →  normal ∝ (−0.02, 1)
    const slope = -fit.line.nx / fit.line.ny;
    expect(slope).toBeCloseTo(0.02, 3);
    expect(fit.line.c / fit.line.ny).toBeCloseTo(100, 0);
    expect(fit.inliers.length).toBeGreaterThanOrEqual(195);
  });
});

describe('hull quadrilateral', () => {
  it('finds the four corners of a rectangle with chamfered (pocket) corners', () => {
    const q = hullQuadPoints([[10, 0], [190, 0], [200, 10], [200, 90], [190, 100], [10, 100], [0, 90], [0, 10]]);
    const want: Pt[] = [[0, 0], [200, 0], [200, 100], [0, 100]];
    for (const w of want) expect(Math.min(...q.map((p) => Math.hypot(p[0] - w[0], p[1] - w[1])))).toBeLessThan(1e-6);
  });
});

describe('radial distortion', () => {
  const d: RadialDistortion = { model: 'radial', fx: 900, fy: 900, cx: 640, cy: 360, k1: -0.12, k2: 0.02 };
  it('undistort inverts distort (round trip to 1e-6 px)', () => {
    for (const [u, v] of [[0, 0], [1279, 719], [640, 360], [100, 600]] as Pt[]) {
      const [a, b] = distortPoint(d, ...undistortPoint(d, u, v));
      expect(Math.hypot(a - u, b - v)).toBeLessThan(1e-6);
    }
  });
  it('recovers k1 from curved straight lines (plumb-line)', () => {
    const lines: Pt[][] = [];
    for (const y of [80, 640]) lines.push(Array.from({ length: 100 }, (_, i) => distortPoint({ ...d, k2: 0 }, 60 + i * 11.6, y)));
    for (const x of [90, 1190]) lines.push(Array.from({ length: 60 }, (_, i) => distortPoint({ ...d, k2: 0 }, x, 80 + i * 9.3)));
    const fit = fitRadialDistortion(lines, { width: 1280, height: 720, focalPx: 900 });
    expect(fit.distortion).not.toBeNull();
    expect(fit.distortion!.k1).toBeCloseTo(-0.12, 2);
    expect(fit.rmsAfterPx).toBeLessThan(0.05);
  });
  it('reports no lens when the bend asks for more pincushion than real lenses have', () => {
    // Edges bent as by k1 = +0.35 (a broadcast clip's cushion edges fitted that): at the range's
    // edge, no lens; +0.08 (a long zoom) is still fitted.
    const bent = (k1: number) => {
      const d: RadialDistortion = { model: 'radial', fx: 900, fy: 900, cx: 640, cy: 360, k1, k2: 0 };
      const lines: Pt[][] = [];
      for (const y of [80, 640]) lines.push(Array.from({ length: 100 }, (_, i) => distortPoint(d, 60 + i * 11.6, y)));
      for (const x of [90, 1190]) lines.push(Array.from({ length: 60 }, (_, i) => distortPoint(d, x, 80 + i * 9.3)));
      return fitRadialDistortion(lines, { width: 1280, height: 720, focalPx: 900 }).distortion;
    };
    expect(bent(0.35)).toBeNull();
    expect(bent(0.08)?.k1).toBeCloseTo(0.08, 2);
  });
  it('reports no lens for straight lines', () => {
    const lines: Pt[][] = [Array.from({ length: 50 }, (_, i) => [i * 20, 100 + i] as Pt), Array.from({ length: 50 }, (_, i) => [100 + i, i * 12] as Pt)];
    expect(fitRadialDistortion(lines, { width: 1280, height: 720, focalPx: 900 }).distortion).toBeNull();
  });
});

describe('pose and ball-centre plane', () => {
  const table = builtinProfile('snooker');
  test.each(['broadcast', 'oblique'] as const)('%s: focal from the homography and ballCentreToTable match the camera', (kind) => {
    const cam = { ...presetCamera(kind, table), k1: 0, k2: 0 };
    const truth = truthHomographies(cam, 26.25);
    const t2i = inv3(truth.imageToTable);
    const f = estimateFocalPx(t2i, cam.cx, cam.cy, cam.width, 3569)!;
    expect(Math.abs(f - cam.fx) / cam.fx).toBeLessThan(1e-3);
    const pose = poseFromHomography(t2i, { fPx: f, cx: cam.cx, cy: cam.cy }, true);
    expect(pose.centreMm[2]).toBeCloseTo(cam.position[2], -1);
    const b = ballCentreToTable(truth.imageToTable, pose, 26.25);
    const ballToImage = inv3(truth.ballCentreToTable);
    for (const [x, y] of [[100, 100], [1700, 3400], [889, 1784]] as Pt[]) {
      const [u, v] = applyH(ballToImage, x, y);
      const [xe, ye] = applyH(b, u, v);
      expect(Math.hypot(xe - x, ye - y)).toBeLessThan(0.05);
    }
  });
  it('overhead: the focal length is unobservable and left to the prior', () => {
    const cam = { ...presetCamera('overhead', table), k1: 0, k2: 0 };
    const t2i = inv3(truthHomographies(cam, 26.25).imageToTable);
    expect(estimateFocalPx(t2i, cam.cx, cam.cy, cam.width, 3569)).toBeNull();
  });
});
