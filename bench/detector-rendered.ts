/**
 * The detector on a rendered held-out set (`models/training/dataset.ts`, seeds and camera poses not
 * used in training), through the product's own path (BallDetector: pre-processing, the ONNX runner,
 * post-processing), with the figures issue 5 asks for: recall, precision, kind accuracy and median
 * centre error — and the centre error by where the ball's centre falls in its heatmap cell (the
 * phase), which shows a bias that depends on the output grid.
 *
 *   npx tsx models/training/dataset.ts --out /tmp/cueref-train/val --frames 160 --seed 99   (once)
 *   npx tsx bench/detector-rendered.ts [--data /tmp/cueref-train/val] [--model models/detector] [--looks off|groups|blobs] [--min-conf C]
 *
 * Matching as train.py's `evaluate`: each visible labelled ball takes the nearest unused detection
 * within max(2 px, R/2) (network-input px; the frames are rendered at the network's input size).
 * Each frame is detected as its game's balls (the game whose classes its labels use).
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { toRows } from '../src/detection/detections.js';
import { openBallDetector, type OpenedDetector } from '../src/detection/open.js';
import { medianInPlace } from '../src/core/stats.js';
import type { GameId } from '../src/core/games.js';

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: '/tmp/cueref-train/val' },
    model: { type: 'string', default: 'models/detector' },
    looks: { type: 'string', default: 'off' },
    // The peak threshold (postprocess.ts DEFAULT_MIN_CONF when not given): F1 against it here is
    // how a threshold is chosen without tuning it to the real sets.
    'min-conf': { type: 'string' },
  },
});
const minConf = values['min-conf'] !== undefined ? Number(values['min-conf']) : undefined;
const dir = values.data!;
if (!existsSync(join(dir, 'meta.json'))) {
  console.log(`no rendered set at ${dir}: render one with  npx tsx models/training/dataset.ts --out ${dir} --frames 160 --seed 99`);
  process.exit(0);
}
const metaSchema = z.object({
  count: z.number().int().positive(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
  seed: z.number().optional(),
  games: z.record(z.string(), z.array(z.string())),
});
const labelSchema = z.array(z.object({ u: z.number(), v: z.number(), r: z.number(), class: z.string(), visible: z.boolean().optional() }));
const meta = metaSchema.parse(JSON.parse(readFileSync(join(dir, 'meta.json'), 'utf8')));
const images = readFileSync(join(dir, 'images.u8'));
const labels = readFileSync(join(dir, 'labels.jsonl'), 'utf8').trim().split('\n').map((l) => labelSchema.parse(JSON.parse(l)));
if (labels.length !== meta.count || images.length !== meta.count * meta.width * meta.height * 3) throw new Error(`${dir}: images.u8, labels.jsonl and meta.json disagree`);

const gameOf = (classes: string[]): GameId =>
  (Object.entries(meta.games).find(([, cs]) => classes.some((c) => cs.includes(c)))?.[0] ?? 'snooker') as GameId;
const detectors = new Map<GameId, OpenedDetector>();
const looks = values.looks as 'off' | 'groups' | 'blobs';
let tp = 0, fp = 0, fn = 0, kindOk = 0;
// The same per game: a weakness of one game's looks hides in the totals.
const perGame = new Map<GameId, { tp: number; fp: number; fn: number; fpNear: number }>();
// Why balls are missed and where false balls are: a miss in a cluster (another ball's centre within
// 2.2 R), a small one (R < 5 input px), or other; a false ball near a labelled ball (within its
// radius: found, but too far off to match) or elsewhere.
const missWhy = { cluster: 0, small: 0, other: 0 };
const falseWhy = { nearBall: 0, elsewhere: 0 };
const confusions = new Map<string, number>();
const errs: number[] = [];
// Signed error (detected − true) by the phase of the true centre in its stride-4 cell, per axis.
const STRIDE = 4;
const byPhase: { x: number[]; y: number[]; abs: number[]; missed: number }[] = Array.from({ length: STRIDE }, () => ({ x: [], y: [], abs: [], missed: 0 }));
const ph = (c: number) => ((Math.floor(c) % STRIDE) + STRIDE) % STRIDE;
const t0 = performance.now();
for (let i = 0; i < meta.count; i++) {
  const gts = labels[i]!.filter((b) => b.visible !== false);
  const game = gameOf(labels[i]!.map((b) => b.class));
  let d = detectors.get(game);
  if (!d) {
    d = await openBallDetector(values.model!, { game, clusterLooks: looks, ...(minConf !== undefined ? { minConf } : {}) });
    detectors.set(game, d);
  }
  const n = meta.width * meta.height * 3;
  const rgb = new Uint8Array(images.buffer, images.byteOffset + i * n, n);
  const dets = toRows(await d.detector.detect({ width: meta.width, height: meta.height, rgb }));
  const used = new Set<number>();
  const [tp0, fn0, fp0, near0] = [tp, fn, fp, falseWhy.nearBall];
  for (const g of gts) {
    let best = -1, bd = Infinity;
    dets.forEach((x, j) => {
      const dd = Math.hypot(x.u - g.u, x.v - g.v);
      if (!used.has(j) && dd < bd) { best = j; bd = dd; }
    });
    if (best >= 0 && bd < Math.max(2, 0.5 * g.r)) {
      used.add(best);
      tp++;
      errs.push(bd);
      if (dets[best]!.class === g.class) kindOk++;
      else confusions.set(`${g.class}→${dets[best]!.class}`, (confusions.get(`${g.class}→${dets[best]!.class}`) ?? 0) + 1);
      byPhase[ph(g.u)]!.x.push(dets[best]!.u - g.u);
      byPhase[ph(g.v)]!.y.push(dets[best]!.v - g.v);
      byPhase[ph(g.u)]!.abs.push(Math.abs(dets[best]!.u - g.u));
    } else {
      fn++;
      byPhase[ph(g.u)]!.missed++;
      if (gts.some((o) => o !== g && Math.hypot(o.u - g.u, o.v - g.v) < 2.2 * g.r)) missWhy.cluster++;
      else if (g.r < 5) missWhy.small++;
      else missWhy.other++;
    }
  }
  fp += dets.length - used.size;
  dets.forEach((x, j) => {
    if (used.has(j)) return;
    if (labels[i]!.some((g) => Math.hypot(x.u - g.u, x.v - g.v) < g.r)) falseWhy.nearBall++;
    else falseWhy.elsewhere++;
  });
  const pg = perGame.get(game) ?? { tp: 0, fp: 0, fn: 0, fpNear: 0 };
  perGame.set(game, { tp: pg.tp + tp - tp0, fn: pg.fn + fn - fn0, fp: pg.fp + fp - fp0, fpNear: pg.fpNear + falseWhy.nearBall - near0 });
}
const ms = (performance.now() - t0) / meta.count;
for (const d of detectors.values()) await d.close();
const pct = (a: number, b: number) => `${((100 * a) / Math.max(1, b)).toFixed(1)} %`;
console.log(`${values.model} on ${dir} (${meta.count} frames, seed ${meta.seed ?? '?'}, ${tp + fn} visible balls; looks ${looks})`);
console.log(`recall ${pct(tp, tp + fn)}  precision ${pct(tp, tp + fp)}  kind ${pct(kindOk, tp)}  median centre error ${medianInPlace(errs).toFixed(3)} px  (${ms.toFixed(1)} ms/frame)`);
console.log(`by game: ${[...perGame].map(([g, c]) => `${g} recall ${pct(c.tp, c.tp + c.fn)}, precision ${pct(c.tp, c.tp + c.fp)} (${c.tp + c.fn} balls; ${c.fp} false, ${c.fpNear} of them on a labelled ball)`).join('; ')}`);
console.log(`missed: ${missWhy.cluster} in clusters, ${missWhy.small} small (R < 5 px), ${missWhy.other} other; false: ${falseWhy.nearBall} within a labelled ball's radius (hidden or too far off), ${falseWhy.elsewhere} elsewhere`);
console.log(`kind confusions: ${[...confusions].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
console.log('signed centre error (detected − true) by the integer pixel of the true centre in its 4-px cell, median px:');
byPhase.forEach((p, k) => {
  const n = p.abs.length;
  const p90 = n ? [...p.abs].sort((a, b) => a - b)[Math.floor(0.9 * (n - 1))]! : NaN;
  console.log(`  phase ${k}: x ${medianInPlace(p.x).toFixed(2)} (|x| median ${medianInPlace(p.abs).toFixed(2)}, 90th ${p90.toFixed(2)}; missed ${p.missed})  y ${medianInPlace(p.y).toFixed(2)}`);
});
