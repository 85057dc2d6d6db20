/**
 * Decode throughput of openSource against ffmpeg alone, on a generated 1280×720 H.264 clip.
 * Not part of the test suite (CPU-heavy): run with `node_modules/.bin/tsx test/video/decodeBench.ts [seconds]`.
 * Prints the best of 3 runs of each: wall time (noisy on a shared machine) and CPU time of node +
 * ffmpeg together (what the pipeline really costs).
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ffmpegPath } from '../../src/video/ffmpegPath.js';
import { openSource } from '../../src/video/source.js';
import { cfrClip, tempDir } from './media.js';

const seconds = Number(process.argv[2] ?? 10);
const { dir, cleanup } = await tempDir('bench');
const clip = join(dir, 'hd.mp4');
await cfrClip(clip, { fps: 30, seconds, size: '1280x720' });
const frames = seconds * 30;

/** CPU ms used so far by this process and its reaped children (ffmpeg): robust to a loaded machine. */
function cpuMs(): number {
  const own = process.cpuUsage();
  const stat = readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const childTicks = Number(fields[13]) + Number(fields[14]); // cutime + cstime, in 1/100 s
  return (own.user + own.system) / 1000 + childTicks * 10;
}

async function timeIt(run: () => Promise<unknown>): Promise<{ wallMs: number; cpuMs: number }> {
  let wallMs = Infinity;
  let cpu = Infinity;
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now();
    const c0 = cpuMs();
    await run();
    wallMs = Math.min(wallMs, performance.now() - t0);
    cpu = Math.min(cpu, cpuMs() - c0);
  }
  return { wallMs, cpuMs: cpu };
}

const ffmpegAlone = (): Promise<void> =>
  new Promise((resolve, reject) => {
    const p = spawn(ffmpegPath(), ['-v', 'error', '-nostdin', '-i', clip, '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-y', '/dev/null']);
    p.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`ffmpeg exit ${code}`))));
  });

/** The floor for any pipe-based reader: same ffmpeg output read by node and thrown away. */
const pipeOnly = async (): Promise<void> => {
  const p = spawn(ffmpegPath(), ['-v', 'error', '-nostdin', '-i', clip, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1']);
  const closed = new Promise((r) => p.on('close', r));
  for await (const _chunk of p.stdout) {
    /* discard */
  }
  await closed; // reaped: its CPU time is counted in this run, not the next
};

const viaSource = async (): Promise<void> => {
  let n = 0;
  for await (const f of await openSource(clip)) n += f.rgb.length > 0 ? 1 : 0;
  if (n !== frames) throw new Error(`decoded ${n} frames, expected ${frames}`);
};

const alone = await timeIt(ffmpegAlone);
const pipe = await timeIt(pipeOnly);
const ours = await timeIt(viaSource);
const fps = (ms: number): string => ((frames * 1000) / ms).toFixed(0);
const pct = (a: number, b: number): string => `${a >= b ? '+' : ''}${((a / b - 1) * 100).toFixed(0)} %`;
console.log(`1280x720 H.264, ${frames} frames (${seconds} s at 30 fps), best of 3 (${process.env.FFMPEG_PATH ?? 'bundled ffmpeg'}):`);
console.log(`  ffmpeg alone (rgb24 → /dev/null): wall ${alone.wallMs.toFixed(0)} ms (${fps(alone.wallMs)} fps), CPU ${alone.cpuMs.toFixed(0)} ms`);
console.log(`  ffmpeg → pipe → node, discarded:  wall ${pipe.wallMs.toFixed(0)} ms (${fps(pipe.wallMs)} fps, ${pct(pipe.wallMs, alone.wallMs)}), CPU ${pipe.cpuMs.toFixed(0)} ms (${pct(pipe.cpuMs, alone.cpuMs)})`);
console.log(`  openSource (frames in JS):        wall ${ours.wallMs.toFixed(0)} ms (${fps(ours.wallMs)} fps, ${pct(ours.wallMs, alone.wallMs)}), CPU ${ours.cpuMs.toFixed(0)} ms (${pct(ours.cpuMs, alone.cpuMs)}, ffmpeg + node)`);
await cleanup();
