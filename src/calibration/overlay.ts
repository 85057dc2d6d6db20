/**
 * The `--debug` picture: the frame with what calibration found (traced edge points) and the table
 * model projected back through the solution (bed outline, cushion lines, markings, spots, pocket
 * mouths), so a user sees at a glance whether it fits.
 */
import { inv3 } from '../core/mat3.js';
import type { Calibration } from './contract.js';
import { distortPoint } from './distortion.js';
import { cloneFrame, dot, polyline, type Rgb } from './draw.js';
import { applyH, type Pt } from './geometry.js';
import type { RgbFrame } from './image.js';

export function drawCalibration(frame: RgbFrame, cal: Calibration, found?: { nose?: Pt[][]; outer?: Pt[][] }): RgbFrame {
  const out = cloneFrame(frame);
  const H = inv3(cal.imageToTable);
  const toPx = (x: number, y: number): Pt => {
    const [u, v] = applyH(H, x, y);
    return cal.distortion ? distortPoint(cal.distortion, u, v) : [u, v];
  };
  const seg = (x0: number, y0: number, x1: number, y1: number, c: Rgb, w = 2) => {
    const pts: Pt[] = [];
    for (let i = 0; i <= 32; i++) pts.push(toPx(x0 + ((x1 - x0) * i) / 32, y0 + ((y1 - y0) * i) / 32));
    polyline(out, pts, c, false, w);
  };
  for (const side of found?.outer ?? []) for (const p of side) dot(out, p[0], p[1], 1, [255, 255, 0]);
  for (const side of found?.nose ?? []) for (const p of side) dot(out, p[0], p[1], 1, [255, 0, 0]);
  const t = cal.table;
  const { width: W, length: L } = t.bed;
  const magenta: Rgb = [255, 0, 255];
  seg(0, 0, W, 0, [0, 255, 255], 3); // the bottom (baulk / head) cushion in cyan
  seg(W, 0, W, L, magenta);
  seg(W, L, 0, L, magenta);
  seg(0, L, 0, 0, magenta);
  const white: Rgb = [255, 255, 255];
  if (t.baulkLineY !== undefined) seg(0, t.baulkLineY, W, t.baulkLineY, white, 1);
  if (t.headStringY !== undefined) seg(0, t.headStringY, W, t.headStringY, white, 1);
  if (t.dRadius !== undefined && t.baulkLineY !== undefined) {
    const pts: Pt[] = [];
    for (let i = 0; i <= 48; i++) {
      const a = Math.PI + (Math.PI * i) / 48;
      pts.push(toPx(W / 2 + t.dRadius * Math.cos(a), t.baulkLineY + t.dRadius * Math.sin(a)));
    }
    polyline(out, pts, white, false, 1);
  }
  if (t.centreCircleRadiusMm !== undefined) {
    const pts: Pt[] = [];
    for (let i = 0; i <= 64; i++) {
      const a = (2 * Math.PI * i) / 64;
      pts.push(toPx(W / 2 + t.centreCircleRadiusMm * Math.cos(a), L / 2 + t.centreCircleRadiusMm * Math.sin(a)));
    }
    polyline(out, pts, white, false, 1);
  }
  for (const p of Object.values(t.spots)) {
    const [u, v] = toPx(p.x, p.y);
    dot(out, u, v, 3, [0, 0, 255]);
  }
  for (const p of Object.values(t.pockets)) {
    if (!p) continue;
    const pts: Pt[] = [];
    for (let i = 0; i <= 24; i++) {
      const a = (2 * Math.PI * i) / 24;
      pts.push(toPx(p.x + (p.mouth / 2) * Math.cos(a), p.y + (p.mouth / 2) * Math.sin(a)));
    }
    polyline(out, pts, [255, 128, 0], true, 1);
  }
  return out;
}
