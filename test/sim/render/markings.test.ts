/**
 * The markings are where the table profile puts them: the sub-pixel centre of each rendered line
 * (measured across it in the static table image) lies within 0.5 px of the projection of the
 * profile's geometry, through each camera's lens model.
 */
import { describe, expect, test } from 'vitest';
import type { GameId } from '../../../src/core/games.js';
import { builtinProfile, type TableProfile } from '../../../src/core/table.js';
import { presetCamera, project, type Camera, type CameraKind } from '../../../src/sim/camera.js';
import { Renderer } from '../../../src/sim/render/index.js';
import { frameGeometry } from '../../../src/sim/render/tableImage.js';
import { measurementLook, sample } from './helpers.js';

const WIDTH = 640, HEIGHT = 360;

type View = CameraKind | 'wide-lens overhead';

function staticImage(game: GameId, table: TableProfile, view: View): { cam: Camera; img: Uint8Array } {
  const cam =
    view === 'wide-lens overhead'
      ? { ...presetCamera('overhead', table, { width: WIDTH, height: HEIGHT }), k1: -0.12, k2: 0.02 }
      : presetCamera(view, table, { width: WIDTH, height: HEIGHT });
  const rgb = (r: number, g: number, b: number): [number, number, number] => [r, g, b];
  const look = { ...measurementLook(game), clothRgb: rgb(0, 90, 0), cushionRgb: rgb(0, 20, 0), markingRgb: rgb(255, 255, 255), markingWidthMm: 3 };
  if (game === 'novus') look.clothRgb = [0, 90, 0];
  const r = new Renderer({ game, table, camera: cam, look, seed: 3 });
  return { cam, img: r.tableImage() };
}

/**
 * Offset (px) of a line's measured centre from the projection of bed point (x, y), measured along
 * the image direction of the line's normal (nx, ny) in the bed plane.
 */
function lineOffset(cam: Camera, img: Uint8Array, x: number, y: number, nx: number, ny: number): number {
  const p0 = project(cam, x, y, 0)!, p1 = project(cam, x + nx * 10, y + ny * 10, 0)!;
  const l = Math.hypot(p1[0] - p0[0], p1[1] - p0[1]);
  const dx = (p1[0] - p0[0]) / l, dy = (p1[1] - p0[1]) / l;
  let sw = 0, ss = 0;
  const vals: [number, number][] = [];
  for (let s = -5; s <= 5; s += 0.125) vals.push([s, sample(img, WIDTH, HEIGHT, p0[0] + s * dx, p0[1] + s * dy, 0)]);
  const base = Math.min(...vals.map((v) => v[1]));
  for (const [s, v] of vals) {
    sw += v - base;
    ss += (v - base) * s;
  }
  expect(sw).toBeGreaterThan(10); // a line is there at all
  return ss / sw;
}

describe.each<View>(['overhead', 'wide-lens overhead', 'broadcast'])('snooker markings, %s camera', (kind) => {
  const table = builtinProfile('snooker');
  const { cam, img } = staticImage('snooker', table, kind);
  const W = table.bed.width, by = table.baulkLineY!, brown = table.spots.brown!, dR = table.dRadius!;

  test('the long cushion is rendered curved as the lens bends it', () => {
    const L = table.bed.length;
    const a = project(cam, 0, 0, 0)!, b = project(cam, 0, L, 0)!, m = project(cam, 0, L / 2, 0)!;
    const sagitta = Math.abs((b[0] - a[0]) * (a[1] - m[1]) - (a[0] - m[0]) * (b[1] - a[1])) / Math.hypot(b[0] - a[0], b[1] - a[1]);
    if (kind === 'broadcast') {
      expect(sagitta).toBeLessThan(0.5); // broadcast lenses are corrected
      return;
    }
    expect(sagitta).toBeGreaterThan(kind === 'overhead' ? 1 : 3);
    // Where the bed meets the cushion's face (x = 0 on the cloth), measured as the 50 % crossing
    // between the face's and the bed's levels down an image column, against the lens model.
    for (const fy of [0.15, 0.3, 0.4, 0.6, 0.7, 0.85]) { // (the middle pocket is at 0.5)
      const [u, v] = project(cam, 0, fy * L, 0)!;
      const face = sample(img, WIDTH, HEIGHT, u, v - 3, 1), bed = sample(img, WIDTH, HEIGHT, u, v + 3, 1);
      const level = (face + bed) / 2;
      let crossing = NaN;
      for (let s = -2.5; s < 2.5; s += 0.02) {
        const g0 = sample(img, WIDTH, HEIGHT, u, v + s, 1), g1 = sample(img, WIDTH, HEIGHT, u, v + s + 0.02, 1);
        if ((g0 - level) * (g1 - level) <= 0 && g0 !== g1) {
          crossing = s + (0.02 * (level - g0)) / (g1 - g0);
          break;
        }
      }
      expect(bed - face).toBeGreaterThan(20);
      expect(Math.abs(crossing), `y = ${fy} L`).toBeLessThan(0.5);
    }
  });

  test.each([0.08, 0.2, 0.75, 0.92])('baulk line at x = %s W', (fx) => {
    expect(Math.abs(lineOffset(cam, img, fx * W, by, 0, 1))).toBeLessThan(0.5);
  });

  test.each([200, 235, 270, 305, 340])('D arc at %s°', (deg) => {
    const a = (deg * Math.PI) / 180;
    const nx = Math.cos(a), ny = Math.sin(a);
    expect(Math.abs(lineOffset(cam, img, brown.x + dR * nx, brown.y + dR * ny, nx, ny))).toBeLessThan(0.5);
  });

  // From the broadcast camera behind the black end, the baulk pockets' falls are hidden behind
  // their cushions (as on TV): only the pockets the camera looks into are checked there.
  const seen = kind === 'broadcast' ? (['TL', 'TR'] as const) : (['BL', 'BR', 'ML', 'MR', 'TL', 'TR'] as const);
  test('pockets are dark holes at the profile pocket positions', () => {
    for (const id of seen) {
      const p = table.pockets[id]!;
        // Just outside the bed outline, on the pocket's axis.
      const ox = p.x === 0 ? -15 : p.x === W ? 15 : 0;
      const oy = p.y === 0 ? -15 : p.y === table.bed.length ? 15 : 0;
      const q = project(cam, p.x + ox, p.y + oy, 0)!;
      if (q[0] < 0 || q[1] < 0 || q[0] > WIDTH - 1 || q[1] > HEIGHT - 1) continue;
      // Darkest pixel near the pocket point: seen at a slant, the rail in front hides part of the fall.
      let v = 255;
      for (let dy = -6; dy <= 6; dy++) for (let dx = -6; dx <= 6; dx++) v = Math.min(v, sample(img, WIDTH, HEIGHT, q[0] + dx, q[1] + dy, 1));
      expect(v, id).toBeLessThan(40);
    }
  });
});

describe('novus markings, overhead camera', () => {
  const table = builtinProfile('novus');
  const { cam, img } = staticImage('novus', table, 'overhead');
  const W = table.bed.width, z = table.zoneLineMm!, cr = table.centreCircleRadiusMm!;
  // Novus lines are dark on light wood: measure on the inverted image.
  const inv = img.map((v) => 255 - v);

  test.each([0.3, 0.5, 0.7])('zone lines at %s W', (f) => {
    expect(Math.abs(lineOffset(cam, inv, f * W, z, 0, 1))).toBeLessThan(0.5);
    expect(Math.abs(lineOffset(cam, inv, f * W, W - z, 0, 1))).toBeLessThan(0.5);
  });

  test.each([20, 100, 250])('centre circle at %s°', (deg) => {
    const a = (deg * Math.PI) / 180;
    expect(Math.abs(lineOffset(cam, inv, W / 2 + cr * Math.cos(a), W / 2 + cr * Math.sin(a), Math.cos(a), Math.sin(a)))).toBeLessThan(0.5);
  });
});

describe('pool diamonds, broadcast camera', () => {
  const table = builtinProfile('pool8-9ft');
  const { cam, img } = staticImage('pool8', table, 'broadcast');
  const geo = frameGeometry('pool8');
  const W = table.bed.width, L = table.bed.length;

  test('each diamond is a bright dot 93.7 mm behind the cushion nose, the rail around it is dark', () => {
    const diamonds: [number, number][] = [];
    for (let k = 1; k <= 3; k++) diamonds.push([(W * k) / 4, -geo.diamondInsetMm], [(W * k) / 4, L + geo.diamondInsetMm]);
    for (const k of [1, 2, 3, 5, 6, 7]) diamonds.push([-geo.diamondInsetMm, (L * k) / 8], [W + geo.diamondInsetMm, (L * k) / 8]);
    expect(diamonds).toHaveLength(18);
    for (const [x, y] of diamonds) {
      const c = project(cam, x, y, geo.railHeightMm)!;
      const side = project(cam, x + (y < 0 || y > L ? 40 : 0), y + (x < 0 || x > W ? 40 : 0), geo.railHeightMm)!;
      expect(sample(img, WIDTH, HEIGHT, c[0], c[1], 0), `${x},${y}`).toBeGreaterThan(150);
      expect(sample(img, WIDTH, HEIGHT, side[0], side[1], 0)).toBeLessThan(90);
    }
  });
});
