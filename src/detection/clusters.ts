/**
 * Second looks at clusters. At the whole-frame scale a broadcast frame's balls are ~4.5 input px in
 * radius and the output stride is 4: touching balls (centres one diameter apart, ~2 cells) come
 * out as one blurred peak, so a pack of reds reads as a few balls. Seen again at twice the size the
 * same model splits them (Bucharest Task1: reds short 60 → 22 with the whole frame at 2×), but
 * the whole frame at 2× costs 4× the time and finds ball-sized things the coarse look rightly
 * ignored (the cream pocket leathers read as `white`). So only the clusters the coarse look found
 * are looked at again, and what the fine look adds is fused with the coarse balls (`fuseLooks`).
 * Pure: the detector runs the crops (`BallDetector.detect`).
 */
import type { Mat3 } from '../core/mat3.js';
import type { DetectionRow } from './detections.js';
import { cropInput, type FrameBox } from './preprocess.js';

/** Two coarse balls are in one cluster when their gap is under this many radii. */
export const CLUSTER_GAP_RADII = 2;
/** A single coarse ball this many times the frame's median radius is looked at again. */
export const BLOB_RADII = 1.4;
/** The fine look brings a ball to this radius in input px (about twice the typical training size). */
export const FINE_RADIUS_INPUT_PX = 9;
/** Only worth a second look when it enlarges by at least this much over the coarse look. */
const MIN_GAIN = 1.5;
/** Context around the members' discs in radii, so the balls at the cluster's edge are whole in the crop. */
const CONTEXT_RADII = 3;
/** The core (where fine replaces coarse): the members' discs plus this many radii. */
const CORE_MARGIN_RADII = 0.6;

export interface ClusterLook {
  /** The coarse balls this look replaces (indices into the coarse rows). */
  members: number[];
  /** Core box in frame px: the fine balls with centres inside it count. */
  core: FrameBox;
  /** A ball's radius in frame px the look was sized by. */
  ballRadiusPx: number;
  /** Network input size for the crop. */
  width: number;
  height: number;
  /** Input px → frame px. */
  inputToFrame: Mat3;
}

/**
 * Which clusters get a second look:
 * - `blobs`: groups with a merged blob in them (a coarse "ball" over BLOB_RADII times a ball's
 *   radius) — what video from a low angle uses: balls the coarse look saw one by one are left as
 *   they are, so a pack does not flicker between the two looks from frame to frame;
 * - `groups`: also groups of balls the coarse look saw one by one (gaps under CLUSTER_GAP_RADII
 *   radii) — for still images, where a pack's missing balls are more often hidden between seen ones
 *   (Bucharest Task1: 55.1 % → 65.3 % of frames counted exactly); on video the balls these looks
 *   add come and go from frame to frame and read as balls touched or leaving the table (the
 *   rendered broadcast break S01 got false fouls) — except from above, where a pack's balls are
 *   apart in the picture and the look finds the same ones every frame: snooker video seen from
 *   above asks for `groups` per call (pipeline/outlineCentres.ts, viewDetectorFor).
 */
export type LookMode = 'blobs' | 'groups';

export interface LookOptions {
  /** Which clusters (default `blobs`). */
  mode?: LookMode;
  /** A ball's radius in frame px when known (the calibration), instead of the median of the rows. */
  ballRadiusPx?: number;
  /** Largest crop, input px (a huge cluster is looked at less enlarged, or not at all when that gains too little). */
  maxInputPx?: number;
}

/**
 * The clusters worth a second look (see LookMode): connected groups of coarse balls whose gaps
 * are under CLUSTER_GAP_RADII radii, with a merged blob in them or (`groups`) of ≥ 2 balls, each
 * with the crop that shows it at FINE_RADIUS_INPUT_PX. `coarseScale` is the coarse look's input px
 * per frame px.
 */
export function clusterLooks(rows: readonly DetectionRow[], coarseScale: number, frame: { width: number; height: number }, o: LookOptions = {}): ClusterLook[] {
  const { mode = 'blobs', ballRadiusPx, maxInputPx = 640 * 384 } = o;
  const n = rows.length;
  const parent = rows.map((_, i) => i);
  const find = (i: number): number => (parent[i] === i ? i : (parent[i] = find(parent[i]!)));
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const a = rows[i]!, b = rows[j]!;
      const gap = Math.hypot(a.u - b.u, a.v - b.v) - a.r - b.r;
      if (gap < (CLUSTER_GAP_RADII * (a.r + b.r)) / 2) parent[find(i)] = find(j);
    }
  }
  const groups = new Map<number, number[]>();
  for (let i = 0; i < n; i++) {
    const g = find(i);
    const list = groups.get(g);
    if (list) list.push(i);
    else groups.set(g, [i]);
  }
  // A ball's radius from the whole frame's balls, most of them single: a merged pack reads as one
  // large ball, so the cluster's own radii overstate it (Bucharest: 16 px for a pack of 8 px reds).
  // A caller that knows the ball's size (the calibration) says so: a crop may hold only the pack.
  const rs = rows.map((b) => b.r).sort((a, b) => a - b);
  const r = ballRadiusPx ?? rs[rs.length >> 1] ?? 0;
  const looks: ClusterLook[] = [];
  for (const members of groups.values()) {
    // Only where the coarse look merged balls: a "ball" much larger than the frame's balls
    // (Bucharest: a pack of ten reds read as one red of twice the radius), alone or in a group.
    const blob = members.some((i) => rows[i]!.r > BLOB_RADII * r);
    if (!blob && (mode === 'blobs' || members.length < 2)) continue;
    let u0 = Infinity, v0 = Infinity, u1 = -Infinity, v1 = -Infinity;
    for (const i of members) {
      const b = rows[i]!;
      u0 = Math.min(u0, b.u - b.r);
      v0 = Math.min(v0, b.v - b.r);
      u1 = Math.max(u1, b.u + b.r);
      v1 = Math.max(v1, b.v + b.r);
    }
    const core = { u0: u0 - CORE_MARGIN_RADII * r, v0: v0 - CORE_MARGIN_RADII * r, u1: u1 + CORE_MARGIN_RADII * r, v1: v1 + CORE_MARGIN_RADII * r };
    // The crop: the core plus context, clipped to the frame.
    const crop = { u0: Math.max(0, u0 - CONTEXT_RADII * r), v0: Math.max(0, v0 - CONTEXT_RADII * r), u1: Math.min(frame.width, u1 + CONTEXT_RADII * r), v1: Math.min(frame.height, v1 + CONTEXT_RADII * r) };
    let s = FINE_RADIUS_INPUT_PX / r; // input px per frame px
    const area = (crop.u1 - crop.u0) * (crop.v1 - crop.v0) * s * s;
    if (area > maxInputPx) s *= Math.sqrt(maxInputPx / area);
    if (s < coarseScale * MIN_GAIN) continue;
    looks.push({ members, ballRadiusPx: r, core, ...cropInput(crop, s, frame) });
  }
  return looks;
}

/**
 * The coarse balls plus what the enlarged looks add: the balls a look finds in its core that no
 * coarse ball is on, in place of the merged blobs (members over BLOB_RADII times a ball's radius)
 * they split. On video (`blobs`) a coarse ball of a ball's size is kept where the coarse look put
 * it, found again or not: a pack seen twice over would jitter from frame to frame between the two
 * looks' positions, read as balls touched before the strike. On stills (`groups`) a member the
 * enlarged look finds again takes its place. Either way a member it does not find is kept (a
 * blurred white at the pack, seen at a size the model rarely saw, might not be found again).
 */
export function fuseLooks(coarse: readonly DetectionRow[], looks: readonly ClusterLook[], fine: readonly (readonly DetectionRow[])[], mode: LookMode = 'blobs'): DetectionRow[] {
  const inCore = looks.map((l, k) => (fine[k] ?? []).filter((b) => b.u >= l.core.u0 && b.u <= l.core.u1 && b.v >= l.core.v0 && b.v <= l.core.v1));
  const replaced = new Set<number>();
  looks.forEach((l, k) => {
    for (const i of l.members) {
      const m = coarse[i]!;
      // Stills (`groups`): a ball found again takes the enlarged look's place and kind.
      if ((mode === 'groups' || m.r > BLOB_RADII * l.ballRadiusPx) && inCore[k]!.some((b) => Math.hypot(b.u - m.u, b.v - m.v) < Math.max(m.r, b.r))) replaced.add(i);
    }
  });
  const out: DetectionRow[] = coarse.filter((_, i) => !replaced.has(i));
  for (const balls of inCore) {
    for (const b of balls) {
      // Two balls' centres are at least a diameter apart: on video a fine ball within 3/4 of one of
      // a ball kept from the coarse look is that ball seen again a little off (on the rendered
      // overhead S08 a red 0.7 D from a kept one made the layout impossible). On stills the balls
      // found again have already replaced theirs, and a pack's coarse balls are often off by more:
      // there only a ball within a radius is the same (Bucharest Task1: 55.1 % of frames counted
      // exactly with 3/4 of a diameter, 65.3 % with a radius).
      const same = mode === 'groups' ? 1 : 1.5;
      if (out.some((o) => Math.hypot(o.u - b.u, o.v - b.v) < same * Math.max(o.r, b.r))) continue;
      out.push(b);
    }
  }
  return out;
}
