/**
 * TV score bar, as the broadcast footage shows it: two name panels, the scores, the frames score
 * in the middle and a small box with ball icons and the current break above it. It is drawn into a
 * layer once (it does not depend on the balls) and composited over each frame; balls under its
 * opaque part are labelled not visible, as a detector cannot see them.
 */
import type { GameId } from '../../core/games.js';
import { drawText, TEXT_FONT } from './font.js';

const GLYPH_W = TEXT_FONT.w, GLYPH_H = TEXT_FONT.h;
import { mulberry32, type Rgb } from './look.js';

export interface OverlayLayer {
  /** Bounding rows/cols of the layer in the image. */
  x0: number;
  y0: number;
  w: number;
  h: number;
  rgb: Uint8Array;
  /** Opacity 0–255 per layer pixel. */
  alpha: Uint8Array;
}

const NAMES = ['HIGGINS', 'TRUMP', 'SELBY', 'ROBERTSON', 'WILSON', 'ALLEN', 'MURPHY', 'BINGHAM', 'ZHAO', 'DING', 'FILLER', 'SHAW', 'VAN BOENING', 'KUN LIN'];

export type OverlayStyle = 'bar' | 'corner';

/** The overlay of a style: `bar` (snooker TV: score bar bottom centre), `corner` (pool TV: names box bottom left, shot clock bottom centre). */
export function buildOverlay(game: GameId, width: number, height: number, seed: number, style: OverlayStyle = 'bar'): OverlayLayer {
  return style === 'corner' ? buildCornerOverlay(width, height, seed) : buildBarOverlay(game, width, height, seed);
}

/**
 * Pool TV style (padova): a translucent box at the bottom left with a flag, name and score per
 * player, and a round shot clock over the bottom middle of the frame.
 */
function buildCornerOverlay(width: number, height: number, seed: number): OverlayLayer {
  const rng = mulberry32(seed ^ 0x7f4a7c15);
  const rowH = Math.max(9, Math.round(height * 0.036));
  const boxX = Math.round(width * 0.04), boxW = Math.round(width * 0.13);
  const ringR = Math.round(height * 0.042);
  const ringCx = Math.round(width * 0.5), ringCy = Math.round(height * 0.9);
  const y0 = Math.min(Math.round(height * 0.855), ringCy - ringR - 2);
  const y1 = Math.min(height, Math.max(y0 + 2 * rowH + 4, ringCy + ringR + 2));
  const x0 = boxX, w = Math.min(width - x0, ringCx + ringR + 2 - x0), h = y1 - y0;
  const rgb = new Uint8Array(w * h * 3);
  const alpha = new Uint8Array(w * h);
  const put = (i: number, j: number, c: readonly number[], a: number): void => {
    if (i < 0 || j < 0 || i >= w || j >= h) return;
    const p = j * w + i;
    const f = a / 255, old = alpha[p]! / 255;
    for (let k = 0; k < 3; k++) rgb[p * 3 + k] = rgb[p * 3 + k]! * (1 - f) + c[k]! * f;
    alpha[p] = Math.round(255 * (old + f * (1 - old)));
  };
  const pick = (): string => NAMES[Math.floor(rng() * NAMES.length)]!;
  const scale = Math.max(1, (rowH * 0.55) / GLYPH_H);
  for (let r = 0; r < 2; r++) {
    const ry = 2 + r * (rowH + 1);
    for (let j = ry; j < ry + rowH; j++) for (let i = 0; i < boxW; i++) put(i, j, [20, 24, 30], 210);
    const flag: Rgb = [Math.floor(rng() * 255), Math.floor(rng() * 255), Math.floor(rng() * 255)];
    for (let j = ry + 2; j < ry + rowH - 2; j++) for (let i = 2; i < 2 + rowH; i++) put(i, j, flag, 255);
    const ty = ry + (rowH - GLYPH_H * scale) / 2;
    drawText(rgb, w, h, pick(), rowH + 5, ty, scale, [245, 245, 245], alpha);
    drawText(rgb, w, h, String(Math.floor(rng() * 9)), boxW - 4 * scale - 2, ty, scale, [245, 245, 245], alpha);
  }
  // Shot clock: dark disc, a green ring for the time left, the seconds in the middle.
  const cx = ringCx - x0, cy = ringCy - y0;
  const left = 0.3 + 0.7 * rng();
  for (let j = Math.floor(cy - ringR - 1); j <= Math.ceil(cy + ringR + 1); j++) {
    for (let i = Math.floor(cx - ringR - 1); i <= Math.ceil(cx + ringR + 1); i++) {
      const d = Math.hypot(i - cx, j - cy);
      const cov = Math.max(0, Math.min(1, ringR - d + 0.5));
      if (cov <= 0) continue;
      const inRing = d > ringR * 0.72;
      const ang = (Math.atan2(i - cx, -(j - cy)) / (2 * Math.PI) + 1) % 1;
      put(i, j, inRing ? (ang < left ? [40, 180, 60] : [60, 60, 60]) : [25, 25, 28], Math.round(cov * (inRing ? 255 : 190)));
    }
  }
  const secs = String(1 + Math.floor(rng() * 30));
  const tw = secs.length * (GLYPH_W + 1) * scale - scale;
  drawText(rgb, w, h, secs, cx - tw / 2, cy - (GLYPH_H * scale) / 2, scale, [245, 245, 245], alpha);
  return { x0, y0, w, h, rgb, alpha };
}

function buildBarOverlay(game: GameId, width: number, height: number, seed: number): OverlayLayer {
  const rng = mulberry32(seed ^ 0x51ed27);
  const rowH = Math.max(10, Math.round(height * 0.046));
  const barW = Math.round(width * 0.5);
  const x0 = Math.round(width * 0.25 + (rng() - 0.5) * width * 0.06);
  const boxH = rowH;
  const y0 = Math.round(height * 0.955) - rowH - boxH;
  const w = barW, h = rowH + boxH;
  const rgb = new Uint8Array(w * h * 3);
  const alpha = new Uint8Array(w * h);
  const fill = (bx: number, by: number, bw: number, bh: number, c: Rgb, a = 255): void => {
    for (let j = Math.max(0, by); j < Math.min(h, by + bh); j++) {
      for (let i = Math.max(0, bx); i < Math.min(w, bx + bw); i++) {
        const p = j * w + i;
        rgb[p * 3] = c[0];
        rgb[p * 3 + 1] = c[1];
        rgb[p * 3 + 2] = c[2];
        alpha[p] = a;
      }
    }
  };
  const disc = (cx: number, cy: number, r: number, c: Rgb): void => {
    for (let j = Math.floor(cy - r - 1); j <= Math.ceil(cy + r + 1); j++) {
      for (let i = Math.floor(cx - r - 1); i <= Math.ceil(cx + r + 1); i++) {
        if (i < 0 || j < 0 || i >= w || j >= h) continue;
        const cov = Math.max(0, Math.min(1, r - Math.hypot(i - cx, j - cy) + 0.5));
        if (cov <= 0) continue;
        const p = j * w + i;
        for (let k = 0; k < 3; k++) rgb[p * 3 + k] = rgb[p * 3 + k]! + (c[k]! - rgb[p * 3 + k]!) * cov;
        alpha[p] = Math.max(alpha[p]!, Math.round(255 * cov));
      }
    }
  };
  const yellow: Rgb = [250, 226, 40], white: Rgb = [250, 250, 250], blue: Rgb = [40, 110, 220], black: Rgb = [12, 12, 12];
  const nameW = Math.round(barW * 0.27), scoreW = Math.round(barW * 0.13), midW = barW - 2 * nameW - 2 * scoreW;
  const by = boxH;
  fill(0, by, nameW, rowH, yellow);
  fill(nameW, by, scoreW, rowH, white);
  fill(nameW + scoreW, by, midW, rowH, blue);
  fill(nameW + scoreW + midW, by, scoreW, rowH, white);
  fill(nameW * 1 + scoreW * 2 + midW, by, nameW, rowH, yellow);
  // Break box above the right-hand score with ball icons.
  const boxX = nameW + scoreW + midW;
  fill(boxX, 0, scoreW + nameW, boxH, white);

  const scale = Math.max(1, (rowH * 0.55) / GLYPH_H);
  const textY = by + (rowH - GLYPH_H * scale) / 2;
  const pick = (): string => NAMES[Math.floor(rng() * NAMES.length)]!;
  const n0 = pick();
  let n1 = pick();
  if (n1 === n0) n1 = NAMES[(NAMES.indexOf(n0) + 1) % NAMES.length]!;
  const s0 = Math.floor(rng() * 100), s1 = Math.floor(rng() * 100);
  const f0 = Math.floor(rng() * 10), f1 = Math.floor(rng() * 10);
  const textW = (s: string): number => s.length * (GLYPH_W + 1) * scale - scale;
  drawText(rgb, w, h, n0, scale * 3, textY, scale, black);
  drawText(rgb, w, h, String(s0), nameW + (scoreW - textW(String(s0))) / 2, textY, scale, black);
  const mid = `${f0} (${f0 + f1 + 1 + Math.floor(rng() * 20)}) ${f1}`;
  drawText(rgb, w, h, mid, nameW + scoreW + (midW - textW(mid)) / 2, textY, scale, white);
  drawText(rgb, w, h, String(s1), nameW + scoreW + midW + (scoreW - textW(String(s1))) / 2, textY, scale, black);
  drawText(rgb, w, h, n1, barW - textW(n1) - scale * 3, textY, scale, black);
  const brk = `BREAK ${1 + Math.floor(rng() * 80)}`;
  drawText(rgb, w, h, brk, barW - textW(brk) - scale * 3, (boxH - GLYPH_H * scale) / 2, scale, black);

  // Ball icons: the balls of the current break.
  const iconR = boxH * 0.36;
  const icons: Rgb[] =
    game === 'snooker'
      ? [[200, 20, 25], [20, 20, 20], [200, 20, 25], [240, 130, 150]]
      : game === 'pool8'
        ? [[245, 195, 20], [25, 60, 180], [210, 30, 30]]
        : [[190, 30, 30], [235, 228, 210]];
  const nIcons = 1 + Math.floor(rng() * icons.length);
  for (let k = 0; k < nIcons; k++) disc(boxX + boxH * 0.55 + k * boxH * 0.85, boxH / 2, iconR, icons[k]!);
  return { x0, y0, w, h, rgb, alpha };
}

/** Composite the layer over an RGB frame. */
export function compositeOverlay(layer: OverlayLayer, rgb: Uint8Array, width: number, height: number): void {
  for (let j = 0; j < layer.h; j++) {
    const y = layer.y0 + j;
    if (y < 0 || y >= height) continue;
    for (let i = 0; i < layer.w; i++) {
      const x = layer.x0 + i;
      const a = layer.alpha[j * layer.w + i]!;
      if (a === 0 || x < 0 || x >= width) continue;
      const p = (y * width + x) * 3, q = (j * layer.w + i) * 3;
      if (a === 255) {
        rgb[p] = layer.rgb[q]!;
        rgb[p + 1] = layer.rgb[q + 1]!;
        rgb[p + 2] = layer.rgb[q + 2]!;
      } else {
        const f = a / 255;
        rgb[p] = rgb[p]! + (layer.rgb[q]! - rgb[p]!) * f;
        rgb[p + 1] = rgb[p + 1]! + (layer.rgb[q + 1]! - rgb[p + 1]!) * f;
        rgb[p + 2] = rgb[p + 2]! + (layer.rgb[q + 2]! - rgb[p + 2]!) * f;
      }
    }
  }
}

/** Is image point (u, v) under the layer's opaque part? */
export function overlayCovers(layer: OverlayLayer, u: number, v: number): boolean {
  const i = Math.round(u) - layer.x0, j = Math.round(v) - layer.y0;
  if (i < 0 || j < 0 || i >= layer.w || j >= layer.h) return false;
  return layer.alpha[j * layer.w + i]! > 128;
}
