/**
 * Pinhole camera with radial lens distortion (OpenCV's k1, k2 model), posed over the table.
 * World frame = table frame: x across, y along (mm, origin bottom-left of the bed), z up from the
 * cloth. Camera frame = OpenCV's: x right, y down, z forward.
 * Used by the renderer (projection), the truth writers (imageToTable, ballCentreToTable) and the
 * calibration tests (known answers).
 */
import { inv3, mul3, normaliseH, type Mat3 } from '../core/mat3.js';
import type { TableProfile } from '../core/table.js';
import { undistortPixel as undistortLens, type RadialLens } from '../core/lens.js';

export type CameraKind = 'overhead' | 'broadcast' | 'oblique';

/** A pinhole camera with the shared radial lens (fx, fy, cx, cy, k1, k2: src/core/lens.ts). */
export interface Camera extends RadialLens {
  format: 'cueref.camera/1';
  kind: CameraKind;
  width: number;
  height: number;
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
  return undistortLens(cam, u, v);
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

/** The contract's `imageToTable` (cloth plane) and `ballCentreToTable` (the plane of the detected centres: R above the cloth, a Novus disc's top face; `detectedCentreHeightMm`). */
export function truthHomographies(cam: Camera, centreHeightMm: number): { imageToTable: Mat3; ballCentreToTable: Mat3 } {
  return {
    imageToTable: normaliseH(inv3(planeToImage(cam, 0))),
    ballCentreToTable: normaliseH(inv3(planeToImage(cam, centreHeightMm))),
  };
}

export interface CameraOptions {
  width?: number;
  height?: number;
}

/**
 * The three camera kinds, posed for a table profile so that the bed fills the frame as the real
 * cameras in ../shared/real do (poses fitted to the bed corners measured in those frames, then
 * expressed as fractions of the bed so that they carry over to other table sizes):
 * - `overhead`: a club camera straight above the bed centre with a wide lens (mild barrel
 *   distortion), long axis across the image, baulk/head end on the left (bern-snooker-overhead:
 *   bed ≈ 88 % of the image width, 0.6 px/mm on its 1881 mm table at 1280×720, balls 15.5 px).
 * - `broadcast`: snooker: the TV main camera high behind the black end on a long lens, looking
 *   down the table at baulk, so the bed is a trapezoid with the baulk end at the top, narrower
 *   (bucharest-snooker-broadcast, fit rms ≈ 8 px on the bed corners and the blue spot). Pool and
 *   Novus: the elevated TV camera over the side rail, nearly top-down, long axis across the image
 *   (padova-pool-broadcast, fit rms ≈ 6 px).
 * - `oblique`: a phone on a tripod beyond a corner, low and wide.
 */
export function presetCamera(kind: CameraKind, table: TableProfile, opts: CameraOptions = {}): Camera {
  const width = opts.width ?? 1280;
  const height = opts.height ?? 720;
  const W = table.bed.width, L = table.bed.length;
  let eye: V3, up: V3, target: V3, k1: number, k2: number, hfovDeg: number;
  switch (kind) {
    case 'overhead':
      // Fitted to the 176 annotated balls of bern-snooker-overhead (rms 3.4 px): 80° horizontal at
      // a height where the view spans 1.17 × the bed length, i.e. 1.31 m above its 1881 mm bed.
      // That camera is all but free of distortion (fitted k1 ≈ 0.007); club webcams with wider
      // lenses bend more, which `randomCamera` covers.
      hfovDeg = 80;
      eye = [W / 2, L / 2, (L * 1.17) / 2 / Math.tan(((hfovDeg / 2) * Math.PI) / 180)];
      target = [W / 2, L / 2, 0];
      up = [-1, 0, 0];
      k1 = -0.02;
      k2 = 0;
      break;
    case 'broadcast':
      if (table.game === 'snooker') {
        eye = [W / 2, L + 1.394 * L, 0.884 * L];
        target = [W / 2, 0.649 * L, 0];
        up = [0, -1, 0];
        hfovDeg = 26.8;
      } else {
        eye = [0.36 * W, L / 2, 1.9 * L];
        target = [0.48 * W, L / 2, 0];
        up = [1, 0, 0];
        hfovDeg = 42;
      }
      // Broadcast zoom lenses are corrected: barely any distortion.
      k1 = -0.01;
      k2 = 0;
      break;
    case 'oblique':
      eye = [W + 0.55 * L, -0.25 * L, 0.55 * L];
      target = [W / 2, L / 2, 0];
      hfovDeg = 62;
      up = [0, 0, 1];
      k1 = -0.06;
      k2 = 0.005;
      break;
  }
  const R = lookAt(eye, target, up);
  const fx = width / 2 / Math.tan(((hfovDeg / 2) * Math.PI) / 180);
  const cam: Camera = { format: 'cueref.camera/1', kind, width, height, fx, fy: fx, cx: width / 2, cy: height / 2, k1, k2, position: eye, R };
  // The poses above assume a long table in a wide image. A square Novus board (or a tall image)
  // may not fit: back the camera away from its target along the view line until the bed's
  // corners are inside the frame with a 3 % margin.
  const fits = (): boolean =>
    [[0, 0], [W, 0], [0, L], [W, L]].every(([x, y]) => {
      const p = project(cam, x!, y!, 0);
      return p !== null && p[0] > 0.03 * width && p[0] < 0.97 * width && p[1] > 0.03 * height && p[1] < 0.97 * height;
    });
  for (let k = 0; k < 60 && !fits(); k++) {
    cam.position = [0, 1, 2].map((i) => target[i]! + (cam.position[i]! - target[i]!) * 1.04) as V3;
  }
  return cam;
}

/**
 * A preset perturbed from `seed` for training data: camera position (±4 % of the bed length),
 * aim, field of view (±12 %, the framing follows), roll (±1.5°) and lens distortion (overhead
 * k1 from −0.15 to +0.02: from fisheye-ish webcams to rectified cameras). Deterministic.
 */
export function randomCamera(kind: CameraKind, table: TableProfile, seed: number, opts: CameraOptions = {}): Camera {
  let a = (seed ^ 0x85ebca6b) >>> 0;
  const rnd = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const u = (lo: number, hi: number): number => lo + (hi - lo) * rnd();
  const base = presetCamera(kind, table, opts);
  const L = table.bed.length, W = table.bed.width;
  const eye: V3 = [base.position[0] + u(-0.04, 0.04) * L, base.position[1] + u(-0.04, 0.04) * L, base.position[2] * u(0.95, 1.08)];
  // Aim: where the preset's optical axis meets the cloth, moved a little.
  const zAxis = base.R[2];
  const t = -base.position[2] / zAxis[2];
  const target: V3 = [base.position[0] + t * zAxis[0] + u(-0.03, 0.03) * W, base.position[1] + t * zAxis[1] + u(-0.03, 0.03) * L, 0];
  // Keep the preset's image-up direction, rolled slightly.
  const roll = (u(-1.5, 1.5) * Math.PI) / 180;
  const upImg: V3 = [-base.R[1][0], -base.R[1][1], -base.R[1][2]];
  const right = base.R[0];
  const up: V3 = [0, 1, 2].map((i) => upImg[i]! * Math.cos(roll) + right[i]! * Math.sin(roll)) as V3;
  const cam: Camera = {
    ...base,
    fx: base.fx * u(0.88, 1.12),
    fy: 0,
    k1: kind === 'overhead' ? u(-0.15, 0.02) : base.k1 + u(-0.04, 0.02),
    k2: kind === 'overhead' ? u(0, 0.03) : base.k2,
    position: eye,
    R: lookAt(eye, target, up),
  };
  cam.fy = cam.fx;
  // Back away until the bed fits (as presetCamera does).
  const fits = (): boolean =>
    [[0, 0], [W, 0], [0, L], [W, L]].every(([x, y]) => {
      const p = project(cam, x!, y!, 0);
      return p !== null && p[0] > 0.02 * cam.width && p[0] < 0.98 * cam.width && p[1] > 0.02 * cam.height && p[1] < 0.98 * cam.height;
    });
  for (let k = 0; k < 60 && !fits(); k++) cam.position = [0, 1, 2].map((i) => target[i]! + (cam.position[i]! - target[i]!) * 1.04) as V3;
  cam.R = lookAt(cam.position, target, up);
  return cam;
}
