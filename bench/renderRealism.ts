/**
 * How the renders compare with the real footage in ../shared/real (skipped when it is absent):
 * the same statistics measured the same way on real frames and on renders of the matching camera
 * preset. Cloth colour and its variation, high-frequency noise on the cloth (sensor noise after
 * compression), and ball radius in pixels (real: from the sets' annotations).
 *
 * Run through `npx tsx bench/render.ts --realism`.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { completeProfile, defaultProfileFor, type TableProfile } from '../src/core/table.js';
import type { GameId } from '../src/core/games.js';
import { presetCamera, type CameraKind } from '../src/sim/camera.js';
import { pool8Rack, snookerOpening } from '../src/sim/render/demoLayouts.js';
import { jpegRoundTrip } from '../src/sim/render/imageIo.js';
import { defaultLook, Renderer } from '../src/sim/render/index.js';

const REAL = join(import.meta.dirname, '..', '..', 'shared', 'real');

interface Stats {
  clothRgb: [number, number, number];
  /** Median over cloth windows of the per-window standard deviation (green channel): texture + noise. */
  clothStd: number;
  /** Median absolute 4-neighbour Laplacian on cloth (green), ≈ pixel-level noise after compression. */
  hfNoise: number;
}

/** Cloth statistics from 16×16 windows in the image's central half whose mean is near the median window's. */
function clothStats(rgb: Uint8Array | Buffer, width: number, height: number): Stats {
  const win = 16;
  const wins: { m: [number, number, number]; sd: number; x: number; y: number }[] = [];
  for (let y = Math.floor(height * 0.2); y + win < height * 0.8; y += win) {
    for (let x = Math.floor(width * 0.25); x + win < width * 0.75; x += win) {
      const m: [number, number, number] = [0, 0, 0];
      let g2 = 0;
      for (let j = y; j < y + win; j++) {
        for (let i = x; i < x + win; i++) {
          const p = (j * width + i) * 3;
          m[0] += rgb[p]!;
          m[1] += rgb[p + 1]!;
          m[2] += rgb[p + 2]!;
          g2 += rgb[p + 1]! ** 2;
        }
      }
      const n = win * win;
      m[0] /= n;
      m[1] /= n;
      m[2] /= n;
      wins.push({ m, sd: Math.sqrt(Math.max(0, g2 / n - m[1] ** 2)), x, y });
    }
  }
  const byLum = [...wins].sort((a, b) => a.m[0] + a.m[1] + a.m[2] - (b.m[0] + b.m[1] + b.m[2]));
  const med = byLum[Math.floor(byLum.length / 2)]!.m;
  const cloth = wins.filter((w) => Math.hypot(w.m[0] - med[0], w.m[1] - med[1], w.m[2] - med[2]) < 25 && w.sd < 12);
  const median = (v: number[]): number => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? NaN;
  const lap: number[] = [];
  for (const w of cloth) {
    for (let j = w.y + 1; j < w.y + win - 1; j += 2) {
      for (let i = w.x + 1; i < w.x + win - 1; i += 2) {
        const p = (j * width + i) * 3 + 1;
        lap.push(Math.abs(4 * rgb[p]! - rgb[p - 3]! - rgb[p + 3]! - rgb[p - width * 3]! - rgb[p + width * 3]!) / 4);
      }
    }
  }
  return {
    clothRgb: [0, 1, 2].map((c) => median(cloth.map((w) => w.m[c]!))) as [number, number, number],
    clothStd: median(cloth.map((w) => w.sd)),
    hfNoise: median(lap),
  };
}

async function readRgb(path: string): Promise<{ rgb: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(path).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { rgb: data, width: info.width, height: info.height };
}

function meanStats(all: Stats[]): Stats {
  const m = (f: (s: Stats) => number): number => all.reduce((a, s) => a + f(s), 0) / all.length;
  return { clothRgb: [m((s) => s.clothRgb[0]), m((s) => s.clothRgb[1]), m((s) => s.clothRgb[2])], clothStd: m((s) => s.clothStd), hfNoise: m((s) => s.hfNoise) };
}

async function rendered(game: GameId, table: TableProfile, kind: CameraKind, width: number, height: number, jpegQuality: number | undefined): Promise<Stats & { ballRadiusPx: number }> {
  const camera = presetCamera(kind, table, { width, height });
  const r = new Renderer({ game, table, camera, look: defaultLook(game), seed: 11 });
  const balls = game === 'snooker' ? snookerOpening(table) : pool8Rack(table);
  const stats: Stats[] = [];
  let radius = 0;
  for (let i = 0; i < 3; i++) {
    const f = r.render({ i, t: i / 30, balls });
    const rgb = jpegQuality === undefined ? f.rgb : await jpegRoundTrip(f, jpegQuality);
    stats.push(clothStats(rgb, width, height));
    radius = f.labels.reduce((a, l) => a + l.r, 0) / f.labels.length;
  }
  return { ...meanStats(stats), ballRadiusPx: radius };
}

const fmt = (s: Stats & { ballRadiusPx?: number }): string =>
  `cloth rgb ${s.clothRgb.map((v) => v.toFixed(0).padStart(3)).join(',')}  cloth σ ${s.clothStd.toFixed(2).padStart(5)}  hf noise ${s.hfNoise.toFixed(2).padStart(5)}` +
  (s.ballRadiusPx !== undefined ? `  ball r ${s.ballRadiusPx.toFixed(1)} px` : '');

export async function realismReport(): Promise<void> {
  if (!existsSync(REAL)) {
    console.log(`realism: ${REAL} not found, skipped`);
    return;
  }
  // 1) TV snooker (bucharest Task1 JPEG frames; 42.jpg is a broken crop).
  const bDir = join(REAL, 'bucharest-snooker-broadcast', 'train', 'Task1');
  const bFiles = readdirSync(bDir).filter((f) => /^\d+\.jpg$/.test(f) && f !== '42.jpg').slice(0, 12);
  const bStats = await Promise.all(bFiles.map(async (f) => { const im = await readRgb(join(bDir, f)); return clothStats(im.rgb, im.width, im.height); }));
  // Cue-ball radius from Task3 boxes (first box of each of 10 clips).
  const t3 = join(REAL, 'bucharest-snooker-broadcast', 'train', 'Task3');
  const radii: number[] = [];
  for (const f of readdirSync(t3).filter((x) => x.endsWith('_ball_1.txt')).slice(0, 10)) {
    const line = readFileSync(join(t3, f), 'utf8').split('\n')[1]!.trim().split(/\s+/).map(Number);
    radii.push((line[3]! - line[1]! + line[4]! - line[2]!) / 4);
  }
  console.log('snooker, TV broadcast (1280×720)');
  console.log(`  real     ${fmt({ ...meanStats(bStats), ballRadiusPx: radii.reduce((a, b) => a + b, 0) / radii.length })}  (${bFiles.length} frames; r from Task3 boxes)`);
  console.log(`  rendered ${fmt(await rendered('snooker', defaultProfileFor('snooker'), 'broadcast', 1280, 720, 85))}  (broadcast preset, default look, JPEG q85)`);

  // 2) Club overhead (bern, PNG, table 1881 × 943 with 52.3 mm balls).
  const oDir = join(REAL, 'bern-snooker-overhead', 'without_halo');
  const oFiles = readdirSync(oDir).filter((f) => f.endsWith('.png')).slice(0, 12);
  const oStats = await Promise.all(oFiles.map(async (f) => { const im = await readRgb(join(oDir, f)); return clothStats(im.rgb, im.width, im.height); }));
  const bern = completeProfile({ format: 'cueref.table/1', game: 'snooker', bed: { width: 943, length: 1881 }, ballDiameter: 52.3 });
  console.log('snooker, club overhead (1280×720)');
  console.log(`  real     ${fmt({ ...meanStats(oStats), ballRadiusPx: 26.15 * 0.598 })}  (${oFiles.length} frames; r = 26.15 mm × 0.598 px/mm from testcases.json)`);
  console.log(`  rendered ${fmt(await rendered('snooker', bern, 'overhead', 1280, 720, undefined))}  (overhead preset on a 1881 × 943 profile, default look, PNG)`);

  // 3) Pool TV (padova first frames, PNG from H.264).
  const pDir = join(REAL, 'padova-pool-broadcast', 'Dataset');
  const clips = readdirSync(pDir).filter((d) => d.startsWith('game'));
  const pStats: Stats[] = [];
  const pr: number[] = [];
  for (const c of clips) {
    const im = await readRgb(join(pDir, c, 'frames', 'frame_first.png'));
    pStats.push(clothStats(im.rgb, im.width, im.height));
    for (const line of readFileSync(join(pDir, c, 'bounding_boxes', 'frame_first_bbox.txt'), 'utf8').trim().split('\n')) {
      const [, , w, h] = line.trim().split(/\s+/).map(Number);
      pr.push((w! + h!) / 4);
    }
  }
  console.log('pool, TV broadcast (1024×576)');
  console.log(`  real     ${fmt({ ...meanStats(pStats), ballRadiusPx: pr.reduce((a, b) => a + b, 0) / pr.length })}  (${clips.length} clips; r from boxes)`);
  console.log(`  rendered ${fmt(await rendered('pool8', defaultProfileFor('pool8'), 'broadcast', 1024, 576, 85))}  (broadcast preset, default look, JPEG q85)`);
}
