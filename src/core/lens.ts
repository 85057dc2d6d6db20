/**
 * The radial lens model every stage shares (OpenCV's k1, k2): on coordinates normalised by the
 * focal length around the principal point, r_d = r (1 + k1 r² + k2 r⁴). The simulator renders with
 * it, calibration estimates it, and both undo it the same way.
 */
export interface RadialLens {
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  k1: number;
  k2: number;
}

/** Ideal (pinhole) pixel → distorted pixel. */
export function distortPixel(l: RadialLens, u: number, v: number): [number, number] {
  const x = (u - l.cx) / l.fx, y = (v - l.cy) / l.fy;
  const r2 = x * x + y * y;
  const k = 1 + l.k1 * r2 + l.k2 * r2 * r2;
  return [l.fx * x * k + l.cx, l.fy * y * k + l.cy];
}

/** Distorted pixel → ideal pixel, by fixed-point iteration (converges for the lenses cameras have). */
export function undistortPixel(l: RadialLens, u: number, v: number): [number, number] {
  const xd = (u - l.cx) / l.fx, yd = (v - l.cy) / l.fy;
  let x = xd, y = yd;
  for (let i = 0; i < 25; i++) {
    const r2 = x * x + y * y;
    const k = 1 + l.k1 * r2 + l.k2 * r2 * r2;
    x = xd / k;
    y = yd / k;
  }
  return [l.fx * x + l.cx, l.fy * y + l.cy];
}
