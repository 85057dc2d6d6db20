/**
 * Network output → detections in frame pixels. The model is CenterNet-like: a per-class heatmap
 * of ball centres (sigmoid applied in the graph), a sub-cell offset and a radius per cell. Peaks
 * are 3×3 local maxima above a threshold; a ball seen as two classes (a blurred red that looks
 * brown) keeps only its strongest peak.
 */
import { makeDetections, type Detections, type DetectionRow } from './detections.js';
import { toFrame, type InputView } from './preprocess.js';

export interface RawOutput {
  /** [C, h, w] heatmap, values 0…1. */
  heatmap: Float32Array;
  /** [2, h, w] sub-cell offsets (x, y) in cells, 0…1 (from the cell's corner, or its centre + 0.5: `offsetOrigin`). */
  offset: Float32Array;
  /** [1, h, w] radius in network-input pixels. */
  radius: Float32Array;
  channels: number;
  h: number;
  w: number;
}

export interface PostprocessOptions {
  /** Heatmap channels (class names) in output order. */
  classes: readonly string[];
  /** Only these classes are reported (a game's balls). */
  allowed?: ReadonlySet<string>;
  stride: number;
  /** The model sidecar's `offsetOrigin` (model.ts): `corner` when not given. */
  offsetOrigin?: 'corner' | 'centre';
  /** How input pixels map back to the frame (from `preprocess`). */
  view: InputView;
  /** Peak threshold: raising it drops faint balls (fewer false balls, more misses). */
  minConf?: number;
  maxDetections?: number;
}

/** The peak threshold when none is given. */
export const DEFAULT_MIN_CONF = 0.3;

export function postprocess(out: RawOutput, o: PostprocessOptions): Detections {
  const { heatmap, offset, radius, channels: C, h, w } = out;
  const minConf = o.minConf ?? DEFAULT_MIN_CONF;
  const plane = h * w;
  const peaks: DetectionRow[] = [];
  const allowedIdx = o.classes.map((c) => !o.allowed || o.allowed.has(c));
  const offsetBase = o.offsetOrigin === 'centre' ? -0.5 : 0;
  for (let c = 0; c < C; c++) {
    if (!allowedIdx[c]) continue;
    const base = c * plane;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const v = heatmap[base + y * w + x]!;
        if (v < minConf) continue;
        let isMax = true;
        for (let dy = -1; dy <= 1 && isMax; dy++) {
          const yy = y + dy;
          if (yy < 0 || yy >= h) continue;
          for (let dx = -1; dx <= 1; dx++) {
            const xx = x + dx;
            if ((dx || dy) && xx >= 0 && xx < w && heatmap[base + yy * w + xx]! > v) {
              isMax = false;
              break;
            }
          }
        }
        if (!isMax) continue;
        const cell = y * w + x;
        const ux = (x + offsetBase + offset[cell]!) * o.stride;
        const vy = (y + offsetBase + offset[plane + cell]!) * o.stride;
        const f = toFrame(o.view, ux, vy);
        peaks.push({
          u: f.u,
          v: f.v,
          r: Math.max(0.5, radius[cell]! * f.scale),
          conf: Math.min(1, v),
          class: o.classes[c]!,
        });
      }
    }
  }
  // Cross-class suppression: two peaks closer than a ball radius are one ball.
  peaks.sort((a, b) => b.conf - a.conf);
  const kept: DetectionRow[] = [];
  for (const p of peaks) {
    if (kept.some((k) => Math.hypot(k.u - p.u, k.v - p.v) < Math.max(k.r, p.r) * 0.9)) continue;
    kept.push(p);
    if (kept.length >= (o.maxDetections ?? 64)) break;
  }
  return makeDetections(kept, o.classes);
}
