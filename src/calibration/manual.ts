/**
 * Fallbacks for when the automatic calibration fails: image ↔ table correspondences from a file
 * (`--points`), or the four bed corners clicked by hand (`--corners`). The homography is solved by
 * RANSAC when there are more than four points, so one mistyped point is reported, not obeyed.
 */
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { inv3, normaliseH, type Mat3 } from '../core/mat3.js';
import { ballRadius, detectedCentreHeightMm, type TableProfile } from '../core/table.js';
import type { Calibration } from './contract.js';
import { findHomographyRansac } from './cv.js';
import { applyH, type Pt } from './geometry.js';
import { ballCentreToTable, estimateFocalPx, poseFromHomography, PRIOR_FOCAL_WIDTH_FRAC } from './pose.js';

const finite = z.number().finite();
export const pointsFileSchema = z.object({
  format: z.literal('cueref.points/1').optional(),
  image: z.object({ width: z.number().int().positive(), height: z.number().int().positive() }).optional(),
  points: z
    .array(z.object({ u: finite, v: finite, x: finite, y: finite, name: z.string().optional() }))
    .min(4, 'need at least 4 image↔table points'),
});
export type PointsFile = z.infer<typeof pointsFileSchema>;

export function parsePointsFile(raw: unknown, source: string): PointsFile {
  const r = pointsFileSchema.safeParse(raw);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new InputError({ code: 'BAD_POINTS', field: issue.path.join('.') || '(root)', message: `${source}: ${issue.message}` });
  }
  return r.data;
}

/** `--corners "u,v u,v u,v u,v"`: the bed corners BL, BR, TR, TL (inside the cushion noses). */
export function parseCorners(text: string): Pt[] {
  const nums = text.split(/[\s,;]+/).filter(Boolean).map(Number);
  if (nums.length !== 8 || nums.some((n) => !Number.isFinite(n))) {
    throw new InputError({ code: 'BAD_CORNERS', field: 'corners', message: 'give the four bed corners BL, BR, TR, TL as 8 numbers: "u,v u,v u,v u,v"' });
  }
  return [0, 1, 2, 3].map((i) => [nums[2 * i]!, nums[2 * i + 1]!] as Pt);
}

export async function calibrateFromPoints(
  imagePts: Pt[],
  tablePts: Pt[],
  table: TableProfile,
  image: { width: number; height: number },
  method: 'points' | 'corners',
  focalPx?: number,
): Promise<Calibration> {
  // RANSAC threshold in table mm: one ball radius; a point farther off is a typo.
  const fit = await findHomographyRansac(imagePts, tablePts, ballRadius(table));
  if (!fit) throw new InputError({ code: 'DEGENERATE_POINTS', message: `the ${method} do not define a homography (three of them in a line?)` });
  const imageToTable = normaliseH(fit.h as Mat3);
  const tableToImage = normaliseH(inv3(imageToTable));
  const residuals = imagePts.map((p, i) => {
    const [x, y] = applyH(imageToTable, p[0], p[1]);
    return Math.hypot(x - tablePts[i]![0], y - tablePts[i]![1]);
  });
  const inl = residuals.filter((_, i) => fit.inlierMask[i]);
  const sorted = [...inl].sort((a, b) => a - b);
  const size = Math.max(table.bed.width, table.bed.length);
  const fMeasured = focalPx === undefined ? estimateFocalPx(tableToImage, image.width / 2, image.height / 2, image.width, size) : null;
  const pose = poseFromHomography(tableToImage, { fPx: focalPx ?? fMeasured ?? PRIOR_FOCAL_WIDTH_FRAC * image.width, cx: image.width / 2, cy: image.height / 2 }, fMeasured !== null);
  return {
    format: 'cueref.calibration/1',
    game: table.game,
    table,
    image,
    imageToTable,
    ballCentreToTable: ballCentreToTable(imageToTable, pose, detectedCentreHeightMm(table)),
    distortion: null,
    reprojectionErrorMm: sorted[sorted.length >> 1] ?? 0,
    inliers: inl.length,
    found: [method],
    method,
    end: 'found',
    camera: { focalPx: pose.K.fPx, focalMeasured: pose.focalMeasured, centreMm: pose.centreMm },
    cornersPx: [[0, 0], [table.bed.width, 0], [table.bed.width, table.bed.length], [0, table.bed.length]].map(([x, y]) => applyH(tableToImage, x!, y!)),
  };
}
