/** `cueref events` end to end through the real binary: tracks in, a stroke log the referee accepts. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatTracksJsonl } from '../../src/core/contracts/tracks.js';
import { builtinProfile } from '../../src/core/table.js';
import { simulateTable, toTracks } from './synth.js';

const BIN = join(import.meta.dirname, '../../bin/cueref.js');

function cueref(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', [BIN, ...args], { timeout: 60_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? (((error as NodeJS.ErrnoException & { code?: number }).code as unknown as number) ?? 1) : 0, stdout, stderr });
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'cueref-events-'));
const table = builtinProfile('snooker');
// The cue ball into red1, which is potted in the top-right corner; then it all stops.
const red = { x: 1300, y: 3300 };
const len = Math.hypot(1778 - red.x, 3569 - red.y);
const ux = (1778 - red.x) / len, uy = (3569 - red.y) / len;
const run = simulateTable(table, [{ id: 'white', x: red.x - ux * 400, y: red.y - uy * 400 }, { id: 'red1', ...red }, { id: 'black', x: 889, y: 3245 }], [{ t: 0.5, ball: 'white', vx: ux * 1500, vy: uy * 1500 }], { durationS: 7 });
const tracks = toTracks(run, { fps: 30, noiseMm: 1, seed: 11 });
const jsonl = join(dir, 'match.tracks.jsonl');
writeFileSync(jsonl, formatTracksJsonl(tracks));

describe('cueref events', () => {
  test('writes a stroke log that the referee judges', async () => {
    const out = join(dir, 'match.strokes.json');
    const r = await cueref(['events', jsonl, '--out', out, '--json']);
    expect(r.code).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary).toMatchObject({ strokes: 1, events: { strike: 1, contact: 1, pot: 1 } });
    const log = JSON.parse(readFileSync(out, 'utf8'));
    expect(log.format).toBe('cueref.strokes/1');
    expect(log.strokes[0].events.find((e: { type: string }) => e.type === 'pot')).toMatchObject({ ball: 'red1', pocket: 'TR' });
    const ref = await cueref(['referee', out, '--json']);
    expect(ref.code).toBe(0);
    const calls = JSON.parse(ref.stdout);
    expect(calls.calls[0]).toMatchObject({ legal: true, potted: ['red1'], points: 1 });
  });

  test('bad tracks exit 2 naming the frame and field', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ ...tracks, frames: [tracks.frames[0], { i: 1, t: 0.5, balls: [{ id: 'white', x: 1, y: null }] }] }));
    const r = await cueref(['events', bad, '--out', join(dir, 'x.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/frame 1, field frames\[1\]\.balls\[0\]\.y/);
    const missing = await cueref(['events', join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/does not exist/);
  });
});
