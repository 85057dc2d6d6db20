/**
 * Labels against truth and against the pixels: the contract's `u, v` is the centre of the ball's
 * outline as seen. Projected truth (camera.json's model) must land on the rendered ball centres
 * within 0.5 px, and the coverage centroid measured in the rendered image must match the label
 * within 0.5 px, for every camera kind (with its lens distortion).
 */
import { describe, expect, test } from 'vitest';
import { applyH } from '../../../src/core/mat3.js';
import { builtinProfile, detectedCentreHeightMm } from '../../../src/core/table.js';
import { presetCamera, project, randomCamera, truthHomographies, undistortPixel, type CameraKind } from '../../../src/sim/camera.js';
import { Renderer } from '../../../src/sim/render/index.js';
import type { BallSnapshot } from '../../../src/sim/types.js';
import { imageCentroid, measurementLook, rest } from './helpers.js';

const table = builtinProfile('snooker');
const R = table.ballDiameter / 2;
const W = table.bed.width, L = table.bed.length;

/** Reds on a 5 × 5 grid over the whole bed (corners, edges, centre), far enough apart not to touch. */
function gridOfReds(): BallSnapshot[] {
  const balls: BallSnapshot[] = [];
  let k = 1;
  for (const fy of [0.03, 0.25, 0.5, 0.75, 0.97]) {
    for (const fx of [0.04, 0.27, 0.5, 0.73, 0.96]) {
      if (k > 15) break;
      balls.push(rest(`red${k++}`, fx * W, fy * L, R));
    }
  }
  // Colours fill the remaining grid places so every class is exercised.
  const more = ['yellow', 'green', 'brown', 'blue', 'pink', 'black', 'white'];
  const spots: [number, number][] = [[0.5, 0.97], [0.96, 0.75], [0.04, 0.97], [0.27, 0.97], [0.73, 0.97], [0.96, 0.97], [0.6, 0.6]];
  more.forEach((id, n) => balls.push(rest(id, spots[n]![0] * W, spots[n]![1] * L, R)));
  return balls;
}

describe.each<CameraKind>(['overhead', 'broadcast', 'oblique'])('labels, %s camera', (kind) => {
  const camera = presetCamera(kind, table, { width: 640, height: 360 });
  const look = measurementLook('snooker');
  const renderer = new Renderer({ game: 'snooker', table, camera, look, seed: 1 });
  const balls = gridOfReds();
  const frame = renderer.render({ i: 0, t: 0, balls });
  const bg = renderer.tableImage();

  test('projected truth lands on the label within 0.5 px', () => {
    let checked = 0;
    for (const b of balls) {
      const label = frame.labels.find((l) => l.id === b.id)!;
      if (!label.visible) continue;
      const p = project(camera, b.x, b.y, b.z)!;
      expect(Math.hypot(p[0] - label.u, p[1] - label.v)).toBeLessThan(0.5);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(18);
  });

  test('coverage centroid of the rendered red balls matches the label within 0.5 px', () => {
    let checked = 0;
    for (const label of frame.labels) {
      if (label.class !== 'red' || !label.visible) continue;
      // Skip balls partly outside the image: their visible centroid is not the outline's centre.
      if (label.u - label.r < 2 || label.v - label.r < 2 || label.u + label.r > 637 || label.v + label.r > 357) continue;
      const m = imageCentroid(frame.rgb, bg, 640, 360, label.u, label.v, label.r + 3, 0, 215);
      expect(Math.hypot(m.u - label.u, m.v - label.v), label.id).toBeLessThan(0.5);
      // Radius: the outline's area as a circle, within 0.3 px.
      expect(Math.abs(Math.sqrt(m.areaPx / Math.PI) - label.r), label.id).toBeLessThan(0.3);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(12);
  });

  test('labels carry the contract classes', () => {
    const classes = new Set(frame.labels.map((l) => l.class));
    expect([...classes].sort()).toEqual(['black', 'blue', 'brown', 'green', 'pink', 'red', 'white', 'yellow']);
  });
});

test('ball radius in pixels follows the camera: overhead, sphere outline radius', () => {
  const camera = presetCamera('overhead', table, { width: 640, height: 360 });
  const renderer = new Renderer({ game: 'snooker', table, camera, look: measurementLook('snooker'), seed: 1 });
  const f = renderer.render({ i: 0, t: 0, balls: [rest('white', W / 2, L / 2, R)] });
  const l = f.labels[0]!;
  expect(l.u).toBeCloseTo(320, 6);
  expect(l.v).toBeCloseTo(180, 6);
  // On the optical axis the outline is a circle of radius fx · R / √((h − R)² − R²), h the camera's height.
  const fx = camera.fx, h = camera.position[2];
  expect(l.r).toBeCloseTo((fx * R) / Math.sqrt((h - R) ** 2 - R * R), 1);
});

test.each([
  ['overhead', 11],
  ['overhead', 12],
  ['broadcast', 13],
  ['oblique', 14],
] as const)('randomCamera(%s, seed %i): image centroids match labels within 0.5 px through a random lens', (kind, seed) => {
  const camera = randomCamera(kind, table, seed, { width: 480, height: 270 });
  const r = new Renderer({ game: 'snooker', table, camera, look: measurementLook('snooker'), seed });
  const balls = gridOfReds();
  const f = r.render({ i: 0, t: 0, balls });
  const bg = r.tableImage();
  let checked = 0;
  for (const label of f.labels) {
    if (label.class !== 'red' || !label.visible) continue;
    if (label.u - label.r < 2 || label.v - label.r < 2 || label.u + label.r > 477 || label.v + label.r > 267) continue;
    const m = imageCentroid(f.rgb, bg, 480, 270, label.u, label.v, label.r + 3, 0, 215);
    expect(Math.hypot(m.u - label.u, m.v - label.v), `${label.id} k1 ${camera.k1.toFixed(3)}`).toBeLessThan(0.5);
    const b = balls.find((q) => q.id === label.id)!;
    const p = project(camera, b.x, b.y, b.z)!;
    expect(Math.hypot(p[0] - label.u, p[1] - label.v)).toBeLessThan(0.5);
    checked++;
  }
  expect(checked).toBeGreaterThanOrEqual(10);
});

test.each<CameraKind>(['overhead', 'broadcast'])('Novus, %s: a disc label (its top face) maps to the disc centre through the truth calibration within 0.3 mm', (kind) => {
  // The detector is taught these labels, so the calibration's ballCentreToTable must map the plane
  // of the disc's top face, not the sphere plane at R: that put pawns 3–4 mm off at the board's ends.
  const nov = builtinProfile('novus');
  const camera = presetCamera(kind, nov, { width: 640, height: 360 });
  const r = new Renderer({ game: 'novus', table: nov, camera, look: measurementLook('novus'), seed: 2 });
  const Wn = nov.bed.width, Ln = nov.bed.length;
  const places: [string, number, number][] = [['a1', 0.1, 0.1], ['a2', 0.9, 0.1], ['b1', 0.1, 0.9], ['b2', 0.9, 0.9], ['striker', 0.5, 0.5]];
  const balls = places.map(([id, fx, fy]) => rest(id, fx * Wn, fy * Ln, nov.ballDiameter / 2));
  const f = r.render({ i: 0, t: 0, balls });
  const { ballCentreToTable } = truthHomographies(camera, detectedCentreHeightMm(nov));
  const sphere = truthHomographies(camera, nov.ballDiameter / 2).ballCentreToTable;
  let worstSphereMm = 0;
  for (const b of balls) {
    const l = f.labels.find((q) => q.id === b.id)!;
    const [uu, vu] = undistortPixel(camera, l.u, l.v);
    const [x, y] = applyH(ballCentreToTable, uu, vu);
    expect(Math.hypot(x - b.x, y - b.y), b.id).toBeLessThan(b.id === 'striker' ? 0.3 : 0.1);
    const [xs, ys] = applyH(sphere, uu, vu);
    worstSphereMm = Math.max(worstSphereMm, Math.hypot(xs - b.x, ys - b.y));
  }
  expect(worstSphereMm).toBeGreaterThan(1.5);
});
