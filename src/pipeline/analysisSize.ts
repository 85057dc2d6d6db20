/**
 * The analysis size: `analyze` decodes frames no larger than a box (default 1280×720), because
 * nothing downstream can use more. The ball detector's input is 640×384: a 1920×1080 frame is
 * shrunk 3× inside preprocess anyway (it sampled one pixel in nine), so piping the full frame
 * into node paid ffmpeg's rgb24 conversion, a 6.2 MB copy per frame and its garbage collection for
 * pixels the network never saw. At 1280×720 the letterbox scale is exactly 0.5 (preprocess's 2×2
 * fast path) and the frame is what the detector was trained on (rendered 720p frames).
 *
 * The calibration stays what the contract says it is — a map from the *video's* pixels (what
 * `cueref calibrate` writes, what `--calibration` takes, what calibration.json and the tracks
 * header carry) — and the analysis works with the same map expressed for the analysis pixels:
 * composed with the scale, so a detection maps to the same table millimetres at either size.
 *
 * Pixel coordinates here are what the calibration, the simulator's camera and the detector's
 * labels use: pixel (i, j) has its centre at (i, j). ffmpeg's scale filter keeps pixel *areas*
 * aligned (the frame's edges map onto the frame's edges), so a point at u in the video is at
 * (u + ½)·sx − ½ in the analysis frame. Measured on the 1080p bench render against the rendering
 * camera: the 720p calibration mapped back this way is off by 0.22 mm (median over the bed),
 * against 0.97 mm for a plain u·sx and 0.33 mm for the calibration solved at 1080p.
 */
import type { Calibration } from '../calibration/contract.js';
import { mul3, type Mat3 } from '../core/mat3.js';

/** The largest frame `analyze` decodes by default: twice the detector's 640-px input width. */
export const ANALYSIS_MAX_SIZE = { width: 1280, height: 720 } as const;

/**
 * The size frames are analysed at: the source's size fitted within `box` with the aspect ratio
 * kept (the free side rounded to even, as ffmpeg's `scale=…:-2` does), never enlarged; null when
 * the source already fits (decode as is). Pure.
 */
export function analysisSize(source: { width: number; height: number }, box: { width: number; height: number } = ANALYSIS_MAX_SIZE): { width: number; height: number } | null {
  const { width: w, height: h } = source;
  if (!(w > 0 && h > 0) || (w <= box.width && h <= box.height)) return null;
  // The tighter side is pinned to the box; the other follows the aspect ratio, rounded to even.
  if (box.width / w <= box.height / h) return { width: box.width, height: Math.max(2, Math.round((h * box.width) / w / 2) * 2) };
  return { width: Math.max(2, Math.round((w * box.height) / h / 2) * 2), height: box.height };
}

/** A pixel coordinate of an image scaled by `s` (pixel centres at whole numbers, areas aligned). */
export const scalePx = (u: number, s: number): number => (u + 0.5) * s - 0.5;

/**
 * A calibration of the video's pixels re-expressed for frames scaled to `size`: the homographies
 * composed with the inverse scale (analysis px → video px → table mm), the lens's focal lengths
 * and principal point moved with the pixels (its k1, k2 act on focal-normalised coordinates, so they stay), the
 * table outline scaled. Exact: a point maps to the same table mm through either calibration.
 */
export function scaleCalibration(cal: Calibration, size: { width: number; height: number }): Calibration {
  const sx = size.width / cal.image.width, sy = size.height / cal.image.height;
  if (sx === 1 && sy === 1) return cal;
  // analysis px → video px: u = (u' + ½)/sx − ½.
  const unscale: Mat3 = [
    [1 / sx, 0, (1 / sx - 1) / 2],
    [0, 1 / sy, (1 / sy - 1) / 2],
    [0, 0, 1],
  ];
  // video px → analysis px, for the lens's principal point and the outline.
  const toU = (u: number) => scalePx(u, sx), toV = (v: number) => scalePx(v, sy);
  const out: Calibration = {
    ...cal,
    image: { width: size.width, height: size.height },
    imageToTable: mul3(cal.imageToTable, unscale),
    ballCentreToTable: mul3(cal.ballCentreToTable, unscale),
    distortion: cal.distortion ? { ...cal.distortion, fx: cal.distortion.fx * sx, fy: cal.distortion.fy * sy, cx: toU(cal.distortion.cx), cy: toV(cal.distortion.cy) } : cal.distortion,
  };
  if (cal.cornersPx) out.cornersPx = cal.cornersPx.map(([u, v]) => [toU(u), toV(v)] as [number, number]);
  // The focal length in pixels scales with the image (a square-pixel camera: sx ≈ sy).
  if (cal.camera) out.camera = { ...cal.camera, focalPx: cal.camera.focalPx * Math.sqrt(sx * sy) };
  return out;
}
