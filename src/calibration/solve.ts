/**
 * Automatic calibration of one frame: cloth → cushion noses (→ lens) → bed corners → homography →
 * which way the table lies (long axis from the pose, baulk end from the markings) → ball-centre
 * plane. Pure: a frame and a table profile in, a calibration or a failure that says what was not
 * found out.
 */
import { inv3, mul3, normaliseH, type Mat3 } from '../core/mat3.js';
import { ballRadius, detectedCentreHeightMm, type TableProfile } from '../core/table.js';
import { err, ok, type Result } from '../core/result.js';
import { findCloth, type ClothMask } from './cloth.js';
import type { Calibration } from './contract.js';
import { distortPoint, fitRadialDistortion, undistortPoint, type RadialDistortion } from './distortion.js';
import { clothQuad, traceSides } from './edges.js';
import { applyH, fitLineTls, homographyDlt, intersect, ransacLine, signedArea, type Line, type Pt } from './geometry.js';
import { checkFrame, type RgbFrame } from './image.js';
import { flipTable, novusMarkings, poolDiamondShare, snookerEndEvidence, type EndEvidence } from './markings.js';
import { ballCentreToTable, estimateFocalPx, planeToImageFromPose, poseFromHomography, PRIOR_FOCAL_WIDTH_FRAC, type Pose } from './pose.js';

export interface CalibrateOptions {
  table: TableProfile;
  /** Focal length in pixels when known (else measured from the view, or a ≈ 70° prior). */
  focalPx?: number;
  /** Height of the cushion nose above the bed, mm (default: from the game, see cushionNoseHeightMm). */
  noseHeightMm?: number;
  /** Estimate radial distortion from the cushion lines (default true). */
  distortion?: boolean;
}

export type CalibrationFailureCode = 'NO_CLOTH' | 'NO_OUTLINE' | 'NO_CUSHIONS' | 'DEGENERATE';

export interface CalibrationFailure {
  code: CalibrationFailureCode;
  message: string;
  /** What was found before it failed, so the user knows what to supply by hand. */
  found: string[];
}

/** The pieces a debug overlay or a test wants to see besides the contract fields. */
export interface CalibrationDetail {
  calibration: Calibration;
  nosePointsPx: Pt[][];
  outerPointsPx: Pt[][];
  pose: Pose;
  distortionRms: { beforePx: number; afterPx: number };
}

const tableCorners = (t: TableProfile): Pt[] => [
  [0, 0],
  [t.bed.width, 0],
  [t.bed.width, t.bed.length],
  [0, t.bed.length],
];

/**
 * Best line through the meeting point of lines `a` and `b` (or parallel to them when they are
 * parallel in the image) for points `pts`: RANSAC over the points, then a total-least-squares
 * direction through the fixed point on the inliers.
 */
export function lineThroughVanishingPoint(pts: Pt[], a: Line, b: Line, tol: number): { line: Line; inliers: Pt[] } | null {
  if (pts.length < 2) return null;
  // Homogeneous meeting point: (a.nx, a.ny, −a.c) × (b.nx, b.ny, −b.c).
  const vx = a.ny * -b.c - -a.c * b.ny, vy = -a.c * b.nx - a.nx * -b.c, vw = a.nx * b.ny - a.ny * b.nx;
  const span = Math.max(...pts.map((p) => Math.hypot(p[0], p[1])), 1);
  const lineThrough = (p: Pt): Line | null => {
    let dx: number, dy: number;
    if (Math.abs(vw) * span * 1e3 < Math.hypot(vx, vy)) {
      dx = vx; // at infinity: the common direction
      dy = vy;
    } else {
      dx = vx / vw - p[0];
      dy = vy / vw - p[1];
    }
    const l = Math.hypot(dx, dy);
    if (l < 1e-9) return null;
    const nx = -dy / l, ny = dx / l;
    return { nx, ny, c: nx * p[0] + ny * p[1] };
  };
  let best: Line | null = null, bestN = -1;
  for (let k = 0; k < pts.length; k += Math.max(1, Math.floor(pts.length / 150))) {
    const l = lineThrough(pts[k]!);
    if (!l) continue;
    let n = 0;
    for (const p of pts) if (Math.abs(l.nx * p[0] + l.ny * p[1] - l.c) <= tol) n++;
    if (n > bestN) {
      bestN = n;
      best = l;
    }
  }
  if (!best) return null;
  for (let pass = 0; pass < 2; pass++) {
    const inl = pts.filter((p) => Math.abs(best!.nx * p[0] + best!.ny * p[1] - best!.c) <= tol);
    // Mean offset along the normal, about the line through the vanishing point at the centroid.
    const mx = inl.reduce((s, p) => s + p[0], 0) / inl.length, my = inl.reduce((s, p) => s + p[1], 0) / inl.length;
    const l = lineThrough([mx, my]);
    if (!l) break;
    best = l;
  }
  const inliers = pts.filter((p) => Math.abs(best!.nx * p[0] + best!.ny * p[1] - best!.c) <= tol);
  return { line: best, inliers };
}

/**
 * Most of the frame's edge that may be cloth (pixels of the mask's border rows and columns). A
 * table fully in view touches it nowhere; a pocket's corner or a cushion grazing it costs ~1 %.
 */
export const MAX_CLOTH_AT_FRAME_EDGE = 0.01;

/** Hue half-widths to retry a Novus board with when its hue band is wider, degrees. */
const NARROWER_HUE_TOL_DEG = [20, 14];
const wideHue = (tolDeg: number) => tolDeg > NARROWER_HUE_TOL_DEG[0]!;

function borderFraction(m: Uint8Array, w: number, h: number): number {
  let n = 0;
  for (let x = 0; x < w; x++) n += m[x]! + m[(h - 1) * w + x]!;
  for (let y = 1; y < h - 1; y++) n += m[y * w]! + m[y * w + w - 1]!;
  return n / (2 * w + 2 * (h - 2));
}

/** Which model side (0: x = 0, 1: x = W, 2: y = 0, 3: y = L) image points lie on, by median distance. */
function nearestModelSide(pts: Pt[], imageToTable: Mat3, t: TableProfile): number {
  const mapped = pts.map((p) => applyH(imageToTable, p[0], p[1]));
  const W = t.bed.width, L = t.bed.length;
  const fns = [(p: Pt) => p[0], (p: Pt) => p[0] - W, (p: Pt) => p[1], (p: Pt) => p[1] - L];
  let best = 0, bestMed = Infinity;
  fns.forEach((f, k) => {
    const d = mapped.map((p) => Math.abs(f(p))).sort((a, b) => a - b);
    const med = d[d.length >> 1] ?? Infinity;
    if (med < bestMed) {
      bestMed = med;
      best = k;
    }
  });
  return best;
}

/** Distances (mm) of table points from the nearest bed edge line, per side of the model. */
function edgeResidualsMm(pts: Pt[], H: Mat3, t: TableProfile): number[] {
  const mapped = pts.map((p) => applyH(H, p[0], p[1]));
  const W = t.bed.width, L = t.bed.length;
  const fns = [(p: Pt) => p[0], (p: Pt) => p[0] - W, (p: Pt) => p[1], (p: Pt) => p[1] - L];
  // The side these points lie on is the model line they are closest to in the median.
  let best = fns[0]!, bestMed = Infinity;
  for (const f of fns) {
    const d = mapped.map((p) => Math.abs(f(p))).sort((a, b) => a - b);
    const med = d[d.length >> 1] ?? Infinity;
    if (med < bestMed) {
      bestMed = med;
      best = f;
    }
  }
  return mapped.map((p) => Math.abs(best(p)));
}

export function calibrateFrame(frame: RgbFrame, opts: CalibrateOptions): Result<CalibrationDetail, CalibrationFailure> {
  checkFrame(frame);
  const table = opts.table;
  const found: string[] = [];
  let cloth = findCloth(frame);
  if (!cloth || cloth.areaPx * cloth.scale * cloth.scale < 0.05 * frame.width * frame.height) {
    return err({ code: 'NO_CLOTH', message: 'no table cloth found: no colour forms a large table-shaped region in the frame', found });
  }
  found.push('cloth');
  // The whole bed must be in view: cloth running into the frame's edge means a close-up or another
  // camera angle, where four "cushion lines" would partly be the frame itself.
  let edgeFrac = borderFraction(cloth.mask, cloth.width, cloth.height);
  // A Novus board is wood framed in wood: after video compression (4:2:0 chroma) the tan board and
  // the red-brown frame make one wide hue peak, so the "cloth" takes the frame in — its outer edge
  // then is the frame's (the rendered Novus overhead clips: 11–18 mm off at JPEG quality 70–50),
  // and a board framed tight has its frame cut by the picture's edge, read as a close-up (every
  // rendered Novus broadcast clip refused). A narrower band within that peak that stays inside the
  // picture and holds most of the region is the board. Snooker and pool cloths are not their
  // rails' colour; there a region running out of the frame stays a close-up.
  const novus = table.game === 'novus';
  if (novus && wideHue(cloth.colour.hueTolDeg)) {
    const wide = cloth;
    let best: ClothMask | undefined;
    for (const tol of NARROWER_HUE_TOL_DEG) {
      for (let h = wide.colour.hueDeg - wide.colour.hueTolDeg + tol / 2; h <= wide.colour.hueDeg + wide.colour.hueTolDeg - tol / 2 + 1e-9; h += 5) {
        const narrow = findCloth(frame, { colour: { ...wide.colour, hueDeg: (h + 360) % 360, hueTolDeg: tol } });
        if (!narrow || narrow.areaPx < 0.6 * wide.areaPx || (best && narrow.areaPx <= best.areaPx)) continue;
        if (borderFraction(narrow.mask, narrow.width, narrow.height) <= MAX_CLOTH_AT_FRAME_EDGE) best = narrow;
      }
    }
    if (best) (cloth = best), (edgeFrac = borderFraction(best.mask, best.width, best.height));
  }
  if (edgeFrac > MAX_CLOTH_AT_FRAME_EDGE) {
    return err({ code: 'NO_OUTLINE', message: `the cloth runs out of the frame along ${(100 * edgeFrac).toFixed(0)} % of its edge: the whole table must be in view`, found });
  }
  const quad = clothQuad(cloth);
  if (!quad || Math.abs(signedArea(quad)) < 0.04 * frame.width * frame.height || cloth.solidity < 0.8) {
    return err({ code: 'NO_OUTLINE', message: `the cloth region is not a quadrilateral (solidity ${cloth.solidity.toFixed(2)}): is the whole table in view?`, found });
  }
  // Profiles use the loose colour (hue only): cushion tops and faces in shadow are still cloth
  // there, so the outer edge is the rail's, and the nose is found inside it.
  // A Novus board has no cushions: its surface runs to the frame, and that edge is the bed's —
  // traced with the board's own colour (the loose one takes in the frame of a near hue).
  const loose = { ...cloth.colour, minSat: Math.min(cloth.colour.minSat, 0.18), minVal: Math.min(cloth.colour.minVal, 0.1) };
  const outline = traceSides(frame, novus ? [cloth.colour, loose] : [loose, cloth.colour], quad, { noCushions: novus });
  const priorF = opts.focalPx ?? PRIOR_FOCAL_WIDTH_FRAC * frame.width;

  // Lens: straighten the traced edges (nose and outer both are straight on the table).
  let distortion: RadialDistortion | null = null;
  let distortionRms = { beforePx: 0, afterPx: 0 };
  if (opts.distortion !== false) {
    const fit = fitRadialDistortion(
      outline.sides.map((s) => s.nose),
      { width: frame.width, height: frame.height, focalPx: priorF },
    );
    distortion = fit.distortion;
    distortionRms = { beforePx: fit.rmsBeforePx, afterPx: fit.rmsAfterPx };
    if (distortion) found.push('distortion');
  }
  const undist = (p: Pt): Pt => (distortion ? undistortPoint(distortion, p[0], p[1]) : p);

  const lines: Line[] = [];
  const nosePts: Pt[][] = [];
  const missing: number[] = [];
  outline.sides.forEach((side, i) => {
    const fit = ransacLine(side.nose.map(undist), 1.5, 300, 101 + i);
    if (!fit || fit.inliers.length < 8) {
      missing.push(i);
      return;
    }
    lines[i] = fit.line;
    nosePts[i] = fit.inliers;
  });
  if (missing.length) {
    return err({ code: 'NO_CUSHIONS', message: `could not trace ${missing.length} of the 4 cushion lines (too occluded or out of frame)`, found });
  }
  found.push(outline.sides.every((s) => s.noseFound) ? 'cushions' : 'cushionBacks');
  // A side's nose and rail edges and the opposite side's are parallel on the table, so in the image
  // they meet at one vanishing point. The two rail edges are long, clean lines: refit each nose
  // line through their meeting point, which stops a nose line from tilting across two nearby
  // edges (nose and face). Kept only when the constrained line explains the points as well, and
  // only without a lens model: an approximate k1 leaves the rail lines slightly bent, and their
  // meeting point then pulls the noses more than it helps (measured on rendered wide lenses).
  const outerLines = outline.sides.map((sd, i) => ransacLine(sd.outer.map(undist), 1.5, 300, 201 + i)?.line ?? null);
  for (let i = 0; i < 4; i++) {
    const a = outerLines[i], b = outerLines[(i + 2) % 4];
    if (distortion || !a || !b || !outline.sides[i]!.noseFound) continue;
    const constrained = lineThroughVanishingPoint(nosePts[i]!, a, b, 1.5);
    if (constrained && constrained.inliers.length >= 0.85 * nosePts[i]!.length) {
      lines[i] = constrained.line;
      nosePts[i] = constrained.inliers;
    }
  }

  // Bed corners = meeting points of adjacent nose lines; side i runs from corner i to i + 1.
  // Image y points down: a table seen from above runs BL → BR → TR → TL clockwise on screen, i.e.
  // with a negative shoelace area in (u, v).
  const cornersOf = (ls: Line[]): Pt[] | null => {
    const c: Pt[] = [];
    for (let i = 0; i < 4; i++) {
      const p = intersect(ls[(i + 3) % 4]!, ls[i]!);
      if (!p) return null;
      c.push(p);
    }
    return signedArea(c) > 0 ? c.reverse() : c;
  };
  const corners = cornersOf(lines);
  if (!corners) return err({ code: 'DEGENERATE', message: 'two cushion lines are parallel in the image', found });

  // Long axis: of the two ways to lay the table on the quad, keep the one a real camera explains.
  const tc = tableCorners(table);
  const size = Math.max(table.bed.width, table.bed.length);
  const solveRot = (cs: Pt[], rot: number) => {
    const img = [0, 1, 2, 3].map((k) => cs[(k + rot) % 4]!);
    const H = homographyDlt(tc, img);
    if (!H) return null;
    const fMeasured = opts.focalPx === undefined ? estimateFocalPx(H, frame.width / 2, frame.height / 2, frame.width, size) : null;
    const K = { fPx: opts.focalPx ?? fMeasured ?? priorF, cx: frame.width / 2, cy: frame.height / 2 };
    return { rot, H, pose: poseFromHomography(H, K, fMeasured !== null || opts.focalPx !== undefined) };
  };
  const valid = [0, 1].map((rot) => solveRot(corners, rot)).filter((c): c is NonNullable<typeof c> => c !== null && c.pose.centreMm[2] > 0);
  if (!valid.length) return err({ code: 'DEGENERATE', message: 'no camera pose explains the table outline', found });
  let best = valid.reduce((a, b) => (b.pose.orthoError < a.pose.orthoError ? b : a));

  // A cushion seen from behind (the camera beyond its line, as the near cushion of a broadcast
  // view) hides its face: its innermost visible edge is the crest, `crestMm` above the bed, not the
  // foot. Move those sides' points to where the foot would be seen and solve again.
  const crestMm = opts.noseHeightMm ?? cushionNoseHeightMm(table);
  const movedPts: Pt[][] = [...nosePts];
  for (let iter = 0; iter < 2 && crestMm > 0; iter++) {
    const C = best.pose.centreMm;
    const i2t = normaliseH(inv3(best.H));
    const crestToImage = shiftPlane(best.H, best.pose, crestMm);
    const imageToCrest = inv3(crestToImage);
    let moved = false;
    const newLines = lines.map((l, i) => {
      const side = nearestModelSide(nosePts[i]!, i2t, table);
      const behind = side === 0 ? C[0] < 0 : side === 1 ? C[0] > table.bed.width : side === 2 ? C[1] < 0 : C[1] > table.bed.length;
      if (!behind) return l;
      moved = true;
      const pts = nosePts[i]!.map((p) => {
        const [x, y] = applyH(imageToCrest, p[0], p[1]);
        return applyH(best.H, x, y);
      });
      movedPts[i] = pts;
      return fitLineTls(pts) ?? l;
    });
    if (!moved) break;
    const cs = cornersOf(newLines);
    const next = cs ? solveRot(cs, best.rot) : null;
    if (!next || !(next.pose.centreMm[2] > 0)) break;
    best = next;
    if (iter === 0) found.push('cushionCrests');
  }

  // Which end is baulk (snooker): the markings and the colours decide between best and its 180° turn.
  let end: 'found' | 'assumed' = 'assumed';
  const checks: Record<string, number> = {};
  const turned = { ...best, H: flipTable(best.H, table) };
  turned.pose = poseFromHomography(turned.H, best.pose.K, best.pose.focalMeasured);
  if (table.game === 'snooker') {
    const ballH = planeBall(best.H, best.pose, ballRadius(table));
    const ev = snookerEndEvidence({ frame, tableToImage: best.H, distortion }, table, ballH, cloth.colour.hueDeg);
    if (ev.vote < 0) {
      const evT = snookerEndEvidence({ frame, tableToImage: turned.H, distortion }, table, planeBall(turned.H, turned.pose, ballRadius(table)), cloth.colour.hueDeg);
      best = turned;
      end = 'found';
      recordMarkings(evT, found, checks, table);
    } else if (ev.vote > 0) {
      end = 'found';
      recordMarkings(ev, found, checks, table);
    }
  }
  // Markings that check the solution without deciding the end (both are symmetric).
  if (table.game === 'pool8') {
    // The rail top stands above the cloth, by how much varies between tables: try the cloth
    // plane and a rail a little above the nose, keep the better.
    const railH = shiftPlane(best.H, best.pose, cushionNoseHeightMm(table) + 5);
    const share = Math.max(
      poolDiamondShare({ frame, tableToImage: best.H, distortion }, table),
      poolDiamondShare({ frame, tableToImage: railH, distortion }, table),
    );
    checks.diamondsSeenShare = share;
    if (share >= 0.5) found.push('diamonds');
  } else if (table.game === 'novus') {
    const m = novusMarkings({ frame, tableToImage: best.H, distortion }, table);
    if (m.zoneLines) found.push('zoneLines');
    if (m.centreCircle) found.push('centreCircle');
  }
  if (end === 'assumed') {
    // No markings to tell: baulk (the bottom end, y = 0) is taken as the far end of a perspective
    // view (broadcast cameras film from behind the top cushion) or the left end from above.
    const a = applyH(best.H, table.bed.width / 2, 0), b = applyH(turned.H, table.bed.width / 2, 0);
    const pickTurned = best.pose.focalMeasured ? b[1] < a[1] : b[0] < a[0];
    if (pickTurned) best = turned;
  }

  const imageToTable = normaliseH(inv3(best.H));
  const residuals = movedPts.flatMap((pts) => edgeResidualsMm(pts, imageToTable, table));
  residuals.sort((a, b) => a - b);
  const reprojectionErrorMm = residuals[residuals.length >> 1] ?? 0;
  const ballToTable = ballCentreToTable(imageToTable, best.pose, detectedCentreHeightMm(table));
  const cornersPx = tableCorners(table).map(([x, y]) => {
    const [u, v] = applyH(best.H, x, y);
    return (distortion ? distortPoint(distortion, u, v) : [u, v]) as [number, number];
  });
  const calibration: Calibration = {
    format: 'cueref.calibration/1',
    game: table.game,
    table,
    image: { width: frame.width, height: frame.height },
    imageToTable,
    ballCentreToTable: ballToTable,
    distortion,
    reprojectionErrorMm,
    inliers: residuals.length,
    found,
    method: 'auto',
    end,
    cloth: cloth.colour,
    camera: { focalPx: best.pose.K.fPx, focalMeasured: best.pose.focalMeasured, centreMm: best.pose.centreMm },
    checks,
    cornersPx,
  };
  return ok({ calibration, nosePointsPx: nosePts, outerPointsPx: outline.sides.map((s) => s.outer), pose: best.pose, distortionRms });
}

/**
 * Height of the cushion nose above the bed. The rules put it at 62.5–64.5 % of the ball diameter
 * for pool; snooker cushions stand a little higher relative to the smaller ball (≈ 36–37 mm);
 * Novus frames are low. It matters for cushions seen from behind, whose crest (not their foot on the
 * bed) is the innermost edge in view: seen from a broadcast camera the crest sits this height times
 * the viewing slope beyond the bed edge — a few centimetres on the near cushion.
 */
export function cushionNoseHeightMm(t: TableProfile): number {
  switch (t.game) {
    case 'snooker':
      return 0.7 * t.ballDiameter;
    case 'pool8':
      return 0.635 * t.ballDiameter;
    case 'novus':
      return 0.45 * t.ballDiameter;
  }
}

/** The homography of the plane `dzMm` above (or below) the one `h` maps, under `pose`. */
function shiftPlane(h: Mat3, pose: Pose, dzMm: number): Mat3 {
  return normaliseH(mul3(h, mul3(inv3(planeToImageFromPose(pose, 0)), planeToImageFromPose(pose, dzMm))));
}

/** Ball-centre plane → image for a candidate orientation (the measured cloth H, pose parallax). */
function planeBall(tableToImage: Mat3, pose: Pose, r: number): Mat3 {
  const cloth = planeToImageFromPose(pose, 0), ball = planeToImageFromPose(pose, r);
  // image(ball plane) = H · cloth⁻¹ · ball
  const m = mul3(tableToImage, mul3(inv3(cloth), ball));
  return normaliseH(m);
}

/** Adds what the winning orientation's markings showed to `found` and `checks`. */
function recordMarkings(ev: EndEvidence, found: string[], checks: Record<string, number>, table: TableProfile): void {
  if (ev.baulkLine) {
    found.push('baulkLine');
    checks.baulkLineOffsetMm = ev.baulkLine.y - (table.baulkLineY ?? ev.baulkLine.y);
  }
  if (ev.dFound) found.push('D');
  if (ev.spotsMatched.length) found.push('spots');
  found.push('end');
}

/**
 * Which of several solves (frames of one recording) to keep: the one confirmed by more of the
 * table's markings first, then the lower reprojection error. A residual is measured on the points a
 * solve used, so a frame where a faint baulk line was missed can report a lower error while being
 * several mm off (seen on the first, softer frame of an H.264 stream).
 */
export function betterCalibration(a: Calibration, b: Calibration): Calibration {
  if (a.found.length !== b.found.length) return a.found.length > b.found.length ? a : b;
  return a.reprojectionErrorMm <= b.reprojectionErrorMm ? a : b;
}

/**
 * The best of several frames' solves (`betterCalibration`), fed one frame at a time: a player over
 * a cushion or a soft frame spoils one solve, not the camera. Keeps the first failure to explain
 * a run where nothing solved.
 */
export class BestCalibration {
  best: Calibration | null = null;
  failure: CalibrationFailure | null = null;
  tried = 0;
  solved = 0;
  constructor(private readonly table: TableProfile) {}

  /** Calibrate one frame; true when it solved. */
  offer(frame: RgbFrame): boolean {
    this.tried++;
    const r = calibrateFrame({ width: frame.width, height: frame.height, rgb: frame.rgb }, { table: this.table });
    if (!r.ok) {
      this.failure ??= r.error;
      return false;
    }
    this.solved++;
    this.best = this.best ? betterCalibration(r.value.calibration, this.best) : r.value.calibration;
    return true;
  }
}
