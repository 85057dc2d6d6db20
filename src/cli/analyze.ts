/**
 * `cueref analyze VIDEO --game G [--table FILE] [--calibration FILE] --out DIR [--json]` — the whole
 * chain: calibrate (or take --calibration), detect, track, events, referee, report. Writes DIR/
 * calibration.json, tracks.jsonl (as it goes), strokes.json, calls.json and report.html; prints the
 * calls table (or cueref.calls/1 with --json). The composition is `analyze` in src/pipeline/.
 */
import { Command } from 'commander';
import { loadCalibration } from '../calibration/contract.js';
import { GAMES } from '../core/games.js';
import { loadTableProfile } from '../core/table.js';
import { analyze } from '../pipeline/analyze.js';
import { handleError } from './handleError.js';
import { pipelineOptionsSchema } from './pipelineOptions.js';
import { formatCalls } from './referee.js';

const optionsSchema = pipelineOptionsSchema;

export function analyzeCommand(): Command {
  return new Command('analyze')
    .description('Referee a recording end to end: calibrate, detect, track, events, calls; writes tracks, strokes, calls and an HTML report into DIR.')
    .argument('<video>', 'video file, image sequence or stream')
    .requiredOption('--game <game>', `game (${GAMES.join(', ')})`)
    .option('--table <file>', 'table profile (cueref.table/1 JSON, or a built-in name)')
    .option('--calibration <file>', 'camera calibration (cueref.calibration/1); default: solved from the first frames')
    .requiredOption('--out <dir>', 'output folder')
    .option('--model <file>', 'ball detector model (.onnx with a .json sidecar); default: the first in models/')
    .option('--no-progress', 'no progress bar')
    .option('--json', 'print cueref.calls/1 JSON instead of the calls table')
    .addHelpText(
      'after',
      '\nExamples:\n  cueref analyze match.mp4 --game snooker --out runs/match\n  cueref analyze match.mp4 --game snooker --calibration calibration/match.json --out runs/match --json\n\nWrites DIR/calibration.json, DIR/tracks.jsonl, DIR/strokes.json, DIR/calls.json, DIR/report.html.\nExit codes: 0 ok, 2 bad input (missing or unreadable video, no table in view, no model), 1 internal error.',
    )
    .action(async (video: string, raw: unknown) => {
      const parsed = optionsSchema.safeParse(raw);
      const json = parsed.success ? parsed.data.json === true : (raw as { json?: unknown })?.json === true;
      try {
        if (!parsed.success) throw parsed.error;
        const opts = parsed.data;
        const table = opts.table ? loadTableProfile(opts.table) : undefined;
        const calibration = opts.calibration ? loadCalibration(opts.calibration) : undefined;
        const { SingleBar, Presets } = await import('cli-progress');
        const tty = opts.progress && process.stderr.isTTY;
        let bar: InstanceType<typeof SingleBar> | null = null;
        let n = 0;
        let t0 = 0;
        const res = await analyze(video, {
          game: opts.game,
          outDir: opts.out,
          ...(table ? { table } : {}),
          ...(calibration ? { calibration } : {}),
          ...(opts.model ? { modelPath: opts.model } : {}),
          onStart: (info) => {
            const total = info.frameCount ?? (info.durationMs && info.fps ? Math.round((info.durationMs / 1000) * info.fps) : 0);
            if (!tty || total <= 0) return;
            bar = new SingleBar({ format: 'analyzing [{bar}] {value}/{total} frames | {fps} frames/s | eta {eta}s', stream: process.stderr }, Presets.shades_classic);
            bar.start(total, 0, { fps: '-' });
          },
          onFrame: () => {
            if (!bar) return;
            if (n === 0) t0 = performance.now();
            n++;
            const s = (performance.now() - t0) / 1000;
            bar.update(n, { fps: s > 0 ? (n / s).toFixed(1) : '-' });
          },
        });
        (bar as InstanceType<typeof SingleBar> | null)?.stop();
        if (json) {
          process.stdout.write(JSON.stringify(res.calls, null, 2) + '\n');
          return;
        }
        process.stdout.write(formatCalls(res.calls));
        const speed = res.timing.videoMs / Math.max(1, res.timing.wallMs);
        process.stdout.write(
          `\n${res.frames} frames (${(res.timing.videoMs / 1000).toFixed(1)} s of video) in ${(res.timing.wallMs / 1000).toFixed(1)} s (${speed.toFixed(2)}× real time); calibration ${res.calibrationSource.kind === 'given' ? 'given' : `solved from ${res.calibrationSource.tried} frame(s)`}, ${res.calibration.reprojectionErrorMm.toFixed(2)} mm\n` +
            `  tracks:  ${res.paths.tracks}\n  strokes: ${res.paths.strokes}\n  calls:   ${res.paths.calls}\n  report:  ${res.paths.report}\n`,
        );
        for (const note of res.notes) process.stdout.write(`  note: ${note}\n`);
      } catch (e) {
        handleError(e, json);
      }
    });
}
