/**
 * `cueref events TRACKS --out FILE` — tracks (cueref.tracks/1, JSON or JSON Lines) in, the stroke
 * log (cueref.strokes/1) out: strikes, contacts timed between frames, cushions, pots, placements.
 * Lets any tracker feed the referee.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Command } from 'commander';
import { z } from 'zod';
import { parseTracksText, type TracksDoc } from '../core/contracts/tracks.js';
import { InputError } from '../core/errors.js';
import { defaultProfileFor, loadTableProfile, parseTableProfile, type TableProfile } from '../core/table.js';
import { tracksToStrokes } from '../events/index.js';
import { handleError } from './handleError.js';
import { readStdin } from './io.js';

const optionsSchema = z.object({
  out: z.string().min(1).optional(),
  table: z.string().min(1).optional(),
  json: z.boolean().optional(),
  progress: z.boolean().default(true),
  atRestMs: z.coerce.number().min(100).max(5000).optional(),
  noiseMm: z.coerce.number().min(0.05).max(20).optional(),
  paths: z.boolean().default(true),
});

export async function readTracks(path: string): Promise<TracksDoc> {
  let text: string;
  if (path === '-') text = await readStdin();
  else {
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new InputError({ code: 'FILE_NOT_FOUND', message: code === 'ENOENT' ? `tracks file '${path}' does not exist` : `cannot read tracks file '${path}' (${code ?? (e as Error).message})` });
    }
  }
  return parseTracksText(text, path === '-' ? 'stdin' : `'${path}'`);
}

/** The table: --table, else the one the tracks carry, else the game's default. */
export function tableFor(doc: TracksDoc, option: string | undefined): TableProfile {
  const table = option ? loadTableProfile(option) : doc.table !== undefined ? parseTableProfile(doc.table, "the tracks' table") : defaultProfileFor(doc.game);
  if (table.game !== doc.game) throw new InputError({ code: 'TABLE_GAME_MISMATCH', field: 'table', message: `the table profile is for ${table.game} but the tracks are ${doc.game}` });
  return table;
}

export function eventsCommand(): Command {
  return new Command('events')
    .description('Turn tracks (cueref.tracks/1) into a stroke log (cueref.strokes/1) the referee reads: strikes, contacts timed between frames, cushions, pots, placements, rest positions.')
    .argument('<tracks>', 'tracks file (JSON or JSON Lines), or - for stdin')
    .option('--out <file>', 'write the stroke log here (default: print it)')
    .option('--table <file>', 'table profile (cueref.table/1 JSON, or snooker, pool8-9ft, pool8-8ft, pool8-7ft, novus)')
    .option('--at-rest-ms <ms>', 'every ball still this long ends a stroke (default 700)')
    .option('--noise-mm <mm>', 'expected position noise of the tracks (default 1)')
    .option('--no-paths', 'leave out the sampled paths of moving balls')
    .option('--no-progress', 'no progress bar')
    .option('--json', 'print the summary as JSON')
    .addHelpText('after', '\nExamples:\n  cueref events match.tracks.jsonl --out match.strokes.json\n  cueref referee match.strokes.json\n\nExit codes: 0 ok, 2 bad input (the message names the frame and field), 1 internal error.')
    .action(async (file: string, raw: unknown) => {
      const opts = optionsSchema.parse(raw);
      try {
        const doc = await readTracks(file);
        const table = tableFor(doc, opts.table);
        const { SingleBar, Presets } = await import('cli-progress');
        const n = doc.frames.length;
        const bar = opts.progress && process.stderr.isTTY && n > 300 ? new SingleBar({ format: 'events [{bar}] {value}/{total} frames', stream: process.stderr }, Presets.shades_classic) : null;
        bar?.start(n, 0);
        const params: Record<string, unknown> = { paths: opts.paths };
        if (opts.atRestMs !== undefined) params['atRestMs'] = opts.atRestMs;
        if (opts.noiseMm !== undefined) params['noiseMm'] = opts.noiseMm;
        const { log, notes } = tracksToStrokes(doc, table, { params, onProgress: (done) => bar?.update(done) });
        bar?.stop();
        if (doc.table !== undefined || opts.table) log.table = table;
        const text = JSON.stringify(log, null, 1) + '\n';
        if (opts.out) writeFileSync(opts.out, text);
        else if (!opts.json) process.stdout.write(text);
        const counts: Record<string, number> = {};
        for (const s of log.strokes) for (const e of s.events) counts[e.type] = (counts[e.type] ?? 0) + 1;
        const lowConf = log.strokes.flatMap((s) => s.events).filter((e) => (e.conf ?? 1) < 0.8).length;
        if (opts.json) process.stdout.write(JSON.stringify({ frames: n, strokes: log.strokes.length, events: counts, lowConfidence: lowConf, notes, out: opts.out ?? null }, null, 2) + '\n');
        else if (opts.out) {
          const ev = Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(', ') || 'none';
          process.stderr.write(`${n} frames → ${log.strokes.length} strokes (${ev}; ${lowConf} low-confidence) → ${opts.out}\n`);
          for (const note of notes) process.stderr.write(`note: ${note}\n`);
        }
      } catch (e) {
        handleError(e, opts.json);
      }
    });
}
