/**
 * Where the ffmpeg binary lives. `FFMPEG_PATH` wins (a system ffmpeg with hardware encoders, a
 * pinned build); otherwise the static build shipped by `@ffmpeg-installer/ffmpeg`.
 * npm 11 may skip install scripts, leaving the packaged binary without its execute bit: we restore
 * it once rather than fail with a cryptic EACCES from spawn.
 */
import { accessSync, chmodSync, constants, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { InputError } from '../core/errors.js';

const require = createRequire(import.meta.url);

let cached: string | undefined;

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function ensureExecutable(path: string): void {
  if (isExecutable(path)) return;
  try {
    const mode = statSync(path).mode;
    // u+x, g+x, o+x where the matching read bit is set (what `chmod +x` would do under umask 022).
    chmodSync(path, mode | ((mode & 0o444) >> 2));
  } catch (e) {
    throw new Error(`ffmpeg at '${path}' is not executable and chmod failed (${(e as Error).message}); set FFMPEG_PATH to a working ffmpeg`);
  }
  if (!isExecutable(path)) {
    throw new Error(`ffmpeg at '${path}' is not executable; set FFMPEG_PATH to a working ffmpeg`);
  }
}

/** Absolute path of an executable ffmpeg. Throws InputError when FFMPEG_PATH points at nothing. */
export function ffmpegPath(): string {
  const fromEnv = process.env.FFMPEG_PATH;
  if (fromEnv !== undefined && fromEnv !== '') {
    try {
      if (!statSync(fromEnv).isFile()) throw new Error('not a file');
    } catch {
      throw new InputError({
        code: 'FFMPEG_NOT_FOUND',
        message: `FFMPEG_PATH='${fromEnv}' is not a file: point it at an ffmpeg binary or unset it to use the bundled one`,
      });
    }
    ensureExecutable(fromEnv);
    return fromEnv;
  }
  if (cached !== undefined) return cached;
  let path: string;
  try {
    // The installer package throws a plain string when its platform binary is missing.
    path = (require('@ffmpeg-installer/ffmpeg') as { path: string }).path;
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new Error(`no ffmpeg binary: @ffmpeg-installer/ffmpeg failed (${why}); install it for this platform or set FFMPEG_PATH`);
  }
  ensureExecutable(path);
  cached = path;
  return path;
}
