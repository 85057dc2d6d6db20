import { describe, expect, test } from 'vitest';
import type { Calibration } from '../../src/calibration/contract.js';
import { ballCentreToTable, poseFromHomography, PRIOR_FOCAL_WIDTH_FRAC } from '../../src/calibration/pose.js';
import { heightFromSpots, type SpotBall } from '../../src/calibration/spotHeight.js';
import { applyH, inv3, normaliseH } from '../../src/core/mat3.js';
import { builtinProfile, detectedCentreHeightMm } from '../../src/core/table.js';
import { planeToImage, presetCamera } from '../../src/sim/camera.js';

const table = builtinProfile('snooker');
const hb = detectedCentreHeightMm(table);
// The rendered overhead camera, straight above the bed centre: its focal length cannot be read
// from the cloth homography, so the calibration takes the prior (0.714 of the width).
const cam = presetCamera('overhead', table);
const clothToImage = planeToImage(cam, 0);
const ballToImage = planeToImage(cam, hb);
const imageToTable = normaliseH(inv3(clothToImage));
const priorPose = poseFromHomography(clothToImage, { fPx: PRIOR_FOCAL_WIDTH_FRAC * 1280, cx: 640, cy: 360 }, false);
const prior: Calibration = {
  format: 'cueref.calibration/1',
  game: 'snooker',
  table,
  image: { width: 1280, height: 720 },
  imageToTable,
  ballCentreToTable: ballCentreToTable(imageToTable, priorPose, hb),
  distortion: null,
  reprojectionErrorMm: 0.3,
  inliers: 100,
  found: ['cloth', 'cushions', 'baulkLine', 'D', 'spots', 'end'],
  camera: { focalPx: priorPose.K.fPx, focalMeasured: false, centreMm: priorPose.centreMm },
};

/** Where a ball whose centre lies over (x, y) is mapped by `cal`: its centre's image, through the ball-centre homography. */
const seen = (cal: Calibration, x: number, y: number): [number, number] => {
  const [u, v] = applyH(ballToImage, x, y);
  return applyH(cal.ballCentreToTable, u, v);
};
const onSpots = (cal: Calibration, kinds: string[]): SpotBall[] =>
  kinds.map((kind) => {
    const s = table.spots[kind]!;
    const [x, y] = seen(cal, s.x, s.y);
    return { kind, x, y };
  });
const colours = ['yellow', 'green', 'brown', 'blue', 'pink', 'black'];

describe('heightFromSpots', () => {
  test('colours on their spots measure the height of a camera looking straight down, and the balls map where they lie', () => {
    // The problem: with the prior the black on its spot maps 2+ mm beyond it.
    const [bx, by] = seen(prior, table.spots.black!.x, table.spots.black!.y);
    expect(Math.hypot(bx - table.spots.black!.x, by - table.spots.black!.y)).toBeGreaterThan(2);
    expect(prior.camera!.centreMm[2] / cam.position[2]).toBeGreaterThan(1.15);
    // A red and a colour away from its spot take no part.
    const balls = [...onSpots(prior, colours), { kind: 'red', x: 900, y: 2800 }, { kind: 'green', x: 1300, y: 2000 }];
    const r = heightFromSpots(prior, balls);
    if (!r.ok) throw new Error(r.reason);
    expect(r.balls).toBe(6);
    expect(r.heightMm / cam.position[2]).toBeCloseTo(1, 2);
    expect(r.calibration.camera).toMatchObject({ focalMeasured: true, focalFrom: 'spots' });
    expect(r.calibration.camera!.focalPx / cam.fx).toBeCloseTo(1, 2);
    // Anywhere on the bed, a ball now maps within 0.1 mm of where it lies (against 3 mm with the prior at a corner).
    for (const [x, y] of [[100, 100], [1700, 3450], [889, 3245], [300, 1784]] as const) {
      const [px, py] = seen(r.calibration, x, y);
      expect(Math.hypot(px - x, py - y)).toBeLessThan(0.1);
    }
    const [qx, qy] = seen(prior, 1700, 3450);
    expect(Math.hypot(qx - 1700, qy - 3450)).toBeGreaterThan(3);
    // The cloth mapping is the same: only the balls' parallax changed.
    expect(r.calibration.imageToTable).toBe(prior.imageToTable);
  });

  test('a common shift of the positions (the cloth mapping a little off) does not change the height', () => {
    const balls = onSpots(prior, colours).map((b) => ({ ...b, x: b.x + 0.8, y: b.y - 0.6 }));
    const r = heightFromSpots(prior, balls);
    if (!r.ok) throw new Error(r.reason);
    expect(r.heightMm / cam.position[2]).toBeCloseTo(1, 2);
  });

  test('refused: too few colours on spots, colours all near the middle, a measured focal length, positions that fit no height', () => {
    expect(heightFromSpots(prior, onSpots(prior, ['black', 'pink']))).toMatchObject({ ok: false, balls: 2 });
    // Blue and the baulk colours only at a camera above the baulk line: no spread from below it.
    const overBaulk: Calibration = { ...prior, camera: { ...prior.camera!, centreMm: [889, 737, prior.camera!.centreMm[2]] } };
    expect(heightFromSpots(overBaulk, onSpots(prior, ['yellow', 'green', 'brown'])).ok).toBe(false);
    const measured: Calibration = { ...prior, camera: { ...prior.camera!, focalMeasured: true } };
    expect(heightFromSpots(measured, onSpots(prior, colours)).ok).toBe(false);
    // Scattered 4–8 mm every which way: no change of height explains it.
    const scattered = onSpots(prior, colours).map((b, i) => ({ ...b, x: b.x + (i % 2 ? 8 : -8), y: b.y + (i % 3 ? 5 : -4) }));
    const r = heightFromSpots(prior, scattered);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(/rms/);
  });
});
