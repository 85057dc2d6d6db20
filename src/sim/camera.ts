/**
 * Pinhole camera with radial lens distortion (OpenCV's k1, k2 model), posed over the table.
 * World frame = table frame: x across, y along (mm, origin bottom-left of the bed), z up from the
 * cloth. Camera frame = OpenCV's: x right, y down, z forward.
 * Used by the renderer (projection), the truth writers (imageToTable, ballCentreToTable) and the
 * calibration tests (known answers).
 */
import { inv3, mul3, normaliseH, type Mat3 } from '../core/mat3.js';
import type { TableProfile } from '../core/table.js';

export type CameraKind = 'overhead' | 'broadcast' | 'oblique';

export interface Camera {
  format: 'cueref.camera/1';
  kind: CameraKind;
  width: number;
  height: number;
  fx: number;
  fy: number;
  cx: number;
  cy: number;
  /** Radial distortion on normalised coordinates: r' = r (1 + k1 r² + k2 r⁴). */
  k1: number;
  k2: number;
  /** Camera centre in world mm. */
  position: [number, number, number];
  /** World → camera rotation (rows are the camera axes in world coordinates). */
  R: Mat3;
}

type V3 = [number, number, number];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a: V3): V3 => {
  const l = Math.hypot(a[0], a[1], a[2]);
  return [a[0] / l, a[1] / l, a[2] / l];
};

/** Rotation for a camera at `eye` looking at `target`, with `up` pointing to the image top. */
export function lookAt(eye: V3, target: V3, up: V3): Mat3 {
  const z = norm(sub(target, eye));
  const x = norm(cross(z, up)); // image right
  const y = cross(z, x); // image down
  return [x, y, z] as Mat3;
}

/** Project a world point to pixel coordinates (with distortion). Returns null behind the camera. */
export function project(cam: Camera, X: number, Y: number, Z: number): [number, number] | null {
  const d: V3 = [X - cam.position[0], Y - cam.position[1], Z - cam.position[2]];
  const R = cam.R;
  const xc = R[0][0] * d[0] + R[0][1] * d[1] + R[0][2] * d[2];
  const yc = R[1][0] * d[0] + R[1][1] * d[1] + R[1][2] * d[2];
  const zc = R[2][0] * d[0] + R[2][1] * d[1] + R[2][2] * d[2];
  if (zc <= 1e-6) return null;
  const xn = xc / zc, yn = yc / zc;
  const r2 = xn * xn + yn * yn;
  const k = 1 + cam.k1 * r2 + cam.k2 * r2 * r2;
  return [cam.fx * xn * k + cam.cx, cam.fy * yn * k + cam.cy];
}

/** Depth (camera z, mm) of a world point: for shading, blur and ball radius in pixels. */
export function depthOf(cam: Camera, X: number, Y: number, Z: number): number {
  const R = cam.R;
  return R[2][0] * (X - cam.position[0]) + R[2][1] * (Y - cam.position[1]) + R[2][2] * (Z - cam.position[2]);
}

/** Remove radial distortion from a pixel (iterative inverse), giving the ideal pinhole pixel. */
export function undistortPixel(cam: Camera, u: number, v: number): [number, number] {
  const xd = (u - cam.cx) / cam.fx, yd = (v - cam.cy) / cam.fy;
  let x = xd, y = yd;
  for (let i = 0; i < 20; i++) {
    const r2 = x * x + y * y;
    const k = 1 + cam.k1 * r2 + cam.k2 * r2 * r2;
    x = xd / k;
    y = yd / k;
  }
  return [cam.fx * x + cam.cx, cam.fy * y + cam.cy];
}

/** Homography table (x, y) at height z → undistorted image pixel. */
export function planeToImage(cam: Camera, zMm: number): Mat3 {
  const R = cam.R;
  const c = cam.position;
  // t = -R C, and the plane point (x, y, z) maps to R(x, y, z) + t = x r1 + y r2 + (z r3 + t).
  const t: V3 = [0, 1, 2].map((i) => -(R[i as 0][0] * c[0] + R[i as 0][1] * c[1] + R[i as 0][2] * c[2])) as V3;
  const M: Mat3 = [
    [R[0][0], R[0][1], R[0][2] * zMm + t[0]],
    [R[1][0], R[1][1], R[1][2] * zMm + t[1]],
    [R[2][0], R[2][1], R[2][2] * zMm + t[2]],
  ];
  const K: Mat3 = [[cam.fx, 0, cam.cx], [0, cam.fy, cam.cy], [0, 0, 1]];
  return normaliseH(mul3(K, M));
}

/** The contract's `imageToTable` (cloth plane) and `ballCentreToTable` (plane R above it). */
export function truthHomographies(cam: Camera, ballRadiusMm: number): { imageToTable: Mat3; ballCentreToTable: Mat3 } {
  return {
    imageToTable: normaliseH(inv3(planeToImage(cam, 0))),
    ballCentreToTable: normaliseH(inv3(planeToImage(cam, ballRadiusMm))),
  };
}

export interface CameraOptions {
  width?: number;
  height?: number;
}

/**
 * The three camera kinds, posed for a table profile so that the bed fills the frame as real
 * cameras do: an overhead club camera with a wide barrel-distorting lens, the broadcast end-on
 * elevated view, and a phone on a tripod at a corner.
 */
export function presetCamera(kind: CameraKind, table: TableProfile, opts: CameraOptions = {}): Camera {
  const width = opts.width ?? 1280;
  const height = opts.height ?? 720;
  const W = table.bed.width, L = table.bed.length;
  const centre: V3 = [W / 2, L / 2, 0];
  let eye: V3, up: V3, k1: number, k2: number, hfovDeg: number;
  switch (kind) {
    case 'overhead':
      // Long axis across the image, baulk end on the left; height from the table so the wide
      // lens (≈ 80° horizontal) frames the bed with a margin.
      eye = [W / 2, L / 2, 0];
      hfovDeg = 80;
      eye[2] = ((L * 1.12) / 2 / Math.tan(((hfovDeg / 2) * Math.PI) / 180)) * 1.0;
      up = [-1, 0, 0];
      k1 = -0.12;
      k2 = 0.02;
      break;
    case 'broadcast':
      // Behind and above the baulk cushion, looking down the table: a trapezoid, far end narrower.
      eye = [W / 2, -0.55 * L, 1.25 * L];
      hfovDeg = 34;
      up = [0, 1, 0];
      k1 = -0.02;
      k2 = 0;
      break;
    case 'oblique':
      eye = [W + 0.55 * L, -0.25 * L, 0.55 * L];
      hfovDeg = 62;
      up = [0, 0, 1];
      k1 = -0.06;
      k2 = 0.005;
      break;
  }
  const target: V3 = kind === 'broadcast' ? [W / 2, 0.52 * L, 0] : centre;
  const R = lookAt(eye, target, up);
  const fx = width / 2 / Math.tan(((hfovDeg / 2) * Math.PI) / 180);
  return { format: 'cueref.camera/1', kind, width, height, fx, fy: fx, cx: width / 2, cy: height / 2, k1, k2, position: eye, R };
}
