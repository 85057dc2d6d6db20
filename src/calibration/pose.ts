/**
 * From the cloth-plane homography to a camera pose, and from the pose to the ball-centre plane.
 *
 * A ball's centre sits R above the cloth, so the image point of its centre is not the image point
 * of the bed under it: under an overhead camera the difference reaches a centimetre at the table's
 * ends. With square pixels and the principal point at the image centre, the homography fixes the
 * focal length when the view is perspective enough; a near fronto-parallel view leaves it
 * unobservable and a prior (or `--focal-px`) is used: its error scales the parallax correction only.
 */
import { inv3, mul3, normaliseH, type Mat3 } from '../core/mat3.js';

type V3 = [number, number, number];
const cross = (a: V3, b: V3): V3 => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const len = (a: V3) => Math.hypot(a[0], a[1], a[2]);

/** Prior focal length as a fraction of the image width (≈ 70° horizontal field of view). */
export const PRIOR_FOCAL_WIDTH_FRAC = 0.714;

export interface Intrinsics {
  fPx: number;
  cx: number;
  cy: number;
}

export interface Pose {
  K: Intrinsics;
  /** Whether the focal length came from the homography (true) or from the prior / the user. */
  focalMeasured: boolean;
  r1: V3;
  r2: V3;
  r3: V3;
  /** Translation (camera frame, mm). */
  t: V3;
  /** Camera centre in table mm (z up from the cloth). */
  centreMm: V3;
  /** How far r1, r2 are from orthonormal: 0 for a perfect fit (|log |r1|/|r2|| + |cos|). */
  orthoError: number;
}

const column = (h: Mat3, j: 0 | 1 | 2): V3 => [h[0][j], h[1][j], h[2][j]];

/**
 * Focal length (px) from a table→image homography with square pixels and a known principal point
 * (Zhang's two constraints on the image of the absolute conic, solved together by least squares).
 * Null when the view is too close to fronto-parallel for the perspective terms to carry it, or
 * when the answer is outside 0.2–10 image widths.
 */
export function estimateFocalPx(tableToImage: Mat3, cx: number, cy: number, imageWidth: number, tableSizeMm: number): number | null {
  const T: Mat3 = [[1, 0, -cx], [0, 1, -cy], [0, 0, 1]];
  const H = mul3(T, normaliseH(tableToImage));
  const h1 = column(H, 0), h2 = column(H, 1);
  // Foreshortening across the table: below ~3 % the constraints are dominated by noise.
  const persp = Math.max(Math.abs(h1[2]), Math.abs(h2[2])) * tableSizeMm;
  if (persp < 0.03) return null;
  const a1 = h1[0] * h2[0] + h1[1] * h2[1], b1 = h1[2] * h2[2];
  const a2 = h1[0] ** 2 + h1[1] ** 2 - h2[0] ** 2 - h2[1] ** 2, b2 = h1[2] ** 2 - h2[2] ** 2;
  const w = -(a1 * b1 + a2 * b2) / (a1 * a1 + a2 * a2);
  if (!(w > 0)) return null;
  const f = 1 / Math.sqrt(w);
  return f > 0.2 * imageWidth && f < 10 * imageWidth ? f : null;
}

/** Decompose a table→image homography into a pose for focal length `K.fPx`. */
export function poseFromHomography(tableToImage: Mat3, K: Intrinsics, focalMeasured: boolean): Pose {
  const Kinv: Mat3 = inv3([[K.fPx, 0, K.cx], [0, K.fPx, K.cy], [0, 0, 1]]);
  const M = mul3(Kinv, tableToImage);
  let m1 = column(M, 0), m2 = column(M, 1), m3 = column(M, 2);
  const n1 = len(m1), n2 = len(m2);
  let lambda = 2 / (n1 + n2);
  // The table must be in front of the camera.
  if (m3[2] * lambda < 0) lambda = -lambda;
  m1 = m1.map((v) => v * lambda) as V3;
  m2 = m2.map((v) => v * lambda) as V3;
  m3 = m3.map((v) => v * lambda) as V3;
  const orthoError = Math.abs(Math.log(n1 / n2)) + Math.abs(dot(m1, m2)) / (len(m1) * len(m2));
  // Orthonormalise symmetrically: r1, r2 at ±45° from their bisector.
  const a = m1.map((v) => v / len(m1)) as V3, b = m2.map((v) => v / len(m2)) as V3;
  const s = [a[0] + b[0], a[1] + b[1], a[2] + b[2]] as V3, d = [a[0] - b[0], a[1] - b[1], a[2] - b[2]] as V3;
  const sn = len(s), dn = len(d);
  const r1 = s.map((v, i) => (v / sn + d[i]! / dn) / Math.SQRT2) as V3;
  const r2 = s.map((v, i) => (v / sn - d[i]! / dn) / Math.SQRT2) as V3;
  const r3 = cross(r1, r2);
  const t = m3;
  // Camera centre C = −Rᵀ t, with R's rows... here R's columns are r1 r2 r3.
  const centreMm: V3 = [-dot(r1, t), -dot(r2, t), -dot(r3, t)];
  return { K, focalMeasured, r1, r2, r3, t, centreMm, orthoError };
}

/** Homography table (x, y) on the plane z = zMm → image pixel, from a pose. */
export function planeToImageFromPose(p: Pose, zMm: number): Mat3 {
  const { fPx, cx, cy } = p.K;
  const K: Mat3 = [[fPx, 0, cx], [0, fPx, cy], [0, 0, 1]];
  const c3: V3 = [p.r3[0] * zMm + p.t[0], p.r3[1] * zMm + p.t[1], p.r3[2] * zMm + p.t[2]];
  const M: Mat3 = [
    [p.r1[0], p.r2[0], c3[0]],
    [p.r1[1], p.r2[1], c3[1]],
    [p.r1[2], p.r2[2], c3[2]],
  ];
  return normaliseH(mul3(K, M));
}

/**
 * `ballCentreToTable`: the image point of a ball's centre → the bed point under it. Built from the
 * measured cloth homography, corrected by the pose-predicted difference between the planes z = R
 * and z = 0 (so a pose error only scales the parallax, never moves the cloth mapping).
 */
export function ballCentreToTable(imageToTable: Mat3, pose: Pose, ballRadiusMm: number): Mat3 {
  const cloth = planeToImageFromPose(pose, 0);
  const ball = planeToImageFromPose(pose, ballRadiusMm);
  // image(ball) → table: first map the ball-plane image point to where the same table (x, y) on
  // the cloth would appear, then use the measured cloth mapping.
  const ballToCloth = mul3(cloth, inv3(ball));
  return normaliseH(mul3(imageToTable, ballToCloth));
}
