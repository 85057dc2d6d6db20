/**
 * A small exact-enough table simulator for the tracking and event tests: balls roll with constant
 * deceleration, collide elastically (equal masses, impulse along the line of centres), rebound from
 * cushions, and drop when their centre enters a pocket's opening. Integrated at 2 kHz with each
 * collision's time found by backing the balls up inside the 0.5 ms step (exact for straight
 * motion), so the truth times are good to ~10 µs — far below the 2 ms the tests demand. Independent of src/sim (written to test against known answers).
 */
import type { TracksDoc, TrackFrame } from '../../src/core/contracts/tracks.js';
import type { GameId, PocketId, CushionSide } from '../../src/core/games.js';
import { POCKETS } from '../../src/core/games.js';
import type { TableProfile } from '../../src/core/table.js';
import { mulberry32 } from '../../src/core/random.js';

export interface SynthBall {
  id: string;
  x: number;
  y: number;
  r?: number;
}

export interface SynthStrike {
  t: number;
  ball: string;
  vx: number;
  vy: number;
}

export interface SynthTruth {
  strikes: { t: number; ball: string }[];
  contacts: { t: number; a: string; b: string }[];
  cushions: { t: number; ball: string; side: CushionSide }[];
  pots: { t: number; ball: string; pocket: PocketId }[];
}

export interface SynthRun {
  table: TableProfile;
  ids: string[];
  /** Position of each ball at time t (undefined once potted). */
  at(t: number): Map<string, { x: number; y: number }>;
  truth: SynthTruth;
  rest: Map<string, { x: number; y: number }>;
  durationS: number;
}

export { mulberry32 };

export function gaussian(rng: () => number): number {
  const u = Math.max(1e-12, rng()), v = rng();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

const DT = 1 / 2000;

export function simulateTable(table: TableProfile, balls: SynthBall[], strikes: SynthStrike[], opts: { durationS: number; decelMmPerS2?: number; restitution?: number; cushionRestitution?: number }): SynthRun {
  const decel = opts.decelMmPerS2 ?? 300;
  const e = opts.restitution ?? 0.95;
  const ec = opts.cushionRestitution ?? 0.8;
  const W = table.bed.width, L = table.bed.length;
  const R0 = table.ballDiameter / 2;
  const st = balls.map((b) => ({ id: b.id, x: b.x, y: b.y, vx: 0, vy: 0, r: b.r ?? R0, on: true }));
  const truth: SynthTruth = { strikes: [], contacts: [], cushions: [], pots: [] };
  const nSteps = Math.ceil(opts.durationS / DT);
  // Recorded positions every 10 steps (0.5 ms), linearly interpolated by `at`.
  const REC = 1;
  const rec: Float64Array[] = st.map(() => new Float64Array(Math.ceil(nSteps / REC + 2) * 2).fill(NaN));
  const pending = [...strikes].sort((a, b) => a.t - b.t);
  const pockets = POCKETS.flatMap((id) => (table.pockets[id] ? [{ id, ...table.pockets[id]! }] : []));
  const inMouth = (x: number, y: number): PocketId | undefined => {
    for (const pk of pockets) if ((x - pk.x) ** 2 + (y - pk.y) ** 2 < (pk.mouth / 2) ** 2) return pk.id;
    return undefined;
  };
  const nearPocketOpening = (x: number, y: number, r: number): boolean => {
    for (const pk of pockets) if ((x - pk.x) ** 2 + (y - pk.y) ** 2 < (pk.mouth / 2 + r) ** 2) return true;
    return false;
  };
  for (let step = 0; step <= nSteps; step++) {
    const t = step * DT;
    if (step % REC === 0) {
      const j = step / REC;
      for (let i = 0; i < st.length; i++) {
        const b = st[i]!;
        if (b.on) {
          rec[i]![2 * j] = b.x;
          rec[i]![2 * j + 1] = b.y;
        }
      }
    }
    while (pending.length && pending[0]!.t <= t) {
      const s = pending.shift()!;
      const b = st.find((q) => q.id === s.ball)!;
      b.vx = s.vx;
      b.vy = s.vy;
      truth.strikes.push({ t: s.t, ball: s.ball });
    }
    // Move with friction.
    for (const b of st) {
      if (!b.on) continue;
      const v = Math.hypot(b.vx, b.vy);
      if (v === 0) continue;
      const nv = Math.max(0, v - decel * DT);
      const avg = (v + nv) / 2;
      b.x += (b.vx / v) * avg * DT;
      b.y += (b.vy / v) * avg * DT;
      b.vx = (b.vx / v) * nv;
      b.vy = (b.vy / v) * nv;
    }
    // Ball–ball collisions: time by linear interpolation of the distance within the step.
    for (let i = 0; i < st.length; i++) {
      for (let j = i + 1; j < st.length; j++) {
        const a = st[i]!, b = st[j]!;
        if (!a.on || !b.on) continue;
        if (a.vx === 0 && a.vy === 0 && b.vx === 0 && b.vy === 0) continue;
        const dx = b.x - a.x, dy = b.y - a.y;
        const d = Math.hypot(dx, dy);
        const D = a.r + b.r;
        if (d >= D) continue;
        const nx = dx / d, ny = dy / d;
        const vrel = (a.vx - b.vx) * nx + (a.vy - b.vy) * ny; // closing speed
        if (vrel <= 0) continue;
        // Back both balls up to the touching instant, exchange the normal impulse, advance again.
        const back = (D - d) / vrel;
        a.x -= a.vx * back; a.y -= a.vy * back; b.x -= b.vx * back; b.y -= b.vy * back;
        const jn = ((1 + e) / 2) * vrel;
        a.vx -= jn * nx; a.vy -= jn * ny; b.vx += jn * nx; b.vy += jn * ny;
        a.x += a.vx * back; a.y += a.vy * back; b.x += b.vx * back; b.y += b.vy * back;
        truth.contacts.push({ t: t + DT - back, a: a.id, b: b.id });
      }
    }
    // Pockets, then cushions (a ball in an opening is not stopped by the cushion).
    for (const b of st) {
      if (!b.on || (b.vx === 0 && b.vy === 0)) continue;
      const pk = inMouth(b.x, b.y);
      if (pk) {
        b.on = false;
        truth.pots.push({ t: t + DT, ball: b.id, pocket: pk });
        continue;
      }
      if (b.vx === 0 && b.vy === 0) continue;
      if (nearPocketOpening(b.x, b.y, b.r)) continue;
      // Each cushion: how far the ball is past the touching line, and its speed into the cushion.
      if (b.x < b.r && b.vx < 0) {
        truth.cushions.push({ t: t + DT - (b.r - b.x) / -b.vx, ball: b.id, side: 'left' });
        b.x = b.r + (b.r - b.x) * ec;
        b.vx = -b.vx * ec;
      } else if (b.x > W - b.r && b.vx > 0) {
        truth.cushions.push({ t: t + DT - (b.x - (W - b.r)) / b.vx, ball: b.id, side: 'right' });
        b.x = W - b.r - (b.x - (W - b.r)) * ec;
        b.vx = -b.vx * ec;
      }
      if (b.y < b.r && b.vy < 0) {
        truth.cushions.push({ t: t + DT - (b.r - b.y) / -b.vy, ball: b.id, side: 'bottom' });
        b.y = b.r + (b.r - b.y) * ec;
        b.vy = -b.vy * ec;
      } else if (b.y > L - b.r && b.vy > 0) {
        truth.cushions.push({ t: t + DT - (b.y - (L - b.r)) / b.vy, ball: b.id, side: 'top' });
        b.y = L - b.r - (b.y - (L - b.r)) * ec;
        b.vy = -b.vy * ec;
      }
    }
  }
  const ids = st.map((b) => b.id);
  const at = (t: number) => {
    const out = new Map<string, { x: number; y: number }>();
    const f = t / (DT * REC);
    const j = Math.floor(f), u = f - j;
    st.forEach((b, i) => {
      const r = rec[i]!;
      const x0 = r[2 * j], y0 = r[2 * j + 1], x1 = r[2 * j + 2], y1 = r[2 * j + 3];
      if (x0 === undefined || Number.isNaN(x0)) return;
      if (x1 === undefined || Number.isNaN(x1)) out.set(b.id, { x: x0, y: y0! });
      else out.set(b.id, { x: x0 + (x1 - x0) * u, y: y0! + (y1! - y0!) * u });
    });
    return out;
  };
  const rest = new Map(st.filter((b) => b.on).map((b) => [b.id, { x: b.x, y: b.y }]));
  return { table, ids, at, truth, rest, durationS: opts.durationS };
}

export interface SampleOptions {
  fps: number;
  noiseMm?: number;
  seed?: number;
  /** Frames (by index) on which these balls are not measured: missing, or listed as `occluded`. */
  occlude?: { from: number; to: number; balls: string[]; as: 'missing' | 'occluded' };
  /** Balls that appear only from this time on (put on by hand). */
  appearAt?: Record<string, number>;
  game?: GameId;
}

/** Sample a run into cueref.tracks/1 frames with Gaussian position noise. */
export function toTracks(run: SynthRun, o: SampleOptions): TracksDoc {
  const rng = mulberry32(o.seed ?? 1);
  const noise = o.noiseMm ?? 1;
  const n = Math.floor(run.durationS * o.fps) + 1;
  const frames: TrackFrame[] = [];
  for (let i = 0; i < n; i++) {
    const t = i / o.fps;
    const pos = run.at(t);
    const balls: TrackFrame['balls'] = [];
    for (const id of run.ids) {
      const p = pos.get(id);
      if (!p) continue;
      if (o.appearAt?.[id] !== undefined && t < o.appearAt[id]!) continue;
      const occ = o.occlude && i >= o.occlude.from && i <= o.occlude.to && o.occlude.balls.includes(id);
      if (occ && o.occlude!.as === 'missing') continue;
      balls.push({ id, x: p.x + noise * gaussian(rng), y: p.y + noise * gaussian(rng), conf: 0.99, ...(occ ? { state: 'occluded' as const } : {}) });
    }
    frames.push({ i, t, balls });
  }
  return { format: 'cueref.tracks/1', game: o.game ?? run.table.game, source: { uri: 'synthetic', fps: o.fps }, frames };
}

/** Velocity (mm/s) that sends a ball from (x, y) at `speed` towards a target point. */
export function aim(from: { x: number; y: number }, to: { x: number; y: number }, speed: number): { vx: number; vy: number } {
  const dx = to.x - from.x, dy = to.y - from.y;
  const d = Math.hypot(dx, dy);
  return { vx: (dx / d) * speed, vy: (dy / d) * speed };
}

/**
 * Track id → true id, read where each track is nearest a true ball (within `maxDistMm`); a track that
 * changes owner counts as an identity switch.
 */
export function identitySwitches(run: SynthRun, frames: readonly TrackFrame[], maxDistMm: number): { switches: number; owner: Map<string, string> } {
  const owner = new Map<string, string>();
  let switches = 0;
  for (const f of frames) {
    const truth = run.at(f.t);
    for (const b of f.balls) {
      if (b.state !== 'rest' && b.state !== 'moving') continue;
      let best = '', bd = Infinity;
      for (const [id, q] of truth) {
        const d = Math.hypot(q.x - b.x, q.y - b.y);
        if (d < bd) {
          bd = d;
          best = id;
        }
      }
      if (bd > maxDistMm) continue;
      const o = owner.get(b.id);
      if (o !== undefined && o !== best) switches++;
      owner.set(b.id, best);
    }
  }
  return { switches, owner };
}
