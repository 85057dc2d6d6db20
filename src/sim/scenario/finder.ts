/**
 * The stroke finder: searches cut angle (or direction), speed and spin for a stroke whose
 * simulated outcome meets a goal ("pot the red into TR", "leave the cue ball snookered behind the
 * blue"), so scenarios can be written by intent. The search is deterministic and ordered from the
 * most natural stroke outwards (the ghost-ball aim first, then growing corrections; gentle speeds
 * and plain ball before spin), and stops at the first success.
 *
 * Each try runs the full physics, cut short as soon as an event makes the goal impossible
 * (a wrong first contact, a pot that is not allowed), which keeps a typical search to a second.
 */
import type { GameId } from '../../core/games.js';
import type { TableProfile } from '../../core/table.js';
import { simulate, strikeBall, type BallState, type PhysEvent, type PhysicsParams, type TableGeom } from '../physics/index.js';
import { cutAngleAim, potCutDeg, type Pos } from './aim.js';
import { radiusOf } from './layouts.js';
import { makeBalls } from './balls.js';
import type { FindSpec, Goal } from './schema.js';

export interface FinderContext {
  game: GameId;
  table: TableProfile;
  geom: TableGeom;
  physics: PhysicsParams;
  balls: readonly Pos[];
  strikeId: string;
}

export interface FoundStroke {
  angleRad: number;
  speedMmPerS: number;
  spin: { top: number; side: number };
  /** The aim as a scenario would write it (ball + cutDeg, or directionDeg). */
  aim: { ball: string; cutDeg: number } | { directionDeg: number };
  tries: number;
}

const DEFAULT_SPEEDS = [1500, 2200, 1000, 3000, 4200, 700, 6000];
const DEFAULT_SPINS = [
  { top: 0, side: 0 },
  { top: 0.7, side: 0 },
  { top: -0.7, side: 0 },
];

export function findStroke(ctx: FinderContext, spec: FindSpec, maxTries = 3000): FoundStroke | null {
  const goal = spec.goal;
  const cue = ctx.balls.find((b) => b.id === ctx.strikeId)!;
  const aimBallId = spec.ball ?? goal.pots?.find((p) => p.ball !== ctx.strikeId)?.ball ?? goal.firstContact ?? undefined;
  const aimBall = aimBallId ? ctx.balls.find((b) => b.id === aimBallId) : undefined;
  const D = radiusOf(ctx.table, ctx.strikeId) + (aimBall ? radiusOf(ctx.table, aimBall.id) : 0);
  const step = spec.stepDeg ?? (aimBall ? 0.25 : 1);
  // Search windows: around the ghost-ball cut for the wanted pocket (or for every pocket, easiest
  // cut first, when the goal names none), else the whole given range.
  const windows: { centre: number; range: [number, number] }[] = [];
  const potGoal = aimBall ? goal.pots?.find((p) => p.ball === aimBall.id) : undefined;
  if (aimBall && potGoal && !spec.cutRangeDeg) {
    const pockets = potGoal.pocket ? [potGoal.pocket] : Object.keys(ctx.table.pockets);
    const cuts = pockets.map((pk) => potCutDeg(cue, aimBall, ctx.table, pk, D)).filter((c) => Math.abs(c) < 80).sort((a, b) => Math.abs(a) - Math.abs(b));
    for (const c of cuts) windows.push({ centre: c, range: [c - 6, c + 6] });
  } else if (aimBall) {
    const range = spec.cutRangeDeg ?? [-80, 80];
    windows.push({ centre: Math.max(range[0], Math.min(range[1], 0)), range });
  } else {
    const range = spec.cutRangeDeg ?? [0, 360];
    windows.push({ centre: (range[0] + range[1]) / 2, range });
  }
  // Angles ordered by distance from each window's centre.
  const angles: number[] = [];
  for (const { centre, range } of windows) {
    const half = Math.max(centre - range[0], range[1] - centre);
    for (let d = 0; d <= half + 1e-9; d += step) {
      for (const a of d === 0 ? [centre] : [centre + d, centre - d]) if (a >= range[0] - 1e-9 && a <= range[1] + 1e-9) angles.push(round3(a));
    }
  }
  const speeds = spec.speedsMmPerS ?? DEFAULT_SPEEDS;
  // Discs carry no spin: one pass is enough.
  const spins = ctx.physics.discs ? [{ top: 0, side: 0 }] : (spec.spins ?? DEFAULT_SPINS).map((s) => ({ top: s.top ?? 0, side: s.side ?? 0 }));
  let tries = 0;
  for (const speed of speeds) {
    for (const spin of spins) {
      for (const a of angles) {
        if (++tries > maxTries) return null;
        let angleRad: number;
        if (aimBall) {
          const d = Math.hypot(aimBall.x - cue.x, aimBall.y - cue.y);
          if (Math.abs(D * Math.sin((a * Math.PI) / 180)) > d) continue;
          angleRad = cutAngleAim(cue, aimBall, D, a);
        } else angleRad = (a * Math.PI) / 180;
        if (tryStroke(ctx, goal, angleRad, speed, spin)) {
          return { angleRad, speedMmPerS: speed, spin, aim: aimBall ? { ball: aimBall.id, cutDeg: a } : { directionDeg: a }, tries };
        }
      }
    }
  }
  return null;
}

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/** Simulate one candidate and test the goal. */
export function tryStroke(ctx: FinderContext, goal: Goal, angleRad: number, speedMmPerS: number, spin: { top: number; side: number }): boolean {
  const balls = makeBalls(ctx.balls, ctx.table, ctx.physics);
  const striker = balls.find((b) => b.id === ctx.strikeId)!;
  strikeBall(striker, { angleRad, speedMmPerS, top: spin.top, side: spin.side }, ctx.physics.discs, ctx.physics.squirtDegAtFullSide);
  const allowed = new Set((goal.pots ?? []).map((p) => p.ball));
  let first: string | null | undefined;
  let failed = false;
  const onEvent = (e: PhysEvent): boolean => {
    if (e.type === 'contact' && first === undefined && (e.a === ctx.strikeId || e.b === ctx.strikeId)) {
      first = e.a === ctx.strikeId ? e.b : e.a;
      if (goal.firstContact !== undefined && goal.firstContact !== first) failed = true;
    }
    if (e.type === 'pot' || e.type === 'offTable') {
      if (goal.onlyThese && !allowed.has(e.ball)) failed = true;
      const want = goal.pots?.find((p) => p.ball === e.ball);
      if (want && (e.type === 'offTable' || (want.pocket && want.pocket !== e.pocket))) failed = true;
      if (e.ball === ctx.strikeId && goal.snookeredOn) failed = true;
    }
    return failed;
  };
  const run = simulate(balls, ctx.geom, ctx.physics, { t0: 0, onEvent });
  if (failed) return false;
  if (first === undefined) first = null;
  if (goal.firstContact !== undefined && goal.firstContact !== first) return false;
  for (const p of goal.pots ?? []) if (!run.events.some((e) => e.type === 'pot' && e.ball === p.ball && (!p.pocket || e.pocket === p.pocket))) return false;
  if (goal.ballsToCushion) {
    const hit = new Set(run.events.filter((e) => e.type === 'cushion' && e.ball !== ctx.strikeId).map((e) => (e as { ball: string }).ball));
    if (hit.size < goal.ballsToCushion) return false;
  }
  const cueBall = balls.find((b) => b.id === ctx.strikeId)!;
  if (goal.cueBallNear) {
    if (cueBall.where !== 'bed' || Math.hypot(cueBall.x - goal.cueBallNear.x, cueBall.y - goal.cueBallNear.y) > goal.cueBallNear.withinMm) return false;
  }
  if (goal.snookeredOn) {
    if (cueBall.where !== 'bed') return false;
    const onBed = balls.filter((b) => b.where === 'bed');
    const res = snookerTest(onBed, ctx.strikeId, goal.snookeredOn);
    if (!res.snookered) return false;
    if (goal.behind && !res.blockers.has(goal.behind)) return false;
  }
  return true;
}

/**
 * Is the cue ball snookered on every ball whose id matches one of `on` (an id, or a class prefix
 * such as `red`)? A ball is reachable if some straight path of the cue ball touches any part of
 * it (41 contact offsets across its width) without meeting another ball first.
 */
export function snookerTest(balls: readonly BallState[], cueId: string, on: readonly string[]): { snookered: boolean; blockers: Set<string> } {
  const cue = balls.find((b) => b.id === cueId)!;
  const targets = balls.filter((b) => b.id !== cueId && on.some((o) => b.id === o || (b.id.startsWith(o) && /^\d+$/.test(b.id.slice(o.length)))));
  const blockers = new Set<string>();
  if (targets.length === 0) return { snookered: false, blockers };
  for (const t of targets) {
    const D = cue.radiusMm + t.radiusMm;
    for (let k = -20; k <= 20; k++) {
      const off = (k / 20) * (D - 0.5);
      // Cue ball centre at contact: the ghost position at lateral offset `off` from the target.
      const dx = t.x - cue.x, dy = t.y - cue.y;
      const d = Math.hypot(dx, dy);
      if (Math.abs(off) >= d) continue;
      const ang = Math.atan2(dy, dx) + Math.asin(off / d);
      const ux = Math.cos(ang), uy = Math.sin(ang);
      // Travel until contact: along u, distance s with |cue + s u − t| = D.
      const px = t.x - cue.x, py = t.y - cue.y;
      const proj = px * ux + py * uy;
      const perp2 = px * px + py * py - proj * proj;
      const s = proj - Math.sqrt(Math.max(0, D * D - perp2));
      let blockedBy: string | null = null;
      let nearest = Infinity;
      for (const o of balls) {
        if (o.id === cueId || o.id === t.id) continue;
        const ox = o.x - cue.x, oy = o.y - cue.y;
        const op = ox * ux + oy * uy;
        const Do = cue.radiusMm + o.radiusMm;
        const operp2 = ox * ox + oy * oy - op * op;
        if (operp2 >= Do * Do) continue;
        const so = op - Math.sqrt(Do * Do - operp2);
        if (so >= 0 && so < s && so < nearest) {
          nearest = so;
          blockedBy = o.id;
        }
      }
      if (!blockedBy) return { snookered: false, blockers };
      blockers.add(blockedBy);
    }
  }
  return { snookered: true, blockers };
}
