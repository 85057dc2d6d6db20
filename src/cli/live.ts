/**
 * `cueref live SOURCE --game G [--port P] [--host H --token T] [--out DIR] [--calibration FILE]
 * [--table FILE] [--realtime]` — the whole chain on a camera or stream (or a file, paced at
 * recording speed with --realtime), calls pushed to a scoreboard page as the balls stop, and
 * persisted as they happen (DIR/strokes.jsonl, DIR/calls.json). Restarted on the same DIR, it
 * restores the frame from its log. Ctrl-C stops it with everything on disk. See docs/live.md.
 */
import { IMAGE_SIDES, orientCalibration } from '../calibration/orient.js';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import { loadCalibration, toCalibrationJson, type Calibration } from '../calibration/contract.js';
import { InputError } from '../core/errors.js';
import { GAMES } from '../core/games.js';
import { defaultProfileFor, loadTableProfile } from '../core/table.js';
import { solveFromFeed } from '../live/calibrate.js';
import { sourceFeed } from '../live/feed.js';
import { isLoopback, startLiveServer } from '../live/server.js';
import { LiveSession } from '../live/session.js';
import { spotHeightNote } from '../pipeline/spotHeight.js';
import { loadModelDetector } from '../pipeline/track.js';
import { handleError } from './handleError.js';
import { frameStartOf, frameStartSchema, withFrameStartOptions } from './pipelineOptions.js';

const optionsSchema = frameStartSchema.extend({
  game: z.enum(GAMES),
  port: z.coerce.number().int().min(0).max(65535).default(8765),
  host: z.string().min(1).default('127.0.0.1'),
  token: z.string().min(16, 'a token of at least 16 characters').optional(),
  out: z.string().min(1).default('live-out'),
  calibration: z.string().min(1).optional(),
  table: z.string().min(1).optional(),
  model: z.string().min(1).optional(),
  realtime: z.boolean().optional(),
  players: z
    .string()
    .transform((s) => s.split(',').map((p) => p.trim()))
    .pipe(z.tuple([z.string().min(1), z.string().min(1)], 'two names separated by a comma'))
    .optional(),
  atRestMs: z.coerce.number().int().min(100).max(5000).optional(),
  gate: z.boolean().default(true),
  exitAtEnd: z.boolean().optional(),
  operator: z.boolean().optional(),
  json: z.boolean().optional(),
  head: z.enum(IMAGE_SIDES).optional(),
});

export function liveCommand(): Command {
  return withFrameStartOptions(new Command('live'))
    .description('Referee live: camera or stream (or a file at recording speed) → calls on a scoreboard page within a second of the balls stopping.')
    .argument('<source>', 'rtsp/rtmp/http/udp/srt stream, /dev/video*, or a video file (with --realtime: paced as a camera)')
    .requiredOption('--game <game>', `game (${GAMES.join(', ')})`)
    .option('--port <port>', 'scoreboard port (0: any free port)', '8765')
    .option('--host <host>', 'interface to listen on; anything but loopback needs --token', '127.0.0.1')
    .option('--token <token>', 'required on every request to the page and the WebSocket (?token=…)')
    .option('--out <dir>', 'where strokes.jsonl, calls.json and session.jsonl are written (and restored from)', 'live-out')
    .option('--calibration <file>', 'camera calibration (cueref.calibration/1); default: solved from the first frames')
    .option('--table <file>', 'table profile (cueref.table/1 JSON, or a built-in name)')
    .option('--head <side>', `which side of the picture the head end (pool's breaking end, snooker's baulk) is on: ${IMAGE_SIDES.join(', ')} (pool and Novus tables look the same from both ends)`)
    .option('--model <file>', 'ball detector model (.onnx with a .json sidecar, which may name a partner for other cloths); default: models/detector.onnx')
    .option('--realtime', 'a file source is delivered at recording speed, as a camera (late frames dropped)')
    .option('--players <a,b>', 'the two players\' names, comma-separated')
    .option('--at-rest-ms <ms>', 'how long every ball must be still before a stroke ends (default 700): lower calls sooner')
    .option('--exit-at-end', 'exit when a file source ends (default: keep the scoreboard up until Ctrl-C)')
    .option('--operator', 'the page takes the next stroke\'s nomination, called pocket and decision (POST /next); default: a read-only scoreboard')
    .option('--no-gate', 'run the detector on every frame (default: only where the bed changed, reusing the last detections on a still table)')
    .option('--json', 'print one JSON line {url, out, restored} at start and the calls (cueref.calls/1) at the end')
    .addHelpText(
      'after',
      '\nExamples:\n  cueref live rtsp://192.168.1.20/stream --game snooker\n  cueref live match.mp4 --game pool8 --realtime --calibration calibration/hall.json --out runs/live\n  cueref live /dev/video0 --game snooker --host 0.0.0.0 --token "$(openssl rand -hex 16)"\n\nRestarting with the same --out continues the frame from DIR/strokes.jsonl.\nExit codes: 0 ok (Ctrl-C), 2 bad input (no model, no table in view, bad options), 1 internal error.',
    )
    .action(async (source: string, raw: unknown) => {
      const parsed = optionsSchema.safeParse(raw);
      const json = parsed.success ? parsed.data.json === true : (raw as { json?: unknown })?.json === true;
      try {
        if (!parsed.success) throw parsed.error;
        const o = parsed.data;
        const start = frameStartOf(o);
        if (!isLoopback(o.host) && !o.token) {
          throw new InputError({ code: 'TOKEN_REQUIRED', field: 'token', message: `listening on ${o.host} serves the scoreboard beyond this machine: add --token (16+ characters, e.g. \`openssl rand -hex 16\`)` });
        }
        const given: Calibration | undefined = o.calibration ? loadCalibration(o.calibration) : undefined;
        const table = o.table ? loadTableProfile(o.table) : (given?.table ?? defaultProfileFor(o.game));
        if (table.game !== o.game) throw new InputError({ code: 'TABLE_GAME_MISMATCH', field: 'table', message: `the table profile is for ${table.game}, not ${o.game}` });
        if (given && given.game !== o.game) throw new InputError({ code: 'BAD_CALIBRATION', field: 'calibration', message: `the calibration is for ${given.game}, not ${o.game}` });
        // The model first: a missing detector should fail before any connection.
        const detector = await loadModelDetector(o.game, 'models', o.model);
        const say = (line: string) => process.stderr.write(`cueref live: ${line}\n`);
        const open = sourceFeed(source, { ...(o.realtime ? { realtime: true } : {}), log: (l) => say(l) });
        let calibration = given;
        if (!calibration) {
          say(`calibrating from the first frames of ${source}…`);
          // Read as fast as it decodes (not paced): the solver's time must not cost frames.
          const solved = await solveFromFeed(sourceFeed(source, { log: (l) => say(l) }), table, source, {}, detector);
          calibration = solved.calibration;
          if (solved.height?.ok) say(spotHeightNote(solved.height));
          say(`calibrated from ${solved.tried} frame(s): reprojection error ${calibration.reprojectionErrorMm.toFixed(2)} mm, found ${calibration.found.join(', ')}`);
        }
        if (o.head) calibration = orientCalibration(calibration, o.head).calibration;
        const session = new LiveSession({
          game: o.game,
          table,
          calibration,
          detector,
          open,
          outDir: o.out,
          ...(o.players ? { players: o.players } : {}),
          ...(start ? { start } : {}),
          ...(o.atRestMs !== undefined ? { events: { atRestMs: o.atRestMs } } : {}),
          ...(o.gate ? { gate: {} } : {}),
          log: say,
        });
        writeFileSync(join(o.out, 'calibration.json'), JSON.stringify(toCalibrationJson(calibration), null, 2) + '\n');
        const restored = session.restore();
        const server = await startLiveServer({ session, table, host: o.host, port: o.port, ...(o.token ? { token: o.token } : {}), ...(o.operator ? { operator: true } : {}) });
        if (json) process.stdout.write(JSON.stringify({ url: server.url, out: o.out, restored }) + '\n');
        else {
          process.stdout.write(`scoreboard: ${server.url}\n`);
          process.stdout.write(`writing:    ${session.store.paths.strokes}, ${session.store.paths.calls}\n`);
          if (restored) process.stdout.write(`restored:   ${restored} stroke(s) from ${session.store.paths.strokes}: scores ${session.scoreboard().scores.join('–')}\n`);
          process.stdout.write('Ctrl-C to stop.\n');
        }
        if (!json) {
          session.subscribe((m) => {
            if (m.type === 'call') process.stdout.write(`#${m.call.stroke + 1} ${m.call.summary}${m.call.fouls.length ? ` — FOUL ${m.call.fouls.map((f) => f.code).join(', ')}` : ''} · ${m.call.scores.join('–')}\n`);
            if (m.type === 'status') process.stdout.write(`[${m.status}] ${m.detail}\n`);
          });
        }

        let stopping: Promise<void> | null = null;
        const stop = (code: number): Promise<void> =>
          (stopping ??= (async () => {
            await session.close();
            await server.close();
            if (json) process.stdout.write(JSON.stringify(session.referee.callsDoc()) + '\n');
            else process.stdout.write(`stopped; ${session.referee.calls.length} call(s) in ${session.store.paths.calls}\n`);
            process.exit(code);
          })());
        const onSignal = () => {
          if (stopping) process.exit(130); // a second Ctrl-C: the strokes are on disk already
          void stop(0);
        };
        process.on('SIGINT', onSignal);
        process.on('SIGTERM', onSignal);
        await session.start();
        if (o.exitAtEnd) await stop(0);
        else if (!stopping) process.stdout.write('the source ended; the scoreboard stays up until Ctrl-C\n');
      } catch (e) {
        handleError(e, json);
      }
    });
}
