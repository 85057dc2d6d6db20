/**
 * The camera's height from snooker colours lying on their spots.
 *
 * Why: a ball's centre is R above the cloth, so the calibration maps a ball's image through the
 * camera's pose (pose.ts, `ballCentreToTable`): under a camera looking down on the bed the centre
 * is seen R·d/(H − R) further out than the cloth under it, d from the point below the camera.
 * Looking straight down, the cloth homography cannot tell the focal length (hence H) apart from
 * the distance, so a prior focal is taken and the correction is scaled by its error: the rendered
 * overhead camera is 2488 mm up, the prior put it at 2981 mm, and balls at the far end came out
 * +2.2 mm (mean) beyond where they lay (`npx tsx bench/events-rendered.ts`, rest positions).
 *
 * What measures it: colours set on their spots. Mapped with a wrong height, their positions are
 * the spots scaled about the point below the camera, p − n = (1 + k)(s − n) plus whatever small
 * shift the cloth mapping has, with k = H(Hₑ − R)/(Hₑ(H − R)) − 1 for the true height H and the
 * assumed Hₑ. A least-squares fit of (shift, k) over the colours found within SPOT_MATCH_MM of
 * their spots gives H, and the focal length that puts the camera there.
 *
 * Pure: the caller detects the balls (with the calibration it wants refined) and keeps or drops
 * the answer.
 */
import { inv3, normaliseH } from '../core/mat3.js';
import { detectedCentreHeightMm } from '../core/table.js';
import type { Calibration } from './contract.js';
import { ballCentreToTable, poseFromHomography, type Pose } from './pose.js';

/** A colour this close to its own spot (as mapped with the assumed height) is taken to lie on it, mm. */
export const SPOT_MATCH_MM = 12;
/** At least this many colours on spots, and spread this far from the point below the camera, mm. */
const MIN_BALLS = 3;
const MIN_SPREAD_MM = 500;
/** The fit is refused when its colours sit off the fitted model by more than this (rms), mm. */
const MAX_RMS_MM = 1.5;
/** …or when the height it gives is outside this range of the assumed one. */
const HEIGHT_RANGE = [0.5, 2] as const;

export interface SpotBall {
  /** Detected kind (a snooker colour). */
  kind: string;
  /** Position in table mm, as mapped by the calibration being refined. */
  x: number;
  y: number;
}

export type SpotHeight =
  | { ok: true; calibration: Calibration; balls: number; heightMm: number; priorHeightMm: number; rmsMm: number }
  | { ok: false; reason: string; balls: number };

/**
 * The calibration with its focal length (hence the camera's height and the ball-centre mapping)
 * measured from `balls` — colours found near their spots — when the calibration's focal length is
 * a prior (`camera.focalMeasured` false) and enough colours lie on spots, spread along the table.
 */
export function heightFromSpots(cal: Calibration, balls: readonly SpotBall[]): SpotHeight {
  const cam = cal.camera;
  if (!cam || cam.focalMeasured) return { ok: false, reason: 'the focal length is already measured', balls: 0 };
  const spots = cal.table.spots;
  const pairs = balls.flatMap((b) => {
    const s = spots[b.kind];
    return s && Math.hypot(b.x - s.x, b.y - s.y) <= SPOT_MATCH_MM ? [{ b, s }] : [];
  });
  // One ball per colour: two reads of one colour near its spot are a misread, not two witnesses.
  const byKind = new Map<string, (typeof pairs)[number]>();
  for (const p of pairs) {
    const q = byKind.get(p.b.kind);
    if (!q || Math.hypot(p.b.x - p.s.x, p.b.y - p.s.y) < Math.hypot(q.b.x - q.s.x, q.b.y - q.s.y)) byKind.set(p.b.kind, p);
  }
  const used = [...byKind.values()];
  if (used.length < MIN_BALLS) return { ok: false, reason: `${used.length} colour(s) on their spots, ${MIN_BALLS} needed`, balls: used.length };
  const [nx, ny, He] = cam.centreMm;
  // Least squares for r = b + k·(s − n): unknowns bx, by, k. Centred on the mean of (s − n), the
  // shift separates from k: k = Σ(r − r̄)·(d − d̄) / Σ|d − d̄|².
  const d = used.map(({ s }) => [s.x - nx, s.y - ny] as const);
  const r = used.map(({ b, s }) => [b.x - s.x, b.y - s.y] as const);
  const mean = (v: readonly (readonly [number, number])[]) => [v.reduce((a, p) => a + p[0], 0) / v.length, v.reduce((a, p) => a + p[1], 0) / v.length] as const;
  const [dx0, dy0] = mean(d), [rx0, ry0] = mean(r);
  let sxy = 0, sxx = 0, spread = 0;
  d.forEach(([dx, dy], i) => {
    const [rx, ry] = r[i]!;
    sxy += (rx - rx0) * (dx - dx0) + (ry - ry0) * (dy - dy0);
    sxx += (dx - dx0) ** 2 + (dy - dy0) ** 2;
    spread = Math.max(spread, Math.hypot(dx, dy));
  });
  if (spread < MIN_SPREAD_MM) return { ok: false, reason: `the colours on spots lie within ${spread.toFixed(0)} mm of the point below the camera`, balls: used.length };
  const k = sxy / sxx;
  const bx = rx0 - k * dx0, by = ry0 - k * dy0;
  const rms = Math.sqrt(d.reduce((a, [dx, dy], i) => a + (r[i]![0] - bx - k * dx) ** 2 + (r[i]![1] - by - k * dy) ** 2, 0) / d.length);
  if (rms > MAX_RMS_MM) return { ok: false, reason: `the colours fit a change of height to ${rms.toFixed(1)} mm rms`, balls: used.length };
  const hb = detectedCentreHeightMm(cal.table);
  // p − n = ρ (s − n), ρ = H(Hₑ − h)/(Hₑ(H − h)) ⇒ H = ρ h Hₑ / (ρ Hₑ − Hₑ + h).
  const rho = 1 + k;
  const H = (rho * hb * He) / (rho * He - He + hb);
  if (!(H > HEIGHT_RANGE[0] * He && H < HEIGHT_RANGE[1] * He)) return { ok: false, reason: `the colours put the camera ${H.toFixed(0)} mm up against ${He.toFixed(0)} mm assumed`, balls: used.length };
  // The focal length that puts the camera at H: the distance scales with it (near-exactly for a
  // camera looking down; two refinements close the rest).
  const tableToImage = normaliseH(inv3(cal.imageToTable));
  const K = { fPx: cam.focalPx, cx: cal.image.width / 2, cy: cal.image.height / 2 };
  let pose: Pose = poseFromHomography(tableToImage, K, true);
  for (let it = 0; it < 3; it++) {
    K.fPx *= H / pose.centreMm[2];
    pose = poseFromHomography(tableToImage, { ...K }, true);
  }
  const calibration: Calibration = {
    ...cal,
    ballCentreToTable: ballCentreToTable(cal.imageToTable, pose, hb),
    camera: { focalPx: pose.K.fPx, focalMeasured: true, centreMm: pose.centreMm, focalFrom: 'spots' },
  };
  return { ok: true, calibration, balls: used.length, heightMm: pose.centreMm[2], priorHeightMm: He, rmsMm: rms };
}
