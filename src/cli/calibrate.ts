/**
 * `cueref calibrate SOURCE --game G [--table FILE] [--at SECONDS] [--json] [--out FILE] [--debug DIR]`
 * Solves image ⇄ table for a still image or a video and prints / saves cueref.calibration/1.
 * Fallbacks when the automatic solve fails: `--points FILE` (image↔table pairs) or `--corners`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { GAMES } from '../core/games.js';
import { defaultProfileFor, loadTableProfile, type TableProfile } from '../core/table.js';
import { toCalibrationJson, type Calibration } from '../calibration/contract.js';
import { isStillImage, readStill, readVideoFrames, writePng } from '../calibration/frames.js';
import type { RgbFrame } from '../calibration/image.js';
import { calibrateFromPoints, parseCorners, parsePointsFile } from '../calibration/manual.js';
import { drawCalibration } from '../calibration/overlay.js';
import { measuredProfile } from '../calibration/profile.js';
import { betterCalibration, calibrateFrame, type CalibrationDetail, type CalibrationFailure } from '../calibration/solve.js';
import { headSideOf, IMAGE_SIDES, orientCalibration } from '../calibration/orient.js';
import type { Pt } from '../calibration/geometry.js';
import { handleError } from './handleError.js';
import { readJsonInput } from './io.js';

const optionsSchema = z.object({
  game: z.enum(GAMES),
  table: z.string().min(1).optional(),
  at: z.coerce.number().finite().min(0).default(0),
  json: z.boolean().default(false),
  out: z.string().min(1).optional(),
  debug: z.string().min(1).optional(),
  points: z.string().min(1).optional(),
  corners: z.string().min(1).optional(),
  focalPx: z.coerce.number().finite().positive().optional(),
  distortion: z.boolean().default(true),
  frames: z.coerce.number().int().min(1).max(30).default(5),
  writeTable: z.string().min(1).optional(),
  head: z.enum(IMAGE_SIDES).optional(),
});
type Options = z.infer<typeof optionsSchema>;

/** Saved calibrations live in `calibration/` unless a path with a folder is given. */
export function resolveOutPath(out: string): string {
  return out.includes('/') || out.includes('\\') ? out : join('calibration', out.endsWith('.json') ? out : `${out}.json`);
}

function describe(c: Calibration): string {
  const lines = [
    `calibrated ${c.game} table ${c.table.bed.width}×${c.table.bed.length} mm in a ${c.image.width}×${c.image.height} frame (${c.method})`,
    `  reprojection error ${c.reprojectionErrorMm.toFixed(2)} mm (median over ${c.inliers} points)`,
    `  found: ${c.found.join(', ')}`,
    `  baulk/head end: ${c.end === 'found' ? 'read from the markings' : c.end === 'given' ? 'as given (--head)' : 'assumed (no markings decided it): give --head SIDE if it is wrong'} — ${headSideOf(c)} of the picture`,
  ];
  if (c.distortion) lines.push(`  lens: k1 = ${c.distortion.k1.toFixed(4)} (focal ${c.distortion.fx.toFixed(0)} px)`);
  if (c.camera) lines.push(`  camera ${c.camera.centreMm.map((v) => v.toFixed(0)).join(', ')} mm, focal ${c.camera.focalPx.toFixed(0)} px${c.camera.focalMeasured ? '' : ' (prior)'}`);
  for (const [k, v] of Object.entries(c.checks ?? {})) lines.push(`  check ${k}: ${v.toFixed(1)}`);
  return lines.join('\n');
}

async function loadFrames(source: string, o: Options): Promise<{ frame: RgbFrame; atSeconds: number }[]> {
  if (isStillImage(source)) return [{ frame: await readStill(source), atSeconds: 0 }];
  const frames = await readVideoFrames(source, o.at, o.frames, 0.5);
  return frames.map((f) => ({ frame: f.frame, atSeconds: f.ptsMs / 1000 }));
}

export async function runCalibrate(source: string, o: Options): Promise<Calibration> {
  const table: TableProfile = o.table ? loadTableProfile(o.table) : defaultProfileFor(o.game);
  if (table.game !== o.game) {
    throw new InputError({ code: 'GAME_MISMATCH', field: 'table', message: `table profile is for ${table.game}, not ${o.game}` });
  }
  const frames = await loadFrames(source, o);
  const first = frames[0]!;
  let cal: Calibration;
  let detail: CalibrationDetail | null = null;
  if (o.points || o.corners) {
    let img: Pt[], tab: Pt[];
    if (o.points) {
      const pf = parsePointsFile(await readJsonInput(o.points, 'points file'), `points file '${o.points}'`);
      img = pf.points.map((p) => [p.u, p.v]);
      tab = pf.points.map((p) => [p.x, p.y]);
    } else {
      img = parseCorners(o.corners!);
      const { width: W, length: L } = table.bed;
      tab = [[0, 0], [W, 0], [W, L], [0, L]];
    }
    cal = await calibrateFromPoints(img, tab, table, { width: first.frame.width, height: first.frame.height }, o.points ? 'points' : 'corners', o.focalPx);
  } else {
    const failures: CalibrationFailure[] = [];
    for (const f of frames) {
      const r = calibrateFrame(f.frame, { table, focalPx: o.focalPx, distortion: o.distortion });
      if (!r.ok) {
        failures.push(r.error);
        continue;
      }
      if (!detail || betterCalibration(r.value.calibration, detail.calibration) !== detail.calibration) detail = r.value;
    }
    if (!detail) {
      const e = failures[0]!;
      throw new InputError({
        code: `CALIBRATION_${e.code}`,
        message: `automatic calibration failed on ${frames.length} frame(s): ${e.message}; found: ${e.found.join(', ') || 'nothing'}. Give the table by hand with --corners "u,v u,v u,v u,v" (bed corners BL BR TR TL) or --points FILE`,
      });
    }
    cal = detail.calibration;
  }
  if (o.head) {
    // The user's word on which end is which (pool's markings are the same at both ends).
    const r = orientCalibration(cal, o.head);
    if (r.overrode) process.stderr.write(`cueref calibrate: --head ${o.head} turns the table against its markings (they put the baulk end on the other side)\n`);
    cal = r.calibration;
  }
  cal.source = { uri: source, ...(isStillImage(source) ? {} : { atSeconds: o.at }) };
  if (o.debug) {
    mkdirSync(o.debug, { recursive: true });
    const img = drawCalibration(first.frame, cal, detail ? { nose: detail.nosePointsPx, outer: detail.outerPointsPx } : undefined);
    await writePng(join(o.debug, `${basename(source).replace(/\.[^.]+$/, '')}-calibration.png`), img);
  }
  if (o.writeTable) {
    const path = o.writeTable;
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, JSON.stringify(measuredProfile(cal), null, 2) + '\n');
  }
  return cal;
}

export function calibrateCommand(): Command {
  return new Command('calibrate')
    .description('Find the table in a frame and solve image ⇄ table mm (cueref.calibration/1).')
    .argument('<source>', 'still image (png, jpg) or video file / stream URI')
    .requiredOption('--game <game>', `game: ${GAMES.join(', ')}`)
    .option('--table <file>', 'table profile (cueref.table/1 JSON or a built-in name); default: the game\'s standard table')
    .option('--at <seconds>', 'time in the video to calibrate at', '0')
    .option('--frames <n>', 'video: frames to try, 0.5 s apart (the best solve wins)', '5')
    .option('--json', 'print the calibration as JSON')
    .option('--out <file>', 'save the calibration (a bare name goes to calibration/NAME.json)')
    .option('--debug <dir>', 'write the frame with the found edges and the projected table model')
    .option('--points <file>', 'fallback: image↔table correspondences {points:[{u,v,x,y}]}')
    .option('--corners <uv>', 'fallback: the four bed corners BL BR TR TL in pixels, "u,v u,v u,v u,v"')
    .option('--focal-px <n>', 'focal length in pixels, when known (improves the ball-height correction)')
    .option('--no-distortion', 'do not estimate lens distortion')
    .option('--write-table <file>', 'write the measured table profile (cueref.table/1)')
    .option('--head <side>', `which side of the picture the head end (pool's breaking end, snooker's baulk) is on: ${IMAGE_SIDES.join(', ')} — pool and Novus tables look the same from both ends`)
    .action(async (source: string, raw: Record<string, unknown>) => {
      const json = raw.json === true;
      try {
        const o = optionsSchema.parse(raw);
        const cal = await runCalibrate(source, o);
        const doc = toCalibrationJson(cal);
        if (o.out) {
          const path = resolveOutPath(o.out);
          mkdirSync(dirname(path), { recursive: true });
          writeFileSync(path, JSON.stringify(doc, null, 2) + '\n');
          if (!o.json) process.stdout.write(`saved ${path}\n`);
        }
        process.stdout.write(o.json ? JSON.stringify(doc, null, 2) + '\n' : describe(cal) + '\n');
      } catch (e) {
        handleError(e, json);
      }
    });
}
