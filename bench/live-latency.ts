/**
 * Live latency bench: wall time from processing the frame where the last ball stopped to the call
 * arriving on a WebSocket client of the scoreboard server, p50/p95 over strokes.
 *
 *   npx tsx bench/live-latency.ts [--real-only | --fake-only] [--runs N] [--queue N] [--no-gate]
 *
 * 1. Real detector (ONNX, models/), the rendered sample clips (samples/video/*) delivered at
 *    recording speed (`--realtime`: a camera's pace, late frames dropped), calibration solved
 *    first (not timed), the detector behind the motion gate as `cueref live` runs it (`--no-gate`:
 *    on every frame). Also prints the detector's cost and how many frames were processed.
 * 2. Fake detector on the scripted 4-stroke snooker frame of test/live/scenario.ts, delivered at
 *    recording speed: once free, once costing 21 ms a frame (the model card's speed).
 *
 * What the figure includes: `atRestMs` (700 ms by default: the definition of "stopped"), the
 * frames' processing in between, the event stage on the stroke's window, the referee, the fsync'ed
 * append of the stroke, the atomic calls.json write and the WebSocket push. Goal: p95 ≤ 1 s.
 */
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import WebSocket from 'ws';
import type { GameId } from '../src/core/games.js';
import { defaultProfileFor } from '../src/core/table.js';
import { solveFromFeed } from '../src/live/calibrate.js';
import { pacedFeed, sourceFeed, systemClock, type OpenFeed } from '../src/live/feed.js';
import { startLiveServer } from '../src/live/server.js';
import { LiveSession, type LiveMessage, type LiveSessionOptions } from '../src/live/session.js';
import { loadModelDetector, type FrameDetector } from '../src/pipeline/track.js';
import type { Frame } from '../src/video/index.js';
import { calibration as fakeCalibration, fakeDetector, fakeFrame, snookerFrame, table as snookerTable } from '../test/live/scenario.js';

const ROOT = resolve(import.meta.dirname, '..');
const argv = process.argv.slice(2);
const flag = (n: string) => argv.includes(`--${n}`);
const opt = (n: string, d: number) => {
  const k = argv.indexOf(`--${n}`);
  return k >= 0 ? Number(argv[k + 1]) : d;
};
const runs = opt('runs', 1);
const queue = opt('queue', 2);

interface RunResult {
  latenciesMs: number[];
  calls: string[];
  frames: number;
  detectMs: number[];
  use: { whole: number; regions: number; reused: number };
}

/** One session with a server and a WebSocket client; resolves when the feed ends. */
async function runSession(game: GameId, open: OpenFeed, detector: FrameDetector, calibration: LiveSessionOptions['calibration'], table = defaultProfileFor(game), gate?: LiveSessionOptions['gate']): Promise<RunResult> {
  const detectMs: number[] = [];
  const time = async <T>(run: () => Promise<T> | T): Promise<T> => {
    const t0 = performance.now();
    const r = await run();
    detectMs.push(performance.now() - t0);
    return r;
  };
  const regions = detector.detectRegions?.bind(detector);
  const timed: FrameDetector = {
    detect: (f) => time(() => detector.detect(f)),
    ...(regions ? { detectRegions: (f, boxes, o) => time(() => regions(f, boxes, o)) } : {}),
  };
  const session = new LiveSession({ game, table, calibration, detector: timed, open, outDir: mkdtempSync(join(tmpdir(), 'cueref-live-bench-')), lostAfterMs: 0, log: () => undefined, ...(gate ? { gate } : {}) });
  const server = await startLiveServer({ session, table, port: 0 });
  const ws = new WebSocket(server.url.replace(/^http/, 'ws') + 'ws');
  const latenciesMs: number[] = [];
  const calls: string[] = [];
  ws.on('message', (data) => {
    const m = JSON.parse(String(data)) as LiveMessage;
    if (m.type !== 'call') return;
    // A call made because the file ended (restT = confirmT: the segmenter's finish) is not a call
    // after rest: left out of the latency figures, shown with the calls.
    if (m.timing.confirmT === m.timing.restT) {
      calls.push(`${m.call.summary} (at the end of the file)`);
      return;
    }
    // Same process, same clock (performance.now) as the session's systemClock.
    latenciesMs.push(performance.now() - m.timing.restFrameWallMs);
    calls.push(`${m.call.summary}${m.call.fouls.length ? ` [${m.call.fouls.map((f) => f.code).join(',')}]` : ''}`);
  });
  await new Promise((r) => ws.once('open', r));
  await session.start();
  await new Promise((r) => setTimeout(r, 100)); // the last message in flight
  ws.close();
  await session.close();
  await server.close();
  return { latenciesMs, calls, frames: session.snapshot().frames, detectMs, use: session.detectorUse() };
}

const pct = (xs: number[], p: number) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const fmt = (v: number) => (Number.isFinite(v) ? v.toFixed(0) : '–');
function summary(name: string, lat: number[]): void {
  console.log(`${name}: ${lat.length} stroke(s), latency p50 ${fmt(pct(lat, 50))} ms, p95 ${fmt(pct(lat, 95))} ms, max ${fmt(Math.max(...lat))} ms  [${lat.map(fmt).join(', ')}]`);
}

if (!flag('fake-only')) {
  const gate = flag('no-gate') ? undefined : {};
  console.log(`== real detector${gate ? ' behind the motion gate' : ' on every frame'}, rendered clips at recording speed (queue ${queue} frames) ==`);
  const all: number[] = [];
  for (const name of readdirSync(join(ROOT, 'samples/video')).sort()) {
    const game: GameId = name.startsWith('pool8') ? 'pool8' : name.startsWith('novus') ? 'novus' : 'snooker';
    const uri = join(ROOT, 'samples/video', name, 'video.mp4');
    const table = defaultProfileFor(game);
    const { calibration } = await solveFromFeed(sourceFeed(uri, { log: () => undefined }), table, uri);
    const detector = await loadModelDetector(game, join(ROOT, 'models'));
    for (let r = 0; r < runs; r++) {
      const res = await runSession(game, sourceFeed(uri, { realtime: true, queueFrames: queue, log: () => undefined }), detector, calibration, table, gate);
      all.push(...res.latenciesMs);
      const det = res.detectMs.slice(3); // after warm-up
      const u = res.use;
      console.log(`${name}: ${res.frames} frames processed (detector whole ${u.whole}, regions ${u.regions}, reused ${u.reused}), detector median ${fmt(pct(det, 50))} ms/run; calls: ${res.calls.join(' | ') || 'none'}; latency ${res.latenciesMs.map(fmt).join(', ')} ms`);
    }
  }
  summary('real detector', all);
}

if (!flag('real-only')) {
  const frame = snookerFrame();
  for (const costMs of [0, 21]) {
    console.log(`== fake detector (${costMs} ms/frame), scripted 4-stroke frame at recording speed ==`);
    const all: number[] = [];
    for (let r = 0; r < runs; r++) {
      async function* frames(): AsyncGenerator<Frame> {
        for (let i = 0; i <= frame.durationS * 30; i++) yield fakeFrame(i, (i / 30) * 1000);
      }
      const open: OpenFeed = async () => pacedFeed(frames(), systemClock);
      const res = await runSession('snooker', open, fakeDetector(frame, { seed: 7 + r, costMs }), fakeCalibration, snookerTable);
      all.push(...res.latenciesMs);
      console.log(`run ${r + 1}: ${res.frames} frames; calls: ${res.calls.join(' | ')}`);
    }
    summary(`fake detector ${costMs} ms`, all);
  }
}
