/** Minimal raster drawing on RgbFrame copies, for `--debug` overlays (no dependencies). */
import type { Pt } from './geometry.js';
import type { RgbFrame } from './image.js';

export type Rgb = [number, number, number];

export function cloneFrame(f: RgbFrame): RgbFrame {
  return { width: f.width, height: f.height, rgb: new Uint8Array(f.rgb) };
}

export function dot(f: RgbFrame, x: number, y: number, r: number, c: Rgb): void {
  const x0 = Math.max(0, Math.floor(x - r)), x1 = Math.min(f.width - 1, Math.ceil(x + r));
  const y0 = Math.max(0, Math.floor(y - r)), y1 = Math.min(f.height - 1, Math.ceil(y + r));
  for (let yy = y0; yy <= y1; yy++) {
    for (let xx = x0; xx <= x1; xx++) {
      if ((xx - x) ** 2 + (yy - y) ** 2 > r * r) continue;
      const i = (yy * f.width + xx) * 3;
      f.rgb[i] = c[0];
      f.rgb[i + 1] = c[1];
      f.rgb[i + 2] = c[2];
    }
  }
}

export function line(f: RgbFrame, a: Pt, b: Pt, c: Rgb, widthPx = 1): void {
  const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
  if (!Number.isFinite(len)) return;
  const n = Math.max(1, Math.ceil(len * 2));
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    dot(f, a[0] + (b[0] - a[0]) * t, a[1] + (b[1] - a[1]) * t, widthPx / 2, c);
  }
}

export function polyline(f: RgbFrame, pts: Pt[], c: Rgb, closed = false, widthPx = 1): void {
  for (let i = 0; i + 1 < pts.length; i++) line(f, pts[i]!, pts[i + 1]!, c, widthPx);
  if (closed && pts.length > 2) line(f, pts[pts.length - 1]!, pts[0]!, c, widthPx);
}
