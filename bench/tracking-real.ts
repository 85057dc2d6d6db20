/**
 * Tracking and events on real broadcast footage (../shared/real/bucharest-snooker-broadcast), with
 * the figures issue 6 asks for:
 * - Task3 (25 clips): boxes of the cue ball and one other ball — the tracked ball's box (its table
 *   position projected back into the image, ±R) overlaps the annotated box with IoU > 0.5; fraction
 *   of annotated frames, per ball. NB: the files as shipped annotate only frame 0 of each clip (the
 *   tracker's starting boxes), so this judges the start of each track, not its whole length;
 * - Task2 (25 one-shot clips): pot yes/no, the pocket (numbered as seen in the image) and the colour.
 *
 *   npx tsx bench/tracking-real.ts [--model models/detector] [--clips 1,2,3] [--task 2|3]
 *
 * Each clip: calibrate (best of three frames 0.5 s apart), detect, track, events — the chain of
 * `cueref track`. The ball the annotators chose as `_ball_2` is not named: it is matched to the track
 * that overlaps it best on the first annotated frame and then followed by identity.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Calibration } from '../src/calibration/contract.js';
import { betterCalibration, calibrateFrame } from '../src/calibration/solve.js';
import { parseTracksText } from '../src/core/contracts/tracks.js';
import { distortPixel, type RadialLens } from '../src/core/lens.js';
import { imageBallRadius } from '../src/core/ballImage.js';
import { applyH, inv3, type Mat3 } from '../src/core/mat3.js';
import { imagePocketNumbers } from '../test/e2e/bucharest.js';
import { builtinProfile } from '../src/core/table.js';
import { loadModelDetector, trackFrames } from '../src/pipeline/track.js';
import { openSource, type Frame } from '../src/video/index.js';

const { values } = parseArgs({ options: { model: { type: 'string', default: 'models/detector' }, clips: { type: 'string' }, task: { type: 'string' } } });
const ROOT = join(import.meta.dirname, '../../shared/real/bucharest-snooker-broadcast/train');
if (!existsSync(ROOT)) {
  console.log(`no real footage at ${ROOT}: nothing to measure`);
  process.exit(0);
}
const table = builtinProfile('snooker');
const detector = await loadModelDetector('snooker', 'models', `${values.model}.onnx`);
const only = values.clips ? new Set(values.clips.split(',')) : null;
const OUT = '/tmp/cueref-tracking-real';

type Box = [number, number, number, number];

/** Decode a clip; calibrate on the best of frames 0, 0.5, 1 s; track all frames. */
async function runClip(path: string, outDir: string) {
  const src = await openSource(path);
  const frames: Frame[] = [];
  for await (const f of src) frames.push(f);
  await src.close().catch(() => undefined);
  let cal: Calibration | null = null;
  for (const f of frames.filter((_, i) => i % 12 === 0).slice(0, 3)) {
    const r = calibrateFrame(f, { table });
    if (r.ok) cal = cal ? betterCalibration(r.value.calibration, cal) : r.value.calibration;
  }
  if (!cal) return null;
  mkdirSync(outDir, { recursive: true });
  const t0 = performance.now();
  const res = await trackFrames(frames, { game: 'snooker', table, calibration: cal, detector, outDir });
  const ms = performance.now() - t0;
  const tracks = parseTracksText(readFileSync(res.tracksPath, 'utf8'));
  return { cal, res, tracks, frames: frames.length, ms, size: [frames[0]!.width, frames[0]!.height] as const };
}

function iou(a: Box, b: Box): number {
  const ix = Math.max(0, Math.min(a[2], b[2]) - Math.max(a[0], b[0]));
  const iy = Math.max(0, Math.min(a[3], b[3]) - Math.max(a[1], b[1]));
  const inter = ix * iy;
  const u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter;
  return u > 0 ? inter / u : 0;
}

/**
 * The image box of a ball centred at table (x, y). A sphere's silhouette is close to a circle even
 * where the bed is foreshortened, so the box is square: half-size = the largest image distance of
 * the four bed points R from the centre.
 */
function boxOf(toTable: Mat3, x: number, y: number, lens?: RadialLens | null): Box {
  // The homography gives the undistorted frame; the boxes are on the camera's own pixels.
  const [iu, iv] = applyH(inv3(toTable), x, y);
  const [cu, cv] = lens ? distortPixel(lens, iu, iv) : [iu, iv];
  const r = imageBallRadius(toTable, x, y, table.ballDiameter / 2);
  return [cu - r, cv - r, cu + r, cv + r];
}

function readBoxes(path: string): Map<number, Box> {
  const lines = readFileSync(path, 'utf8').trim().split('\n').slice(1);
  const m = new Map<number, Box>();
  for (const l of lines) {
    const [f, ...b] = l.trim().split(/\s+/).map(Number);
    if (b.length === 4 && b.every((v) => v! >= 0)) m.set(f!, b as Box);
  }
  return m;
}

const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : 'n/a');

if (!values.task || values.task === '3') {
  const dir = join(ROOT, 'Task3');
  const clips = readdirSync(dir).filter((n) => /^\d+\.mp4$/.test(n)).map((n) => n.replace('.mp4', '')).sort((a, b) => +a - +b);
  const tot: Record<'cue' | 'other', [number, number]> = { cue: [0, 0], other: [0, 0] };
  let msTotal = 0, framesTotal = 0;
  for (const c of clips) {
    if (only && !only.has(c)) continue;
    const run = await runClip(join(dir, `${c}.mp4`), join(OUT, `t3-${c}`));
    const gts = [readBoxes(join(dir, `${c}_ball_1.txt`)), readBoxes(join(dir, `${c}_ball_2.txt`))];
    if (!run) {
      console.log(`Task3 ${c}: no calibration`);
      tot.cue[1] += gts[0]!.size;
      tot.other[1] += gts[1]!.size;
      continue;
    }
    msTotal += run.ms; framesTotal += run.frames;
    const toTable = run.cal.ballCentreToTable;
    const byIndex = new Map(run.tracks.frames.map((f) => [f.i, f]));
    const firstWith = (fi: number, id: string) => {
      for (let j = fi; j < fi + 6; j++) {
        const b = byIndex.get(j)?.balls.find((x) => x.id === id);
        if (b) return b;
      }
      return undefined;
    };
    const per: number[][] = [];
    gts.forEach((gt, k) => {
      let id: string | undefined = k === 0 ? 'white' : undefined;
      if (!id) {
        // The annotated other ball: the track that overlaps it best on the first annotated frames.
        for (const [fi, box] of [...gt].slice(0, 10)) {
          const f = [0, 1, 2, 3, 4, 5].map((d) => byIndex.get(fi + d)).find((x) => x && x.balls.length);
          const best = f?.balls.filter((b) => b.id !== 'white').map((b) => ({ id: b.id, s: iou(boxOf(toTable, b.x, b.y, run.cal.distortion), box) })).sort((a, b) => b.s - a.s)[0];
          if (best && best.s > 0.1) {
            id = best.id;
            break;
          }
        }
      }
      let ok = 0;
      for (const [fi, box] of gt) {
        // A new track is confirmed after a few frames: judge the annotated frame, or the first of
        // the next 6 (0.2 s at 30 fps) where the ball's track exists (balls are at rest then).
        const b = id ? firstWith(fi, id) : undefined;
        if (b && (b.state === undefined || b.state === 'rest' || b.state === 'moving') && iou(boxOf(toTable, b.x, b.y, run.cal.distortion), box) > 0.5) ok++;
      }
      per.push([ok, gt.size]);
      const t = k === 0 ? tot.cue : tot.other;
      t[0] += ok; t[1] += gt.size;
      void id;
    });
    console.log(`Task3 ${c}: cue ${pct(per[0]![0]!, per[0]![1]!)}, other ${pct(per[1]![0]!, per[1]![1]!)} of frames IoU>0.5 (${run.frames} frames, ${run.res.strokes} strokes)`);
  }
  // With only frame 0 annotated, the other ball is matched and judged on the same frame: its figure
  // says "a track starts on it", not "the track follows it"; the cue ball's (identity `white`) is real.
  console.log(`Task3 total: cue ball tracked as 'white' with IoU > 0.5 on ${pct(tot.cue[0]!, tot.cue[1]!)} of annotated frames (goal ≥ 90 %); a track starts on the other annotated ball on ${pct(tot.other[0]!, tot.other[1]!)}; chain ${(msTotal / Math.max(1, framesTotal)).toFixed(1)} ms/frame`);
}

if (!values.task || values.task === '2') {
  const dir = join(ROOT, 'Task2');
  const clips = readdirSync(dir).filter((n) => /^\d+\.mp4$/.test(n)).map((n) => n.replace('.mp4', '')).sort((a, b) => +a - +b);
  let potRight = 0, allRight = 0, n = 0;
  for (const c of clips) {
    if (only && !only.has(c)) continue;
    const gt = readFileSync(join(dir, 'ground-truth', `${c}_gt.txt`), 'utf8').trim().split(/\s+/);
    const want = gt[0] === 'YES' ? { pocket: Number(gt[1]), colour: gt[2]! } : null;
    n++;
    const run = await runClip(join(dir, `${c}.mp4`), join(OUT, `t2-${c}`));
    if (!run) {
      console.log(`Task2 ${c}: no calibration (truth ${gt.join(' ')})`);
      continue;
    }
    const num = imagePocketNumbers(run.cal, table);
    const pots = run.res.log.strokes.flatMap((s) => s.events.filter((e) => e.type === 'pot')) as { ball: string; pocket: string }[];
    const got = pots.map((p) => ({ pocket: num.get(p.pocket) ?? 0, colour: p.ball.replace(/\d+$/, '') }));
    const potOk = (got.length > 0) === (want !== null);
    const ok = potOk && (!want || got.some((g) => g.pocket === want.pocket && g.colour === want.colour));
    potRight += potOk ? 1 : 0;
    allRight += ok ? 1 : 0;
    console.log(`Task2 ${c}: truth ${gt.join(' ')}; got ${got.map((g) => `${g.colour}→${g.pocket}`).join(', ') || 'no pot'} ${ok ? 'OK' : potOk ? '(pot yes/no right)' : 'WRONG'}`);
  }
  console.log(`Task2 total: pot yes/no right on ${pct(potRight, n)}, pot + pocket + colour right on ${pct(allRight, n)} of ${n} clips (goal ≥ 90 %)`);
}
