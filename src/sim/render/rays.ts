/**
 * Per-pixel viewing rays. Rendering through this map, rather than projecting geometry, is what
 * makes lens distortion exact: each *distorted* output pixel looks along the ray its undistorted
 * position defines, so straight cushions curve as they do through a real wide lens, and a ball's
 * silhouette is whatever the rays through it hit.
 *
 * Pixel convention (OpenCV's): pixel (i, j) has its centre at image coordinates (u = i, v = j), so a
 * label `u` is directly comparable with an intensity-weighted centroid Σ i·w / Σ w.
 */
import type { Camera } from '../camera.js';

export interface RayMap {
  width: number;
  height: number;
  /** Camera centre, world mm. */
  ox: number;
  oy: number;
  oz: number;
  /** Unit ray directions in world coordinates, one per pixel, row-major. */
  dx: Float32Array;
  dy: Float32Array;
  dz: Float32Array;
}

/** Unit world direction of the ray through image point (u, v) of the distorted image. */
export function rayThrough(cam: Camera, u: number, v: number, out: Float64Array): void {
  // Undistort by fixed-point iteration (as camera.undistortPixel) but stopping once converged:
  // this runs millions of times when the table image is built.
  const xd = (u - cam.cx) / cam.fx, yd = (v - cam.cy) / cam.fy;
  let xc = xd, yc = yd;
  if (cam.k1 !== 0 || cam.k2 !== 0) {
    for (let it = 0; it < 30; it++) {
      const r2 = xc * xc + yc * yc;
      const k = 1 + cam.k1 * r2 + cam.k2 * r2 * r2;
      const nx = xd / k, ny = yd / k;
      const done = Math.abs(nx - xc) + Math.abs(ny - yc) < 1e-12;
      xc = nx;
      yc = ny;
      if (done) break;
    }
  }
  const R = cam.R;
  // World = Rᵀ · camera (R's rows are the camera axes in world coordinates).
  const wx = R[0][0] * xc + R[1][0] * yc + R[2][0];
  const wy = R[0][1] * xc + R[1][1] * yc + R[2][1];
  const wz = R[0][2] * xc + R[1][2] * yc + R[2][2];
  const l = 1 / Math.sqrt(wx * wx + wy * wy + wz * wz);
  out[0] = wx * l;
  out[1] = wy * l;
  out[2] = wz * l;
}

export function buildRayMap(cam: Camera): RayMap {
  const { width, height } = cam;
  const n = width * height;
  const dx = new Float32Array(n), dy = new Float32Array(n), dz = new Float32Array(n);
  const tmp = new Float64Array(3);
  for (let j = 0, p = 0; j < height; j++) {
    for (let i = 0; i < width; i++, p++) {
      rayThrough(cam, i, j, tmp);
      dx[p] = tmp[0]!;
      dy[p] = tmp[1]!;
      dz[p] = tmp[2]!;
    }
  }
  return { width, height, ox: cam.position[0], oy: cam.position[1], oz: cam.position[2], dx, dy, dz };
}
