/**
 * Snooker geometry on table coordinates (mm): snookered, effective snookering ball, clear paths for
 * the miss rule, touching ball, the D. Pure functions over ball centres; no state.
 *
 * Paths follow spec §4.3: the cue-ball centre travels in a straight line to the point where it
 * would touch the target (centre distance 2R); a ball obstructs when its centre comes within 2R of
 * that segment. `inflateMm` widens (or, negative, narrows) every collision distance so a caller can
 * ask whether a call survives a measurement margin: if the answer is the same at ±2 mm the call is
 * AUTO, otherwise it is ASSISTED.
 */
import type { PointMm, TableProfile } from '../../core/table.js';

export interface GeoBall {
  id: string;
  x: number;
  y: number;
}

export interface GeoOptions {
  /** Ball radius, mm. */
  R: number;
  /** Added to every collision distance (2R), mm. */
  inflateMm?: number;
  /** Pocket jaw noses; a path passing within R of one is flagged (jaws are ASSISTED, spec §4.3). */
  jaws?: readonly PointMm[];
}

export interface PathResult {
  free: boolean;
  /** Obstructing balls, nearest to the cue ball first. */
  blockers: string[];
  /** The path runs past a pocket jaw. */
  jaw: boolean;
}

const dist = (a: PointMm, b: PointMm) => Math.hypot(a.x - b.x, a.y - b.y);

/** Distance from point O to segment AB. */
export function segmentDistance(A: PointMm, B: PointMm, O: PointMm): number {
  const dx = B.x - A.x, dy = B.y - A.y;
  const len2 = dx * dx + dy * dy;
  let t = len2 > 0 ? ((O.x - A.x) * dx + (O.y - A.y) * dy) / len2 : 0;
  t = Math.max(0, Math.min(1, t));
  return Math.hypot(A.x + t * dx - O.x, A.y + t * dy - O.y);
}

/** Is the cue ball's straight run from C to P clear of every ball not in `exempt`? */
export function checkSegment(C: PointMm, P: PointMm, balls: readonly GeoBall[], exempt: ReadonlySet<string>, o: GeoOptions): PathResult {
  const hitDist = 2 * o.R + (o.inflateMm ?? 0);
  const blockers: { id: string; d: number }[] = [];
  for (const b of balls) {
    if (exempt.has(b.id)) continue;
    // A ball already touching the cue ball at C does not block a path leading away from it.
    if (segmentDistance(C, P, b) < hitDist && !(dist(C, b) < 2 * o.R + 0.5 && movesAway(C, P, b))) {
      blockers.push({ id: b.id, d: dist(C, b) });
    }
  }
  blockers.sort((a, b) => a.d - b.d);
  let jaw = false;
  for (const j of o.jaws ?? []) if (segmentDistance(C, P, j) < o.R) jaw = true;
  return { free: blockers.length === 0, blockers: blockers.map((b) => b.id), jaw };
}

function movesAway(C: PointMm, P: PointMm, b: PointMm): boolean {
  return (P.x - C.x) * (b.x - C.x) + (P.y - C.y) * (b.y - C.y) <= 0;
}

/**
 * Where the cue-ball centre meets target B when aimed at angle `theta` off the line C→B
 * (|theta| ≤ the edge angle), or null when that line misses B.
 */
export function contactPoint(C: PointMm, B: PointMm, theta: number, R: number): PointMm | null {
  const d = dist(C, B);
  const hit = 2 * R;
  if (d <= hit) return { x: C.x, y: C.y };
  const s2 = hit * hit - d * d * Math.sin(theta) ** 2;
  if (s2 < -1e-9) return null;
  const s = d * Math.cos(theta) - Math.sqrt(Math.max(0, s2));
  const base = Math.atan2(B.y - C.y, B.x - C.x) + theta;
  return { x: C.x + s * Math.cos(base), y: C.y + s * Math.sin(base) };
}

/** Half-angle of the cone of directions from C that hit B at all (the extreme edge paths). */
export function edgeAngle(C: PointMm, B: PointMm, R: number): number {
  const d = dist(C, B);
  return d <= 2 * R ? Math.PI / 2 : Math.asin((2 * R) / d);
}

export interface BallOnPaths {
  id: string;
  /** Both extreme-edge paths free: the cue ball is not snookered on this ball. */
  bothEdgesFree: boolean;
  /** Obstructing balls over both edge paths, nearest to the cue ball first. */
  blockers: string[];
  jaw: boolean;
}

/** Spec §4.3: the two extreme-edge paths to ball on B. */
export function edgePaths(C: PointMm, B: GeoBall, balls: readonly GeoBall[], exempt: ReadonlySet<string>, o: GeoOptions): BallOnPaths {
  const a = edgeAngle(C, B, o.R) * (1 - 1e-9);
  const ids = new Map<string, number>();
  let free = true;
  let jaw = false;
  for (const th of [-a, a]) {
    const P = contactPoint(C, B, th, o.R)!;
    const r = checkSegment(C, P, balls, exempt, o);
    if (!r.free) free = false;
    jaw ||= r.jaw;
    for (const id of r.blockers) ids.set(id, dist(C, balls.find((b) => b.id === id)!));
  }
  const blockers = [...ids].sort((p, q) => p[1] - q[1]).map(([id]) => id);
  return { id: B.id, bothEdgesFree: free, blockers, jaw };
}

export interface SnookerResult {
  snookered: boolean;
  /** The effective snookering ball(s) (spec §4.4); empty when there is none. */
  effective: string[];
  perBall: BallOnPaths[];
  jaw: boolean;
}

/**
 * Is a cue ball at C snookered on the balls on? Not snookered iff some ball on has both edge paths
 * free (spec §4.3). Other balls on never obstruct.
 */
export function snookeredAt(C: PointMm, ballsOn: readonly string[], balls: readonly GeoBall[], cueId: string, o: GeoOptions): SnookerResult {
  const exempt = new Set<string>([cueId, ...ballsOn]);
  const perBall: BallOnPaths[] = [];
  let jaw = false;
  for (const id of ballsOn) {
    const B = balls.find((b) => b.id === id);
    if (!B) continue;
    const p = edgePaths(C, B, balls, exempt, o);
    jaw ||= p.jaw;
    if (p.bothEdgesFree) return { snookered: false, effective: [], perBall: [p], jaw };
    perBall.push(p);
  }
  if (perBall.length === 0) return { snookered: false, effective: [], perBall, jaw };
  return { snookered: true, effective: effectiveSnookering(C, perBall, balls), perBall, jaw };
}

/**
 * Spec §4.4: the obstructing ball nearest the cue ball, among those that obstruct every ball on;
 * when different balls on are obstructed by different balls with none in common, there is none.
 * Balls within 1 mm of the same distance are both effective.
 */
export function effectiveSnookering(C: PointMm, perBall: readonly BallOnPaths[], balls: readonly GeoBall[]): string[] {
  let common: Set<string> | null = null;
  for (const p of perBall) {
    const s = new Set(p.blockers);
    common = common === null ? s : new Set<string>([...(common as Set<string>)].filter((id) => s.has(id)));
  }
  if (!common || common.size === 0) return [];
  const withD = [...common].map((id) => ({ id, d: dist(C, balls.find((b) => b.id === id)!) })).sort((a, b) => a.d - b.d);
  const d0 = withD[0]!.d;
  return withD.filter((b) => b.d - d0 <= 1).map((b) => b.id);
}

/** Spec §4.5: some straight path from C to some part of B is clear (sweeping between the edge paths). */
export function clearPathAny(C: PointMm, B: GeoBall, balls: readonly GeoBall[], exempt: ReadonlySet<string>, o: GeoOptions, samples = 181): boolean {
  const a = edgeAngle(C, B, o.R) * (1 - 1e-9);
  for (let k = 0; k < samples; k++) {
    const th = -a + (2 * a * k) / (samples - 1);
    const P = contactPoint(C, B, th, o.R);
    if (P && checkSegment(C, P, balls, exempt, o).free) return true;
  }
  return false;
}

/** Spec §4.5: B can be struck centre-on (a full ball) along a clear path. */
export function fullBallPath(C: PointMm, B: GeoBall, balls: readonly GeoBall[], exempt: ReadonlySet<string>, o: GeoOptions): boolean {
  const P = contactPoint(C, B, 0, o.R)!;
  return checkSegment(C, P, balls, exempt, o).free;
}

/** In the D (spec §1): on the baulk side of the line and within the radius; on the line counts as in. */
export function inD(p: PointMm, table: TableProfile, epsMm: number): boolean {
  const centre = table.spots.brown!;
  return p.y <= centre.y + epsMm && dist(p, centre) <= table.dRadius! + epsMm;
}

/** Signed distance outside the D (negative inside), mm: for the ±3 mm review band. */
export function dLineDistance(p: PointMm, table: TableProfile): number {
  const centre = table.spots.brown!;
  return Math.max(p.y - centre.y, dist(p, centre) - table.dRadius!);
}

/** Candidate cue-ball positions in the D: a grid plus the arc and the baulk line (spec §4.3). */
export function dPoints(table: TableProfile, stepMm: number, R: number): PointMm[] {
  const c = table.spots.brown!;
  const r = table.dRadius!;
  const pts: PointMm[] = [];
  // The grid is centred on the brown spot, so a mirrored table samples mirrored points.
  const n = Math.floor(r / stepMm);
  for (let j = 0; j <= n; j++) {
    const y = c.y - j * stepMm;
    for (let i = -n; i <= n; i++) {
      const x = c.x + i * stepMm;
      if (Math.hypot(x - c.x, y - c.y) <= r) pts.push({ x, y });
    }
  }
  const arcSteps = 2 * Math.ceil((Math.PI * r) / stepMm / 2); // even: symmetric about the centre line
  for (let k = 0; k <= arcSteps; k++) {
    const a = Math.PI + (Math.PI * k) / arcSteps; // from left (π) through the bottom (3π/2) to right (2π)
    pts.push({ x: c.x + r * Math.cos(a), y: c.y + r * Math.sin(a) });
  }
  // A cue ball must fit on the bed: keep centres at least R from the cushion noses.
  return pts.filter((p) => p.x >= R && p.x <= table.bed.width - R && p.y >= R);
}

/**
 * Cue ball in hand: snookered only if snookered from every point of the D where the cue ball can
 * be placed (not overlapping a ball). Returns the result for the least-snookered point found (the
 * first free one, or the common effective balls when snookered everywhere).
 */
export function snookeredInHand(
  table: TableProfile,
  ballsOn: readonly string[],
  balls: readonly GeoBall[],
  cueId: string,
  o: GeoOptions,
  stepMm: number,
): SnookerResult {
  const others = balls.filter((b) => b.id !== cueId);
  let effective: Set<string> | null = null;
  let jaw = false;
  let any = false;
  for (const p of dPoints(table, stepMm, o.R)) {
    if (others.some((b) => dist(b, p) < 2 * o.R)) continue;
    any = true;
    const r = snookeredAt(p, ballsOn, others, cueId, o);
    jaw ||= r.jaw;
    if (!r.snookered) return { snookered: false, effective: [], perBall: r.perBall, jaw };
    const e: Set<string> = new Set(r.effective);
    effective = effective === null ? e : new Set<string>([...(effective as Set<string>)].filter((id) => e.has(id)));
  }
  if (!any) return { snookered: false, effective: [], perBall: [], jaw };
  return { snookered: true, effective: [...(effective ?? [])], perBall: [], jaw };
}

/** Balls whose centres are within 2R + gap of the cue ball (touching-ball candidates). */
export function touchingBalls(C: PointMm, candidates: readonly GeoBall[], R: number, gapMm: number): string[] {
  return candidates.filter((b) => dist(C, b) <= 2 * R + gapMm).map((b) => b.id);
}

/** Pocket jaw noses from the profile's pocket mouths (two per pocket, on the cushion noses). */
export function jawPoints(table: TableProfile): PointMm[] {
  const { width: W, length: L } = table.bed;
  const out: PointMm[] = [];
  for (const [id, p] of Object.entries(table.pockets)) {
    if (!p) continue;
    const m = p.mouth;
    if (id === 'ML' || id === 'MR') {
      out.push({ x: p.x, y: p.y - m / 2 }, { x: p.x, y: p.y + m / 2 });
    } else {
      // Corner mouths span the diagonal; the noses sit m/√2 from the corner along each cushion.
      const k = m / Math.SQRT2;
      const sx = p.x === 0 ? 1 : -1;
      const sy = p.y === 0 ? 1 : -1;
      out.push({ x: p.x + sx * k, y: p.y }, { x: p.x, y: p.y + sy * k });
    }
  }
  return out.filter((q) => q.x >= 0 && q.x <= W && q.y >= 0 && q.y <= L);
}
