/**
 * `cueref analyze VIDEO --game G [--table FILE] [--calibration FILE] --out DIR [--resume|--overwrite]
 * [--json]` — the whole chain: calibrate (or take --calibration), gate, detect, track, events,
 * referee, clips, report. Writes into DIR as it goes (docs/analyze.md); prints the calls table (or
 * cueref.calls/1 with --json). The composition is `analyze` in src/pipeline/.
 *
 * Ctrl-C: the frame in progress is finished and written, the strokes, calls and report are written
 * for what was seen, and the command exits 130 saying how to resume. A second Ctrl-C exits at once
 * (every line already written stays valid: --resume tolerates a torn last line).
 */
import { IMAGE_SIDES } from '../calibration/orient.js';
import { Command, Option } from 'commander';
import { z } from 'zod';
import { loadCalibration } from '../calibration/contract.js';
import { GAMES } from '../core/games.js';
import { loadTableProfile } from '../core/table.js';
import { analyze, type AnalyzeResult } from '../pipeline/analyze.js';
import { formatDuration, progressFigures } from '../pipeline/progress.js';
import { loadReplayDetector } from '../pipeline/replayDetector.js';
import { handleError } from './handleError.js';
import { frameStartArgs, frameStartOf, frameStartSchema, pipelineOptionsSchema, withFrameStartOptions } from './pipelineOptions.js';
import { formatCalls } from './referee.js';

export const EXIT_INTERRUPTED = 130;

const optionsSchema = pipelineOptionsSchema.extend(frameStartSchema.shape).extend({
  // undefined: a bar only when stderr is a terminal; --progress forces it, --no-progress hides it.
  progress: z.boolean().optional(),
  resume: z.boolean().optional(),
  overwrite: z.boolean().optional(),
  clips: z.boolean().default(true),
  viewGate: z.boolean().default(true),
  gate: z.boolean().default(true),
  detectEvery: z.coerce.number().int().min(1).max(1000).optional(),
  replayDetections: z.string().min(1).optional(),
  replayDelayMs: z.coerce.number().min(0).max(10_000).optional(),
  head: z.enum(IMAGE_SIDES).optional(),
});

export function analyzeCommand(): Command {
  return withFrameStartOptions(new Command('analyze'))
    .description('Referee a recording end to end: calibrate, detect, track, events, calls; writes tracks, strokes, calls, clips and an HTML report into DIR.')
    .argument('<video>', 'video file, image sequence or stream')
    .requiredOption('--game <game>', `game (${GAMES.join(', ')})`)
    .option('--table <file>', 'table profile (cueref.table/1 JSON, or a built-in name)')
    .option('--calibration <file>', 'camera calibration (cueref.calibration/1); default: solved from the first frames')
    .option('--head <side>', `which side of the picture the head end (pool's breaking end, snooker's baulk) is on: ${IMAGE_SIDES.join(', ')}; pool and Novus tables look the same from both ends, so pockets and cushions are otherwise named for an assumed end`)
    .requiredOption('--out <dir>', 'output folder')
    .option('--resume', 'continue the interrupted run in DIR (same video and options)')
    .option('--overwrite', 'delete the analysis files already in DIR and start again')
    .option('--model <file>', 'ball detector model (.onnx with a .json sidecar, which may name a partner for other cloths); default: models/detector.onnx')
    .option('--detect-every <n>', 'while nothing moves on the bed, run the detector on every n-th frame (default 15)')
    .option('--no-gate', 'run the detector on every frame (no motion gating)')
    .option('--no-view-gate', 'analyse every frame, even where the table is not in view')
    .option('--no-clips', 'do not write clips of flagged strokes')
    .option('--progress', 'show the progress bar even when stderr is not a terminal')
    .option('--no-progress', 'no progress bar')
    .option('--json', 'print cueref.calls/1 JSON instead of the calls table')
    // Testing aids (docs/analyze.md): detections replayed from a cueref.tracks/1 file instead of the model.
    .addOption(new Option('--replay-detections <tracks>').hideHelp())
    .addOption(new Option('--replay-delay-ms <ms>').hideHelp())
    .addHelpText(
      'after',
      '\nExamples:\n  cueref analyze match.mp4 --game snooker --out runs/match\n  cueref analyze match.mp4 --game snooker --out runs/match --resume     # after Ctrl-C or a crash\n  cueref analyze match.mp4 --game snooker --calibration calibration/match.json --out runs/match --json\n  cueref analyze frame-joined.mp4 --game snooker --scores 60,67 --player 1 --out runs/joined     # a recording that starts mid-frame\n\nWrites DIR/analyze.json, calibration.json, tracks.jsonl, tracker-input.jsonl, strokes.json, calls.json, clips/stroke-NNN.mp4, report.html.\nExit codes: 0 ok, 2 bad input (missing or unreadable video, no table in view, no model, DIR not empty), 130 interrupted (resume with --resume), 1 internal error.',
    )
    .action(async (video: string, raw: unknown) => {
      const parsed = optionsSchema.safeParse(raw);
      const json = parsed.success ? parsed.data.json === true : (raw as { json?: unknown })?.json === true;
      const stop = new AbortController();
      let sigints = 0;
      const onSigint = () => {
        sigints++;
        if (sigints > 1) {
          process.stderr.write('\ncueref: interrupted again: exiting now (what was written is kept; --resume continues)\n');
          process.exit(EXIT_INTERRUPTED);
        }
        process.stderr.write('\ncueref: interrupted: finishing the current frame and writing what was seen (Ctrl-C again to quit at once)\n');
        stop.abort();
      };
      process.on('SIGINT', onSigint);
      process.on('SIGTERM', onSigint);
      let bar: import('cli-progress').SingleBar | null = null;
      try {
        if (!parsed.success) throw parsed.error;
        const opts = parsed.data;
        const start = frameStartOf(opts);
        const table = opts.table ? loadTableProfile(opts.table) : undefined;
        const calibration = opts.calibration ? loadCalibration(opts.calibration) : undefined;
        const replay = opts.replayDetections ? loadReplayDetector(opts.replayDetections, { ...(opts.replayDelayMs ? { delayMs: opts.replayDelayMs } : {}) }) : undefined;
        const { SingleBar, Presets } = await import('cli-progress');
        const wantBar = opts.progress ?? process.stderr.isTTY === true;
        let total = 0, startFrames = 0, done = 0, t0 = 0, v0 = NaN;
        const res = await analyze(video, {
          game: opts.game,
          outDir: opts.out,
          ...(table ? { table } : {}),
          ...(calibration ? { calibration } : {}),
          ...(opts.head ? { head: opts.head } : {}),
          ...(start ? { start } : {}),
          ...(opts.model ? { modelPath: opts.model } : {}),
          ...(replay ? { detector: replay, detectorLabel: `replay:${opts.replayDetections}` } : {}),
          resume: opts.resume === true,
          overwrite: opts.overwrite === true,
          clips: opts.clips,
          viewGate: opts.viewGate,
          gate: opts.gate ? (opts.detectEvery ? { refreshEveryFrames: opts.detectEvery } : {}) : { refreshEveryFrames: 1 },
          signal: stop.signal,
          onStart: (info, already) => {
            total = info.frameCount ?? (info.durationMs && info.fps ? Math.round((info.durationMs / 1000) * info.fps) : 0);
            startFrames = done = already;
            t0 = performance.now();
            if (!wantBar) return;
            bar = new SingleBar(
              { format: 'analyzing [{bar}] {value}/{total} frames | {fps} frames/s | {rt}× real time | eta {etaText}', stream: process.stderr, noTTYOutput: !process.stderr.isTTY, notTTYSchedule: 2000, etaBuffer: 50 },
              Presets.shades_classic,
            );
            bar.start(Math.max(total, already), already, { fps: '-', rt: '-', etaText: '--' });
          },
          onFrame: (_i, ptsMs) => {
            done++;
            if (Number.isNaN(v0)) v0 = ptsMs;
            if (!bar) return;
            const f = progressFigures({ doneFrames: done, startFrames, totalFrames: total, elapsedS: (performance.now() - t0) / 1000, videoS: (ptsMs - v0) / 1000 });
            if (done > total) bar.setTotal(done);
            bar.update(done, { fps: f.fps.toFixed(1), rt: f.realtime.toFixed(2), etaText: formatDuration(f.etaS) });
          },
          onStage: (stage) => {
            if (bar) {
              (bar as import('cli-progress').SingleBar).stop();
              bar = null;
            }
            if (wantBar) process.stderr.write(`analyzing: ${stage}…\n`);
          },
        });
        (bar as import('cli-progress').SingleBar | null)?.stop();
        bar = null;
        if (json) process.stdout.write(JSON.stringify(res.calls, null, 2) + '\n');
        else printSummary(res);
        if (res.interrupted) {
          const again = [`cueref analyze ${quote(video)} --game ${opts.game}`, opts.table ? `--table ${quote(opts.table)}` : '', opts.calibration ? `--calibration ${quote(opts.calibration)}` : '', opts.model ? `--model ${quote(opts.model)}` : '', opts.head ? `--head ${opts.head}` : '', ...frameStartArgs(start), `--out ${quote(opts.out)} --resume`]
            .filter(Boolean)
            .join(' ');
          process.stderr.write(`cueref: interrupted after frame ${res.lastFrame}: strokes, calls and report cover what was seen so far. Continue with:\n  ${again}\n`);
          process.exitCode = EXIT_INTERRUPTED;
        }
      } catch (e) {
        (bar as import('cli-progress').SingleBar | null)?.stop();
        handleError(e, json);
      } finally {
        process.off('SIGINT', onSigint);
        process.off('SIGTERM', onSigint);
      }
    });
}

const quote = (s: string): string => (/^[\w./:@%+=-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

function printSummary(res: AnalyzeResult): void {
  process.stdout.write(formatCalls(res.calls));
  const speed = res.timing.videoMs / Math.max(1, res.timing.wallMs);
  const cal = res.calibrationSource;
  const calText = cal.kind === 'given' ? 'given' : cal.kind === 'resumed' ? 'kept from the resumed run' : `solved from ${cal.tried} frame(s)`;
  const d = res.detector;
  process.stdout.write(
    `\n${res.frames} frames (${(res.timing.videoMs / 1000).toFixed(1)} s of video) in ${(res.timing.wallMs / 1000).toFixed(1)} s (${speed.toFixed(2)}× real time)${res.resumed ? `, resumed at frame ${res.resumed.fromFrame}` : ''}; calibration ${calText}, ${res.calibration.reprojectionErrorMm.toFixed(2)} mm\n` +
      `detector ran on ${d.runs} of ${d.frames} frames (${(100 * d.fraction).toFixed(1)} %), ${d.outOfView} out of view\n` +
      `  tracks:  ${res.paths.tracks}\n  strokes: ${res.paths.strokes}\n  calls:   ${res.paths.calls}\n  report:  ${res.paths.report}\n` +
      (res.clips.length ? `  clips:   ${res.clips.length} in ${res.paths.report.replace(/report\.html$/, 'clips/')}\n` : ''),
  );
  for (const note of res.notes) process.stdout.write(`  note: ${note}\n`);
}
