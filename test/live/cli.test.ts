/** `cueref live` through the real binary: refusals that must happen before anything is opened. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';

const BIN = join(import.meta.dirname, '../../bin/cueref.js');
const run = (...args: string[]) => spawnSync(process.execPath, [BIN, 'live', ...args], { encoding: 'utf8', timeout: 60_000 });

describe('cueref live', () => {
  test('another interface without a token is refused (exit 2, says why)', () => {
    const r = run('rtsp://127.0.0.1:1/none', '--game', 'snooker', '--host', '0.0.0.0', '--json');
    expect(r.status).toBe(2);
    expect(JSON.parse(r.stderr.trim().split('\n').at(-1)!).error).toMatchObject({ code: 'TOKEN_REQUIRED', field: 'token' });
  });

  test('a missing file fails as bad input before any server starts', () => {
    const out = mkdtempSync(join(tmpdir(), 'cueref-live-cli-'));
    const r = run(join(out, 'nope.mp4'), '--game', 'snooker', '--realtime', '--port', '0', '--out', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/nope\.mp4/);
    expect(r.stdout).not.toMatch(/scoreboard:/);
  });
});
