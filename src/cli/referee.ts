/** `cueref referee FILE` — stroke log (cueref.strokes/1) in, calls (cueref.calls/1) out. */
import { Command } from 'commander';
import { z } from 'zod';
import type { BaseCall, CallsDoc } from '../core/contracts/calls.js';
import { InputError } from '../core/errors.js';
import { SNOOKER_COLOURS } from '../core/games.js';
import { loadTableProfile } from '../core/table.js';
import { refereeLog } from '../rules/registry.js';
import { handleError } from './handleError.js';
import { readJsonInput } from './io.js';

const optionsSchema = z.object({ json: z.boolean().optional(), table: z.string().min(1).optional() });

export function refereeCommand(): Command {
  return new Command('referee')
    .description('Judge a stroke log (cueref.strokes/1) and print the calls: fouls, scores, breaks, free balls, misses, respots.')
    .argument('<file>', 'stroke log JSON, or - to read stdin')
    .option('--json', 'print cueref.calls/1 JSON instead of the table')
    .option('--table <file>', 'table profile (cueref.table/1 JSON, or snooker, pool8-9ft, pool8-8ft, pool8-7ft, novus)')
    .addHelpText('after', '\nExamples:\n  cueref referee match.strokes.json\n  cueref referee - --json < match.strokes.json\n\nExit codes: 0 ok, 2 bad input (the message names the stroke, field and reason), 1 internal error.')
    .action(async (file: string, raw: unknown) => {
      const opts = optionsSchema.parse(raw);
      try {
        const table = opts.table ? loadTableProfile(opts.table) : undefined;
        const log = await readJsonInput(file, 'stroke log');
        const res = refereeLog(log, table);
        if (!res.ok) throw new InputError(res.error);
        process.stdout.write(opts.json ? JSON.stringify(res.value, null, 2) + '\n' : formatCalls(res.value));
      } catch (e) {
        handleError(e, opts.json);
      }
    });
}

const pad = (s: string, n: number) => (s.length >= n ? s : s + ' '.repeat(n - s.length));

export function formatCalls(doc: CallsDoc): string {
  const names = doc.players ?? ['Player A', 'Player B'];
  const rows: string[][] = [['#', 'player', 'on', 'what happened', 'call', 'score', 'break']];
  for (const c of doc.calls) {
    const on = Array.isArray(c.ballOn) ? compactOn(c.ballOn as string[]) : typeof c.ballOn === 'string' ? c.ballOn : '';
    const call = c.fouls.length
      ? `FOUL ${c.fouls.map((f) => f.code).join('+')} (${c.penalty})${c.miss ? ' + MISS' : ''}`
      : c.legal
        ? c.points > 0 ? `+${c.points}` : 'legal'
        : 'no foul';
    const flags = [c.freeBall ? 'free ball' : '', c.snookered && !c.freeBall ? 'snookered' : '', c.frameOver ? `frame over: ${c.winner === null ? 'draw' : names[c.winner]} wins` : '', c.review.length ? `review: ${c.review.map((r) => r.code).join(',')}` : '']
      .filter(Boolean)
      .join('; ');
    rows.push([
      String(c.stroke),
      names[c.player] ?? String(c.player),
      on,
      c.summary,
      call + (flags ? ` [${flags}]` : ''),
      `${c.scores[0]}-${c.scores[1]}`,
      c.break !== undefined ? String(c.break) : '',
    ]);
  }
  const widths = rows[0]!.map((_, i) => Math.min(48, Math.max(...rows.map((r) => r[i]!.length))));
  const lines = rows.map((r) => r.map((cell, i) => pad(cell, widths[i]!)).join('  ').trimEnd());
  lines.splice(1, 0, widths.map((w) => '-'.repeat(w)).join('  '));
  lines.push('', summaryLine(doc, names));
  return lines.join('\n') + '\n';
}

function compactOn(on: string[]): string {
  // Snooker's six colours after a red read as "colour"; pool's numbers and groups are shown as they are.
  if (on.length === 6 && on.every((b) => (SNOOKER_COLOURS as readonly string[]).includes(b))) return 'colour';
  return on.length > 4 ? `${on.slice(0, 4).join('/')}…` : on.join('/');
}

function summaryLine(doc: CallsDoc, names: readonly string[]): string {
  const last = doc.calls.at(-1);
  const scores = last ? last.scores : [0, 0];
  const breaks = [0, 1].map((p) => bestBreak(doc.calls, p as 0 | 1));
  const fouls = new Map<string, number>();
  for (const c of doc.calls) for (const f of c.fouls) fouls.set(f.code, (fouls.get(f.code) ?? 0) + 1);
  const foulText = fouls.size ? [...fouls].map(([k, n]) => `${k}×${n}`).join(', ') : 'none';
  const state = last?.frameOver ? `frame over, ${last.winner === null ? 'drawn' : `${names[last.winner]} wins`}` : 'frame in progress';
  return `${doc.calls.length} strokes; ${names[0]} ${scores[0]} – ${scores[1]} ${names[1]} (${state}); best breaks ${breaks[0]} / ${breaks[1]}; fouls: ${foulText}`;
}

function bestBreak(calls: readonly BaseCall[], p: 0 | 1): number {
  let best = 0;
  for (const c of calls) if (c.player === p && typeof c.break === 'number') best = Math.max(best, c.break);
  return best;
}
