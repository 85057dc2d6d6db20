/**
 * `npx tsx bench/analyze.ts [--scenario FILE] [--minutes N] [--size WxH] [--replay] [--skip-stages] [--skip-memory]`
 *
 * 1. Speed: renders a 1080p30 overhead clip of a scenario with `cueref simulate` (into /tmp),
 *    measures the decode-only time of that file — ffmpeg alone (`-f null`), ffmpeg → raw RGB →
 *    node at the video's size, and at the analysis size (what `analyze` pays since it shrinks
 *    frames to ≤ 1280×720 inside ffmpeg) — then `cueref analyze` on it (wall and CPU time), and
 *    prints the ratio analyze / decode (goal ≤ 1.25). Then, unless `--skip-stages`, the same
 *    analysis in-process with timers: before the frames (probe, calibration), the frames (and the
 *    detector's share), the end stages (clips above all).
 * 2. Memory: loops the clip with ffmpeg `-stream_loop` into an N-minute file (default 3; `--minutes
 *    60` for the hour), runs `cueref analyze` on it and samples the process's RSS every second:
 *    first / last / max RSS while frames are tracked, the least-squares slope per minute, and the
 *    peak of the end stages (events, referee, report read tracks.jsonl back whole).
 *
 * `--replay` swaps the ONNX model for detections replayed from the simulator's truth (isolates the
 * pipeline's own cost from the model's; only for the speed part: a looped clip has no truth).
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { analyze, analyzeInferenceThreads } from '../src/pipeline/analyze.js';
import { ANALYSIS_MAX_SIZE, analysisSize } from '../src/pipeline/analysisSize.js';
import { loadModelDetector, type FrameDetector } from '../src/pipeline/track.js';
import { loadReplayDetector } from '../src/pipeline/replayDetector.js';
import { openSource } from '../src/video/index.js';
import { ffmpegPath } from '../src/video/ffmpegPath.js';

const ROOT = resolve(import.meta.dirname, '..');
const arg = (name: string, dflt?: string): string | undefined => {
  const k = process.argv.indexOf(`--${name}`);
  return k >= 0 ? process.argv[k + 1] : dflt;
};
const flag = (name: string): boolean => process.argv.includes(`--${name}`);
const scenario = resolve(arg('scenario', join(ROOT, 'samples/scenarios/snooker-break-S01.json'))!);
const minutes = Number(arg('minutes', '3'));
const size = arg('size', '1920x1080')!;
const replay = flag('replay');
const work = '/tmp/cueref-bench-analyze';
const renderDir = join(work, `render-${size}`);
const cli = join(ROOT, 'bin/cueref.js');

// GNU time, when the machine has it, for the CPU time of a command and its children (ffmpeg).
const TIME = existsSync('/usr/bin/time') ? '/usr/bin/time' : null;

function run(cmd: string, args: string[], what: string): { ms: number; cpuMs: number; stdout: string } {
  const t0 = performance.now();
  const [c, a] = TIME ? [TIME, ['-f', 'CPU %U %S', cmd, ...args]] : [cmd, args];
  const r = spawnSync(c, a, { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 << 20 });
  const ms = performance.now() - t0;
  if (r.status !== 0) throw new Error(`${what} failed (${r.status}): ${r.stderr.slice(-2000)}`);
  const m = /CPU ([\d.]+) ([\d.]+)\s*$/.exec(r.stderr);
  return { ms, cpuMs: m ? (Number(m[1]) + Number(m[2])) * 1000 : NaN, stdout: r.stdout };
}

const s1 = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
mkdirSync(work, { recursive: true });

// --- 1. render ---------------------------------------------------------------------------------
const video = join(renderDir, 'video.mp4');
if (!existsSync(video) || !existsSync(join(renderDir, 'truth.tracks.json'))) {
  console.log(`rendering ${scenario} at ${size} (overhead, 30 fps) into ${renderDir} …`);
  const r = run(process.execPath, [cli, 'simulate', scenario, '--out', renderDir, '--size', size, '--camera', 'overhead', '--fps', '30'], 'simulate');
  console.log(`  rendered in ${s1(r.ms)}`);
}
const ff = ffmpegPath();
const frames = (() => {
  const r = spawnSync(ff, ['-hide_banner', '-i', video, '-map', '0:v:0', '-c', 'copy', '-f', 'null', '-'], { encoding: 'utf8' });
  return Number(/frame=\s*(\d+)/.exec(r.stderr)?.[1] ?? NaN);
})();
console.log(`clip: ${video}, ${size}, ${frames} frames (${(frames / 30).toFixed(1)} s), ${(statSync(video).size / 1e6).toFixed(1)} MB`);

// --- 2. decode only ------------------------------------------------------------------------------
const nullDecode = run(ff, ['-hide_banner', '-loglevel', 'error', '-threads', '0', '-i', video, '-f', 'null', '-'], 'ffmpeg -f null');
const [vw, vh] = size.split('x').map(Number) as [number, number];
const small = analysisSize({ width: vw, height: vh }, ANALYSIS_MAX_SIZE);
async function nodeDecode(scaled: boolean, file = video): Promise<{ ms: number; n: number }> {
  const t0 = performance.now();
  let n = 0;
  const src = await openSource(file, { log: () => {}, ...(scaled && small ? { scale: { ...small, flags: 'area' as const } } : {}) });
  // Frames handed back as analyze does (FrameSource.release): decode-only at its best.
  for await (const f of src) {
    n += f.rgb.length > 0 ? 1 : 0;
    src.release(f);
  }
  return { ms: performance.now() - t0, n };
}
const fullDecode = await nodeDecode(false);
const rgbDecode = small ? await nodeDecode(true) : fullDecode;
const fps = (d: { ms: number; n: number }) => `${(d.n / (d.ms / 1000)).toFixed(0)} frames/s`;
console.log(
  `decode only: ffmpeg -f null ${s1(nullDecode.ms)} (${(frames / (nullDecode.ms / 1000)).toFixed(0)} frames/s); ffmpeg → rgb24 → node (openSource): ${size} ${s1(fullDecode.ms)} (${fps(fullDecode)})` +
    (small ? `, at the analysis size ${small.width}×${small.height} (area) ${s1(rgbDecode.ms)} (${fps(rgbDecode)}): what analyze pays` : ''),
);

// --- 3. analyze ----------------------------------------------------------------------------------
const outDir = join(work, `analyze-${size}`);
rmSync(outDir, { recursive: true, force: true });
const detectorArgs = replay ? ['--replay-detections', join(renderDir, 'truth.tracks.json')] : [];
const an = run(process.execPath, [cli, 'analyze', video, '--game', 'snooker', '--out', outDir, '--no-progress', ...detectorArgs], 'analyze');
const detLine = /detector ran on .*/.exec(an.stdout)?.[0] ?? '';
const calls = JSON.parse(readFileSync(join(outDir, 'calls.json'), 'utf8')) as { calls: { fouls: { code: string }[] }[] };
const cpu = Number.isFinite(an.cpuMs) ? `, CPU ${s1(an.cpuMs)} (with ffmpeg's)` : '';
console.log(`analyze (${replay ? 'replayed detections' : 'ONNX model'}): ${s1(an.ms)} wall${cpu} incl. start-up, calibration, clips and report; ${calls.calls.length} stroke(s) (fouls: ${calls.calls.map((c) => c.fouls.map((f) => f.code).join('+') || 'none').join(', ')}); ${detLine}`);
console.log(`ratio analyze / decode: ${(an.ms / rgbDecode.ms).toFixed(2)} against ffmpeg → rgb24 → node at the analysis size, ${(an.ms / nullDecode.ms).toFixed(2)} against ffmpeg -f null (goal ≤ 1.25)`);

// --- 3b. where the time goes (in-process, timers) --------------------------------------------------
if (!flag('skip-stages')) {
  const inner: FrameDetector = replay ? loadReplayDetector(join(renderDir, 'truth.tracks.json')) : await loadModelDetector('snooker', join(ROOT, 'models'), undefined, { intraOpThreads: analyzeInferenceThreads() });
  // Twice: with the motion gate's region runs (the default) and without (every moving frame whole).
  for (const regions of [true, false]) {
    let detMs = 0, runs = 0, regionRuns = 0;
    const timed = async <T>(f: () => Promise<T> | T): Promise<T> => { const t = performance.now(); const r = await f(); detMs += performance.now() - t; runs++; return r; };
    const innerRegions = inner.detectRegions?.bind(inner);
    const detector: FrameDetector = {
      detect: (f) => timed(() => inner.detect(f)),
      ...(innerRegions ? { detectRegions: (f, boxes, o) => { regionRuns++; return timed(() => innerRegions(f, boxes, o)); } } : {}),
    };
    const stageDir = join(work, `analyze-stages-${size}`);
    rmSync(stageDir, { recursive: true, force: true });
    const marks: [string, number][] = [['start', performance.now()]];
    let lastFrameAt = 0;
    await analyze(video, {
      game: 'snooker', outDir: stageDir, detector, detectorLabel: 'bench',
      ...(regions ? {} : { gate: { fullEveryFrames: 0 } }),
      onStart: () => marks.push(['frames', performance.now()]),
      onFrame: () => (lastFrameAt = performance.now()),
      onStage: (st) => marks.push([st, st === 'events' ? lastFrameAt : performance.now()]),
    });
    marks.push(['end', performance.now()]);
    const parts = marks.slice(0, -1).map(([name, t], k) => `${name === 'start' ? 'probe + calibration' : name} ${s1(marks[k + 1]![1] - t)}`);
    console.log(`stages (in-process, ${replay ? 'replayed' : 'model'}, region runs ${regions ? 'on' : 'off'}): ${parts.join(', ')}; detector ${s1(detMs)} in ${runs} runs (${regionRuns} on regions; ${(detMs / Math.max(1, runs)).toFixed(1)} ms each)`);
  }
}

if (flag('skip-memory')) process.exit(0);

// --- 4. memory over a long recording ------------------------------------------------------------
const clipS = frames / 30;
const loops = Math.max(1, Math.ceil((minutes * 60) / clipS) - 1);
const long = join(work, `long-${size}-${minutes}min.mp4`);
if (!existsSync(long)) {
  console.log(`looping the clip ${loops + 1}× into ${long} …`);
  run(ff, ['-hide_banner', '-loglevel', 'error', '-y', '-stream_loop', String(loops), '-i', video, '-c', 'copy', long], 'ffmpeg -stream_loop');
}
// Decode-only of the long file too: its ratio is the one a match recording sees, where the
// start-up, the calibration and the clips are seconds against an hour.
const longDecode = await nodeDecode(true, long);
const longOut = join(work, `analyze-long-${size}`);
rmSync(longOut, { recursive: true, force: true });
const child = spawn(process.execPath, [cli, 'analyze', long, '--game', 'snooker', '--out', longOut, '--progress', '--no-clips'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'pipe'] });
let tracking = true;
child.stderr.setEncoding('utf8');
child.stderr.on('data', (s: string) => {
  if (/analyzing: events/.test(s)) tracking = false;
});
const samples: { s: number; mb: number; tracking: boolean }[] = [];
const started = performance.now();
const timer = setInterval(() => {
  try {
    const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    if (kb) samples.push({ s: (performance.now() - started) / 1000, mb: kb / 1024, tracking });
  } catch {
    // The process has exited between two samples.
  }
}, 1000);
const code = await new Promise<number | null>((res) => child.on('exit', (c) => res(c)));
clearInterval(timer);
const wall = (performance.now() - started) / 1000;
// (The figures are printed whatever the exit: an hour's memory series is not lost to a failure at
// the end, as it was once — the referee stage refused the looped hour's log.)
// Skip the first 20 s (model load, calibration, JIT warm-up) for the slope.
const tr = samples.filter((x) => x.tracking);
const steady = tr.filter((x) => x.s >= 20);
const fit = (pts: { s: number; mb: number }[]) => {
  const mx = pts.reduce((a, p) => a + p.s, 0) / pts.length, my = pts.reduce((a, p) => a + p.mb, 0) / pts.length;
  const sxy = pts.reduce((a, p) => a + (p.s - mx) * (p.mb - my), 0), sxx = pts.reduce((a, p) => a + (p.s - mx) ** 2, 0);
  return sxx > 0 ? (sxy / sxx) * 60 : NaN;
};
const mb = (v: number | undefined) => (v === undefined ? '-' : `${v.toFixed(0)} MB`);
const end = samples.filter((x) => !x.tracking);
console.log(
  `memory, ${(loops + 1) * clipS >= 60 ? `${(((loops + 1) * clipS) / 60).toFixed(1)} min` : `${((loops + 1) * clipS).toFixed(0)} s`} recording analysed in ${wall.toFixed(0)} s (${((((loops + 1) * clipS) / wall)).toFixed(2)}× real time):\n` +
    `  RSS while tracking: first ${mb(tr[0]?.mb)}, after warm-up ${mb(steady[0]?.mb)}, last ${mb(tr.at(-1)?.mb)}, max ${mb(Math.max(...tr.map((x) => x.mb)))}; slope ${fit(steady).toFixed(2)} MB/min over ${steady.length} samples\n` +
    `  end stages (events, referee, report): peak ${mb(end.length ? Math.max(...end.map((x) => x.mb)) : undefined)}\n` +
    `  ratio analyze (no clips) / decode over the long recording: ${((wall * 1000) / longDecode.ms).toFixed(2)} (decode only ${s1(longDecode.ms)}, ${longDecode.n} frames; goal ≤ 1.25)`,
);
if (code !== 0) throw new Error(`analyze of the long file exited ${code}`);
