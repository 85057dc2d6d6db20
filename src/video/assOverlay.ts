/**
 * Overlays for clips as an ASS subtitle script of vector drawings, burnt in by ffmpeg's `ass`
 * filter (libass) while it decodes, scales and encodes the clip in one process.
 *
 * Why not draw in node (overlay.ts): a flagged stroke's clip then went ffmpeg → raw RGB → node →
 * raw RGB → ffmpeg, 2.7 MB each way per 720p frame, and the copies and their garbage collection
 * cost more than decoding and encoding together (measured on the 9.3-s 1080p bench render: 4.0 s
 * for the clip that way, against 1.4 s for ffmpeg's transcode alone). The paths are known before
 * the clip is cut, so they can be handed to ffmpeg as a script instead.
 *
 * Pure: shapes with the times they show → script text. Coordinates are output-clip pixels with
 * the OpenCV convention (integer u is the centre of column u); ASS drawings put integer
 * coordinates on pixel corners, hence the half-pixel shift in `pt`.
 */
import type { Point, Rgb } from './overlay.js';

/** The font family the script names: assets/fonts/cueref-draw.ttf (libass renders nothing without a font). */
export const ASS_FONT_FAMILY = 'cueref draw';

/** Drawing coordinates in units of 1/4 px (`\p3`): sub-pixel placement with integer numbers. */
const SUBPIXEL = 4;

export type TimedShapeKind =
  /** Connected segments of full thickness `widthPx`, square-capped (joins covered by the caps). */
  | { kind: 'polyline'; points: readonly Point[]; color: Rgb; widthPx: number }
  /** A ring of thickness `widthPx` centred on the radius. */
  | { kind: 'ring'; center: Point; radiusPx: number; color: Rgb; widthPx: number };

/** A shape on screen from `fromS` (inclusive) to `toS` (exclusive), clip seconds; higher layers draw over lower. */
export interface TimedShape {
  layer: number;
  fromS: number;
  toS: number;
  shape: TimedShapeKind;
}

/** `&HBBGGRR&`, ASS's colour order. */
export const assColour = ([r, g, b]: Rgb): string => `&H${[b, g, r].map((c) => Math.max(0, Math.min(255, Math.round(c))).toString(16).padStart(2, '0').toUpperCase()).join('')}&`;

/**
 * `H:MM:SS.cc`. ASS times are centiseconds; a time is rounded *down* (with a micro-second of slack
 * for 1/30-s steps) so a shape due at a frame's time is on that frame, never one frame late.
 */
export function assTime(s: number): string {
  const cs = Math.max(0, Math.floor(s * 100 + 1e-4));
  const h = Math.floor(cs / 360000);
  const m = Math.floor((cs % 360000) / 6000);
  const sec = Math.floor((cs % 6000) / 100);
  return `${h}:${String(m).padStart(2, '0')}:${String(sec).padStart(2, '0')}.${String(cs % 100).padStart(2, '0')}`;
}

const pt = (u: number, v: number): string => `${Math.round((u + 0.5) * SUBPIXEL)} ${Math.round((v + 0.5) * SUBPIXEL)}`;

/**
 * Each segment as a quad, extended by half the width at both ends (square caps cover the joins).
 * Every quad winds the same way, so libass's non-zero fill unions overlaps instead of cutting holes.
 */
export function polylineDrawing(points: readonly Point[], widthPx: number): string {
  const h = widthPx / 2;
  const parts: string[] = [];
  const quad = (a: Point, b: Point): void => {
    let dx = b[0] - a[0], dy = b[1] - a[1];
    const len = Math.hypot(dx, dy);
    if (len < 1e-9) [dx, dy] = [1, 0];
    else [dx, dy] = [dx / len, dy / len];
    const [nx, ny] = [-dy * h, dx * h];
    const [ex, ey] = [dx * h, dy * h];
    const x0 = a[0] - ex, y0 = a[1] - ey, x1 = b[0] + ex, y1 = b[1] + ey;
    parts.push(`m ${pt(x0 - nx, y0 - ny)} l ${pt(x1 - nx, y1 - ny)} ${pt(x1 + nx, y1 + ny)} ${pt(x0 + nx, y0 + ny)}`);
  };
  if (points.length === 1) quad(points[0]!, points[0]!);
  for (let i = 1; i < points.length; i++) quad(points[i - 1]!, points[i]!);
  return parts.join(' ');
}

/** A circle of radius `r` as four cubic Béziers (the usual 0.5523 handle: < 0.03 % off a circle). */
export function circleDrawing(c: Point, r: number): string {
  const k = 0.5523 * r;
  const [x, y] = c;
  return [
    `m ${pt(x + r, y)}`,
    `b ${pt(x + r, y + k)} ${pt(x + k, y + r)} ${pt(x, y + r)}`,
    `b ${pt(x - k, y + r)} ${pt(x - r, y + k)} ${pt(x - r, y)}`,
    `b ${pt(x - r, y - k)} ${pt(x - k, y - r)} ${pt(x, y - r)}`,
    `b ${pt(x + k, y - r)} ${pt(x + r, y - k)} ${pt(x + r, y)}`,
  ].join(' ');
}

function dialogue(s: TimedShape): string | undefined {
  if (!(s.toS > s.fromS)) return undefined;
  const from = assTime(s.fromS), to = assTime(s.toS);
  if (from === to) return undefined;
  const d = s.shape;
  // \an7\pos(0,0): the drawing's own coordinates are the clip's pixels.
  const tags =
    d.kind === 'polyline'
      ? `\\an7\\pos(0,0)\\bord0\\shad0\\1c${assColour(d.color)}\\p3`
      : // Transparent fill, border outside the circle: a ring of width w centred on r is a circle of r − w/2 with a border w.
        `\\an7\\pos(0,0)\\1a&HFF&\\bord${d.widthPx}\\shad0\\3c${assColour(d.color)}\\p3`;
  const body = d.kind === 'polyline' ? polylineDrawing(d.points, d.widthPx) : circleDrawing(d.center, Math.max(0.5, d.radiusPx - d.widthPx / 2));
  return `Dialogue: ${s.layer},${from},${to},Draw,,0,0,0,,{${tags}}${body}{\\p0}`;
}

/** The whole script for a clip of `size` output pixels. */
export function assScript(size: { width: number; height: number }, shapes: readonly TimedShape[]): string {
  const lines = [
    '[Script Info]',
    'ScriptType: v4.00+',
    `PlayResX: ${size.width}`,
    `PlayResY: ${size.height}`,
    'WrapStyle: 2',
    // Borders in script pixels (= clip pixels here), not scaled by the video's size.
    'ScaledBorderAndShadow: yes',
    '',
    '[V4+ Styles]',
    'Format: Name, Fontname, Fontsize, PrimaryColour, SecondaryColour, OutlineColour, BackColour, Bold, Italic, Underline, StrikeOut, ScaleX, ScaleY, Spacing, Angle, BorderStyle, Outline, Shadow, Alignment, MarginL, MarginR, MarginV, Encoding',
    `Style: Draw,${ASS_FONT_FAMILY},20,&H00FFFFFF,&H00FFFFFF,&H00000000,&H00000000,0,0,0,0,100,100,0,0,1,0,0,7,0,0,0,1`,
    '',
    '[Events]',
    'Format: Layer, Start, End, Style, Name, MarginL, MarginR, MarginV, Effect, Text',
  ];
  for (const s of shapes) {
    const d = dialogue(s);
    if (d) lines.push(d);
  }
  return lines.join('\n') + '\n';
}

/**
 * How far a drawn path may stray from the tracked one, px. A ball's path is mostly straight runs
 * between cushions and contacts sampled every frame: dropping the points a straight line already
 * passes within a quarter pixel of cuts the script (and libass's parsing of it, every frame) by
 * an order of magnitude without a visible change.
 */
export const SIMPLIFY_PX = 0.25;

/** Douglas–Peucker: the points of `pts` needed to stay within `tolPx` of it (ends kept). */
export function simplify(pts: readonly Point[], tolPx: number): Point[] {
  if (pts.length <= 2) return [...pts];
  const keep = new Uint8Array(pts.length);
  keep[0] = keep[pts.length - 1] = 1;
  const stack: [number, number][] = [[0, pts.length - 1]];
  while (stack.length) {
    const [i, j] = stack.pop()!;
    const [ax, ay] = pts[i]!, [bx, by] = pts[j]!;
    const dx = bx - ax, dy = by - ay, L2 = dx * dx + dy * dy;
    let far = -1, farD = tolPx;
    for (let k = i + 1; k < j; k++) {
      const [px, py] = pts[k]!;
      // Distance to the segment (not the line): a path that doubles back must keep its turn.
      const t = L2 > 0 ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / L2)) : 0;
      const d = Math.hypot(px - ax - t * dx, py - ay - t * dy);
      if (d > farD) [far, farD] = [k, d];
    }
    if (far < 0) continue;
    keep[far] = 1;
    stack.push([i, far], [far, j]);
  }
  return pts.filter((_, k) => keep[k]);
}

/**
 * The largest side of one drawing's bounding box, px. ffmpeg blends each libass bitmap over its
 * whole bounding box every frame, so a path drawn as one shape across the table costs the table's
 * area per frame: cut into pieces this size, it costs about its length × this. Measured on the
 * 9.3-s bench break (paths of 11 balls, 720p): the overlay added 1.3 s to a 0.75-s transcode as
 * whole blocks, … as pieces.
 */
export const PIECE_PX = 64;

/** `pts` as polylines whose bounding boxes are at most `maxPx` a side (long segments cut; pieces share their ends). */
export function pieces(pts: readonly Point[], maxPx: number): Point[][] {
  if (pts.length < 2) return pts.length ? [[...pts]] : [];
  const dense: Point[] = [pts[0]!];
  for (let i = 1; i < pts.length; i++) {
    const [ax, ay] = pts[i - 1]!, [bx, by] = pts[i]!;
    const n = Math.max(1, Math.ceil(Math.max(Math.abs(bx - ax), Math.abs(by - ay)) / maxPx));
    for (let k = 1; k <= n; k++) dense.push([ax + ((bx - ax) * k) / n, ay + ((by - ay) * k) / n]);
  }
  const out: Point[][] = [];
  let cur: Point[] = [dense[0]!];
  let [x0, y0, x1, y1] = [dense[0]![0], dense[0]![1], dense[0]![0], dense[0]![1]];
  for (let i = 1; i < dense.length; i++) {
    const [x, y] = dense[i]!;
    const [nx0, ny0, nx1, ny1] = [Math.min(x0, x), Math.min(y0, y), Math.max(x1, x), Math.max(y1, y)];
    if (nx1 - nx0 > maxPx || ny1 - ny0 > maxPx) {
      out.push(cur);
      const p = dense[i - 1]!;
      cur = [p];
      [x0, y0, x1, y1] = [Math.min(p[0], x), Math.min(p[1], y), Math.max(p[0], x), Math.max(p[1], y)];
    } else [x0, y0, x1, y1] = [nx0, ny0, nx1, ny1];
    cur.push(dense[i]!);
  }
  out.push(cur);
  return out;
}

/**
 * A path that grows over time — point i is reached at `times[i]` — as few shapes as libass needs
 * per frame. One event per segment would leave every past segment on screen as its own event
 * (thousands per frame by the end of a break); one event per frame holding the whole path so far
 * would make the script quadratic. Instead the first n segments are shown as the binary
 * decomposition of n: a block of 2^j segments starting at a (a multiple of 2^(j+1)) is on screen
 * exactly while a + 2^j ≤ n < a + 2^(j+1) — one contiguous interval, so one event — and at most
 * log2(n) + 1 blocks are on screen at once. Segment i (points i → i+1) counts from `times[i + 1]`.
 * The first point shows as a dot until the first segment does. Blocks on screen at `endS` stay until `endS`.
 */
export function growingPolyline(points: readonly Point[], times: readonly number[], style: { color: Rgb; widthPx: number; layer: number }, endS: number): TimedShape[] {
  const out: TimedShape[] = [];
  const m = points.length - 1; // segments
  const make = (fromS: number, toS: number, pts: readonly Point[]): void => {
    if (toS > fromS) out.push({ layer: style.layer, fromS, toS, shape: { kind: 'polyline', points: pts, color: style.color, widthPx: style.widthPx } });
  };
  if (m < 1) {
    if (points.length === 1) make(times[0]!, endS, points);
    return out;
  }
  // n segments are on screen from the time the n-th segment's end point is reached.
  const reach = (n: number): number => (n <= m ? times[n]! : endS);
  // Before its first segment, the path is a dot (as overlay.ts draws a one-point polyline).
  make(times[0]!, Math.min(reach(1), endS), [points[0]!]);
  for (let j = 0; 1 << j <= m; j++) {
    const len = 1 << j;
    for (let a = 0; a + len <= m; a += 2 * len) {
      const [fromS, toS] = [reach(a + len), Math.min(reach(a + 2 * len), endS)];
      for (const piece of pieces(simplify(points.slice(a, a + len + 1), SIMPLIFY_PX), PIECE_PX)) make(fromS, toS, piece);
    }
  }
  return out;
}
