/**
 * Which way a ball sinking into a pocket seems to move on the table. Positions come from the
 * ball's centre in the picture, taken to be R above the bed; a ball dropping below that plane is
 * seen along a ray that meets the plane nearer the point under the camera, so it seems to roll
 * towards that point (overhead: the table's middle; a broadcast camera behind the top cushion:
 * towards the top) — and to a path-fitter that looks like a rebound off the jaw. The calibration's
 * two homographies give the direction anywhere: one pixel lands on the bed (`imageToTable`)
 * further from the camera's foot than on the centre plane (`ballCentreToTable`).
 */
import { applyH, inv3, type Mat3 } from '../core/mat3.js';

/** Unit vector of a sinking ball's apparent motion at (x, y) mm, or undefined under the camera. */
export type SinkDirection = (x: number, y: number) => readonly [number, number] | undefined;

export function sinkDirectionOf(cal?: { imageToTable?: unknown; ballCentreToTable?: unknown }): SinkDirection | undefined {
  const toBed = cal?.imageToTable as Mat3 | undefined, toCentre = cal?.ballCentreToTable as Mat3 | undefined;
  if (!toBed || !toCentre) return undefined;
  const toImage = inv3(toCentre);
  return (x, y) => {
    const [u, v] = applyH(toImage, x, y);
    const [bx, by] = applyH(toBed, u, v);
    const len = Math.hypot(x - bx, y - by);
    // Under the camera the ray is vertical: a sinking ball stays put in the picture.
    return len > 0.5 ? [(x - bx) / len, (y - by) / len] : undefined;
  };
}

/** How many mm one picture pixel spans along a table axis (0 = x, 1 = y) at (x, y) mm. */
export type PixelSpan = (x: number, y: number, axis: 0 | 1) => number;

/**
 * A pixel's span on the plane of the balls' centres: a position is only as sure as the pixel it came
 * from, so "touching a cushion" is judged against this where the camera sees the bed coarsely (a
 * broadcast camera's far end: 2.6 mm across and 6 mm along its view per pixel, where an overhead
 * 720p camera has 3.2 mm everywhere). The larger of the two pixel steps' parts along the axis.
 */
export function pixelSpanOf(cal?: { ballCentreToTable?: unknown }): PixelSpan | undefined {
  const toTable = cal?.ballCentreToTable as Mat3 | undefined;
  if (!toTable) return undefined;
  const toImage = inv3(toTable);
  return (x, y, axis) => {
    const [u, v] = applyH(toImage, x, y);
    const du = applyH(toTable, u + 1, v), dv = applyH(toTable, u, v + 1);
    return Math.max(Math.abs(du[axis] - (axis === 0 ? x : y)), Math.abs(dv[axis] - (axis === 0 ? x : y)));
  };
}

/** Where a ball centred at (x, y) mm is in the picture, px. */
export type ImageOf = (x: number, y: number) => readonly [number, number];

export function imageOfBalls(cal?: { ballCentreToTable?: unknown }): ImageOf | undefined {
  const toTable = cal?.ballCentreToTable as Mat3 | undefined;
  if (!toTable) return undefined;
  const toImage = inv3(toTable);
  return (x, y) => applyH(toImage, x, y);
}

/**
 * Whether two balls' discs come within `reach` times their radii's sum of each other in the
 * picture (1: they overlap). A ball that overlaps or nearly touches another in the picture is
 * read off: partly covered, or its blob's peak pulled by the neighbour (a broadcast camera sees a
 * ball in front over the lower part of one 150 mm behind it). A sphere's picture radius is its
 * radius projected across the view, the least foreshortened direction.
 */
export function overlapInImage(imageOf: ImageOf, a: readonly [number, number], ra: number, b: readonly [number, number], rb: number, reach = 1): boolean {
  const radiusPx = (p: readonly [number, number], r: number) => {
    const c = imageOf(p[0], p[1]), ux = imageOf(p[0] + r, p[1]), uy = imageOf(p[0], p[1] + r);
    return Math.max(Math.hypot(ux[0] - c[0], ux[1] - c[1]), Math.hypot(uy[0] - c[0], uy[1] - c[1]));
  };
  const ia = imageOf(a[0], a[1]), ib = imageOf(b[0], b[1]);
  return Math.hypot(ia[0] - ib[0], ia[1] - ib[1]) < reach * (radiusPx(a, ra) + radiusPx(b, rb));
}

/** What the camera's view tells the events stage: which way sinking balls seem to go, how coarse a pixel is, where a ball is in the picture. */
export interface CameraView {
  sink?: SinkDirection;
  pixelMm?: PixelSpan;
  imageOf?: ImageOf;
}
