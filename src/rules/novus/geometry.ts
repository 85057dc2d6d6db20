/**
 * Novus board geometry on contract coordinates (origin at player 0's bottom-left corner, x across,
 * y along, mm). Pure functions over a `NovusBoard` built once from the table profile.
 *
 * The core of Novus is the hole-visibility model of spec §1.1: a painted line is *visible* through
 * a disc's hole when the hole disc overlaps the painted strip. Each predicate returns the signed
 * margin (mm) to its boundary as well as the answer, so the engine can turn an answer that would
 * flip within the measurement uncertainty into a review flag (spec: ASSISTED within ±1 mm).
 */
import type { InputErrorInfo } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';
import type { PointMm, TableProfile } from '../../core/table.js';

export type Player = 0 | 1;

/** Everything the rules need of a Novus board, resolved from a cueref.table/1 profile. */
export interface NovusBoard {
  /** Side of the square playing surface, mm. */
  sizeMm: number;
  pawnRadiusMm: number;
  strikerRadiusMm: number;
  pawnHoleRadiusMm: number;
  strikerHoleRadiusMm: number;
  /** Own edge (cushion face) to the centre of the zone line, mm (spec d_line). */
  zoneLineMm: number;
  zoneLineWidthMm: number;
  /** Left/right edge to the centre of a side line, mm. */
  sideLineInsetMm: number;
  centre: PointMm;
  /** Centre-circle radius to the line centre, mm (spec R_c). */
  circleRadiusMm: number;
  circleLineWidthMm: number;
  /**
   * A pawn placed along an edge keeps its centre this far from the corner along the edge, mm, so
   * a placed pawn never hangs over a pocket mouth. Derived from the largest pocket mouth.
   */
  cornerClearanceMm: number;
}

/**
 * Hole-visibility answers closer than this to their boundary (mm) are flagged for review: the
 * spec's ±1 mm band (parallax of a single top camera hides or shows thin line slivers).
 */
export const VISIBILITY_UNCERTAINTY_MM = 1;
/** Two discs whose gap is under this (mm) touch (tracking noise, not a gap a referee would see). */
export const TOUCH_TOLERANCE_MM = 0.5;
/** Gap left between a placed pawn and its neighbours, mm: placing must not move any pawn (§9). */
export const PLACEMENT_GAP_MM = 0.5;

export function boardFromProfile(t: TableProfile): Result<NovusBoard, InputErrorInfo> {
  const bad = (field: string, message: string) => err<InputErrorInfo>({ code: 'BAD_TABLE_PROFILE', field: `table.${field}`, message });
  if (t.game !== 'novus') return bad('game', `the table profile is for ${t.game}, not novus`);
  const size = t.bed.width;
  if (Math.abs(t.bed.length - t.bed.width) > 1e-6) {
    return bad('bed', `a Novus board is square: width ${t.bed.width} mm and length ${t.bed.length} mm differ; give equal values`);
  }
  const zoneLineMm = t.zoneLineMm ?? size / 10;
  const zoneLineWidthMm = t.zoneLineWidthMm ?? 3;
  const circleRadiusMm = t.centreCircleRadiusMm ?? size / 10;
  const circleLineWidthMm = t.centreCircleLineWidthMm ?? zoneLineWidthMm;
  const pawnRadiusMm = t.ballDiameter / 2;
  const strikerRadiusMm = t.cueBallDiameter / 2;
  const pawnHoleRadiusMm = t.pawnHoleRadiusMm ?? pawnRadiusMm * 0.375;
  const strikerHoleRadiusMm = t.strikerHoleRadiusMm ?? strikerRadiusMm * 0.37;
  const sideLineInsetMm = t.sideLineInsetMm ?? zoneLineMm;
  if (pawnHoleRadiusMm >= pawnRadiusMm) return bad('pawnHoleRadiusMm', `the pawn hole radius ${pawnHoleRadiusMm} mm must be smaller than the pawn radius ${pawnRadiusMm} mm`);
  if (strikerHoleRadiusMm >= strikerRadiusMm) return bad('strikerHoleRadiusMm', `the striker hole radius ${strikerHoleRadiusMm} mm must be smaller than the striker radius ${strikerRadiusMm} mm`);
  if (zoneLineMm + zoneLineWidthMm / 2 >= size / 2 - circleRadiusMm) {
    return bad('zoneLineMm', `the zone line at ${zoneLineMm} mm reaches the centre circle (radius ${circleRadiusMm} mm) on a ${size} mm board; measure the lines again`);
  }
  if (zoneLineMm - zoneLineWidthMm / 2 <= 2 * strikerHoleRadiusMm) {
    return bad('zoneLineMm', `the zone line at ${zoneLineMm} mm leaves no room for the striker's hole (radius ${strikerHoleRadiusMm} mm) in the edge zone`);
  }
  if (2 * sideLineInsetMm + 4 * strikerRadiusMm >= size) {
    return bad('sideLineInsetMm', `side lines ${sideLineInsetMm} mm from each edge leave no room for the striker on a ${size} mm board`);
  }
  const mouths = Object.values(t.pockets).map((p) => p?.mouth ?? 0);
  const centre = t.spots.centre ?? { x: size / 2, y: size / 2 };
  return ok({
    sizeMm: size,
    pawnRadiusMm,
    strikerRadiusMm,
    pawnHoleRadiusMm,
    strikerHoleRadiusMm,
    zoneLineMm,
    zoneLineWidthMm,
    sideLineInsetMm,
    centre,
    circleRadiusMm,
    circleLineWidthMm,
    cornerClearanceMm: Math.max(pawnRadiusMm, ...mouths) + pawnRadiusMm,
  });
}

/** A yes/no answer and how far (mm) the measured position is from flipping it (≥ 0). */
export interface Judged {
  value: boolean;
  marginMm: number;
}

export const isUncertain = (j: Judged): boolean => j.marginMm < VISIBILITY_UNCERTAINTY_MM;

/** Distance from a point to player P's own edge face (y = 0 for player 0, y = S for player 1). */
export const distToOwnEdge = (b: NovusBoard, p: PointMm, player: Player): number => (player === 0 ? p.y : b.sizeMm - p.y);

/** Hole fully inside P's edge strip: the zone line is not visible and the hole is on the edge side. */
export function holeInEdgeStrip(b: NovusBoard, c: PointMm, holeRadiusMm: number, player: Player): Judged {
  const inner = b.zoneLineMm - b.zoneLineWidthMm / 2;
  const signed = inner - (distToOwnEdge(b, c, player) + holeRadiusMm);
  return { value: signed >= 0, marginMm: Math.abs(signed) };
}

/** Hole fully beyond P's zone line (out of the strip, line not visible). */
export function holeBeyondZoneLine(b: NovusBoard, c: PointMm, holeRadiusMm: number, player: Player): Judged {
  const outer = b.zoneLineMm + b.zoneLineWidthMm / 2;
  const signed = distToOwnEdge(b, c, player) - holeRadiusMm - outer;
  return { value: signed >= 0, marginMm: Math.abs(signed) };
}

/** P's zone line visible through a hole (spec §1.1: |dist − d_line| < r_h + w_line/2). */
export function zoneLineVisible(b: NovusBoard, c: PointMm, holeRadiusMm: number, player: Player): Judged {
  const signed = holeRadiusMm + b.zoneLineWidthMm / 2 - Math.abs(distToOwnEdge(b, c, player) - b.zoneLineMm);
  return { value: signed > 0, marginMm: Math.abs(signed) };
}

/** Hole fully inside the centre circle: |c − centre| + r_h ≤ R_c − w_c/2. */
export function holeInCentreCircle(b: NovusBoard, c: PointMm, holeRadiusMm: number): Judged {
  const signed = b.circleRadiusMm - b.circleLineWidthMm / 2 - (dist(c, b.centre) + holeRadiusMm);
  return { value: signed >= 0, marginMm: Math.abs(signed) };
}

/** A disc counts as "in the centre circle" for the side-edge route (seed 003 rule 11.4(в)) when its centre is inside the line. */
export const centreInCircle = (b: NovusBoard, c: PointMm): boolean => dist(c, b.centre) <= b.circleRadiusMm;

/**
 * Dark pawn for its owner (spec §1.1; seed 003 rule 11.2): hole fully inside the owner's edge strip
 * or fully inside the centre circle. The margin is that of whichever test decides.
 */
export function pawnIsDark(b: NovusBoard, c: PointMm, owner: Player): Judged & { field: 'strip' | 'circle' | null } {
  const strip = holeInEdgeStrip(b, c, b.pawnHoleRadiusMm, owner);
  const circle = holeInCentreCircle(b, c, b.pawnHoleRadiusMm);
  if (strip.value) return { ...strip, field: 'strip' };
  if (circle.value) return { ...circle, field: 'circle' };
  // Light: the nearer of the two boundaries decides how sure we are.
  return { value: false, marginMm: Math.min(strip.marginMm, circle.marginMm), field: null };
}

/** Any pawn (own or opponent) whose hole lies fully inside P's edge strip (spec §4 first_contact_in_own_zone). */
export const pawnInOwnStrip = (b: NovusBoard, c: PointMm, player: Player): Judged => holeInEdgeStrip(b, c, b.pawnHoleRadiusMm, player);

export type PlacementFault =
  | { code: 'ZONE_LINE_VISIBLE'; marginMm: number; detail: string }
  | { code: 'BEYOND_SIDE_LINE'; marginMm: number; detail: string }
  | { code: 'OFF_OWN_EDGE'; marginMm: number; detail: string }
  | { code: 'TOUCHES_PAWN'; marginMm: number; detail: string; pawn: string };

/**
 * Striker placement (spec §1.1; seed 003 rules 12.3–12.4): the hole fully inside P's edge zone —
 * between the own edge, the zone line and both side lines, with no line visible through it — and
 * the striker touching no pawn. (Lying flat is not observable top-down: a `foul` event covers it.)
 */
export function strikerPlacementFaults(b: NovusBoard, pos: PointMm, player: Player, pawns: Readonly<Record<string, PointMm>>): PlacementFault[] {
  const faults: PlacementFault[] = [];
  const r = b.strikerHoleRadiusMm;
  const strip = holeInEdgeStrip(b, pos, r, player);
  if (!strip.value) {
    faults.push({ code: 'ZONE_LINE_VISIBLE', marginMm: strip.marginMm, detail: `the striker's hole is not fully inside the edge zone (the zone line shows through it; ${strip.marginMm.toFixed(1)} mm over)` });
  }
  const own = distToOwnEdge(b, pos, player);
  if (own < b.strikerRadiusMm - TOUCH_TOLERANCE_MM) {
    faults.push({ code: 'OFF_OWN_EDGE', marginMm: b.strikerRadiusMm - own, detail: `the striker's centre is ${own.toFixed(1)} mm from the own edge, less than its radius ${b.strikerRadiusMm} mm` });
  }
  const lo = b.sideLineInsetMm + b.zoneLineWidthMm / 2;
  const hi = b.sizeMm - b.sideLineInsetMm - b.zoneLineWidthMm / 2;
  const left = pos.x - r - lo;
  const right = hi - (pos.x + r);
  if (left < 0 || right < 0) {
    const m = -Math.min(left, right);
    faults.push({ code: 'BEYOND_SIDE_LINE', marginMm: m, detail: `a side line shows through the striker's hole or the striker is beyond it towards the pocket (${m.toFixed(1)} mm)` });
  }
  for (const [id, p] of Object.entries(pawns)) {
    const gap = dist(pos, p) - b.strikerRadiusMm - b.pawnRadiusMm;
    if (gap < TOUCH_TOLERANCE_MM) {
      faults.push({ code: 'TOUCHES_PAWN', marginMm: Math.abs(gap), pawn: id, detail: `the striker touches pawn '${id}' (gap ${gap.toFixed(1)} mm)` });
    }
  }
  return faults;
}

export const dist = (a: PointMm, b: PointMm): number => Math.hypot(a.x - b.x, a.y - b.y);

export interface Disc extends PointMm {
  r: number;
}

const isFree = (p: PointMm, r: number, blockers: readonly Disc[]): boolean =>
  blockers.every((o) => dist(p, o) >= r + o.r + PLACEMENT_GAP_MM - 1e-9);

const onBoard = (b: NovusBoard, p: PointMm, r: number): boolean => p.x >= r && p.x <= b.sizeMm - r && p.y >= r && p.y <= b.sizeMm - r;

/**
 * The free position nearest to `target` on the horizontal line y = `y`, with x inside [xMin, xMax].
 * Blockers cut open intervals out of the line; the answer is the target itself or an interval end.
 * `preferSign` breaks exact ties (+1: larger x first).
 */
export function nearestFreeOnLine(
  y: number,
  targetX: number,
  r: number,
  blockers: readonly Disc[],
  xMin: number,
  xMax: number,
  preferSign: 1 | -1,
): number | null {
  const cuts: [number, number][] = [];
  for (const o of blockers) {
    const reach = r + o.r + PLACEMENT_GAP_MM;
    const dy = Math.abs(o.y - y);
    if (dy >= reach) continue;
    const half = Math.sqrt(reach * reach - dy * dy);
    cuts.push([o.x - half, o.x + half]);
  }
  const candidates = [targetX, ...cuts.flat()].filter((x) => x >= xMin - 1e-9 && x <= xMax + 1e-9);
  let best: number | null = null;
  for (const x of candidates) {
    if (cuts.some(([a, c]) => x > a + 1e-7 && x < c - 1e-7)) continue;
    if (best === null) {
      best = x;
      continue;
    }
    const d = Math.abs(x - targetX);
    const bd = Math.abs(best - targetX);
    if (d < bd - 1e-6 || (Math.abs(d - bd) <= 1e-6 && Math.sign(x - targetX) === preferSign)) best = x;
  }
  return best;
}

/**
 * The free position nearest to `target` anywhere on the board (stacked pawns, returns to a taken
 * spot). Searches rings 1 mm apart; a board of 1 m has room, so the search ends quickly.
 */
export function nearestFree(b: NovusBoard, target: PointMm, r: number, blockers: readonly Disc[]): PointMm {
  const clamp = (p: PointMm): PointMm => ({ x: Math.min(Math.max(p.x, r), b.sizeMm - r), y: Math.min(Math.max(p.y, r), b.sizeMm - r) });
  const t = clamp(target);
  if (isFree(t, r, blockers)) return t;
  for (let ring = 1; ring < b.sizeMm; ring += 1) {
    const steps = Math.max(12, Math.ceil((2 * Math.PI * ring) / 2));
    let best: PointMm | null = null;
    for (let k = 0; k < steps; k++) {
      const a = (2 * Math.PI * k) / steps;
      const p = { x: t.x + ring * Math.cos(a), y: t.y + ring * Math.sin(a) };
      if (onBoard(b, p, r) && isFree(p, r, blockers) && (best === null || dist(p, target) < dist(best, target))) best = p;
    }
    if (best) return best;
  }
  return t; // a full board: nothing better exists; the review flag on the call says so
}
