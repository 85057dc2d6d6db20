/**
 * What the report shows of each stroke beyond its row: a short video clip of every flagged stroke
 * (a foul, or anything the referee should look at again) with the ball paths drawn on it, and the
 * data of a top-down replay (the tracked positions over the stroke).
 *
 * Clips are H.264 (yuv420p, +faststart) mp4 — what browsers, Debian's chromium included, play
 * without plug-ins — at most 720 px high (a referee's second look does not need 4K, and a match
 * can have dozens of flagged strokes), cut from the source with a second of context either side.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Calibration } from '../calibration/contract.js';
import type { BaseCall, CallsDoc } from '../core/contracts/calls.js';
import type { Stroke, StrokeLog } from '../core/contracts/strokes.js';
import type { TrackFrame } from '../core/contracts/tracks.js';
import { distortPixel } from '../core/lens.js';
import { applyH, inv3 } from '../core/mat3.js';
import { scalePx } from './analysisSize.js';
import { ballFill, type ReplayFrame, type TopDownPath } from '../report/topdown.js';
import { assScript, growingPolyline, type TimedShape } from '../video/assOverlay.js';
import { burnClip } from '../video/clip.js';
import { expectedSize } from '../video/args.js';
import { openSource, probe, writeClip, type Point, type Rgb, type Shape } from '../video/index.js';

/** Seconds of video kept before the strike and after the last movement. */
export const CLIP_CONTEXT_S = 1;
/** Clips taller than this are scaled down, px. */
export const CLIP_MAX_HEIGHT_PX = 720;
/**
 * x264 preset of the clips. `superfast` against the encoder's `veryfast` default: measured on a
 * 9.3-s 720p clip, 3.5 s of encoding instead of 4.8 s, for a file of 1.0 MB instead of 0.25 MB at
 * the same quality (crf) — a referee's clip is seconds long, the report's wall time is not.
 */
export const CLIP_PRESET = 'superfast';
/** Replay samples per second of a stroke (the report carries every stroke's replay). */
export const REPLAY_FPS = 15;

export const isFlagged = (c: BaseCall): boolean => c.fouls.length > 0 || c.review.length > 0;

export const clipName = (stroke: number): string => `stroke-${String(stroke).padStart(3, '0')}.mp4`;

/** Strike to last movement of a stroke, s (NaN start when the stroke has no time at all). */
export function strokeSpan(log: StrokeLog, k: number): { t0: number; t1: number } {
  const s = log.strokes[k]!;
  const times: number[] = s.events.map((e) => e.t);
  for (const p of Object.values(s.paths ?? {})) for (const [t] of p) times.push(t);
  const t0 = s.t ?? (times.length ? Math.min(...times) : NaN);
  let t1 = times.length ? Math.max(...times) : t0;
  const next = log.strokes[k + 1]?.t;
  if (next !== undefined && t1 > next) t1 = next;
  return { t0, t1: Math.max(t0, t1) };
}

const hexRgb = (hex: string): [number, number, number] => {
  const n = parseInt(hex.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
};

/** A stroke's ball paths in the pixels of a frame scaled by (sx, sy): points, their recording times, the ring radius. */
interface ImagePath {
  color: Rgb;
  points: Point[];
  times: number[];
  ringRadiusPx: number[];
}

function imagePaths(stroke: Stroke, cal: Pick<Calibration, 'ballCentreToTable' | 'distortion' | 'table'>, game: Calibration['game'], sx: number, sy: number): ImagePath[] {
  const toImage = inv3(cal.ballCentreToTable);
  const px = (x: number, y: number): [number, number] => {
    const [u, v] = applyH(toImage, x, y);
    const [du, dv] = cal.distortion ? distortPixel(cal.distortion, u, v) : [u, v];
    // Pixel centres at whole numbers, areas aligned (analysisSize.ts): not a plain du · scale.
    return [scalePx(du, sx), scalePx(dv, sy)];
  };
  const R = cal.table.ballDiameter / 2;
  return Object.entries(stroke.paths ?? {}).map(([id, samples]) => {
    const points = samples.map(([, x, y]) => px(x, y));
    const ringRadiusPx = samples.map(([, x, y], k) => {
      const c = points[k]!, rim = px(x + R, y);
      return Math.max(4, Math.hypot(rim[0] - c[0], rim[1] - c[1]) + 2);
    });
    return { color: hexRgb(ballFill(game, id).fill), points, times: samples.map(([t]) => t), ringRadiusPx };
  });
}

/** The dark under-stroke keeps a white or yellow path readable on light cloth and cushions. */
const UNDER_STROKE = { color: [20, 20, 20] as Rgb, widthPx: 5 };
const PATH_WIDTH_PX = 3;
const RING = { color: [255, 212, 0] as Rgb, widthPx: 2 };

/** Ball paths of a stroke drawn up to time `tS`, in the pixels of a frame scaled by `scale`. */
export function pathShapes(stroke: Stroke, cal: Pick<Calibration, 'ballCentreToTable' | 'distortion' | 'table'>, game: Calibration['game'], tS: number, scale: number): Shape[] {
  const shapes: Shape[] = [];
  for (const p of imagePaths(stroke, cal, game, scale, scale)) {
    const n = p.times.filter((t) => t <= tS).length;
    if (!n) continue;
    const pts = p.points.slice(0, n);
    shapes.push({ kind: 'polyline', points: pts, ...UNDER_STROKE });
    shapes.push({ kind: 'polyline', points: pts, color: p.color, widthPx: PATH_WIDTH_PX });
    shapes.push({ kind: 'circle', center: pts[n - 1]!, radiusPx: p.ringRadiusPx[n - 1]!, ...RING });
  }
  return shapes;
}

/**
 * The same drawing as `pathShapes` at every frame, as timed shapes for an ASS overlay (clip
 * seconds: recording time − `startSec`; nothing outlives `endS`): the paths grow as `pathShapes`
 * draws them, under-strokes below all paths, the rings on top.
 */
export function pathOverlay(stroke: Stroke, cal: Pick<Calibration, 'ballCentreToTable' | 'distortion' | 'table'>, game: Calibration['game'], sx: number, sy: number, startSec: number, endS: number): TimedShape[] {
  const out: TimedShape[] = [];
  for (const p of imagePaths(stroke, cal, game, sx, sy)) {
    const times = p.times.map((t) => t - startSec);
    out.push(...growingPolyline(p.points, times, { ...UNDER_STROKE, layer: 0 }, endS));
    out.push(...growingPolyline(p.points, times, { color: p.color, widthPx: PATH_WIDTH_PX, layer: 1 }, endS));
    times.forEach((t, k) => {
      out.push({ layer: 2, fromS: t, toS: Math.min(times[k + 1] ?? endS, endS), shape: { kind: 'ring', center: p.points[k]!, radiusPx: p.ringRadiusPx[k]!, ...RING } });
    });
  }
  return out;
}

export interface ClipsInput {
  video: string;
  calls: CallsDoc;
  log: StrokeLog;
  calibration: Calibration;
  outDir: string;
}

/** Write DIR/clips/stroke-NNN.mp4 for every flagged call; failures become notes, not errors. */
export async function writeFlaggedClips(i: ClipsInput): Promise<{ clips: { stroke: number; path: string }[]; notes: string[] }> {
  const clips: { stroke: number; path: string }[] = [];
  const notes: string[] = [];
  const flagged = i.calls.calls.filter(isFlagged);
  if (!flagged.length) return { clips, notes };
  const dir = join(i.outDir, 'clips');
  mkdirSync(dir, { recursive: true });
  const colour = await probe(i.video)
    .then((p) => p.video[0]?.colour)
    .catch(() => undefined);
  for (const c of flagged) {
    const stroke = i.log.strokes[c.stroke];
    if (!stroke) continue;
    const { t0, t1 } = strokeSpan(i.log, c.stroke);
    if (!Number.isFinite(t0)) {
      notes.push(`stroke ${c.stroke}: no time to cut a clip at`);
      continue;
    }
    const startSec = Math.max(0, t0 - CLIP_CONTEXT_S);
    const endSec = t1 + CLIP_CONTEXT_S;
    const path = join(dir, clipName(c.stroke));
    const { width: W, height: H } = i.calibration.image;
    const size = H > CLIP_MAX_HEIGHT_PX ? expectedSize({ width: W, height: H }, { height: CLIP_MAX_HEIGHT_PX }) : { width: W + (W % 2), height: H + (H % 2) };
    try {
      const endS = endSec - startSec;
      const script = assScript(size, pathOverlay(stroke, i.calibration, i.calibration.game, size.width / W, size.height / H, startSec, endS));
      await burnClip(i.video, path, { startSec, endSec, size, assScript: script, preset: CLIP_PRESET, ...(colour ? { colour } : {}) });
    } catch (burnError) {
      // An FFMPEG_PATH build without libass: draw in node instead (slower, same picture).
      try {
        await drawnClip(i, stroke, path, startSec, endSec);
      } catch (e) {
        notes.push(`stroke ${c.stroke}: no clip written (${(e as Error).message.split('\n')[0]}; burning the overlay in ffmpeg failed first: ${(burnError as Error).message.split('\n')[0]})`);
        continue;
      }
    }
    clips.push({ stroke: c.stroke, path });
  }
  return { clips, notes };
}

/** A clip drawn in node: ffmpeg → RGB frames → `pathShapes` → ffmpeg (the fallback of `burnClip`). */
async function drawnClip(i: ClipsInput, stroke: Stroke, path: string, startSec: number, endSec: number): Promise<void> {
  const h = i.calibration.image.height;
  const scale = h > CLIP_MAX_HEIGHT_PX ? CLIP_MAX_HEIGHT_PX / h : 1;
  // Area averaging: the right filter for shrinking, and half the CPU of ffmpeg's bicubic default.
  const src = await openSource(i.video, { startSec, endSec, ...(scale < 1 ? { scale: { height: CLIP_MAX_HEIGHT_PX, flags: 'area' } } : {}), log: () => {} });
  try {
    await writeClip(path, src, { fps: src.info.fps ?? 30, preset: CLIP_PRESET, overlay: (f) => pathShapes(stroke, i.calibration, i.calibration.game, f.ptsMs / 1000, f.width / i.calibration.image.width) });
  } finally {
    await src.close().catch(() => {});
  }
}

/**
 * Top-down replay data of every stroke: its paths, and the tracked positions from just before the
 * strike to the last movement, thinned to REPLAY_FPS.
 */
/** The stretch of the recording a stroke's top-down replay shows, s: from 0.3 s before it starts to 0.5 s after its last event. */
export function replayWindow(log: StrokeLog, k: number): { from: number; to: number } | undefined {
  const { t0, t1 } = strokeSpan(log, k);
  return Number.isFinite(t0) ? { from: t0 - 0.3, to: t1 + 0.5 } : undefined;
}

/**
 * A filter to read tracks.jsonl through, keeping only the frames `strokeReplays` will use (inside
 * a stroke's `replayWindow`, thinned to REPLAY_FPS per window exactly as it thins them): an hour's
 * report then holds ~30 000 frames instead of ~100 000. Frames must come in time order.
 */
export function replayFrameFilter(log: StrokeLog): (f: TrackFrame) => boolean {
  const ws = log.strokes.flatMap((_, k) => replayWindow(log, k) ?? []).map((w) => ({ ...w, nextT: -Infinity })).sort((a, b) => a.from - b.from);
  let wi = 0;
  return (f) => {
    while (wi < ws.length && ws[wi]!.to < f.t) wi++;
    if (f.view === false) return false;
    let keep = false;
    for (let j = wi; j < ws.length && ws[j]!.from <= f.t; j++) {
      const w = ws[j]!;
      if (f.t > w.to || f.t + 1e-9 < w.nextT) continue;
      w.nextT = f.t + 1 / REPLAY_FPS;
      keep = true;
    }
    return keep;
  };
}

/** `frames` needs only those inside a `replayWindow` (in time order; `replayFrameFilter` picks them). */
export function strokeReplays(log: StrokeLog, frames: readonly TrackFrame[]): Record<number, { paths: TopDownPath[]; replay: ReplayFrame[] }> {
  const out: Record<number, { paths: TopDownPath[]; replay: ReplayFrame[] }> = {};
  let k0 = 0;
  log.strokes.forEach((s, k) => {
    const w = replayWindow(log, k);
    const paths = Object.entries(s.paths ?? {}).map(([id, p]) => ({ id, points: p.map(([, x, y]) => [x, y] as const) }));
    const replay: ReplayFrame[] = [];
    if (w) {
      const { from, to } = w;
      while (k0 < frames.length && frames[k0]!.t < from) k0++;
      let nextT = -Infinity;
      for (let j = k0; j < frames.length && frames[j]!.t <= to; j++) {
        const f = frames[j]!;
        if (f.view === false || f.t + 1e-9 < nextT) continue;
        nextT = f.t + 1 / REPLAY_FPS;
        const balls: Record<string, [number, number]> = {};
        for (const b of f.balls) if (b.state !== 'pocketed' && b.state !== 'offTable') balls[b.id] = [b.x, b.y];
        replay.push({ t: f.t, balls });
      }
    }
    out[k] = { paths, replay };
  });
  return out;
}
