/** `cueref referee` end to end through the real binary: output, --json, stdin, exit codes. */
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const BIN = join(import.meta.dirname, '../../bin/cueref.js');

async function cueref(args: string[], input?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = execFile('node', [BIN, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? ((error as NodeJS.ErrnoException & { code?: number }).code as unknown as number) ?? 1 : 0, stdout, stderr });
    });
    if (input !== undefined) {
      child.stdin!.end(input);
    }
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cueref-cli-'));
const log = {
  format: 'cueref.strokes/1',
  game: 'snooker',
  players: ['Ann', 'Bob'],
  strokes: [
    { events: [{ t: 0, type: 'place', ball: 'white', x: 1000, y: 700 }, { t: 0.2, type: 'strike', ball: 'white' }, { t: 0.9, type: 'contact', a: 'white', b: 'red15' }] },
    { events: [{ t: 5, type: 'strike', ball: 'white' }, { t: 5.4, type: 'contact', a: 'white', b: 'black' }] },
  ],
};
const file = join(dir, 'log.json');
writeFileSync(file, JSON.stringify(log));

describe('cueref referee', () => {
  test('prints a per-stroke table and a summary line', async () => {
    const r = await cueref(['referee', file]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/FOUL WRONG_BALL_FIRST \(7\)/);
    expect(r.stdout).toMatch(/Ann 7 – 0 Bob/);
    expect(r.stdout).toMatch(/fouls: WRONG_BALL_FIRST×1/);
  });

  test('--json writes cueref.calls/1; - reads stdin', async () => {
    const r = await cueref(['referee', '-', '--json'], JSON.stringify(log));
    expect(r.code).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.format).toBe('cueref.calls/1');
    expect(doc.calls).toHaveLength(2);
    expect(doc.calls[1]).toMatchObject({ player: 1, penalty: 7, scores: [7, 0], nextPlayer: 0 });
  });

  test('bad input: exit 2 and a message naming the stroke and field', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...log, strokes: [{ events: [{ t: 1, type: 'strike', ball: 'white' }, { t: 0.5, type: 'contact', a: 'white', b: 'red1' }] }] }));
    const r = await cueref(['referee', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/stroke 0, field events\[1\]\.t: .*time order \[EVENTS_OUT_OF_ORDER\]/);
  });

  test('missing file and malformed JSON: exit 2 with what to do', async () => {
    const missing = await cueref(['referee', join(dir, 'nope.json')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does not exist/);
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"format": ');
    const malformed = await cueref(['referee', junk]);
    expect(malformed.code).toBe(2);
    expect(malformed.stderr).toMatch(/not valid JSON/);
  });
});
