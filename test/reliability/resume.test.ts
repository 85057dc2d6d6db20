/**
 * kill -9 in the middle of `cueref analyze`, then `--resume`, through the real CLI in child
 * processes: the resumed run must end with exactly the files an uninterrupted run writes — the
 * same frames tracked, the same strokes (none lost, none counted twice), the same calls.
 * Detections are replayed from the simulator's truth (the hidden --replay-detections testing aid)
 * so the two runs see identical detections and the test runs in seconds; a per-frame delay keeps
 * the first run slow enough to be killed mid-stroke.
 */
import { spawn, spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTracksText } from '../../src/core/contracts/tracks.js';
import { strokeLogSchema } from '../../src/core/contracts/strokes.js';
import { analyze, type AnalyzeResult } from '../../src/pipeline/analyze.js';
import { replayDetector } from '../../src/pipeline/replayDetector.js';
import { ROOT, SAMPLE, writeSampleTruth } from '../pipeline/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'cueref-resume-'));
const truthPath = join(dir, 'truth.tracks.json');
const refDir = join(dir, 'reference');
const runDir = join(dir, 'killed');
const cli = (out: string, ...extra: string[]) => [join(ROOT, 'bin/cueref.js'), 'analyze', SAMPLE, '--game', 'snooker', '--out', out, '--replay-detections', truthPath, '--no-progress', ...extra];
const lines = (p: string) => (existsSync(p) ? readFileSync(p, 'utf8').split('\n').length - 1 : 0);
let reference: AnalyzeResult;
let killedAtLines = 0;

beforeAll(async () => {
  writeSampleTruth(truthPath);
  // The uninterrupted run (in-process: the same code the CLI calls, with the same detections).
  reference = await analyze(SAMPLE, { game: 'snooker', outDir: refDir, detector: replayDetector(parseTracksText(readFileSync(truthPath, 'utf8'))), detectorLabel: `replay:${truthPath}` });
  // The run that dies: 50 ms a frame, killed once the strike (frame ≈ 33) is behind it and the
  // balls are still rolling, so a stroke straddles the kill.
  const child = spawn(process.execPath, cli(runDir, '--replay-delay-ms', '50'), { cwd: ROOT, stdio: 'ignore' });
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  const tracks = join(runDir, 'tracks.jsonl');
  const deadline = Date.now() + 60_000;
  while (lines(tracks) < 48 && Date.now() < deadline && child.exitCode === null) await new Promise((r) => setTimeout(r, 50));
  child.kill('SIGKILL');
  await exited;
  killedAtLines = lines(tracks);
  // A write torn by the kill: half a frame line at the end of tracks.jsonl.
  appendFileSync(tracks, '{"i":999,"t":33.3,"balls":[{"id":"wh');
}, 120_000);

describe('kill -9 mid-analysis, then --resume (real CLI)', () => {
  it('the killed run left a partial, unfinished folder', () => {
    expect(killedAtLines).toBeGreaterThanOrEqual(48);
    expect(killedAtLines).toBeLessThan(reference.frames + 1);
    expect(JSON.parse(readFileSync(join(runDir, 'analyze.json'), 'utf8')).state).toBe('running');
    expect(existsSync(join(runDir, 'calls.json'))).toBe(false);
  });

  it('without --resume the folder is refused, naming --resume and --overwrite', () => {
    const r = spawnSync(process.execPath, cli(runDir), { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/already holds an analysis .*--resume.*--overwrite.*\[OUT_DIR_NOT_EMPTY\]/);
  });

  it('--resume finishes with exactly the uninterrupted run\'s tracks, strokes and calls', () => {
    const r = spawnSync(process.execPath, cli(runDir, '--resume', '--json'), { cwd: ROOT, encoding: 'utf8', timeout: 90_000 });
    expect(r.status, r.stderr).toBe(0);
    for (const f of ['tracks.jsonl', 'tracker-input.jsonl', 'strokes.json', 'calls.json']) {
      expect(readFileSync(join(runDir, f), 'utf8'), f).toBe(readFileSync(join(refDir, f), 'utf8'));
    }
    const log = strokeLogSchema.parse(JSON.parse(readFileSync(join(runDir, 'strokes.json'), 'utf8')));
    // No stroke lost or duplicated: same count, same strike times.
    expect(log.strokes.map((s) => s.t)).toEqual(reference.strokes.strokes.map((s) => s.t));
    expect(log.strokes.length).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(r.stdout)).toEqual(reference.calls);
    expect(JSON.parse(readFileSync(join(runDir, 'analyze.json'), 'utf8')).state).toBe('complete');
  });
});
