/**
 * The stroke simulator: from a strike to all balls at rest, with every contact, cushion, pot and
 * departure from the table timed by the physics.
 *
 * Method: steps of at most `maxStepS` (0.1 ms), shortened to land exactly on every phase change
 * (slide→roll, roll→stop, spin→0) and every requested sample time, so each ball's motion within a
 * step is an exact parabola. Inside a step, contacts are found by solving for the time at which
 * two balls (or a ball and a segment, or a ball and a pocket's drop line) meet along their chords;
 * the table is advanced to the earliest such time, the contact is resolved, and stepping resumes.
 * Event times are therefore exact to far better than a millisecond (≈ a·dt²/8 ≈ 10⁻⁵ mm of
 * position), and balls never overlap beyond rounding.
 */
import { accelOf, advance, isMoving, settle, type Accel, type BallState } from './ball.js';
import { collideBalls, collideCushion } from './collide.js';
import { depthPastMouth, type Segment, type TableGeom } from '../../core/tableGeometry.js';
import type { PhysicsParams } from './params.js';
import type { CushionSide, PocketId } from '../../core/games.js';

export type PhysEvent =
  | { t: number; type: 'contact'; a: string; b: string }
  | { t: number; type: 'cushion'; ball: string; side: CushionSide; jaw?: PocketId }
  | { t: number; type: 'pot'; ball: string; pocket: PocketId }
  | { t: number; type: 'offTable'; ball: string }
  | { t: number; type: 'jump'; ball: string; over: string }
  | { t: number; type: 'cross'; ball: string; line: 'baulkLine' | 'headString' | 'centreLine'; dir: 'up' | 'down' }
  /** Not produced by the physics itself: a scripted ball left over a pocket edge (scenario `drop`). */
  | { t: number; type: 'hanging'; ball: string; pocket: PocketId };

/** Non-physical parts of a stroke the 2-D table cannot produce by itself. */
export interface StrokeScript {
  /** The ball leaves the air over `over` (a jump shot): the pair does not collide while passing. */
  jumpOver?: { ball: string; over: string };
  /** Each listed ball flies off the table at its `atCushion`-th cushion contact of the stroke. */
  jumpOff?: { ball: string; atCushion: number }[];
}

/** How a ball left the bed: the renderer animates the drop or the flight from here. */
export interface Exit {
  id: string;
  t: number;
  x: number;
  y: number;
  vx: number;
  vy: number;
  kind: 'pot' | 'offTable';
  pocket?: PocketId;
}

export interface SampledBall {
  id: string;
  x: number;
  y: number;
  vx: number;
  vy: number;
  wx: number;
  wy: number;
  wz: number;
  q: [number, number, number, number];
  where: BallState['where'];
  /** Height of the centre above its resting height while jumping another ball, mm. */
  hopMm: number;
}

export interface Sample {
  t: number;
  balls: SampledBall[];
}

export interface SimulateOptions {
  /** Time of the strike (the balls' state is taken as of this instant), s. */
  t0: number;
  /** Sorted global times at which to record every ball's state (≥ t0; later ones are ignored). */
  sampleTimes?: readonly number[];
  script?: StrokeScript;
  /** Called on each event; return true to stop the simulation early (stroke finder). */
  onEvent?: (e: PhysEvent, balls: readonly BallState[]) => boolean | void;
  /** Record the total kinetic energy at every step end (tests). */
  energyLog?: { t: number; e: number }[];
  /** Stop at this time even if balls still move (the next stroke is struck early), s. */
  stopAtT?: number;
}

export interface StrokeRun {
  events: PhysEvent[];
  /** Time all balls came to rest (or the simulation stopped), s. */
  endT: number;
  exits: Exit[];
  samples: Sample[];
  /** Smallest centre distance minus the sum of radii seen at any step end, mm (≥ −rounding). */
  minGapMm: number;
  stoppedEarly: boolean;
  /** True when `stopAtT` cut the stroke while balls were still moving. */
  interrupted: boolean;
  steps: number;
}

const EPS_T = 1e-12;
/** Contacts of the same pair closer together than this are one contact in the event list, s. */
export const REPEAT_CONTACT_S = 0.01;
/**
 * A ball meets a cushion again only after it has left it by more than this gap, mm. This is the
 * rules' own definition (a ball frozen to a rail must leave it by more than 0.5 mm and come back,
 * spec rules-pool8 "rail after contact"): a frozen ball pushed into its cushion, or a ball running
 * along one and chattering against it, makes one contact, not one per micro-bounce.
 */
export const LEAVE_CUSHION_MM = 0.5;

/**
 * Run one stroke. `balls` is mutated in place to the final state (callers clone first if they need
 * the original).
 */
export function simulate(balls: BallState[], geom: TableGeom, p: PhysicsParams, opts: SimulateOptions): StrokeRun {
  const events: PhysEvent[] = [];
  const exits: Exit[] = [];
  const samples: Sample[] = [];
  const sampleTimes = opts.sampleTimes ?? [];
  let si = 0;
  while (si < sampleTimes.length && sampleTimes[si]! < opts.t0 - EPS_T) si++;
  let t = opts.t0;
  let steps = 0;
  let minGap = Infinity;
  let stoppedEarly = false;
  let interrupted = false;
  const n = balls.length;
  const cushionCount = new Map<string, number>();
  const jumpOff = new Map((opts.script?.jumpOff ?? []).map((j) => [j.ball, j.atCushion]));
  const jumpOver = opts.script?.jumpOver;
  // While a jump is in progress, the pair (jumper, jumped) does not collide.
  let jumping = false;
  let jumpDone = false;
  let zeroTimeEvents = 0;
  const lastContact = new Map<string, number>();
  let stepEndT = -Infinity;
  const pressing = new Set<string>();
  // Ball and cushion piece pairs in contact and not yet left by LEAVE_CUSHION_MM (see above);
  // balls resting against a cushion when the run starts are in contact with it.
  const onCushion = new Map<string, { b: BallState; seg: Segment }>();
  const cushionKey = (b: BallState, seg: Segment) => `${b.id}|${seg.side}|${seg.jaw ?? ''}`;
  const gapTo = (b: BallState, seg: Segment) => pointSegmentDistance(b.x, b.y, seg) - b.radiusMm;
  for (const b of balls) {
    if (b.where !== 'bed') continue;
    for (const seg of geom.segments) if (gapTo(b, seg) <= LEAVE_CUSHION_MM) onCushion.set(cushionKey(b, seg), { b, seg });
  }

  const emit = (e: PhysEvent): boolean => {
    events.push(e);
    const stop = opts.onEvent?.(e, balls);
    if (stop) stoppedEarly = true;
    return !!stop;
  };

  const hopOf = (b: BallState): number => {
    if (!jumping || !jumpOver || b.id !== jumpOver.ball) return 0;
    const o = balls.find((x) => x.id === jumpOver.over);
    if (!o) return 0;
    const gap = b.radiusMm + o.radiusMm - Math.hypot(b.x - o.x, b.y - o.y);
    return Math.max(0, gap) * 1.2;
  };

  const record = (ts: number) => {
    samples.push({
      t: ts,
      balls: balls.map((b) => ({ id: b.id, x: b.x, y: b.y, vx: b.vx, vy: b.vy, wx: b.wx, wy: b.wy, wz: b.wz, q: [...b.q] as [number, number, number, number], where: b.where, hopMm: hopOf(b) })),
    });
  };

  const accels: Accel[] = new Array(n);
  const dx = new Float64Array(n);
  const dy = new Float64Array(n);
  const moving = new Uint8Array(n);

  for (;;) {
    while (si < sampleTimes.length && sampleTimes[si]! <= t + 1e-9) record(sampleTimes[si++]!);
    let anyMoving = false;
    for (let i = 0; i < n; i++) {
      moving[i] = isMoving(balls[i]!) ? 1 : 0;
      if (moving[i]) anyMoving = true;
    }
    if (!anyMoving || stoppedEarly) break;
    if (opts.stopAtT !== undefined && t >= opts.stopAtT - 1e-12) {
      interrupted = true;
      break;
    }
    if (t - opts.t0 > p.maxStrokeS) {
      stoppedEarly = true;
      break;
    }
    // A step is at most maxStepS long; events inside it split it into pieces that share the
    // step's end, so pairs found pressing (a plastic contact) are left alone until it ends.
    for (let i = 0; i < n; i++) accels[i] = accelOf(balls[i]!, p);
    if (t >= stepEndT - 1e-15) {
      // Far from everything a step may be longer: as long as no ball can cover half its
      // clearance, nothing can happen inside it (so the result is the same as with 0.1 ms steps).
      stepEndT = t + Math.max(p.maxStepS, Math.min(MAX_FREE_STEP_S, eventFreeTime(balls, moving, accels, geom)));
      if (pressing.size) pressing.clear();
    }
    let h = stepEndT - t;
    for (let i = 0; i < n; i++) if (moving[i]) h = Math.min(h, accels[i]!.phaseEndS);
    if (si < sampleTimes.length) h = Math.min(h, Math.max(0, sampleTimes[si]! - t));
    if (opts.stopAtT !== undefined) h = Math.min(h, Math.max(0, opts.stopAtT - t));
    h = Math.max(h, 0);
    for (let i = 0; i < n; i++) {
      const a = accels[i]!;
      const b = balls[i]!;
      if (!moving[i]) {
        dx[i] = dy[i] = 0;
        continue;
      }
      dx[i] = b.vx * h + 0.5 * a.ax * h * h;
      dy[i] = b.vy * h + 0.5 * a.ay * h * h;
    }

    // Earliest event inside [0, h].
    let bestS = Infinity;
    let best: { kind: 'pair'; i: number; j: number } | { kind: 'seg'; i: number; seg: Segment; nx: number; ny: number } | { kind: 'pot'; i: number; k: number } | { kind: 'escape'; i: number } | null = null;

    for (let i = 0; i < n; i++) {
      const bi = balls[i]!;
      if (bi.where !== 'bed') continue;
      const mi = moving[i]!;
      for (let j = i + 1; j < n; j++) {
        if (!mi && !moving[j]) continue;
        const bj = balls[j]!;
        if (bj.where !== 'bed') continue;
        const D = bi.radiusMm + bj.radiusMm;
        const rx = bj.x - bi.x, ry = bj.y - bi.y;
        const wx = dx[j]! - dx[i]!, wy = dy[j]! - dy[i]!;
        const dist2 = rx * rx + ry * ry;
        const reach = D + Math.abs(wx) + Math.abs(wy) + 1e-6;
        if (dist2 > reach * reach) continue;
        if (jumpOver && ((bi.id === jumpOver.ball && bj.id === jumpOver.over) || (bj.id === jumpOver.ball && bi.id === jumpOver.over))) {
          if (jumping) continue;
          if (jumpDone) continue;
        }
        if (pressing.size && pressing.has(bi.id + '|' + bj.id)) continue;
        const s = pairToi(rx, ry, wx, wy, D, h, bi, bj);
        if (s < bestS) {
          bestS = s;
          best = { kind: 'pair', i, j };
        }
      }
      if (!mi) continue;
      const ddx = dx[i]!, ddy = dy[i]!;
      const travel = Math.abs(ddx) + Math.abs(ddy);
      for (const seg of geom.segments) {
        const hit = segmentToi(bi, ddx, ddy, travel, seg, h);
        if (hit && hit.s < bestS) {
          bestS = hit.s;
          best = { kind: 'seg', i, seg, nx: hit.nx, ny: hit.ny };
        }
      }
      for (let k = 0; k < geom.pockets.length; k++) {
        const pk = geom.pockets[k]!;
        const d0 = depthPastMouth(pk, bi.x, bi.y);
        const d1 = depthPastMouth(pk, bi.x + ddx, bi.y + ddy);
        if (d0 < pk.dropDepthMm && d1 >= pk.dropDepthMm) {
          const s = ((pk.dropDepthMm - d0) / (d1 - d0)) * h;
          if (s < bestS) {
            bestS = s;
            best = { kind: 'pot', i, k };
          }
        }
      }
      // Guard: a ball that somehow leaves the bed outline away from a pocket has left the table.
      const ex = bi.x + ddx, ey = bi.y + ddy;
      const out = Math.max(-ex, ex - geom.width, -ey, ey - geom.length);
      if (out > bi.radiusMm && !nearPocket(geom, ex, ey)) {
        if (h < bestS) {
          bestS = h;
          best = { kind: 'escape', i };
        }
      }
    }

    const s = best && bestS <= h ? Math.max(0, bestS) : h;
    if (geom.lines.length && s > 0) {
      // Marking lines crossed by a ball centre in this piece of the step, in time order.
      const crossings: PhysEvent[] = [];
      for (let i = 0; i < n; i++) {
        if (!moving[i]) continue;
        const b = balls[i]!, a = accels[i]!;
        const y1 = b.y + b.vy * s + 0.5 * a.ay * s * s;
        for (const ln of geom.lines) {
          if ((b.y - ln.y) * (y1 - ln.y) < 0 || (y1 === ln.y && b.y !== ln.y)) {
            crossings.push({ t: t + crossTime(b.y - ln.y, b.vy, a.ay, s), type: 'cross', ball: b.id, line: ln.name, dir: y1 > b.y ? 'up' : 'down' });
          }
        }
      }
      crossings.sort((x, y) => x.t - y.t);
      for (const c of crossings) emit(c);
    }
    for (let i = 0; i < n; i++) if (moving[i]) advance(balls[i]!, accels[i]!, s);
    t += s;
    // Steps near a cushion are at most maxStepS long, so a gap checked at their ends is not missed.
    for (const [key, c] of onCushion) if (c.b.where !== 'bed' || gapTo(c.b, c.seg) > LEAVE_CUSHION_MM) onCushion.delete(key);
    steps++;
    if (s <= 0) {
      if (++zeroTimeEvents > 10_000) throw new Error(`physics: no progress at t=${t.toFixed(6)} s (contact loop)`);
    } else zeroTimeEvents = 0;

    if (best && bestS <= h) {
      if (best.kind === 'pair') {
        const a = balls[best.i]!, b = balls[best.j]!;
        if (jumpOver && !jumping && !jumpDone && ((a.id === jumpOver.ball && b.id === jumpOver.over) || (b.id === jumpOver.ball && a.id === jumpOver.over))) {
          jumping = true;
          if (emit({ t, type: 'jump', ball: jumpOver.ball, over: jumpOver.over })) break;
        } else {
          const e = collideBalls(a, b, p);
          if (e.plastic) pressing.add(a.id + '|' + b.id);
          // Two balls in lasting contact (one pushing the other) touch again and again within
          // microseconds; a camera and a referee see one contact, so repeats of a pair within
          // REPEAT_CONTACT_S are not reported (the physics still resolves each one).
          const key = a.id < b.id ? `${a.id}|${b.id}` : `${b.id}|${a.id}`;
          const last = lastContact.get(key);
          lastContact.set(key, t);
          if (last === undefined || t - last > REPEAT_CONTACT_S) {
            if (emit({ t, type: 'contact', a: a.id, b: b.id })) break;
          }
        }
      } else if (best.kind === 'seg') {
        const b = balls[best.i]!;
        const count = (cushionCount.get(b.id) ?? 0) + 1;
        cushionCount.set(b.id, count);
        if (jumpOff.get(b.id) === count) {
          leave(b, 'offTable');
          if (emit({ t, type: 'offTable', ball: b.id })) break;
        } else {
          collideCushion(b, best.nx, best.ny, p);
          const key = cushionKey(b, best.seg);
          const again = onCushion.has(key);
          onCushion.set(key, { b, seg: best.seg });
          if (!again) {
            const e: PhysEvent = { t, type: 'cushion', ball: b.id, side: best.seg.side };
            if (best.seg.jaw) e.jaw = best.seg.jaw;
            if (emit(e)) break;
          }
        }
      } else if (best.kind === 'pot') {
        const b = balls[best.i]!;
        const pk = geom.pockets[best.k]!;
        leave(b, 'pot', pk.id);
        if (emit({ t, type: 'pot', ball: b.id, pocket: pk.id })) break;
      } else {
        const b = balls[best.i]!;
        leave(b, 'offTable');
        if (emit({ t, type: 'offTable', ball: b.id })) break;
      }
    }
    for (let i = 0; i < n; i++) if (moving[i]) settle(balls[i]!, p);
    // A jump ends once the jumper is clear of the jumped ball.
    if (jumping && jumpOver) {
      const a = balls.find((b) => b.id === jumpOver.ball)!, o = balls.find((b) => b.id === jumpOver.over)!;
      if (a.where !== 'bed' || o.where !== 'bed' || Math.hypot(a.x - o.x, a.y - o.y) > a.radiusMm + o.radiusMm + 1e-6) {
        jumping = false;
        jumpDone = true;
      }
    }
    if (opts.energyLog) {
      let e = 0;
      for (const b of balls) e += kinetic(b, p);
      opts.energyLog.push({ t, e });
    }
    if (steps % 64 === 0) minGap = Math.min(minGap, smallestGap(balls, jumping ? jumpOver : undefined));
  }
  minGap = Math.min(minGap, smallestGap(balls, undefined));
  // Everything at rest: the remaining samples (if any) are taken by the caller from the final state.

  function leave(b: BallState, kind: 'pot' | 'offTable', pocket?: PocketId) {
    const x: Exit = { id: b.id, t, x: b.x, y: b.y, vx: b.vx, vy: b.vy, kind };
    if (pocket) x.pocket = pocket;
    exits.push(x);
    b.where = kind === 'pot' ? 'pocketed' : 'offTable';
    b.vx = b.vy = b.wx = b.wy = b.wz = 0;
  }

  return { events, endT: t, exits, samples, minGapMm: minGap, stoppedEarly, interrupted, steps };
}

function kinetic(b: BallState, p: PhysicsParams): number {
  if (b.where !== 'bed') return 0;
  const lin = 0.5 * b.massG * (b.vx * b.vx + b.vy * b.vy);
  if (p.discs) return lin;
  return lin + 0.2 * b.massG * b.radiusMm * b.radiusMm * (b.wx * b.wx + b.wy * b.wy + b.wz * b.wz);
}

function nearPocket(geom: TableGeom, x: number, y: number): boolean {
  return geom.pockets.some((pk) => Math.hypot(x - pk.x, y - pk.y) < pk.halfMouthMm * 2.5);
}

/** First root in [0, s] of d + v τ + ½ a τ² = 0 (the centre reaching a line), exact. */
function crossTime(d: number, v: number, a: number, s: number): number {
  if (Math.abs(a) < 1e-12) return Math.min(s, Math.max(0, -d / v));
  const disc = v * v - 2 * a * d;
  const r = Math.sqrt(Math.max(0, disc));
  const roots = [(-v - r) / a, (-v + r) / a].filter((x) => x >= -1e-12 && x <= s + 1e-12).sort((x, y) => x - y);
  return Math.min(s, Math.max(0, roots[0] ?? (-d / v)));
}

/** Longest step taken when nothing is near, s (bounds the wait before re-checking). */
const MAX_FREE_STEP_S = 0.02;

/**
 * A time within which no event can happen: every moving ball travels less than half its
 * clearance (to the nearest ball surface, cushion or jaw line, or pocket drop line). Travel is
 * bounded by |v|·h + ½·|a|·h², |a| ≤ μs g for any phase.
 */
function eventFreeTime(balls: readonly BallState[], moving: Uint8Array, accels: readonly Accel[], geom: TableGeom): number {
  let hMin = Infinity;
  const n = balls.length;
  for (let i = 0; i < n; i++) {
    if (!moving[i]) continue;
    const b = balls[i]!;
    const a = accels[i]!;
    const speed = Math.sqrt(b.vx * b.vx + b.vy * b.vy);
    const acc = Math.sqrt(a.ax * a.ax + a.ay * a.ay);
    if (speed === 0 && acc === 0) continue;
    let c = Infinity;
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const o = balls[j]!;
      if (o.where !== 'bed') continue;
      const dx = o.x - b.x, dy = o.y - b.y;
      c = Math.min(c, Math.sqrt(dx * dx + dy * dy) - b.radiusMm - o.radiusMm);
    }
    for (const seg of geom.segments) c = Math.min(c, pointSegmentDistance(b.x, b.y, seg) - b.radiusMm);
    for (const pk of geom.pockets) c = Math.min(c, Math.abs(pk.dropDepthMm - depthPastMouth(pk, b.x, b.y)));
    c = Math.max(0, c / 2);
    const h = acc > 0 ? (-speed + Math.sqrt(speed * speed + 2 * acc * c)) / acc : c / speed;
    if (h < hMin) hMin = h;
  }
  return hMin;
}

function pointSegmentDistance(x: number, y: number, s: Segment): number {
  const ex = s.x1 - s.x0, ey = s.y1 - s.y0;
  const l2 = ex * ex + ey * ey;
  const u = Math.max(0, Math.min(1, ((x - s.x0) * ex + (y - s.y0) * ey) / l2));
  return Math.hypot(x - (s.x0 + u * ex), y - (s.y0 + u * ey));
}

/** Smallest surface gap between any two balls on the bed (negative = overlap), mm. */
export function smallestGap(balls: readonly BallState[], skip?: { ball: string; over: string }): number {
  let g = Infinity;
  for (let i = 0; i < balls.length; i++) {
    const a = balls[i]!;
    if (a.where !== 'bed') continue;
    for (let j = i + 1; j < balls.length; j++) {
      const b = balls[j]!;
      if (b.where !== 'bed') continue;
      if (skip && ((a.id === skip.ball && b.id === skip.over) || (b.id === skip.ball && a.id === skip.over))) continue;
      g = Math.min(g, Math.hypot(a.x - b.x, a.y - b.y) - a.radiusMm - b.radiusMm);
    }
  }
  return g;
}

/** Time (0…h) at which two balls moving along chords (relative chord (wx, wy)) first touch. */
function pairToi(rx: number, ry: number, wx: number, wy: number, D: number, h: number, a: BallState, b: BallState): number {
  const C = rx * rx + ry * ry - D * D;
  if (C <= 0) {
    // Already touching (rounding): a contact only if they approach right now.
    const vn = ((b.vx - a.vx) * rx + (b.vy - a.vy) * ry) / Math.sqrt(rx * rx + ry * ry || 1);
    return vn < -1e-6 ? 0 : Infinity;
  }
  if (h <= 0) return Infinity;
  // Relative velocity along the chord, per unit step time.
  const ux = wx / h, uy = wy / h;
  const A = ux * ux + uy * uy;
  const B = 2 * (rx * ux + ry * uy);
  if (B >= 0 || A === 0) return Infinity;
  const disc = B * B - 4 * A * C;
  if (disc < 0) return Infinity;
  const s = (-B - Math.sqrt(disc)) / (2 * A);
  return s >= 0 && s <= h ? s : Infinity;
}

/** First contact (0…h) of a ball moving by (dx, dy) over h with a segment (its interior or ends). */
function segmentToi(b: BallState, dx: number, dy: number, travel: number, seg: Segment, h: number): { s: number; nx: number; ny: number } | null {
  const R = b.radiusMm;
  // Cheap reject: too far from the segment's bounding box to reach it in this step.
  const minX = Math.min(seg.x0, seg.x1) - R - travel, maxX = Math.max(seg.x0, seg.x1) + R + travel;
  const minY = Math.min(seg.y0, seg.y1) - R - travel, maxY = Math.max(seg.y0, seg.y1) + R + travel;
  if (b.x < minX || b.x > maxX || b.y < minY || b.y > maxY) return null;
  let best: { s: number; nx: number; ny: number } | null = null;
  const ex = seg.x1 - seg.x0, ey = seg.y1 - seg.y0;
  const len = Math.hypot(ex, ey);
  // Interior: the signed distance to the line falls to R while the foot lies within the segment.
  const f0 = (b.x - seg.x0) * seg.nx + (b.y - seg.y0) * seg.ny - R;
  const vn = b.vx * seg.nx + b.vy * seg.ny;
  const df = dx * seg.nx + dy * seg.ny;
  const foot = (s: number) => ((b.x + (dx * s) / (h || 1) - seg.x0) * ex + (b.y + (dy * s) / (h || 1) - seg.y0) * ey) / len;
  if (f0 <= 0 && f0 > -R) {
    const u = foot(0);
    if (u >= 0 && u <= len && vn < -1e-6) best = { s: 0, nx: seg.nx, ny: seg.ny };
  } else if (f0 > 0 && df < 0 && f0 + df <= 0 && h > 0) {
    const s = (f0 / -df) * h;
    const u = foot(s);
    if (u >= 0 && u <= len) best = { s, nx: seg.nx, ny: seg.ny };
  }
  // Ends (the jaw noses): circle of radius R about each end point.
  if (!seg.ends) return best;
  for (const [px, py] of [
    [seg.x0, seg.y0],
    [seg.x1, seg.y1],
  ] as const) {
    const rx = b.x - px, ry = b.y - py;
    const C = rx * rx + ry * ry - R * R;
    let s = Infinity;
    if (C <= 0) {
      if ((b.vx * rx + b.vy * ry) < -1e-6) s = 0;
    } else if (h > 0) {
      const ux = dx / h, uy = dy / h;
      const A = ux * ux + uy * uy;
      const B = 2 * (rx * ux + ry * uy);
      if (B < 0 && A > 0) {
        const disc = B * B - 4 * A * C;
        if (disc >= 0) {
          const r = (-B - Math.sqrt(disc)) / (2 * A);
          if (r >= 0 && r <= h) s = r;
        }
      }
    }
    if (s < (best?.s ?? Infinity)) {
      const cx = b.x + (dx * s) / (h || 1) - px, cy = b.y + (dy * s) / (h || 1) - py;
      const l = Math.hypot(cx, cy) || 1;
      best = { s, nx: cx / l, ny: cy / l };
    }
  }
  return best;
}
