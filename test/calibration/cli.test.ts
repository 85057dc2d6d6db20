/** `cueref calibrate` end to end: a rendered frame on disk, the JSON out, fallbacks, failures. */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { applyH, inv3 } from '../../src/core/mat3.js';
import { builtinProfile, loadTableProfile } from '../../src/core/table.js';
import { presetCamera, truthHomographies } from '../../src/sim/camera.js';
import { writePng } from '../../src/calibration/frames.js';
import { loadCalibration } from '../../src/calibration/contract.js';
import { resolveOutPath } from '../../src/cli/calibrate.js';
import { bedErrorsMm, median, renderOpening } from './helpers.js';

const ROOT = resolve(import.meta.dirname, '../..');
const dir = mkdtempSync(join(tmpdir(), 'cueref-calibrate-'));
const table = builtinProfile('snooker');
// No lens, so that hand-given corners (a homography) are exact.
const cam = { ...presetCamera('broadcast', table, { width: 960, height: 540 }), k1: 0, k2: 0 };
const framePath = join(dir, 'frame.png');

function cli(...args: string[]) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bin/cueref.js'), 'calibrate', ...args], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

beforeAll(async () => {
  await writePng(framePath, renderOpening(table, cam).frame);
  const noise = new Uint8Array(320 * 200 * 3).map((_, i) => (i * 2654435761) % 251);
  await writePng(join(dir, 'noise.png'), { width: 320, height: 200, rgb: noise });
});

describe('cueref calibrate', () => {
  it('prints and saves cueref.calibration/1 and writes the debug overlay', () => {
    const r = cli(framePath, '--game', 'snooker', '--json', '--out', 'main', '--debug', 'dbg');
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.format).toBe('cueref.calibration/1');
    expect(doc.found).toEqual(expect.arrayContaining(['cloth', 'cushions', 'end']));
    // A bare --out name goes to calibration/; the saved file loads through loadCalibration.
    const saved = loadCalibration(join(dir, 'calibration/main.json'));
    expect(median(bedErrorsMm(saved, cam, table))).toBeLessThanOrEqual(5);
    expect(existsSync(join(dir, 'dbg/frame-calibration.png'))).toBe(true);
  });

  it('writes the measured table profile back (--write-table), loadable as --table', () => {
    const r = cli(framePath, '--game', 'snooker', '--write-table', 'measured/table.json');
    expect(r.code, r.err).toBe(0);
    const t = loadTableProfile(join(dir, 'measured/table.json'));
    expect(t.game).toBe('snooker');
    expect(t.bed).toEqual(table.bed);
    // The rendered baulk line is where the profile says: measured within a few mm.
    expect(Math.abs(t.baulkLineY! - table.baulkLineY!)).toBeLessThan(8);
  });

  it('falls back to four hand-given bed corners', () => {
    const t2i = inv3(truthHomographies(cam, 26.25).imageToTable);
    const corners = [[0, 0], [1778, 0], [1778, 3569], [0, 3569]].map(([x, y]) => applyH(t2i, x!, y!).map((v) => v.toFixed(2)).join(',')).join(' ');
    const r = cli(framePath, '--game', 'snooker', '--json', '--corners', corners);
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.method).toBe('corners');
    expect(doc.found).toEqual(['corners']);
  });

  it('falls back to --points and rejects the mistyped one by RANSAC', () => {
    const t2i = inv3(truthHomographies(cam, 26.25).imageToTable);
    const tablePts = [[0, 0], [1778, 0], [1778, 3569], [0, 3569], [889, 737], [889, 1784.5], [889, 3245]];
    const points = tablePts.map(([x, y]) => {
      const [u, v] = applyH(t2i, x!, y!);
      return { u, v, x, y };
    });
    points[5]!.u += 60; // a typo
    writeFileSync(join(dir, 'points.json'), JSON.stringify({ format: 'cueref.points/1', points }));
    const r = cli(framePath, '--game', 'snooker', '--json', '--points', 'points.json');
    expect(r.code, r.err).toBe(0);
    const doc = JSON.parse(r.out);
    expect(doc.method).toBe('points');
    expect(doc.inliers).toBe(6);
    expect(doc.reprojectionErrorMm).toBeLessThan(0.5);
  });

  it('says what it could not find and how to go on, with exit code 2', () => {
    const r = cli(join(dir, 'noise.png'), '--game', 'snooker');
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/CALIBRATION_NO_/);
    expect(r.err).toMatch(/--corners/);
  });

  it('checks its options', () => {
    expect(cli(framePath, '--game', 'chess').code).toBe(2);
    expect(cli(framePath, '--game', 'snooker', '--corners', '1,2,3').code).toBe(2);
    expect(cli(join(dir, 'missing.png'), '--game', 'snooker').code).toBe(2);
  });

  it('resolves bare output names into calibration/', () => {
    expect(resolveOutPath('club')).toBe(join('calibration', 'club.json'));
    expect(resolveOutPath('out/x.json')).toBe('out/x.json');
    expect(readFileSync(join(dir, 'calibration/main.json'), 'utf8')).toContain('"format": "cueref.calibration/1"');
  });
});
