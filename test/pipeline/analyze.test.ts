/**
 * `analyze` end to end on a rendered sample (calibrate → detect → track → events → referee →
 * report): every file is written and is a valid contract document. The calls themselves are not
 * checked against the truth here: the detector is a first model (see docs/analyze.md for what it
 * calls on each sample).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { loadCalibration } from '../../src/calibration/contract.js';
import { writePng } from '../../src/calibration/frames.js';
import { parseTracksText } from '../../src/core/contracts/tracks.js';
import { strokeLogSchema } from '../../src/core/contracts/strokes.js';
import { InputError } from '../../src/core/errors.js';
import { analyze, type AnalyzeResult } from '../../src/pipeline/analyze.js';
import { scoreLine } from '../../src/report/html.js';

const ROOT = resolve(import.meta.dirname, '../..');
const SAMPLE = join(ROOT, 'samples/video/snooker-in-off-S07-overhead/video.mp4');
const dir = mkdtempSync(join(tmpdir(), 'cueref-analyze-'));
const out = join(dir, 'run');
let res: AnalyzeResult;

beforeAll(async () => {
  res = await analyze(SAMPLE, { game: 'snooker', outDir: out, modelsDir: join(ROOT, 'models') });
}, 120_000);

describe('analyze (snooker-in-off-S07-overhead)', () => {
  it('writes every stage file', () => {
    for (const f of ['calibration.json', 'tracks.jsonl', 'strokes.json', 'calls.json', 'report.html']) expect(existsSync(join(out, f)), f).toBe(true);
    expect(res.paths.tracks).toBe(join(out, 'tracks.jsonl'));
    expect(res.calibrationSource).toMatchObject({ kind: 'solved' });
    expect(loadCalibration(res.paths.calibration).game).toBe('snooker');
  });

  it('tracks.jsonl: a cueref.tracks/1 header with the calibration, then one line per frame', () => {
    const text = readFileSync(res.paths.tracks, 'utf8');
    const header = JSON.parse(text.split('\n')[0]!);
    expect(header).toMatchObject({ format: 'cueref.tracks/1', game: 'snooker', source: { width: 1280, height: 720 } });
    expect(header.calibration.ballCentreToTable).toHaveLength(3);
    expect(header.calibration.reprojectionErrorMm).toBeCloseTo(res.calibration.reprojectionErrorMm, 6);
    const doc = parseTracksText(text);
    // 2.67 s at 30 fps.
    expect(doc.frames.length).toBe(res.frames);
    expect(res.frames).toBeGreaterThanOrEqual(78);
    expect(doc.frames.some((f) => f.balls.some((b) => b.id === 'white'))).toBe(true);
  });

  it('strokes.json is a cueref.strokes/1 log and calls.json has one call per stroke', () => {
    const log = strokeLogSchema.parse(JSON.parse(readFileSync(res.paths.strokes, 'utf8')));
    expect(log.strokes.length).toBeGreaterThanOrEqual(1);
    const calls = JSON.parse(readFileSync(res.paths.calls, 'utf8'));
    expect(calls.format).toBe('cueref.calls/1');
    expect(calls.game).toBe('snooker');
    expect(calls.calls).toHaveLength(log.strokes.length);
    expect(calls.calls.map((c: { stroke: number }) => c.stroke)).toEqual(log.strokes.map((_, i) => i));
    expect(res.calls).toEqual(calls);
  });

  it('report.html is self-contained and shows the score line', () => {
    const html = readFileSync(res.paths.report, 'utf8');
    expect(html).toContain(scoreLine(res.calls));
    expect(html).toMatch(/^<!doctype html>/);
    // Inline CSS and inline script only; the only external references are the clips beside it.
    expect(html).not.toMatch(/<link|<script[^>]*\bsrc=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/i);
    for (const m of html.matchAll(/\bsrc="([^"]+)"/g)) expect(m[1]).toMatch(/^clips\/stroke-\d{3}\.mp4$/);
    expect(html.match(/<tr[^>]*data-stroke=/g)!.length).toBe(res.calls.calls.length);
    expect(html).toContain('<svg class="score-chart"');
  });

  it('clips: one per flagged call, named after its stroke', () => {
    const flagged = res.calls.calls.filter((c) => c.fouls.length || c.review.length).map((c) => c.stroke);
    expect(res.clips.map((c) => c.stroke)).toEqual(flagged);
    for (const c of res.clips) expect(c.path).toBe(join(out, 'clips', `stroke-${String(c.stroke).padStart(3, '0')}.mp4`));
  });

  it('a second run into the same folder is refused; --overwrite clears it', async () => {
    const err = await analyze(SAMPLE, { game: 'snooker', outDir: out, detector: { detect: () => [] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe('OUT_DIR_NOT_EMPTY');
    expect((err as Error).message).toMatch(/--resume.*--overwrite/);
  });

  it('times itself against the recording', () => {
    expect(res.timing.videoMs).toBeGreaterThan(2500);
    expect(res.timing.wallMs).toBeGreaterThan(0);
  });
});

describe('analyze: bad input', () => {
  it('no table in view: calibration fails with an InputError that says so', async () => {
    const noise = new Uint8Array(320 * 200 * 3).map((_, i) => (i * 2654435761) % 251);
    const png = join(dir, 'noise.png');
    await writePng(png, { width: 320, height: 200, rgb: noise });
    const err = await analyze(png, { game: 'snooker', outDir: join(dir, 'noise'), detector: { detect: () => [] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toMatch(/^CALIBRATION_/);
    expect((err as Error).message).toMatch(/cannot find the snooker table .*--calibration FILE/);
  });

  it('cueref analyze with a missing video: exit 2 and a message naming the file', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/cueref.js'), 'analyze', join(dir, 'nope.mp4'), '--game', 'snooker', '--out', join(dir, 'x')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^cueref: .*nope\.mp4/);
    expect(r.stderr).not.toMatch(/internal error/);
  });
});
