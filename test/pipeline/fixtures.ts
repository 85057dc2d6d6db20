/**
 * Shared fixtures for the analyze tests: the rendered sample (samples/video/snooker-in-off-S07-
 * overhead, 80 frames of 1280×720) and its exact truth tracks from the simulator (same scenario,
 * same camera, same fps), which the replay detector turns into per-frame detections. Also ffmpeg
 * helpers to make damaged or altered copies of a video.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { refereeLog } from '../../src/rules/registry.js';
import { presetCamera } from '../../src/sim/camera.js';
import { parseScenario, runScenario } from '../../src/sim/scenario/index.js';
import { truthTracks } from '../../src/sim/truth.js';
import { ffmpegPath } from '../../src/video/ffmpegPath.js';

export const ROOT = resolve(import.meta.dirname, '../..');
export const SAMPLE = join(ROOT, 'samples/video/snooker-in-off-S07-overhead/video.mp4');
export const SAMPLE_SCENARIO = join(ROOT, 'samples/scenarios/snooker-in-off-S07.json');

/** Write the sample's truth tracks (cueref.tracks/1 with the true calibration) to `path`. */
export function writeSampleTruth(path: string, fps = 30): string {
  const scenario = parseScenario(JSON.parse(readFileSync(SAMPLE_SCENARIO, 'utf8')), 'scenario');
  const rec = runScenario(scenario, { sampleDtS: 1 / (fps * 8), referee: (log, table) => refereeLog(log as Parameters<typeof refereeLog>[0], table) });
  const cam = presetCamera('overhead', rec.table, { width: 1280, height: 720 });
  writeFileSync(path, JSON.stringify(truthTracks(rec, cam, fps)) + '\n');
  return path;
}

/** Run ffmpeg with `args`; throws with its stderr on failure. */
export function ffmpeg(args: string[]): void {
  const r = spawnSync(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...args], { encoding: 'utf8', timeout: 60_000 });
  if (r.status !== 0) throw new Error(`ffmpeg ${args.join(' ')} failed: ${r.stderr}`);
}
