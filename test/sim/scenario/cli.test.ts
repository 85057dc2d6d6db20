/** `cueref simulate` end to end (truth files only: the video path is the renderer's to test). */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '../../..');
const cli = (args: string[]) => spawnSync(process.execPath, [join(root, 'bin/cueref.js'), 'simulate', ...args], { cwd: root, encoding: 'utf8' });

describe('cueref simulate', () => {
  it('writes truth tracks, strokes, calls and camera for a scenario', () => {
    const out = mkdtempSync(join(tmpdir(), 'cueref-sim-'));
    const r = cli(['samples/scenarios/snooker-pot-not-on-S09.json', '--out', out, '--no-video', '--json', '--fps', '25', '--camera', 'broadcast']);
    expect(r.status, r.stderr).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.strokes[0].pots).toContain('pink→ML');
    for (const f of ['truth.tracks.json', 'truth.strokes.json', 'truth.calls.json', 'camera.json']) expect(existsSync(join(out, f))).toBe(true);
    const tracks = JSON.parse(readFileSync(join(out, 'truth.tracks.json'), 'utf8'));
    expect(tracks.format).toBe('cueref.tracks/1');
    expect(tracks.source.fps).toBe(25);
    expect(tracks.calibration.table.name).toBe('snooker');
    expect(JSON.parse(readFileSync(join(out, 'camera.json'), 'utf8')).kind).toBe('broadcast');
    const calls = JSON.parse(readFileSync(join(out, 'truth.calls.json'), 'utf8'));
    if (!calls.error) expect(calls.calls[0].fouls.map((f: { code: string }) => f.code)).toContain('POT_NOT_ON');
  });

  it('bad input exits 2 with the stroke and field named', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cueref-sim-'));
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ format: 'cueref.scenario/1', name: 'bad', game: 'snooker', strokes: [{ aim: { directionDeg: 90 } }] }));
    const r = cli([bad, '--out', join(dir, 'o')]);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/stroke 0, field strokes\[0\]\.speedMmPerS/);
    const r2 = cli(['samples/scenarios/snooker-fine-cut.json', '--out', join(dir, 'o'), '--size', '12x']);
    expect(r2.status).toBe(2);
    expect(r2.stderr).toMatch(/--size/);
  });

  it('--save-found writes the scenario back with the found stroke in place of the goal, and it replays the same', () => {
    const out = mkdtempSync(join(tmpdir(), 'cueref-sim-'));
    const saved = join(out, 'found.json');
    const r = cli(['samples/scenarios/pool8-eight-win-P19.json', '--out', out, '--no-video', '--save-found', saved]);
    expect(r.status, r.stderr).toBe(0);
    const doc = JSON.parse(readFileSync(saved, 'utf8'));
    expect(doc.strokes[0].find).toBeUndefined();
    expect(doc.strokes[0].aim.ball).toBe('8');
    const first = readFileSync(join(out, 'truth.strokes.json'), 'utf8');
    const r2 = cli([saved, '--out', join(out, 'again'), '--no-video']);
    expect(r2.status, r2.stderr).toBe(0);
    expect(readFileSync(join(out, 'again', 'truth.strokes.json'), 'utf8')).toBe(first);
  });
});
