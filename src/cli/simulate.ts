/**
 * `cueref simulate SCENARIO --out DIR` — play a scenario on the simulated table and write the video
 * with its exact ground truth: truth.tracks.json (cueref.tracks/1 with the true calibration),
 * truth.strokes.json (cueref.strokes/1), truth.calls.json (the referee's calls, where the game's
 * referee exists), camera.json, and with --frames PNG frames plus per-frame labels.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import { z } from 'zod';
import type { CallsDoc } from '../core/contracts/calls.js';
import type { InputErrorInfo } from '../core/errors.js';
import { InputError } from '../core/errors.js';
import type { Result } from '../core/result.js';
import { presetCamera, type Camera } from '../sim/camera.js';
import { checkExpectations, parseScenario, runScenario, type Recording, type RefereeFn } from '../sim/scenario/index.js';
import { frameCount, snapshotAt, truthStrokes, truthTracks } from '../sim/truth.js';
import type { FrameSnapshot } from '../sim/types.js';
import { handleError } from './handleError.js';
import { readJsonInput } from './io.js';

/** Physics samples per frame: enough sub-frame positions for motion blur. */
const SUBSAMPLES_PER_FRAME = 8;

const optionsSchema = z.object({
  out: z.string().min(1, '--out DIR is required'),
  fps: z.coerce.number().positive().max(1000).default(30),
  size: z
    .string()
    .regex(/^\d+x\d+$/, '--size must look like 1280x720')
    .default('1280x720'),
  camera: z.enum(['overhead', 'broadcast', 'oblique']).default('overhead'),
  seed: z.coerce.number().int().min(0).default(0),
  look: z.enum(['default', 'random']).default('default'),
  frames: z.boolean().optional(),
  video: z.boolean().default(true),
  json: z.boolean().optional(),
  saveFound: z.string().min(1).optional(),
});

export function simulateCommand(): Command {
  return new Command('simulate')
    .description('Play a scenario (cueref.scenario/1) on the simulated table: video plus exact truth tracks, strokes, calls and camera.')
    .argument('<scenario>', 'scenario JSON (see docs/simulate.md), or - for stdin')
    .requiredOption('--out <dir>', 'output folder (created)')
    .option('--fps <n>', 'frames per second', '30')
    .option('--size <WxH>', 'image size in pixels', '1280x720')
    .option('--camera <kind>', 'overhead | broadcast | oblique', 'overhead')
    .option('--seed <n>', 'render seed (look, noise); the physics is deterministic', '0')
    .option('--look <kind>', 'default | random (a random look from the seed)', 'default')
    .option('--frames', 'also write PNG frames and per-frame labels (frames/NNNNNN.png, .json) for training')
    .option('--no-video', 'write the truth files only')
    .option('--save-found <file>', 'write the scenario back with every stroke-finder goal replaced by the stroke found (aim, speed, spin)')
    .option('--json', 'print a JSON summary')
    .addHelpText('after', '\nExamples:\n  cueref simulate samples/scenarios/snooker-in-off-S07.json --out /tmp/inoff\n  cueref simulate samples/scenarios/pool8-break-P01.json --out /tmp/p --camera broadcast --frames --fps 25\n\nExit codes: 0 ok, 2 bad input (the message names the stroke and field), 1 internal error.')
    .action(async (file: string, raw: unknown) => {
      const rawOpts = raw as Record<string, unknown>;
      try {
        const opts = optionsSchema.parse(rawOpts);
        const [width, height] = opts.size.split('x').map(Number) as [number, number];
        if (width < 16 || height < 16 || width > 8192 || height > 8192) throw new InputError({ code: 'BAD_OPTION', field: '--size', message: `--size ${opts.size} is out of range (16…8192 per side)` });
        const rawScenario = await readJsonInput(file, 'scenario');
        const scenario = parseScenario(rawScenario, `scenario '${file}'`);
        const warn = (m: string) => process.stderr.write(`cueref: warning: ${m}\n`);
        const referee = await loadReferee(warn);
        const rec = runScenario(scenario, { sampleDtS: 1 / (opts.fps * SUBSAMPLES_PER_FRAME), referee, warn });
        for (const f of checkExpectations(rec)) warn(`stroke ${f.stroke}: the scenario's expectation is not met: ${f.what}`);
        const cam = presetCamera(opts.camera, rec.table, { width, height });
        mkdirSync(opts.out, { recursive: true });
        const written: string[] = [];
        const write = (name: string, doc: unknown, compact = false) => {
          const p = join(opts.out, name);
          // Tracks are large (every ball, every frame): written compact; the rest for reading.
          writeFileSync(p, (compact ? JSON.stringify(doc) : JSON.stringify(doc, null, 1)) + '\n');
          written.push(p);
        };
        write('truth.strokes.json', truthStrokes(rec));
        write('truth.tracks.json', truthTracks(rec, cam, opts.fps), true);
        write('truth.calls.json', callsFile(rec.calls, referee !== null, rec.game, warn));
        write('camera.json', cam);
        if (opts.saveFound) {
          writeFileSync(opts.saveFound, JSON.stringify(withFoundStrokes(rawScenario, rec), null, 2) + '\n');
          written.push(opts.saveFound);
        }
        let video: string | null = null;
        if (opts.video || opts.frames) {
          video = await renderVideo(rec, cam, opts, written, warn);
        }
        const summary = {
          scenario: scenario.name,
          game: rec.game,
          durationS: Number(rec.durationS.toFixed(3)),
          frames: frameCount(rec, opts.fps),
          strokes: rec.strokes.map((s) => ({
            t: Number(s.tStrike.toFixed(5)),
            events: s.stroke.events.length,
            pots: s.run.exits.filter((e) => e.kind === 'pot').map((e) => `${e.id}→${e.pocket}`),
            offTable: s.run.exits.filter((e) => e.kind === 'offTable').map((e) => e.id),
            ...(s.found ? { found: { aim: s.found.aim, speedMmPerS: s.found.speedMmPerS, spin: s.found.spin, tries: s.found.tries } } : {}),
          })),
          video,
          files: written,
          warnings: rec.warnings,
        };
        if (opts.json) process.stdout.write(JSON.stringify(summary, null, 2) + '\n');
        else {
          process.stdout.write(`${scenario.name}: ${rec.game}, ${summary.strokes.length} stroke(s), ${summary.durationS} s, ${summary.frames} frames at ${opts.fps} fps\n`);
          summary.strokes.forEach((s, i) => process.stdout.write(`  stroke ${i} at ${s.t.toFixed(3)} s: ${s.events} events${s.pots.length ? `, potted ${s.pots.join(' ')}` : ''}${s.offTable.length ? `, off table ${s.offTable.join(' ')}` : ''}${s.found ? `, found ${JSON.stringify(s.found.aim)} at ${s.found.speedMmPerS} mm/s in ${s.found.tries} tries` : ''}\n`));
          for (const f of written) process.stdout.write(`  wrote ${f}\n`);
        }
      } catch (e) {
        handleError(e, rawOpts.json === true);
      }
    });
}

/** The raw scenario with each `find` replaced by the stroke it found, so it replays without searching. */
export function withFoundStrokes(raw: unknown, rec: Recording): unknown {
  const doc = structuredClone(raw) as { strokes: Record<string, unknown>[] };
  doc.strokes = doc.strokes.map((st, k) => {
    const f = rec.strokes[k]?.found;
    if (!('find' in st) || !f) return st;
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(st)) {
      if (key !== 'find') {
        out[key] = v;
        continue;
      }
      out.aim = f.aim;
      out.speedMmPerS = f.speedMmPerS;
      if (f.spin.top !== 0 || f.spin.side !== 0) out.spin = f.spin;
    }
    return out;
  });
  return doc;
}

/** The rules registry is loaded lazily: a game without a referee still simulates. */
async function loadReferee(warn: (m: string) => void): Promise<RefereeFn | null> {
  try {
    const mod = await import('../rules/registry.js');
    return (log, table) => mod.refereeLog(log, table);
  } catch (e) {
    warn(`the referee could not be loaded (${(e as Error).message.split('\n')[0]}); truth.calls.json will hold the error and colours are respotted by the simulator's own rule`);
    return null;
  }
}

function callsFile(calls: Result<CallsDoc, InputErrorInfo> | undefined, haveReferee: boolean, game: string, warn: (m: string) => void): unknown {
  if (!haveReferee) return { error: { code: 'REFEREE_UNAVAILABLE', message: 'the rules module could not be loaded in this build' } };
  if (!calls) return { error: { code: 'NO_CALLS', message: 'no strokes were judged' } };
  if (!calls.ok) {
    warn(`the ${game} referee returned an error; truth.calls.json holds it: ${calls.error.message}`);
    return { error: calls.error };
  }
  return calls.value;
}

interface RenderOpts {
  out: string;
  fps: number;
  seed: number;
  look: 'default' | 'random';
  frames?: boolean | undefined;
  video: boolean;
}

async function renderVideo(rec: Recording, cam: Camera, opts: RenderOpts, written: string[], warn: (m: string) => void): Promise<string | null> {
  let render: typeof import('../sim/render/index.js');
  let encode: typeof import('../video/encode.js');
  try {
    render = await import('../sim/render/index.js');
    encode = await import('../video/encode.js');
  } catch (e) {
    warn(`video not written: the renderer is not available in this build (${(e as Error).message.split('\n')[0]}); the truth files are complete`);
    return null;
  }
  const look = opts.look === 'random' ? render.randomLook(rec.game, opts.seed) : render.defaultLook(rec.game);
  const renderer = new render.Renderer({ game: rec.game, table: rec.table, camera: cam, look, seed: opts.seed });
  const n = frameCount(rec, opts.fps);
  const videoPath = join(opts.out, 'video.mp4');
  const writer = opts.video ? encode.createMp4Writer({ path: videoPath, width: cam.width, height: cam.height, fps: opts.fps }) : null;
  const framesDir = join(opts.out, 'frames');
  let sharp: typeof import('sharp').default | undefined;
  if (opts.frames) {
    mkdirSync(framesDir, { recursive: true });
    sharp = (await import('sharp')).default;
  }
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = process.stderr.isTTY && n > 60 ? new SingleBar({ format: 'rendering [{bar}] {value}/{total} frames | eta {eta}s', stream: process.stderr }, Presets.shades_classic) : null;
  bar?.start(n, 0);
  const dt = 1 / (opts.fps * SUBSAMPLES_PER_FRAME);
  const exposure = renderer.exposureS;
  try {
    for (let i = 0; i < n; i++) {
      const t = i / opts.fps;
      const frame = snapshotAt(rec, i, t);
      // Sub-frame snapshots across the exposure, centred on the frame time so that the smear of a
      // moving ball is centred on its label (a frame's timestamp is its exposure's midpoint).
      const history: FrameSnapshot[] = [];
      if (exposure > 0 && frame.balls.some((b) => b.state === 'moving')) {
        const half = Math.max(1, Math.floor(exposure / 2 / dt));
        for (let m = -half; m <= half; m++) if (m !== 0) history.push(snapshotAt(rec, i, t + m * dt));
      }
      const img = renderer.render(frame, history.filter((h) => h.t >= 0));
      if (writer) await writer.write(img.rgb);
      if (sharp) {
        const name = String(i).padStart(6, '0');
        await sharp(Buffer.from(img.rgb), { raw: { width: img.width, height: img.height, channels: 3 } }).png().toFile(join(framesDir, `${name}.png`));
        writeFileSync(join(framesDir, `${name}.json`), JSON.stringify({ i, t: Number(t.toFixed(5)), width: img.width, height: img.height, labels: img.labels }) + '\n');
      }
      bar?.update(i + 1);
    }
  } finally {
    bar?.stop();
    if (writer) await writer.close();
  }
  if (opts.frames) written.push(`${framesDir}/ (${n} PNG + label files)`);
  if (writer) written.push(videoPath);
  return writer ? videoPath : null;
}
