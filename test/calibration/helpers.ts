/** Shared helpers for the calibration tests (re-exports and small frame utilities). */
import { homographyDlt, ransacLine, type Pt } from '../../src/calibration/geometry.js';
import { hullQuad } from '../../src/calibration/edges.js';
import { applyH, inv3, type Mat3 } from '../../src/core/mat3.js';
import type { TableProfile } from '../../src/core/table.js';
import type { Camera } from '../../src/sim/camera.js';
import { truthHomographies } from '../../src/sim/camera.js';
import { distortPoint, undistortPoint } from '../../src/calibration/distortion.js';
import type { Calibration } from '../../src/calibration/contract.js';

export { homographyDlt, ransacLine, type Pt };
export const hullQuadPoints = (pts: Pt[]): Pt[] => hullQuad(pts)!;

/**
 * Error of a calibration against the camera that made the frame: for a 21 × 21 grid over the bed,
 * the true (distorted) pixel of the bed point is mapped back through the calibration; the
 * distances from the true bed point, in mm. `mod180` accepts the table turned end for end (pool,
 * whose ends the markings cannot tell).
 */
export function bedErrorsMm(cal: Calibration, cam: Camera, table: TableProfile, mod180 = false): number[] {
  const t2i = inv3(truthHomographies(cam, table.ballDiameter / 2).imageToTable);
  const lens = { model: 'radial' as const, fx: cam.fx, fy: cam.fy, cx: cam.cx, cy: cam.cy, k1: cam.k1, k2: cam.k2 };
  const out: number[] = [];
  const { width: W, length: L } = table.bed;
  for (let i = 0; i <= 20; i++) {
    for (let j = 0; j <= 20; j++) {
      const x = (W * i) / 20, y = (L * j) / 20;
      const [u0, v0] = applyH(t2i, x, y);
      const [u, v] = distortPoint(lens, u0, v0);
      const [uu, vv] = cal.distortion ? undistortPoint(cal.distortion, u, v) : [u, v];
      const [xe, ye] = applyH(cal.imageToTable, uu, vv);
      const e = Math.hypot(xe - x, ye - y);
      out.push(mod180 ? Math.min(e, Math.hypot(W - xe - x, L - ye - y)) : e);
    }
  }
  return out.sort((a, b) => a - b);
}

export const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
};

export function mapPoint(h: Mat3, u: number, v: number): [number, number] {
  return applyH(h, u, v);
}

import { Renderer, defaultLook } from '../../src/sim/render/index.js';
import { frameOf, novusStart, pool8Rack, snookerOpening } from '../../src/sim/render/demoLayouts.js';
import type { RgbFrame } from '../../src/calibration/image.js';
import type { Occluder } from '../../src/sim/types.js';

/** The same camera looking at the table turned end for end (baulk at the other side of the image). */
export function turnedCamera(cam: Camera, table: TableProfile): Camera {
  const { width: W, length: L } = table.bed;
  const R = cam.R.map((r) => [-r[0], -r[1], r[2]]) as Camera['R'];
  return { ...cam, R, position: [W - cam.position[0], L - cam.position[1], cam.position[2]] };
}

/** Render the game's opening layout through `cam` with the project's renderer. */
export function renderOpening(
  table: TableProfile,
  cam: Camera,
  seed = 1,
  occluders?: Occluder[],
): { frame: RgbFrame; labels: { id: string; u: number; v: number; visible: boolean }[] } {
  const game = table.game;
  const balls = game === 'snooker' ? snookerOpening(table) : game === 'pool8' ? pool8Rack(table) : novusStart(table);
  // Occluded frames also get the TV score bar.
  const look = { ...defaultLook(game), ...(occluders ? { overlay: true } : {}) };
  const r = new Renderer({ game, table, camera: cam, look, seed }).render({ ...frameOf(balls), ...(occluders ? { occluders } : {}) });
  return { frame: { width: r.width, height: r.height, rgb: r.rgb }, labels: r.labels };
}

/** Shift a frame by whole pixels (a bumped camera), filling with the nearest edge pixel. */
export function shiftFrame(f: RgbFrame, dx: number, dy: number): RgbFrame {
  const out = new Uint8Array(f.rgb.length);
  for (let y = 0; y < f.height; y++) {
    const sy = Math.min(f.height - 1, Math.max(0, y - dy));
    for (let x = 0; x < f.width; x++) {
      const sx = Math.min(f.width - 1, Math.max(0, x - dx));
      const i = (y * f.width + x) * 3, j = (sy * f.width + sx) * 3;
      out[i] = f.rgb[j]!;
      out[i + 1] = f.rgb[j + 1]!;
      out[i + 2] = f.rgb[j + 2]!;
    }
  }
  return { width: f.width, height: f.height, rgb: out };
}

/** A close-up: the middle 1/zoom of the frame blown up to full size (nearest neighbour). */
export function zoomFrame(f: RgbFrame, zoom: number, cx = f.width / 2, cy = f.height / 2): RgbFrame {
  const out = new Uint8Array(f.rgb.length);
  for (let y = 0; y < f.height; y++) {
    const sy = Math.min(f.height - 1, Math.max(0, Math.round(cy + (y - f.height / 2) / zoom)));
    for (let x = 0; x < f.width; x++) {
      const sx = Math.min(f.width - 1, Math.max(0, Math.round(cx + (x - f.width / 2) / zoom)));
      const i = (y * f.width + x) * 3, j = (sy * f.width + sx) * 3;
      out[i] = f.rgb[j]!;
      out[i + 1] = f.rgb[j + 1]!;
      out[i + 2] = f.rgb[j + 2]!;
    }
  }
  return { width: f.width, height: f.height, rgb: out };
}

/** Paint a filled ellipse (a body leaning into the lens) in a copy of the frame. */
export function occlude(f: RgbFrame, cx: number, cy: number, rx: number, ry: number, rgb: [number, number, number]): RgbFrame {
  const out = new Uint8Array(f.rgb);
  for (let y = 0; y < f.height; y++) {
    for (let x = 0; x < f.width; x++) {
      if (((x - cx) / rx) ** 2 + ((y - cy) / ry) ** 2 > 1) continue;
      const i = (y * f.width + x) * 3;
      out[i] = rgb[0];
      out[i + 1] = rgb[1];
      out[i + 2] = rgb[2];
    }
  }
  return { width: f.width, height: f.height, rgb: out };
}

/**
 * Bed errors modulo the symmetries the markings cannot break: none for snooker (the D), a half turn
 * for pool (head and foot look alike), quarter turns for Novus (a square board).
 */
export function symmetricBedErrorsMm(cal: Calibration, cam: Camera, table: TableProfile): number[] {
  if (table.game === 'snooker') return bedErrorsMm(cal, cam, table);
  if (table.game === 'pool8') return bedErrorsMm(cal, cam, table, true);
  const W = table.bed.width;
  let best: number[] | null = null;
  let h = cal.imageToTable;
  for (let k = 0; k < 4; k++) {
    const e = bedErrorsMm({ ...cal, imageToTable: h }, cam, table);
    if (!best || median(e) < median(best)) best = e;
    // (x, y) → (y, W − x)
    h = [[h[1][0], h[1][1], h[1][2]], [W * h[2][0] - h[0][0], W * h[2][1] - h[0][1], W * h[2][2] - h[0][2]], h[2]];
  }
  return best!;
}
