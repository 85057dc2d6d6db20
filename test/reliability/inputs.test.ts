/**
 * Bad inputs to `analyze`: each is refused with an InputError whose code and message name what is
 * wrong and what to do — a recording cut off before its index was written, a damaged stream, a
 * file that is not a video, a video without the table — and the CLI turns it into exit 2 without
 * "internal error". A file cut short that still decodes is analysed as far as it goes, with a note.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseTracksText } from '../../src/core/contracts/tracks.js';
import { InputError } from '../../src/core/errors.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { replayDetector } from '../../src/pipeline/replayDetector.js';
import { ffmpeg, ROOT, SAMPLE, writeSampleTruth } from '../pipeline/fixtures.js';

const dir = mkdtempSync(join(tmpdir(), 'cueref-reliability-'));
const noBalls = { detect: () => [] };
const quiet = { clips: false };

async function refusal(video: string, name: string): Promise<InputError> {
  const err = await analyze(video, { game: 'snooker', outDir: join(dir, `out-${name}`), detector: noBalls, ...quiet }).catch((e: unknown) => e);
  expect(err, String(err)).toBeInstanceOf(InputError);
  return err as InputError;
}

beforeAll(() => {
  const sample = readFileSync(SAMPLE);
  // A recording cut off mid-write: the mp4 index (moov) goes last, so half a file has none.
  ffmpeg(['-i', SAMPLE, '-c', 'copy', '-movflags', '0', join(dir, 'moov-last.mp4')]);
  const whole = readFileSync(join(dir, 'moov-last.mp4'));
  writeFileSync(join(dir, 'truncated.mp4'), whole.subarray(0, whole.length >> 1));
  // The sample keeps its index first (+faststart): cut at 60 % it still decodes up to the cut.
  writeFileSync(join(dir, 'cut-short.mp4'), sample.subarray(0, Math.floor(sample.length * 0.6)));
  // Index intact, picture data replaced by noise: nothing decodes.
  const mdat = sample.indexOf('mdat');
  const noise = Buffer.from(Array.from({ length: sample.length - mdat - 8 }, (_, k) => (k * 2654435761) >>> 24));
  writeFileSync(join(dir, 'corrupt.mp4'), Buffer.concat([sample.subarray(0, mdat + 8), noise]));
  writeFileSync(join(dir, 'notes.mp4'), 'not a video, just text\n'.repeat(20));
  ffmpeg(['-f', 'lavfi', '-i', 'testsrc=size=320x240:rate=10', '-t', '1', '-pix_fmt', 'yuv420p', join(dir, 'no-table.mp4')]);
});

describe('analyze refuses bad inputs with a clear InputError', () => {
  it('truncated recording (no index): VIDEO_TRUNCATED, says how to recover it', async () => {
    const e = await refusal(join(dir, 'truncated.mp4'), 'truncated');
    expect(e.code).toBe('VIDEO_TRUNCATED');
    expect(e.message).toMatch(/truncated\.mp4' is truncated or damaged/);
    expect(e.message).toMatch(/re-export it or recover it/);
  });

  it('corrupt video (picture data destroyed): no frame decodes, says to check and re-encode it', async () => {
    const e = await refusal(join(dir, 'corrupt.mp4'), 'corrupt');
    expect(['VIDEO_DECODE_FAILED', 'NO_FRAMES']).toContain(e.code);
    expect(e.message).toMatch(/corrupt\.mp4/);
    expect(e.message).toMatch(/re-encode/);
  });

  it('a file that is not a video: NOT_A_VIDEO, says what to give instead', async () => {
    const e = await refusal(join(dir, 'notes.mp4'), 'notes');
    expect(e.code).toBe('NOT_A_VIDEO');
    expect(e.message).toMatch(/notes\.mp4' is not a video/);
    expect(e.message).toMatch(/give a video file/);
  });

  it('no table in view: CALIBRATION_*, suggests a hand calibration', async () => {
    const e = await refusal(join(dir, 'no-table.mp4'), 'no-table');
    expect(e.code).toMatch(/^CALIBRATION_/);
    expect(e.message).toMatch(/cannot find the snooker table .*Is the table in view\?.*--calibration FILE/);
  });

  it('the CLI: exit 2 and the message, never "internal error"', () => {
    const r = spawnSync(process.execPath, [join(ROOT, 'bin/cueref.js'), 'analyze', join(dir, 'notes.mp4'), '--game', 'snooker', '--out', join(dir, 'cli-notes')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/^cueref: .*notes\.mp4' is not a video.*\[NOT_A_VIDEO\]/);
    expect(r.stderr).not.toMatch(/internal error/);
  });
});

describe('a file cut short that still decodes', () => {
  it('is analysed up to the cut, with a note saying it looks truncated', async () => {
    const truth = parseTracksText(readFileSync(writeSampleTruth(join(dir, 'truth.tracks.json')), 'utf8'));
    const res = await analyze(join(dir, 'cut-short.mp4'), { game: 'snooker', outDir: join(dir, 'out-cut'), detector: replayDetector(truth), ...quiet });
    expect(res.frames).toBeGreaterThan(5);
    expect(res.frames).toBeLessThan(80);
    expect(res.notes.some((n) => /looks truncated|stopped early/.test(n)), res.notes.join('\n')).toBe(true);
  });
});
