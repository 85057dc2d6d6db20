/**
 * The detector on real footage (../shared/real), with the figures issue 5 asks for:
 * - Bucharest broadcast Task1: per-colour counts exact, fraction of frames;
 * - Bern overhead without_halo: annotated balls found within 6 px;
 * - Padova pool first/last frames: cue/eight/solid/stripe right on the annotated boxes;
 * plus ms per frame for the detector alone (pre-processing + inference + post-processing) at
 * 1280×720 and 1920×1080, for each pre-processing view:
 *   frame — the whole frame letterboxed into the network input;
 *   sized — the whole frame, shrunk further when the calibration says balls are larger than the
 *           model's typical training size (a close overhead camera);
 *   table — the bed rectified by the frame's calibration (frames that do not calibrate fall back to
 *           `frame`, counted).
 *
 *   npx tsx bench/detector-real.ts [--model models/detector] [--view frame|sized|table|all] [--by-colour] [--looks groups|blobs|off]
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { parseArgs } from 'node:util';
import { calibrateFrame } from '../src/calibration/solve.js';
import { readStill } from '../src/calibration/frames.js';
import { onTable } from '../src/cli/detect.js';
import { builtinProfile, type TableProfile } from '../src/core/table.js';
import { BallDetector, type DetectorView } from '../src/detection/detector.js';
import { bernTable } from '../test/calibration/realSets.js';
import { ballRadiusPx } from '../src/calibration/ballSize.js';
import sharp from 'sharp';
import { toRows, type DetectionRow } from '../src/detection/detections.js';
import { openBallDetector } from '../src/detection/open.js';
import { medianInPlace } from '../src/core/stats.js';
import { refineCentres } from '../src/detection/centres.js';
import { outlineCentresFor } from '../src/pipeline/outlineCentres.js';

const { values } = parseArgs({ options: { model: { type: 'string', default: 'models/detector' }, view: { type: 'string', default: 'all' }, 'by-colour': { type: 'boolean', default: false }, looks: { type: 'string', default: 'groups' } } });
// `--looks groups|blobs|off`: the detector's second looks at clusters (clusters.ts): `groups` as
// `cueref detect` runs on stills, `blobs` as analyze and live run on video, `off` the single look.
const clusterLooks = values.looks as 'groups' | 'blobs' | 'off';
const REAL = join(import.meta.dirname, '../../shared/real');
if (!existsSync(REAL)) {
  console.log(`no real footage at ${REAL}: nothing to measure`);
  process.exit(0);
}
// The model with its partner for other cloths (the sidecar's `otherCloths`), as the product loads it.
const opened: { close(): Promise<void> }[] = [];
const open = async (game: 'snooker' | 'pool8') => {
  const o = await openBallDetector(values.model!, { game, clusterLooks });
  opened.push(o);
  return o.detector;
};
const times: number[] = [];
let VIEW: 'frame' | 'table' | 'sized' = 'frame';
let fallbacks = 0;

/** Detect on one still with the current VIEW; the table view needs the frame's calibration. */
async function detect(det: BallDetector, path: string, table: TableProfile) {
  const frame = await readStill(path);
  let view: DetectorView = { kind: 'frame' };
  let cal = null;
  const solved = calibrateFrame(frame, { table });
  if (solved.ok) cal = solved.value.calibration;
  if (VIEW === 'table') {
    if (cal) view = { kind: 'table', imageToTable: cal.imageToTable, bed: table.bed };
    else fallbacks++;
  }
  if (VIEW === 'sized') {
    if (cal) view = { kind: 'frame', ballRadiusPx: ballRadiusPx(cal, table) };
    else fallbacks++;
  }
  const t0 = performance.now();
  const net = toRows(await det.detect(frame, view));
  times.push(performance.now() - t0);
  // As `cueref detect` reports them: centres fitted to the outlines where the view allows.
  const rows = cal && outlineCentresFor(table.game, cal, table) ? refineCentres(frame, net) : net;
  return { frame, rows, net, cal };
}

const views = values.view === 'all' ? (['frame', 'sized', 'table'] as const) : [values.view as 'frame' | 'table' | 'sized'];
for (const v of views) {
  VIEW = v;
  times.length = 0;
  fallbacks = 0;
  console.log(`— view: ${v}`);
  // Bucharest Task1: counts per colour.
  {
    const det = await open('snooker');
    const dir = join(REAL, 'bucharest-snooker-broadcast/train/Task1');
    const table = builtinProfile('snooker');
    let exact = 0, frames = 0, calibrated = 0, totalAbsErr = 0;
    // Per colour: balls found beyond the truth (+) and short of it (−), summed over the frames.
    const over = new Map<string, number>(), short = new Map<string, number>();
    for (const f of readdirSync(dir).filter((n) => n.endsWith('.jpg') && n !== '42.jpg')) {
      const gtPath = join(dir, 'ground-truth', f.replace('.jpg', '_gt.txt'));
      if (!existsSync(gtPath)) continue;
      const gt = new Map<string, number>();
      for (const line of readFileSync(gtPath, 'utf8').trim().split('\n').slice(1)) {
        const [n, colour] = line.trim().split(/\s+/);
        gt.set(colour!, Number(n));
      }
      const { rows, cal } = await detect(det, join(dir, f), table);
      let balls: DetectionRow[] = rows;
      if (cal) {
        calibrated++;
        balls = onTable(rows, cal).on;
      }
      const got = new Map<string, number>();
      for (const b of balls) got.set(b.class, (got.get(b.class) ?? 0) + 1);
      const colours = new Set([...gt.keys(), ...got.keys()]);
      let ok = true;
      for (const c of colours) {
        const d = Math.abs((gt.get(c) ?? 0) - (got.get(c) ?? 0));
        totalAbsErr += d;
        const signed = (got.get(c) ?? 0) - (gt.get(c) ?? 0);
        if (signed > 0) over.set(c, (over.get(c) ?? 0) + signed);
        if (signed < 0) short.set(c, (short.get(c) ?? 0) - signed);
        if (d) ok = false;
      }
      frames++;
      if (ok) exact++;
    }
    console.log(`bucharest Task1: per-colour counts exact on ${exact}/${frames} frames (${((100 * exact) / frames).toFixed(1)} %), ${totalAbsErr} balls wrong in all; calibrated ${calibrated}/${frames}`);
    if (values['by-colour']) {
      const cs = [...new Set([...over.keys(), ...short.keys()])].sort();
      console.log(`  by colour (extra/short): ${cs.map((c) => `${c} +${over.get(c) ?? 0}/−${short.get(c) ?? 0}`).join(', ')}`);
    }
  }

  // Bern overhead: annotated balls found within 6 px.
  {
    const det = await open('snooker');
    const dir = join(REAL, 'bern-snooker-overhead/without_halo');
    const bernT = bernTable();
    const cases = JSON.parse(readFileSync(join(dir, 'testcases.json'), 'utf8')).cases as { image: string; balls: { pixelX: number; pixelY: number }[] }[];
    const seen = [];
    for (const c of cases) {
      const path = join(dir, basename(c.image));
      if (existsSync(path)) seen.push({ c, ...(await detect(det, path, bernT)) });
    }
    for (const centres of ['network', 'outline'] as const) {
    let found = 0, total = 0, extra = 0;
    const errs: number[] = [];
    // Signed errors (detected − annotated) of the balls found: a model's bias shows here.
    const dxs: number[] = [], dys: number[] = [];
    for (const { c, rows: fitted, net } of seen) {
      const rows = centres === 'network' ? net : fitted;
      const used = new Set<number>();
      for (const b of c.balls) {
        total++;
        let best = -1, bd = Infinity;
        rows.forEach((d, k) => {
          const dd = Math.hypot(d.u - b.pixelX, d.v - b.pixelY);
          if (!used.has(k) && dd < bd) [best, bd] = [k, dd];
        });
        if (best >= 0 && bd <= 6) {
          used.add(best);
          found++;
          errs.push(bd);
          dxs.push(rows[best]!.u - b.pixelX);
          dys.push(rows[best]!.v - b.pixelY);
        }
      }
      extra += rows.length - used.size;
    }
    errs.sort((a, b) => a - b);
    console.log(`bern without_halo, ${centres === 'network' ? "the network's centres" : 'centres as `cueref detect` reports them (outlines fitted)'}: ${found}/${total} annotated balls found within 6 px (${((100 * found) / total).toFixed(1)} %), median error ${errs.length ? errs[Math.floor(errs.length / 2)]!.toFixed(2) : '-'} px (signed median x ${medianInPlace(dxs).toFixed(2)}, y ${medianInPlace(dys).toFixed(2)}), ${extra} detections with no annotation`);
    }
  }

  // Padova pool: class right on the annotated boxes.
  {
    const det = await open('pool8');
    const root = join(REAL, 'padova-pool-broadcast/Dataset');
    const CLS = ['', 'cue', 'eight', 'solid', 'stripe'];
    let right = 0, boxes = 0, missed = 0;
    const confusion = new Map<string, number>();
    for (const clip of readdirSync(root).filter((n) => n.startsWith('game'))) {
      for (const which of ['first', 'last']) {
        const img = join(root, clip, 'frames', `frame_${which}.png`);
        const bb = join(root, clip, 'bounding_boxes', `frame_${which}_bbox.txt`);
        if (!existsSync(img) || !existsSync(bb)) continue;
        const { rows } = await detect(det, img, builtinProfile('pool8-9ft'));
        for (const line of readFileSync(bb, 'utf8').trim().split('\n')) {
          const [x, y, w, h, k] = line.trim().split(/\s+/).map(Number) as [number, number, number, number, number];
          boxes++;
          const cx = x + w / 2, cy = y + h / 2;
          const hit = rows.filter((d) => Math.abs(d.u - cx) <= w / 2 && Math.abs(d.v - cy) <= h / 2).sort((a, b) => b.conf - a.conf)[0];
          if (!hit) missed++;
          else if (hit.class === CLS[k]) right++;
          else confusion.set(`${CLS[k]}→${hit.class}`, (confusion.get(`${CLS[k]}→${hit.class}`) ?? 0) + 1);
        }
      }
    }
    console.log(`padova pool: class right on ${right}/${boxes} boxes (${((100 * right) / boxes).toFixed(1)} %), ${missed} boxes with no detection`);
    if (values['by-colour']) console.log(`  wrong kinds (truth→read): ${[...confusion].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${n}`).join(', ')}`);
  }

  times.sort((a, b) => a - b);
  console.log(`detector alone: median ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms per frame over ${times.length} real frames (1280×720 and 1024×576, 2 cores)`);
  if (v !== 'frame') console.log(`  (${fallbacks} frames did not calibrate and used the whole frame)`);
}

// Speed at the two broadcast sizes: one Bucharest frame scaled to 1280×720 and 1920×1080.
{
  const det = await open('snooker');
  const src = join(REAL, 'bucharest-snooker-broadcast/train/Task1/1.jpg');
  for (const [w, h] of [[1280, 720], [1920, 1080]] as const) {
    const { data } = await sharp(src).resize(w, h, { fit: 'fill' }).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const frame = { width: w, height: h, rgb: new Uint8Array(data.buffer, data.byteOffset, data.length) };
    const cal = calibrateFrame(frame, { table: builtinProfile('snooker') });
    for (const v of views) {
      const view: DetectorView = v === 'table' && cal.ok ? { kind: 'table', imageToTable: cal.value.calibration.imageToTable, bed: builtinProfile('snooker').bed } : v === 'sized' && cal.ok ? { kind: 'frame', ballRadiusPx: ballRadiusPx(cal.value.calibration, builtinProfile('snooker')) } : { kind: 'frame' };
      const ms: number[] = [];
      for (let k = 0; k < 25; k++) {
        const t0 = performance.now();
        await det.detect(frame, view);
        if (k >= 5) ms.push(performance.now() - t0);
      }
      ms.sort((a, b) => a - b);
      console.log(`speed ${w}×${h}, view ${v}${v === 'table' && !cal.ok ? ' (no calibration: frame)' : ''}: median ${ms[10]!.toFixed(1)} ms, p90 ${ms[18]!.toFixed(1)} ms per frame (goal ≤ 15 ms at 720p)`);
    }
  }
}
for (const o of opened) await o.close();
