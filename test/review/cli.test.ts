/** `cueref review` through the real binary: exit codes and messages, and a served page. */
import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { reviewOptionsSchema } from '../../src/cli/review.js';
import { loadReviewDir } from '../../src/review/load.js';
import { makeFixtureDir } from './fixture.js';

const BIN = join(import.meta.dirname, '../../bin/cueref.js');

function cueref(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('node', [BIN, ...args], { timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

describe('cueref review', () => {
  // Each run of the binary costs seconds of module loading: the binary is run for what only it
  // shows (exit codes, stderr, a listening server); the messages of the other refusals are pinned
  // in-process below.
  test.concurrent.each([
    ['a folder that does not exist', [join(tmpdir(), 'cueref-no-such-run')], /is not a folder: give the output folder of `cueref analyze/],
    ['--host without --token', [tmpdir(), '--host', '0.0.0.0'], /--host 0\.0\.0\.0 makes the review reachable from other machines: give --token/],
  ])('%s → exit 2 with a clear message', async (_name, args, message) => {
    const r = await cueref(['review', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stdout).toBe('');
  });

  test('a folder without calls.json names what is missing and what makes it', () => {
    const d = mkdtempSync(join(tmpdir(), 'cueref-review-cli-'));
    writeFileSync(join(d, 'strokes.json'), '{}');
    expect(() => loadReviewDir(d)).toThrow(/has no calls\.json: review needs the strokes\.json and calls\.json that `cueref analyze VIDEO --game G --out DIR` writes \[REVIEW_FILES_MISSING\]/);
    const empty = mkdtempSync(join(tmpdir(), 'cueref-review-cli-'));
    expect(() => loadReviewDir(empty)).toThrow(/has no strokes\.json and no calls\.json/);
  });

  test.each([
    [{ port: '9000' }, true],
    [{ port: '0' }, true],
    [{ port: 'http' }, false],
    [{ port: '70000' }, false],
    [{ port: '9000', minConf: '0.5' }, true],
    [{ port: '9000', minConf: '2' }, false],
  ])('options %j valid: %s', (raw, valid) => {
    expect(reviewOptionsSchema.safeParse(raw).success).toBe(valid);
  });

  test.concurrent('serves the folder on 127.0.0.1 and prints the URL', async () => {
    const { dir } = await makeFixtureDir({ tracks: false });
    const child = spawn('node', [BIN, 'review', dir, '--port', '0'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (b: Buffer) => {
          out += b.toString();
          const m = /Open (http:\/\/127\.0\.0\.1:\d+\/)\n/.exec(out);
          if (m) resolve(m[1]!);
        });
        child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      });
      const state = await (await fetch(`${url}api/state`)).json();
      expect(state.score.line).toBe('Ann 68 – 72 Bob (frame in progress)');
      expect(state.queue).toHaveLength(7);
    } finally {
      child.kill('SIGTERM');
    }
  });
});
