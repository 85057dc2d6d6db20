/**
 * Ground truth from a simulated recording, in the stage contracts:
 *  - `snapshotAt(rec, t)`: every ball's exact state at any instant (what the renderer draws);
 *  - `truthTracks(...)`: cueref.tracks/1, one frame per 1/fps with every ball's position and state
 *    and the true calibration (`imageToTable`, `ballCentreToTable` from the camera);
 *  - `truthStrokes(rec)`: cueref.strokes/1 with the physics' events, `before`, `rest` and `paths`.
 * Numbers are rounded (0.01 mm, 10 µs) so files are stable and small; the same scenario gives
 * byte-identical files.
 */
import type { StrokeLog } from '../core/contracts/strokes.js';
import type { PocketId } from '../core/games.js';
import type { Camera } from './camera.js';
import { detectedCentreHeightMm } from '../core/table.js';
import { truthHomographies } from './camera.js';
import type { Sample } from './physics/index.js';
import { radiusOf } from './scenario/layouts.js';
import type { Recording, SimStroke } from './scenario/run.js';
import type { BallSnapshot, FrameSnapshot, Occluder, TrackState } from './types.js';

/** How long a hand takes to put a ball down, and a potted ball to drop out of sight, s. */
const HAND_MOVE_S = 0.3;
const DROP_S = 0.25;
const FLY_S = 0.4;

const r2 = (v: number) => Math.round(v * 100) / 100;
const r5 = (v: number) => Math.round(v * 1e5) / 1e5;

interface BallNow {
  id: string;
  x: number;
  y: number;
  z: number;
  vx: number;
  vy: number;
  state: TrackState;
  q?: [number, number, number, number];
}

const withQ = (q: [number, number, number, number] | undefined): Partial<BallNow> => (q ? { q } : {});

/** Index of the stroke whose window [tStart, next tStart) holds t (−1 before the first). */
function strokeAt(rec: Recording, t: number): number {
  let k = -1;
  for (let i = 0; i < rec.strokes.length; i++) if (rec.strokes[i]!.tStart <= t + 1e-9) k = i;
  return k;
}

/** Balls off the bed after stroke k (pocketed or off the table), with where they left. */
function exitsUpTo(rec: Recording, k: number): Map<string, { t: number; x: number; y: number; vx: number; vy: number; kind: 'pot' | 'offTable'; pocket?: PocketId }> {
  const out = new Map<string, { t: number; x: number; y: number; vx: number; vy: number; kind: 'pot' | 'offTable'; pocket?: PocketId }>();
  for (let i = 0; i <= k && i < rec.strokes.length; i++) {
    const st = rec.strokes[i]!;
    for (const m of st.moves) out.delete(m.ball);
    for (const e of st.run.exits) out.set(e.id, e);
  }
  return out;
}

function exitPose(rec: Recording, id: string, e: { t: number; x: number; y: number; vx: number; vy: number; kind: 'pot' | 'offTable'; pocket?: PocketId }, t: number): BallNow {
  const R = radiusOf(rec.table, id);
  const dt = Math.max(0, t - e.t);
  if (e.kind === 'pot') {
    const pk = rec.geom.pockets.find((p) => p.id === e.pocket)!;
    const f = Math.min(1, dt / DROP_S);
    // Into the pocket: towards a point R behind the mouth, and down out of sight.
    const tx = pk.mx + pk.ax * (pk.dropDepthMm + R), ty = pk.my + pk.ay * (pk.dropDepthMm + R);
    return { id, x: e.x + (tx - e.x) * f, y: e.y + (ty - e.y) * f, z: R - 3 * R * f * f, vx: 0, vy: 0, state: 'pocketed' };
  }
  const f = Math.min(dt, FLY_S);
  return { id, x: e.x + e.vx * f, y: e.y + e.vy * f, z: R + 400 * f - 2000 * f * f + 80, vx: 0, vy: 0, state: 'offTable' };
}

function sampleAt(st: SimStroke, t: number, dt: number): Sample | undefined {
  const s = st.run.samples;
  if (s.length === 0) return undefined;
  const i = Math.round((t - s[0]!.t) / dt);
  return s[Math.max(0, Math.min(s.length - 1, i))];
}

/** Every ball's state at time t (s). Balls never yet on the table are absent. */
export function ballsAt(rec: Recording, t: number): BallNow[] {
  const k = strokeAt(rec, t);
  const out = new Map<string, BallNow>();
  const put = (id: string, x: number, y: number, extra: Partial<BallNow> = {}) => {
    out.set(id, { id, x, y, z: radiusOf(rec.table, id), vx: 0, vy: 0, state: 'rest', ...extra });
  };
  if (k < 0) {
    for (const b of rec.initial) put(b.id, b.x, b.y);
    return order(rec, out);
  }
  const st = rec.strokes[k]!;
  // Balls gone before this stroke stay gone (drawn as pocketed/offTable where they left).
  const gone = exitsUpTo(rec, k - 1);
  for (const [id, e] of gone) out.set(id, exitPose(rec, id, e, t));
  if (t < st.tStrike) {
    const prev = k === 0 ? undefined : rec.strokes[k - 1]!;
    for (const b of prev ? prev.rest : rec.initial) put(b.id, b.x, b.y, withQ(prev?.restOrient[b.id]));
    // Hands at work: each move slides the ball from where it was (or drops it in) to its place.
    for (const m of st.moves) {
      if (t < m.t) continue;
      const dur = Math.max(1e-3, Math.min(HAND_MOVE_S, st.tStrike - m.t));
      const f = Math.min(1, (t - m.t) / dur);
      if (m.from) put(m.ball, m.from.x + (m.x - m.from.x) * f, m.from.y + (m.y - m.from.y) * f, f < 1 ? { state: 'moving' } : {});
      else put(m.ball, m.x, m.y, f < 1 ? { z: radiusOf(rec.table, m.ball) + 40 * (1 - f), state: 'moving' } : {});
    }
    return order(rec, out);
  }
  if (t <= st.tRest && st.run.samples.length) {
    const smp = sampleAt(st, t, rec.sampleDtS)!;
    for (const b of smp.balls) {
      if (b.where !== 'bed') continue;
      const moving = b.vx !== 0 || b.vy !== 0 || b.wx !== 0 || b.wy !== 0 || b.wz !== 0;
      put(b.id, b.x, b.y, { z: radiusOf(rec.table, b.id) + b.hopMm, vx: b.vx, vy: b.vy, state: moving ? 'moving' : 'rest', q: b.q });
    }
  } else {
    for (const b of st.rest) put(b.id, b.x, b.y, withQ(st.restOrient[b.id]));
  }
  for (const e of st.run.exits) if (e.t <= t) out.set(e.id, exitPose(rec, e.id, e, t));
  return order(rec, out);
}

/** Balls sorted by id, so files are stable. */
function order(_rec: Recording, m: Map<string, BallNow>): BallNow[] {
  return [...m.values()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Hands and the cue over the table at time t (for the renderer's occlusion). */
export function occludersAt(rec: Recording, t: number): Occluder[] {
  const out: Occluder[] = [];
  for (const st of rec.strokes) {
    // The cue: addressing the ball for half a second, the tip closing in, then the follow-through.
    if (t >= st.tStrike - 0.5 && t <= st.tStrike + 0.08) {
      const b = st.before.find((x) => x.id === st.strikeBall)!;
      const R = radiusOf(rec.table, b.id);
      const back = t <= st.tStrike ? 5 + 150 * ((st.tStrike - t) / 0.5) : -40 * ((t - st.tStrike) / 0.08);
      const ux = Math.cos(st.angleRad), uy = Math.sin(st.angleRad);
      const tipD = R + back;
      const tip: [number, number, number] = [b.x - ux * tipD, b.y - uy * tipD, R + 8];
      const butt: [number, number, number] = [b.x - ux * (tipD + 1450), b.y - uy * (tipD + 1450), R + 260];
      out.push({ kind: 'cue', from: tip, to: butt, radiusMm: 6.5 });
    }
    for (const m of st.moves) {
      if (t >= m.t - 0.25 && t <= m.t + HAND_MOVE_S + 0.1) {
        const f = Math.min(1, Math.max(0, (t - m.t) / HAND_MOVE_S));
        const x = m.from ? m.from.x + (m.x - m.from.x) * f : m.x, y = m.from ? m.from.y + (m.y - m.from.y) * f : m.y;
        out.push({ kind: 'hand', centre: [x, y, 70], radiusMm: 45 });
      }
    }
  }
  return out;
}

export function snapshotAt(rec: Recording, i: number, t: number): FrameSnapshot {
  const balls: BallSnapshot[] = ballsAt(rec, t).map((b) => {
    const s: BallSnapshot = { id: b.id, x: b.x, y: b.y, z: b.z, vx: b.vx, vy: b.vy, state: b.state };
    if (b.q) s.orientation = b.q;
    return s;
  });
  const snap: FrameSnapshot = { i, t, balls };
  const occ = occludersAt(rec, t);
  if (occ.length) snap.occluders = occ;
  return snap;
}

export function frameCount(rec: Recording, fps: number): number {
  return Math.floor(rec.durationS * fps + 1e-9) + 1;
}

export interface TracksDoc {
  format: 'cueref.tracks/1';
  game: string;
  source: { uri: string; fps: number; width: number; height: number; simulated: true; scenario: string };
  calibration: Record<string, unknown>;
  frames: { i: number; t: number; balls: { id: string; x: number; y: number; conf: number; state: TrackState; z?: number }[] }[];
}

export function truthCalibration(rec: Recording, cam: Camera): Record<string, unknown> {
  const H = truthHomographies(cam, detectedCentreHeightMm(rec.table));
  const round = (m: number[][]) => m.map((row) => row.map((v) => Number(v.toPrecision(12))));
  return {
    format: 'cueref.calibration/1',
    game: rec.game,
    table: rec.table,
    image: { width: cam.width, height: cam.height },
    imageToTable: round(H.imageToTable),
    ballCentreToTable: round(H.ballCentreToTable),
    distortion: { model: 'radial-k1k2', k1: cam.k1, k2: cam.k2, fx: cam.fx, fy: cam.fy, cx: cam.cx, cy: cam.cy },
    reprojectionErrorMm: 0,
    found: ['truth'],
  };
}

export function truthTracks(rec: Recording, cam: Camera, fps: number, uri = 'video.mp4'): TracksDoc {
  const frames: TracksDoc['frames'] = [];
  const n = frameCount(rec, fps);
  for (let i = 0; i < n; i++) {
    const t = i / fps;
    frames.push({
      i,
      t: r5(t),
      balls: ballsAt(rec, t).map((b) => {
        const o: TracksDoc['frames'][number]['balls'][number] = { id: b.id, x: r2(b.x), y: r2(b.y), conf: 1, state: b.state };
        const R = radiusOf(rec.table, b.id);
        if (Math.abs(b.z - R) > 0.005) o.z = r2(b.z);
        return o;
      }),
    });
  }
  return {
    format: 'cueref.tracks/1',
    game: rec.game,
    source: { uri, fps, width: cam.width, height: cam.height, simulated: true, scenario: rec.scenario.name },
    calibration: truthCalibration(rec, cam),
    frames,
  };
}

/** The truth stroke log, rounded for stable files. */
export function truthStrokes(rec: Recording): StrokeLog {
  const log = structuredClone(rec.log);
  for (const s of log.strokes) {
    if (s.t !== undefined) s.t = r5(s.t);
    s.before = s.before?.map((b) => ({ id: b.id, x: r2(b.x), y: r2(b.y) }));
    s.rest = s.rest?.map((b) => ({ id: b.id, x: r2(b.x), y: r2(b.y) }));
    s.events = s.events.map((e) => {
      const o = { ...e, t: r5(e.t) } as typeof e;
      if (o.type === 'place') {
        o.x = r2(o.x);
        o.y = r2(o.y);
      }
      return o;
    });
  }
  return log;
}
