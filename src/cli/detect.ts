/**
 * `cueref detect IMAGE... --game G [--table FILE] [--calibration FILE] [--json] [--debug DIR]`
 * Runs the ball detector on still images (one model load for all) and reports the balls on the
 * table as cueref.detections/1. Each image is calibrated (or `--calibration` is used) so that balls
 * off the bed — on the rails, in the score bar's icons, in the crowd — are not reported.
 */
import { mkdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { calibrateFrame } from '../calibration/solve.js';
import { loadCalibration, type Calibration } from '../calibration/contract.js';
import { undistortPoint } from '../calibration/distortion.js';
import { readStill, writePng } from '../calibration/frames.js';
import { cloneFrame, line, polyline } from '../calibration/draw.js';
import { applyH } from '../core/mat3.js';
import { GAMES, type GameId } from '../core/games.js';
import { defaultProfileFor, loadTableProfile, novusHoleUnder, type TableProfile } from '../core/table.js';
import { notOneBall } from '../tracking/index.js';
import { toRows, type DetectionRow } from '../detection/detections.js';
import { openBallDetector } from '../detection/open.js';
import { refineCentres } from '../detection/centres.js';
import { outlineCentresFor } from '../pipeline/outlineCentres.js';
import { handleError } from './handleError.js';

const optionsSchema = z.object({
  game: z.enum(GAMES),
  table: z.string().min(1).optional(),
  calibration: z.string().min(1).optional(),
  model: z.string().min(1).default('models/detector'),
  minConf: z.coerce.number().min(0).max(1).default(0.3),
  json: z.boolean().default(false),
  debug: z.string().min(1).optional(),
});

/** How far outside the bed (mm) a ball centre may map and still count as on the table. */
const BED_MARGIN_MM = 15;

export interface ImageDetections {
  path: string;
  width: number;
  height: number;
  calibrated: boolean;
  balls: (DetectionRow & { x?: number; y?: number })[];
  offTable: number;
  warning?: string;
}

/**
 * Map detections to the bed through the calibration; keep those on it, with their table mm. A
 * white or colour far larger than a ball there (a glove, a cuff, an arm) is not a ball on the
 * table either (counted with `off`).
 */
export function onTable(rows: DetectionRow[], cal: Calibration): { on: (DetectionRow & { x: number; y: number })[]; off: number } {
  const on: (DetectionRow & { x: number; y: number })[] = [];
  let off = 0;
  const { width: W, length: L } = cal.table.bed;
  for (const d of rows) {
    const [u, v] = cal.distortion ? undistortPoint(cal.distortion, d.u, d.v) : [d.u, d.v];
    const [x, y] = applyH(cal.ballCentreToTable, u, v);
    if (x < -BED_MARGIN_MM || y < -BED_MARGIN_MM || x > W + BED_MARGIN_MM || y > L + BED_MARGIN_MM) off++;
    else if (notOneBall(cal.game, d.class, d.r, cal.ballCentreToTable, x, y, cal.table.ballDiameter / 2)) off++;
    // A still has no before and after: a "black pawn" deep over a Novus hole is the hole.
    else if (novusHoleUnder(cal.table, x, y)) off++;
    else on.push({ ...d, x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 });
  }
  return { on, off };
}

export function detectCommand(): Command {
  return new Command('detect')
    .description('Find the balls in still images with the ONNX detector; report those on the table (cueref.detections/1).')
    .argument('<images...>', 'PNG or JPEG images')
    .requiredOption('--game <game>', `game: ${GAMES.join(', ')}`)
    .option('--table <file>', 'table profile (cueref.table/1 JSON or a built-in name)')
    .option('--calibration <file>', 'a saved calibration (cueref.calibration/1) instead of calibrating each image')
    .option('--model <path>', 'detector model path without extension (.onnx + .json)', 'models/detector')
    .option('--min-conf <p>', 'detection threshold 0–1: higher drops faint balls (fewer false balls, more misses)', '0.3')
    .option('--json', 'print cueref.detections/1 JSON')
    .option('--debug <dir>', 'write each image with the detections drawn')
    .action(async (images: string[], raw: unknown) => {
      const o = optionsSchema.parse(raw);
      try {
        const table: TableProfile = o.table ? loadTableProfile(o.table) : defaultProfileFor(o.game as GameId);
        const fixedCal = o.calibration ? loadCalibration(o.calibration) : null;
        // Stills: second looks at every group of balls (no frame-to-frame flicker to fear; see LookMode).
        const { detector, side, close } = await openBallDetector(o.model, { game: o.game, minConf: o.minConf, clusterLooks: 'groups' });
        const results: ImageDetections[] = [];
        try {
          for (const path of images) {
            const frame = await readStill(path);
            let rows = toRows(await detector.detect(frame));
            let cal = fixedCal;
            let warning: string | undefined;
            if (!cal) {
              const solved = calibrateFrame(frame, { table });
              if (solved.ok) cal = solved.value.calibration;
              else warning = `not calibrated (${solved.error.message}): every detection is reported, on the bed or not`;
            }
            // Centres on the balls' outlines where that is measured to help (as on video).
            if (cal && outlineCentresFor(o.game as GameId, cal, table)) rows = refineCentres(frame, rows);
            const res: ImageDetections = cal
              ? (() => {
                  const { on, off } = onTable(rows, cal);
                  return { path, width: frame.width, height: frame.height, calibrated: true, balls: on, offTable: off };
                })()
              : { path, width: frame.width, height: frame.height, calibrated: false, balls: rows, offTable: 0 };
            if (warning) res.warning = warning;
            results.push(res);
            if (o.debug) {
              mkdirSync(o.debug, { recursive: true });
              const img = cloneFrame(frame);
              for (const b of res.balls) {
                const ring = Array.from({ length: 32 }, (_, k): [number, number] => [b.u + (b.r + 2) * Math.cos((k * Math.PI) / 16), b.v + (b.r + 2) * Math.sin((k * Math.PI) / 16)]);
                polyline(img, ring, [255, 0, 255], true);
              }
              for (const b of res.balls) line(img, [b.u - 3, b.v], [b.u + 3, b.v], [255, 255, 255]);
              await writePng(join(o.debug, basename(path).replace(/\.[^.]+$/, '') + '.detections.png'), img);
            }
          }
        } finally {
          await close();
        }
        if (o.json) {
          const doc = {
            format: 'cueref.detections/1',
            game: o.game,
            model: side.name,
            images: results.map((r) => ({ ...r, balls: r.balls.map((b) => ({ ...b, u: round2(b.u), v: round2(b.v), r: round2(b.r), conf: round2(b.conf) })) })),
          };
          process.stdout.write(JSON.stringify(doc, null, 2) + '\n');
        } else {
          for (const r of results) {
            const counts = new Map<string, number>();
            for (const b of r.balls) counts.set(b.class, (counts.get(b.class) ?? 0) + 1);
            process.stdout.write(`${r.path}: ${r.balls.length} balls on the table (${[...counts].map(([k, n]) => `${n} ${k}`).join(', ') || 'none'})${r.offTable ? `, ${r.offTable} off the bed ignored` : ''}${r.warning ? `\n  warning: ${r.warning}` : ''}\n`);
          }
        }
      } catch (e) {
        handleError(e, o.json);
      }
    });
}

const round2 = (v: number) => Math.round(v * 100) / 100;
