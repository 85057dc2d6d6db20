/**
 * Tiny test media made on the fly with the same ffmpeg the code uses: nothing binary is committed,
 * and every clip is a few KB so the whole video suite stays well under its time budget.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { ffmpegPath } from '../../src/video/ffmpegPath.js';

const run = promisify(execFile);

/** Run ffmpeg quietly; rejects with its stderr. */
export async function ffmpeg(...args: string[]): Promise<void> {
  await run(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-nostdin', '-y', ...args]);
}

export async function tempDir(prefix: string): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), `cueref-${prefix}-`));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

/** Constant-rate clip: `testsrc` 64×48, `seconds` long at `fps`, H.264 in mp4 (index at the front). */
export async function cfrClip(path: string, opts: { fps?: number; seconds?: number; size?: string } = {}): Promise<void> {
  const { fps = 10, seconds = 1, size = '64x48' } = opts;
  await ffmpeg('-f', 'lavfi', '-i', `testsrc=size=${size}:rate=${fps}`, '-t', String(seconds), '-c:v', 'libx264', '-preset', 'ultrafast', '-g', String(fps), '-pix_fmt', 'yuv420p', '-movflags', '+faststart', path);
}

/**
 * Variable-rate clip: 5 frames 100 ms apart, then 10 frames 40 ms apart (10 fps, then 25 fps).
 * Expected timestamps: 0,100,200,300,400, 500,540,…,860 ms. Matroska keeps ms timestamps exactly.
 */
export const VFR_EXPECTED_MS = [0, 100, 200, 300, 400, ...Array.from({ length: 10 }, (_, i) => 500 + 40 * i)];
export async function vfrClip(path: string): Promise<void> {
  await ffmpeg(
    '-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10',
    '-vf', "settb=1/1000,setpts='if(lt(N,5),N*100,500+(N-5)*40)'",
    '-frames:v', '15', '-vsync', 'vfr', '-enc_time_base', '1:1000',
    '-c:v', 'libx264', '-preset', 'ultrafast', '-bf', '0', path,
  );
}

/** PIDs of live processes whose command line mentions `needle` (Linux /proc). */
export async function pidsMentioning(needle: string): Promise<number[]> {
  const pids: number[] = [];
  for (const name of await readdir('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    const cmd = await readFile(`/proc/${name}/cmdline`, 'utf8').catch(() => '');
    if (cmd.includes(needle) && cmd.includes('ffmpeg')) {
      const stat = await readFile(`/proc/${name}/stat`, 'utf8').catch(() => '');
      if (!/\) Z /.test(stat)) pids.push(Number(name)); // zombies are already dead
    }
  }
  return pids;
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Collect every frame of an async iterable. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}
