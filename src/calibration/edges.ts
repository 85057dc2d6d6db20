/**
 * From the cloth region to the four cushion-nose lines, in full-resolution frame pixels.
 *
 * The cloth region's outline is the back of the cushions (where the rail's wood begins); the bed
 * ends at the cushion *nose*, an edge inside the cloth a cushion-width further in. Along each side
 * we take short profiles across the outline, find the outer edge (non-cloth → cloth) and every
 * clear colour-gradient peak within a cushion-wide band inside it, find the runs of peaks that line
 * up along the side (sequential RANSAC on parabolas, so a lens-bent cushion still counts), and keep
 * the innermost well-supported run: the nose. Balls, hands and cues over the cushion do not line up
 * and drop out.
 */
import { isCloth, maskBoundary, type ClothColour, type ClothMask } from './cloth.js';
import { fitLineTls, intersect, lineDistance, ransacLine, rng, signedArea, solveLinear, type Line, type Pt } from './geometry.js';
import { rgbToHsv, sampleRgb, type RgbFrame } from './image.js';

export interface SideTrace {
  /** Outer (cushion back) edge points and the nose points, frame pixels. */
  outer: Pt[];
  nose: Pt[];
  /** Median inward distance nose − outer, pixels (0 when the nose could not be told apart). */
  noseOffsetPx: number;
  /** True when the nose edge was found; false when the outer edge stands in for it. */
  noseFound: boolean;
}

export interface Outline {
  /** Quadrilateral from the cloth region, frame pixels, in the order of the region's hull. */
  quad: [Pt, Pt, Pt, Pt];
  sides: [SideTrace, SideTrace, SideTrace, SideTrace];
}

/**
 * The four sides of a convex hull: consecutive hull edges that turn by less than `maxTurnDeg` are
 * merged into chains (a lens-curved side is several short edges), the four longest chains are the
 * sides (the chamfers pockets cut into the corners are short), and adjacent sides meet at the corners.
 */
export function hullQuad(hull: ReadonlyArray<Pt>, maxTurnDeg = 12): Pt[] | null {
  const n = hull.length;
  if (n < 4) return null;
  const ang = (i: number) => {
    const a = hull[i]!, b = hull[(i + 1) % n]!;
    return Math.atan2(b[1] - a[1], b[0] - a[0]);
  };
  const turn = (a: number, b: number) => Math.abs(Math.atan2(Math.sin(b - a), Math.cos(b - a))) * (180 / Math.PI);
  // Start the chains at the sharpest corner so no chain wraps around the start.
  let start = 0, sharpest = -1;
  for (let i = 0; i < n; i++) {
    const t = turn(ang((i + n - 1) % n), ang(i));
    if (t > sharpest) {
      sharpest = t;
      start = i;
    }
  }
  const chains: { pts: Pt[]; len: number; order: number }[] = [];
  let cur: { pts: Pt[]; len: number; order: number } | null = null;
  let dir = 0;
  for (let k = 0; k < n; k++) {
    const i = (start + k) % n;
    const a = hull[i]!, b = hull[(i + 1) % n]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const d = ang(i);
    if (!cur || turn(dir, d) > maxTurnDeg) {
      cur = { pts: [a], len: 0, order: k };
      chains.push(cur);
      dir = d;
    }
    cur.pts.push(b);
    cur.len += len;
  }
  if (chains.length < 4) return null;
  const sides = [...chains].sort((p, q) => q.len - p.len).slice(0, 4).sort((p, q) => p.order - q.order);
  const lines = sides.map((c) => fitLineTls([c.pts[0]!, c.pts[c.pts.length - 1]!]));
  const out: Pt[] = [];
  for (let i = 0; i < 4; i++) {
    const p = intersect(lines[(i + 3) % 4]!, lines[i]!);
    if (!p) return null;
    out.push(p);
  }
  return out;
}

/** Four corners of the cloth region, refined by a line fit per side on the mask outline. */
export function clothQuad(cloth: ClothMask): [Pt, Pt, Pt, Pt] | null {
  if (cloth.hull.length < 4) return null;
  let quad = hullQuad(cloth.hull);
  if (!quad || Math.abs(signedArea(quad)) < 1) return null;
  // Refit each side on the mask boundary pixels nearest to it (the hull's chords cut corners).
  const s = cloth.scale;
  const boundary = maskBoundary(cloth.mask, cloth.width, cloth.height).map(([x, y]) => [(x + 0.5) * s, (y + 0.5) * s] as Pt);
  const lines: Line[] = [];
  for (let i = 0; i < 4; i++) {
    const a = quad[i]!, b = quad[(i + 1) % 4]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const l0 = fitLineTls([a, b])!;
    const near = boundary.filter((p) => {
      const t = ((p[0] - a[0]) * (b[0] - a[0]) + (p[1] - a[1]) * (b[1] - a[1])) / (len * len);
      return t > 0.15 && t < 0.85 && Math.abs(lineDistance(l0, p[0], p[1])) < 0.04 * len + 3 * s;
    });
    const fit = ransacLine(near, 1.5 * s, 200, 7 + i);
    lines.push(fit && fit.inliers.length > 10 ? fit.line : l0);
  }
  const out: Pt[] = [];
  for (let i = 0; i < 4; i++) {
    const p = intersect(lines[(i + 3) % 4]!, lines[i]!);
    if (!p) return null;
    out.push(p);
  }
  quad = out;
  return quad as [Pt, Pt, Pt, Pt];
}

function median(xs: number[]): number {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** Parabolic sub-sample peak position around index i of g. */
function subPeak(g: Float64Array, i: number): number {
  if (i <= 0 || i >= g.length - 1) return i;
  const a = g[i - 1]!, b = g[i]!, c = g[i + 1]!;
  const d = a - 2 * b + c;
  return d < 0 ? i + (0.5 * (a - c)) / d : i;
}

export interface TraceOptions {
  /** How far inside the outline to look for the nose, as a fraction of the distance to the opposite side. */
  cushionBandFrac?: number;
  /**
   * A gradient peak counts as a cushion edge when it reaches this fraction of the band's strongest:
   * lower finds faint noses but also ball shadows near the cushion (the offset vote removes most).
   */
  innerPeakFrac?: number;
  /**
   * The playing surface runs to the outer edge: no cushion nose inside it to look for (a Novus
   * board meets its frame; a line drawn near the edge, or a compressed video's shading along the
   * frame, would otherwise be taken for a nose).
   */
  noCushions?: boolean;
}

/**
 * Trace the outer edge and the cushion nose along each side of `quad`.
 * Profiles are sampled every `stepPx` = 0.5 px, which with the parabolic peak fit gives edge
 * positions to about a tenth of a pixel on clean edges.
 */
export function traceSides(frame: RgbFrame, colours: ClothColour | ClothColour[], quad: [Pt, Pt, Pt, Pt], opts: TraceOptions = {}): Outline {
  // Colours are tried in turn per side: a loose one first (cushions in shadow still count as cloth,
  // so the outer edge is the rail's), a strict one when the loose one takes the rail in too.
  const colourList = Array.isArray(colours) ? colours : [colours];
  const bandFrac = opts.cushionBandFrac ?? 0.06;
  const innerPeakFrac = opts.innerPeakFrac ?? 0.25;
  const cx = quad.reduce((s, p) => s + p[0], 0) / 4, cy = quad.reduce((s, p) => s + p[1], 0) / 4;
  const step = 0.5;
  const rgb = new Float64Array(3);
  const sides: SideTrace[] = [];
  for (let i = 0; i < 4; i++) {
   for (let attempt = 0; attempt < colourList.length; attempt++) {
    const colour = colourList[attempt]!;
    const a = quad[i]!, b = quad[(i + 1) % 4]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    const dx = (b[0] - a[0]) / len, dy = (b[1] - a[1]) / len;
    let nx = -dy, ny = dx;
    if ((cx - a[0]) * nx + (cy - a[1]) * ny < 0) {
      nx = -nx;
      ny = -ny;
    }
    // Distance to the opposite side, for the cushion band and the outward search range.
    const o0 = quad[(i + 2) % 4]!, o1 = quad[(i + 3) % 4]!;
    const across = 0.5 * (((o0[0] + o1[0]) / 2 - (a[0] + b[0]) / 2) * nx + ((o0[1] + o1[1]) / 2 - (a[1] + b[1]) / 2) * ny);
    const band = Math.max(6, bandFrac * 2 * across);
    const outward = Math.max(6, 0.03 * 2 * across);
    const nSamples = Math.max(40, Math.min(400, Math.round(len / 3)));
    const nProf = Math.round((outward + band) / step) + 1;
    const cloth = new Uint8Array(nProf);
    const col = new Float64Array(nProf * 3);
    const outer: Pt[] = [];
    const cand: { p: Pt; off: number; g: number; profile: number }[] = [];
    let profiles = 0;
    for (let k = 0; k < nSamples; k++) {
      const t = 0.02 + (0.96 * k) / (nSamples - 1);
      const bx = a[0] + dx * len * t, by = a[1] + dy * len * t;
      let valid = true;
      for (let j = 0; j < nProf; j++) {
        const s = -outward + j * step;
        if (!sampleRgb(frame, bx + nx * s, by + ny * s, rgb)) {
          valid = false;
          break;
        }
        col[3 * j] = rgb[0]!;
        col[3 * j + 1] = rgb[1]!;
        col[3 * j + 2] = rgb[2]!;
        const [h, sat, v] = rgbToHsv(rgb[0]!, rgb[1]!, rgb[2]!);
        cloth[j] = isCloth(colour, h, sat, v) ? 1 : 0;
      }
      if (!valid) continue;
      // Colour gradient magnitude along the profile (central difference over 1 px).
      const g = new Float64Array(nProf);
      for (let j = 2; j < nProf - 2; j++) {
        const d0 = col[3 * (j + 2)]! - col[3 * (j - 2)]!, d1 = col[3 * (j + 2) + 1]! - col[3 * (j - 2) + 1]!, d2 = col[3 * (j + 2) + 2]! - col[3 * (j - 2) + 2]!;
        g[j] = Math.hypot(d0, d1, d2);
      }
      // Outer edge: the first non-cloth → cloth change followed by a mostly-cloth run of 6 px.
      const run = Math.round(6 / step);
      let edge = -1;
      for (let j = 1; j + run < nProf; j++) {
        if (cloth[j - 1] || !cloth[j]) continue;
        let c = 0;
        for (let q = j; q < j + run; q++) c += cloth[q]!;
        if (c >= 0.8 * run) {
          edge = j;
          break;
        }
      }
      if (edge < 0) continue;
      // Snap to the gradient peak within ±2 px of the colour-class change.
      let gi = edge;
      for (let j = Math.max(2, edge - 4); j <= Math.min(nProf - 3, edge + 4); j++) if (g[j]! > g[gi]!) gi = j;
      const e = subPeak(g, gi);
      const sOuter = -outward + e * step;
      outer.push([bx + nx * sOuter, by + ny * sOuter]);
      // Nose candidates: every local gradient peak between the outer edge's lobe and the band end
      // that reaches `innerPeakFrac` of the band's strongest.
      const from = gi + Math.round(3 / step);
      const to = Math.min(nProf - 3, gi + Math.round(band / step));
      let strongest = 0;
      for (let j = from; j <= to; j++) strongest = Math.max(strongest, g[j]!);
      if (strongest <= 0) continue;
      // A peak must also stand out of the band's texture (cloth weave, JPEG noise, a lighting
      // gradient): dense weak peaks would otherwise line up by chance along a parabola.
      const bandG: number[] = [];
      for (let j = from; j <= to; j++) bandG.push(g[j]!);
      const floor = 2 * median(bandG) + 2;
      const minPeak = Math.max(innerPeakFrac * strongest, floor);
      for (let j = from; j <= to; j++) {
        if (g[j]! < minPeak || g[j]! < g[j - 1]! || g[j]! < g[j + 1]!) continue;
        const sNose = -outward + subPeak(g, j) * step;
        cand.push({ p: [bx + nx * sNose, by + ny * sNose], off: sNose - sOuter, g: g[j]!, profile: k });
      }
      profiles++;
    }
    // The cushion's face often shows as a band (lit or in shadow) between the cushion top and the
    // bed, so several edges run along the side: find the straight ones (sequential RANSAC, each
    // backed by a good share of the profiles) and take the innermost — the nose. Ball outlines and
    // shadows do not line up and are left out.
    // Fitted as parabolas in the side's own frame (t along, s inward): a lens bends straight
    // cushions into near-parabolic arcs, and the lens is estimated afterwards from these points.
    const mx = (a[0] + b[0]) / 2, my = (a[1] + b[1]) / 2;
    const local = (p: Pt): Pt => [(p[0] - mx) * dx + (p[1] - my) * dy, (p[0] - mx) * nx + (p[1] - my) * ny];
    const lines: { pts: Pt[]; depth: number; support: number }[] = [];
    let pool = cand.map((c) => ({ ...c, l: local(c.p) }));
    const maxSag = 0.03 * len;
    for (let round = 0; round < 4 && pool.length >= 8; round++) {
      const fit = ransacParabola(pool.map((c) => c.l), 1.5, len / 2, maxSag, 400, 11 + 7 * i + round);
      if (!fit) break;
      const near = (c: { l: Pt }) => Math.abs(c.l[1] - evalPoly(fit, c.l[0])) <= 1.5;
      const onLine = pool.filter(near);
      const support = new Set(onLine.map((c) => c.profile)).size;
      pool = pool.filter((c) => !near(c));
      // Roughly parallel to the side: the slope at the middle within ±6°.
      if (Math.abs(fit[1]) > Math.tan((6 * Math.PI) / 180) || support < Math.max(8, 0.3 * profiles)) continue;
      // Cushions often show two edges a pixel or two apart (the nose line and the face below it);
      // a 1.5 px band can take half of each and tilt. Lock onto one with a tighter fit when it
      // keeps most of the run.
      let pts = onLine;
      const tight = ransacParabola(onLine.map((c) => c.l), 0.6, len / 2, maxSag, 300, 17 + 7 * i + round);
      if (tight) {
        const kept = onLine.filter((c) => Math.abs(c.l[1] - evalPoly(tight, c.l[0])) <= 0.6);
        if (kept.length >= 0.6 * onLine.length) pts = kept;
      }
      lines.push({ pts: pts.map((c) => c.p), depth: fit[0], support });
    }
    const outerFit = ransacLine(outer, 1.5, 300, 3 + i);
    // Innermost among the well-supported: at least half the support of the best-supported edge
    // (a chance alignment of noise peaks on the bed has far less).
    const topSupport = Math.max(0, ...lines.map((l) => l.support));
    const nose = lines.filter((l) => l.support >= 0.5 * topSupport).sort((p, q) => q.depth - p.depth)[0];
    if (profiles < 0.3 * nSamples && attempt + 1 < colourList.length) continue;
    if (nose && !opts.noCushions) {
      const set = new Set(nose.pts);
      const offs = cand.filter((c) => set.has(c.p)).map((c) => c.off);
      sides.push({ outer: outerFit?.inliers ?? outer, nose: nose.pts, noseOffsetPx: median(offs), noseFound: true });
    } else {
      sides.push({ outer: outerFit?.inliers ?? outer, nose: outerFit?.inliers ?? outer, noseOffsetPx: 0, noseFound: false });
    }
    break;
   }
  }
  // A side whose nose could not be told apart (a faint shadow, a player along it) falls back to its
  // outer edge moved in by the opposite side's cushion width: better than the rail's edge by a
  // whole cushion, exact for a camera square above the table (and only used near that case).
  for (let i = 0; i < 4; i++) {
    const s = sides[i]!, o = sides[(i + 2) % 4]!;
    if (s.noseFound || !o.noseFound || s.outer.length < 2) continue;
    const a = quad[i]!, b = quad[(i + 1) % 4]!;
    const len = Math.hypot(b[0] - a[0], b[1] - a[1]);
    // Only where the two sides are seen at about the same scale (no strong perspective).
    const oa = quad[(i + 2) % 4]!, ob = quad[(i + 3) % 4]!;
    const oLen = Math.hypot(ob[0] - oa[0], ob[1] - oa[1]);
    if (Math.min(len, oLen) / Math.max(len, oLen) < 0.9) continue;
    let nx = -(b[1] - a[1]) / len, ny = (b[0] - a[0]) / len;
    if ((cx - a[0]) * nx + (cy - a[1]) * ny < 0) {
      nx = -nx;
      ny = -ny;
    }
    s.nose = s.outer.map((p) => [p[0] + nx * o.noseOffsetPx, p[1] + ny * o.noseOffsetPx] as Pt);
    s.noseOffsetPx = o.noseOffsetPx;
  }
  return { quad, sides: sides as Outline['sides'] };
}


/** s = c0 + c1·t + c2·t². */
type Poly2 = [number, number, number];
const evalPoly = (c: Poly2, t: number): number => c[0] + c[1] * t + c[2] * t * t;

function fitPoly2(pts: ReadonlyArray<Pt>): Poly2 | null {
  const A = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  const r = [0, 0, 0];
  for (const [t, s] of pts) {
    const v = [1, t, t * t];
    for (let i = 0; i < 3; i++) {
      r[i]! += v[i]! * s;
      for (let j = 0; j < 3; j++) A[i]![j]! += v[i]! * v[j]!;
    }
  }
  const sol = solveLinear(A, r);
  return sol ? (sol as Poly2) : null;
}

/**
 * RANSAC parabola s(t) in a side's frame, with the sagitta over ±`halfLen` capped at `maxSag`
 * (a lens bends a cushion by a few percent of its length at most; more is a ball row or a cue).
 */
export function ransacParabola(pts: ReadonlyArray<Pt>, tol: number, halfLen: number, maxSag: number, iterations: number, seed: number): Poly2 | null {
  if (pts.length < 3) return null;
  const rand = rng(seed);
  let best: Poly2 | null = null, bestCount = -1;
  const ok = (c: Poly2) => Math.abs(c[2]) * halfLen * halfLen <= maxSag;
  for (let it = 0; it < iterations; it++) {
    const sample = [0, 1, 2].map(() => pts[Math.floor(rand() * pts.length)]!);
    const c = fitPoly2(sample);
    if (!c || !ok(c)) continue;
    let count = 0;
    for (const p of pts) if (Math.abs(p[1] - evalPoly(c, p[0])) <= tol) count++;
    if (count > bestCount) {
      bestCount = count;
      best = c;
    }
  }
  if (!best) return null;
  for (let pass = 0; pass < 3; pass++) {
    const inl = pts.filter((p) => Math.abs(p[1] - evalPoly(best!, p[0])) <= tol);
    const refit = fitPoly2(inl);
    if (!refit || !ok(refit)) break;
    best = refit;
  }
  return best;
}
