/** End to end: `cueref referee FILE --json` on the Novus samples, and a bad log's exit code and message. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatCalls } from '../../../src/cli/referee.js';
import { refereeLog } from '../../../src/rules/registry.js';

const cli = (...args: string[]) => spawnSync(process.execPath, ['bin/cueref.js', 'referee', ...args], { encoding: 'utf8', timeout: 60_000 });
const sample = (name: string) => `samples/strokes/${name}.json`;

describe('Novus samples', () => {
  // What each sample is there to show, checked on its last call (in process: fast).
  test.each([
    ['novus-opening', { scores: [1, 0], nextPlayer: 0, fouls: [{ code: 'STRIKER_POCKETED' }] }, 3],
    ['novus-midset', { scores: [5, 2], nextPlayer: 1, penalty: 1 }, 7],
    ['novus-debt', { scores: [0, 1], penaltyDebt: [0, 0], debtSettled: [1, 0], nextPlayer: 1 }, 5],
    ['novus-set-end', { setScores: [1, 1], setNumber: 3, scores: [1, 0], player: 0 }, 7],
  ])('%s judges to the expected end', (name, last, n) => {
    const r = refereeLog(JSON.parse(readFileSync(sample(name), 'utf8')));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.calls).toHaveLength(n);
    expect(r.value.calls.at(-1)).toMatchObject(last);
    // Every sample is clean input: nothing for the referee to look at again but the rules' own flags.
    expect(r.value.calls.flatMap((c) => c.review.map((x) => x.code)).filter((c) => /MISMATCH|NOT_DUE/.test(c))).toEqual([]);
  });

  test('cueref referee --json prints cueref.calls/1; the table form sums it up', () => {
    const json = cli(sample('novus-midset'), '--json');
    expect(json.status).toBe(0);
    const doc = JSON.parse(json.stdout);
    expect(doc).toMatchObject({ format: 'cueref.calls/1', game: 'novus', variant: 'standard', players: ['Liga', 'Janis'] });
    expect(doc.calls[6].fouls.map((f: { code: string }) => f.code)).toEqual(['STRIKER_POCKETED', 'OPPONENT_PAWN_OFF']);
    // The table form, in process (each spawn costs seconds of tsx start-up).
    expect(formatCalls(doc)).toMatch(/7 strokes; Liga 5 – 2 Janis/);
  });

  test('a bad log exits 2 with an error naming the stroke and field', () => {
    const dir = mkdtempSync(join(tmpdir(), 'novus-'));
    const file = join(dir, 'bad.json');
    const log = JSON.parse(readFileSync(sample('novus-opening'), 'utf8'));
    log.strokes[1].events[3] = { t: 12.7, type: 'pot', ball: 'a8', pocket: 'TR' };
    writeFileSync(file, JSON.stringify(log));
    const r = cli(file, '--json');
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stderr).error).toMatchObject({ code: 'NOT_ON_BOARD', stroke: 1, field: 'events[3].ball' });
  });
});
