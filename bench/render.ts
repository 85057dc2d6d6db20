/**
 * Render bench: seconds to render 10 s of 1280×720 at 30 fps (300 frames), and the ratio to real
 * time (< 1 is faster than real time). Snooker opening with the cue ball and three reds moving
 * (motion blur), a cue and a hand over the table, the TV score bar and sensor noise: the per-frame
 * work a training clip costs. Encoding is not included (ffmpeg runs in its own process).
 *
 *   npx tsx bench/render.ts [--camera broadcast|overhead|oblique] [--game snooker|pool8|novus] [--frames 300]
 *   npx tsx bench/render.ts --realism     # image statistics of renders next to ../shared/real footage
 */
import { defaultProfileFor } from '../src/core/table.js';
import type { GameId } from '../src/core/games.js';
import { presetCamera, type CameraKind } from '../src/sim/camera.js';
import { novusStart, pool8Rack, snookerOpening } from '../src/sim/render/demoLayouts.js';
import { defaultLook, Renderer } from '../src/sim/render/index.js';
import type { FrameSnapshot } from '../src/sim/types.js';

if (process.argv.includes('--realism')) {
  const { realismReport } = await import('./renderRealism.js');
  await realismReport();
  process.exit(0);
}

function arg(name: string, fallback: string): string {
  const k = process.argv.indexOf(`--${name}`);
  return k >= 0 && process.argv[k + 1] ? process.argv[k + 1]! : fallback;
}

const game = arg('game', 'snooker') as GameId;
const kind = arg('camera', 'broadcast') as CameraKind;
const fps = 30;
const frames = Number(arg('frames', '300'));
const width = 1280, height = 720;

const table = defaultProfileFor(game);
const camera = presetCamera(kind, table, { width, height });
const look = { ...defaultLook(game), overlay: true };
const start = game === 'snooker' ? snookerOpening(table) : game === 'pool8' ? pool8Rack(table) : novusStart(table);
const W = table.bed.width, L = table.bed.length;

/** Balls bouncing in straight lines inside the bed (no physics: the bench measures drawing). */
function snapshot(i: number): FrameSnapshot {
  const t = i / fps;
  const balls = start.map((b, k) => {
    if (k % 5 !== 0) return b;
    const speed = 400 + 150 * k; // mm/s
    const R = table.ballDiameter / 2;
    const ang = k * 1.3;
    const vx0 = speed * Math.cos(ang), vy0 = speed * Math.sin(ang);
    const fold = (p: number, lo: number, hi: number): [number, number] => {
      const span = hi - lo;
      let q = (p - lo) % (2 * span);
      if (q < 0) q += 2 * span;
      return q <= span ? [lo + q, 1] : [hi - (q - span), -1];
    };
    const [x, sx] = fold(b.x + vx0 * t, R, W - R);
    const [y, sy] = fold(b.y + vy0 * t, R, L - R);
    return { ...b, x, y, vx: vx0 * sx, vy: vy0 * sy, state: 'moving' as const };
  });
  const cueBall = balls[balls.length - 1]!;
  return {
    i,
    t,
    balls,
    occluders: [
      { kind: 'cue', from: [cueBall.x - 40, cueBall.y - 60, 45], to: [cueBall.x - 900, cueBall.y - 1100, 350], radiusMm: 6.5 },
      { kind: 'hand', centre: [cueBall.x - 280, cueBall.y - 340, 90], radiusMm: 45 },
    ],
  };
}

const t0 = performance.now();
const renderer = new Renderer({ game, table, camera, look, seed: 7 });
const t1 = performance.now();
const cpu0 = process.cpuUsage();
let checksum = 0;
// Streaming use: one frame buffer reused (an encoder copies each frame before the next render).
const buffer = new Uint8Array(width * height * 3);
for (let i = 0; i < frames; i++) {
  const f = renderer.render(snapshot(i), [], buffer);
  checksum = (checksum + f.rgb[(i * 7919) % f.rgb.length]!) | 0;
}
const t2 = performance.now();
const cpu = process.cpuUsage(cpu0);
const cpuS = (cpu.user + cpu.system) / 1e6;
const renderS = (t2 - t1) / 1000;
const videoS = frames / fps;
console.log(`render bench: ${game}, ${kind} camera, ${width}×${height}, ${frames} frames (${videoS.toFixed(1)} s of video at ${fps} fps)`);
console.log(`  setup (rays + static table image): ${((t1 - t0) / 1000).toFixed(2)} s`);
console.log(`  frames: ${renderS.toFixed(2)} s = ${((renderS / frames) * 1000).toFixed(1)} ms/frame`);
// CPU time is the honest figure on a shared machine: wall time includes waiting for other processes.
console.log(`  CPU time of the frames: ${cpuS.toFixed(2)} s (ratio to real time ${(cpuS / videoS).toFixed(3)}; includes GC threads)`);
console.log(`  ratio to real time: ${(renderS / videoS).toFixed(3)} (${renderS < videoS ? 'faster' : 'slower'} than real time)  [checksum ${checksum}]`);
