/**
 * One temporary folder per test run: every test's mkdtemp (and the CLIs, ffmpeg and chromium they
 * start) goes under it through TMPDIR, and it is removed when the run ends — a run used to leave
 * ~600 folders in /tmp. `CUEREF_KEEP_TMP=1` keeps it (its path is printed) to look at what a
 * failing test wrote.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'cueref-tests-'));
  process.env.TMPDIR = dir;
  return () => {
    if (process.env.CUEREF_KEEP_TMP === '1') console.log(`test files kept in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  };
}
