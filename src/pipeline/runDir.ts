/**
 * The output folder of `analyze` as a unit: which files it holds, the run manifest
 * (DIR/analyze.json) that says what produced them, and the rules for reusing a folder:
 *  - a new run refuses a folder that already holds analysis files (it would mix two runs);
 *  - `--overwrite` deletes exactly the files a run writes (nothing else in the folder);
 *  - `--resume` continues the run the manifest describes, and refuses when the video, game,
 *    table, detector or gating differ (the frames already tracked would not match the rest).
 */
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InputError } from '../core/errors.js';

export const RUN_FORMAT = 'cueref.analyze-run/1';

/** Files a run writes in DIR (clips/ holds stroke-NNN.mp4). */
export const RUN_FILES = ['analyze.json', 'calibration.json', 'tracks.jsonl', 'tracker-input.jsonl', 'strokes.json', 'strokes.events.json', 'calls.json', 'report.html'] as const;

export interface RunManifest {
  format: typeof RUN_FORMAT;
  state: 'running' | 'interrupted' | 'complete';
  video: { uri: string; bytes?: number; width: number; height: number; fps?: number; durationMs?: number };
  game: string;
  /** What must not change between a run and its resume (compared as JSON). */
  settings: Record<string, unknown>;
  startedAt: string;
  updatedAt: string;
}

export function runPaths(dir: string) {
  return {
    manifest: join(dir, 'analyze.json'),
    calibration: join(dir, 'calibration.json'),
    tracks: join(dir, 'tracks.jsonl'),
    inputs: join(dir, 'tracker-input.jsonl'),
    strokes: join(dir, 'strokes.json'),
    strokesEvents: join(dir, 'strokes.events.json'),
    calls: join(dir, 'calls.json'),
    report: join(dir, 'report.html'),
    clips: join(dir, 'clips'),
  };
}

/** Run files (and clips) present in `dir`. */
export function existingRunFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const names = new Set(readdirSync(dir));
  const found: string[] = RUN_FILES.filter((f) => names.has(f));
  const clips = join(dir, 'clips');
  if (existsSync(clips) && statSync(clips).isDirectory()) for (const c of readdirSync(clips)) if (/^stroke-\d{3,}\.mp4$/.test(c)) found.push(`clips/${c}`);
  return found;
}

/** What a new (non-resumed) run may do with `dir`; throws a clear InputError when it may not. */
export function prepareOutDir(dir: string, mode: { resume: boolean; overwrite: boolean }, command: string): 'fresh' | 'resume' {
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new InputError({ code: 'OUT_NOT_A_DIRECTORY', field: 'out', message: `--out '${dir}' is a file, not a folder: give a folder for the analysis files` });
  }
  const files = existingRunFiles(dir);
  if (mode.resume) return files.includes('analyze.json') ? 'resume' : 'fresh';
  if (!files.length) return 'fresh';
  if (mode.overwrite) {
    for (const f of files) rmSync(join(dir, f), { force: true });
    return 'fresh';
  }
  throw new InputError({
    code: 'OUT_DIR_NOT_EMPTY',
    field: 'out',
    message: `'${dir}' already holds an analysis (${files.slice(0, 4).join(', ')}${files.length > 4 ? ', …' : ''}): continue it with --resume, start again with --overwrite (deletes those files only), or choose another --out. Command: ${command}`,
  });
}

export function readManifest(dir: string): RunManifest | null {
  const p = runPaths(dir).manifest;
  if (!existsSync(p)) return null;
  try {
    const m = JSON.parse(readFileSync(p, 'utf8')) as RunManifest;
    return m.format === RUN_FORMAT ? m : null;
  } catch {
    return null;
  }
}

export function writeManifest(dir: string, m: RunManifest): void {
  writeFileSync(runPaths(dir).manifest, JSON.stringify({ ...m, updatedAt: new Date().toISOString() }, null, 1) + '\n');
}

/** Refuse a resume whose inputs differ from the stored run's; names the first difference. */
export function checkResumable(stored: RunManifest, now: Pick<RunManifest, 'video' | 'game' | 'settings'>, dir: string): void {
  const diff = (what: string, a: unknown, b: unknown) => {
    if (JSON.stringify(a) !== JSON.stringify(b)) {
      throw new InputError({
        code: 'RESUME_MISMATCH',
        field: what,
        message: `cannot resume '${dir}': its run had ${what} ${JSON.stringify(a)}, this one ${JSON.stringify(b)}; resume with the same video and options, or start again with --overwrite`,
      });
    }
  };
  diff('game', stored.game, now.game);
  diff('video size', [stored.video.width, stored.video.height], [now.video.width, now.video.height]);
  if (stored.video.bytes !== undefined && now.video.bytes !== undefined) diff('video file size', stored.video.bytes, now.video.bytes);
  for (const k of new Set([...Object.keys(stored.settings), ...Object.keys(now.settings)])) diff(k, stored.settings[k], now.settings[k]);
}
