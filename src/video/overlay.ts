/**
 * Drawing on packed RGB frames: lines, polylines (ball paths), circles (balls, pockets) and boxes
 * (label backgrounds, highlighted regions). Pure pixel arithmetic on the buffer you pass — no
 * canvas, no native code — so clips of flagged strokes and review stills draw the same way
 * everywhere and tests can check exact pixels.
 *
 * Coordinates are image pixels with the OpenCV/detection convention: integer (u, v) is the centre
 * of pixel column u, row v. A pixel is painted when its centre lies within the shape (hard edges,
 * no anti-aliasing: a referee overlay must not blend a line into the cloth colour).
 */

export type Rgb = readonly [number, number, number];
export type Point = readonly [number, number];

export type Shape =
  /** Straight segment; `widthPx` is the full thickness (default 1). */
  | { kind: 'line'; from: Point; to: Point; color: Rgb; widthPx?: number }
  /** Connected segments, e.g. a ball's path through the frame. */
  | { kind: 'polyline'; points: readonly Point[]; color: Rgb; widthPx?: number }
  /** Ring of thickness `widthPx` (default 1) centred on the radius, or a disc when `fill`. */
  | { kind: 'circle'; center: Point; radiusPx: number; color: Rgb; widthPx?: number; fill?: boolean }
  /**
   * Axis-aligned box covering pixel centres x ≤ u < x + width, y ≤ v < y + height. Filled unless
   * `outlinePx` is given; `alpha` (0…1, default 1) blends the fill over the picture.
   */
  | { kind: 'box'; x: number; y: number; width: number; height: number; color: Rgb; alpha?: number; outlinePx?: number };

/**
 * Draw `shapes` in order onto `rgb` (width × height × 3 bytes), in place; returns the same buffer.
 * Parts outside the frame are clipped. Throws RangeError on a buffer of the wrong size.
 */
export function drawOverlay(rgb: Uint8Array, width: number, height: number, shapes: readonly Shape[]): Uint8Array {
  if (rgb.length !== width * height * 3) {
    throw new RangeError(`rgb has ${rgb.length} bytes, expected ${width * height * 3} for ${width}×${height}`);
  }
  const canvas: Canvas = { rgb, width, height };
  for (const s of shapes) {
    switch (s.kind) {
      case 'line':
        drawSegment(canvas, s.from, s.to, (s.widthPx ?? 1) / 2, s.color);
        break;
      case 'polyline':
        for (let i = 1; i < s.points.length; i++) drawSegment(canvas, s.points[i - 1]!, s.points[i]!, (s.widthPx ?? 1) / 2, s.color);
        if (s.points.length === 1) drawSegment(canvas, s.points[0]!, s.points[0]!, (s.widthPx ?? 1) / 2, s.color);
        break;
      case 'circle':
        drawCircle(canvas, s.center, s.radiusPx, s.fill === true ? undefined : (s.widthPx ?? 1) / 2, s.color);
        break;
      case 'box':
        drawBox(canvas, s);
        break;
    }
  }
  return rgb;
}

interface Canvas {
  rgb: Uint8Array;
  width: number;
  height: number;
}

/** Inclusive pixel range [lo, hi] of centres within [a, b], clipped to [0, size). */
function span(a: number, b: number, size: number): [number, number] {
  return [Math.max(0, Math.ceil(a)), Math.min(size - 1, Math.floor(b))];
}

function paint(c: Canvas, u: number, v: number, color: Rgb, alpha = 1): void {
  const i = (v * c.width + u) * 3;
  if (alpha >= 1) {
    c.rgb[i] = color[0];
    c.rgb[i + 1] = color[1];
    c.rgb[i + 2] = color[2];
    return;
  }
  c.rgb[i] = Math.round(c.rgb[i]! * (1 - alpha) + color[0] * alpha);
  c.rgb[i + 1] = Math.round(c.rgb[i + 1]! * (1 - alpha) + color[1] * alpha);
  c.rgb[i + 2] = Math.round(c.rgb[i + 2]! * (1 - alpha) + color[2] * alpha);
}

/** Every pixel whose centre is within `half` of the segment a–b (a capsule: round ends). */
function drawSegment(c: Canvas, a: Point, b: Point, half: number, color: Rgb): void {
  const [ax, ay] = a;
  const [bx, by] = b;
  const dx = bx - ax;
  const dy = by - ay;
  const len2 = dx * dx + dy * dy;
  const [u0, u1] = span(Math.min(ax, bx) - half, Math.max(ax, bx) + half, c.width);
  const [v0, v1] = span(Math.min(ay, by) - half, Math.max(ay, by) + half, c.height);
  const h2 = half * half + 1e-9; // tolerance: a 1-px line through pixel centres must hit them
  for (let v = v0; v <= v1; v++) {
    for (let u = u0; u <= u1; u++) {
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((u - ax) * dx + (v - ay) * dy) / len2));
      const ex = ax + t * dx - u;
      const ey = ay + t * dy - v;
      if (ex * ex + ey * ey <= h2) paint(c, u, v, color);
    }
  }
}

/** Disc (ringHalf undefined) or ring of half-thickness ringHalf around radius r. */
function drawCircle(c: Canvas, center: Point, r: number, ringHalf: number | undefined, color: Rgb): void {
  const [cx, cy] = center;
  const outer = r + (ringHalf ?? 0);
  const inner = ringHalf === undefined ? -1 : r - ringHalf;
  const [u0, u1] = span(cx - outer, cx + outer, c.width);
  const [v0, v1] = span(cy - outer, cy + outer, c.height);
  const o2 = outer * outer + 1e-9;
  const i2 = inner < 0 ? -1 : inner * inner - 1e-9;
  for (let v = v0; v <= v1; v++) {
    for (let u = u0; u <= u1; u++) {
      const d2 = (u - cx) ** 2 + (v - cy) ** 2;
      if (d2 <= o2 && d2 >= i2) paint(c, u, v, color);
    }
  }
}

function drawBox(c: Canvas, s: Extract<Shape, { kind: 'box' }>): void {
  const alpha = Math.max(0, Math.min(1, s.alpha ?? 1));
  const [u0, u1] = [Math.max(0, Math.ceil(s.x)), Math.min(c.width - 1, Math.ceil(s.x + s.width) - 1)];
  const [v0, v1] = [Math.max(0, Math.ceil(s.y)), Math.min(c.height - 1, Math.ceil(s.y + s.height) - 1)];
  const t = s.outlinePx;
  for (let v = v0; v <= v1; v++) {
    for (let u = u0; u <= u1; u++) {
      if (t !== undefined) {
        const inside = u >= s.x + t && u < s.x + s.width - t && v >= s.y + t && v < s.y + s.height - t;
        if (inside) continue;
      }
      paint(c, u, v, s.color, alpha);
    }
  }
}
