/**
 * `cueref track VIDEO --game G [--table FILE] [--calibration FILE] --out DIR` — video in, tracks
 * (DIR/tracks.jsonl, cueref.tracks/1, written frame by frame as it goes) and strokes
 * (DIR/strokes.json, cueref.strokes/1) out.
 *
 * The composition (frames → detector → `mapDetections` → tracker → JSON Lines → events) is
 * `trackFrames` in src/pipeline/track.ts, written against an injected detector; the command loads
 * the ONNX detector from models/ and says clearly when there is none.
 */
import { Command } from 'commander';
import { loadCalibration } from '../calibration/contract.js';
import { InputError } from '../core/errors.js';
import { GAMES } from '../core/games.js';
import { defaultProfileFor, loadTableProfile } from '../core/table.js';
import { loadModelDetector, trackFrames } from '../pipeline/track.js';
import { handleError } from './handleError.js';
import { pipelineOptionsSchema } from './pipelineOptions.js';

// The composition lives in src/pipeline/track.ts (shared with `cueref analyze`); re-exported for callers of this module.
export { loadModelDetector, trackFrames, type FrameDetector, type TrackFramesOptions, type TrackFramesResult, type VideoFrame } from '../pipeline/track.js';

const optionsSchema = pipelineOptionsSchema;

export function trackCommand(): Command {
  return new Command('track')
    .description('Track the balls of a video: writes DIR/tracks.jsonl (cueref.tracks/1) as it goes and DIR/strokes.json (cueref.strokes/1) for the referee.')
    .argument('<video>', 'video file, image sequence or stream')
    .requiredOption('--game <game>', `game (${GAMES.join(', ')})`)
    .option('--table <file>', 'table profile (cueref.table/1 JSON, or a built-in name)')
    .option('--calibration <file>', 'camera calibration (cueref.calibration/1), from `cueref calibrate`')
    .requiredOption('--out <dir>', 'output folder')
    .option('--model <file>', 'ball detector model (.onnx with a .json sidecar, which may name a partner for other cloths); default: models/detector.onnx')
    .option('--no-progress', 'no progress bar')
    .option('--json', 'print the summary as JSON')
    .addHelpText('after', '\nExamples:\n  cueref calibrate match.mp4 --game snooker --out calibration/match.json\n  cueref track match.mp4 --game snooker --calibration calibration/match.json --out runs/match\n  cueref referee runs/match/strokes.json\n\nExit codes: 0 ok, 2 bad input (no model, no calibration, bad video), 1 internal error.')
    .action(async (video: string, raw: unknown) => {
      const parsed = optionsSchema.safeParse(raw);
      try {
        if (!parsed.success) throw parsed.error;
        const opts = parsed.data;
        const table = opts.table ? loadTableProfile(opts.table) : defaultProfileFor(opts.game);
        if (table.game !== opts.game) throw new InputError({ code: 'TABLE_GAME_MISMATCH', field: 'table', message: `the table profile is for ${table.game}, not ${opts.game}` });
        const detector = await loadModelDetector(opts.game, 'models', opts.model);
        if (!opts.calibration) throw new InputError({ code: 'NO_CALIBRATION', field: 'calibration', message: 'give --calibration FILE (solve one with `cueref calibrate VIDEO --game G --out FILE`)' });
        const calibration = loadCalibration(opts.calibration);
        if (calibration.game !== opts.game) throw new InputError({ code: 'BAD_CALIBRATION', field: 'calibration', message: `the calibration is for ${calibration.game}, not ${opts.game}` });
        const { openSource } = await import('../video/source.js');
        const src = await openSource(video);
        const { SingleBar, Presets } = await import('cli-progress');
        const total = src.info.frameCount ?? (src.info.durationMs && src.info.fps ? Math.round((src.info.durationMs / 1000) * src.info.fps) : 0);
        const bar = opts.progress && process.stderr.isTTY && total > 0 ? new SingleBar({ format: 'tracking [{bar}] {value}/{total} frames | eta {eta}s', stream: process.stderr }, Presets.shades_classic) : null;
        bar?.start(total, 0);
        let n = 0;
        const res = await trackFrames(src, {
          game: opts.game,
          table,
          calibration,
          detector,
          source: { uri: video, ...(src.info.fps ? { fps: src.info.fps } : {}), width: src.info.width, height: src.info.height },
          outDir: opts.out,
          onFrame: () => bar?.update(++n),
        });
        bar?.stop();
        if (opts.json) process.stdout.write(JSON.stringify({ ...res, log: undefined }, null, 2) + '\n');
        else {
          process.stdout.write(`${res.frames} frames → ${res.strokes} strokes\n  tracks:  ${res.tracksPath}\n  strokes: ${res.strokesPath}\n`);
          for (const note of res.notes) process.stdout.write(`  note: ${note}\n`);
        }
      } catch (e) {
        handleError(e, parsed.success ? parsed.data.json : false);
      }
    });
}
