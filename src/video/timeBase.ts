/**
 * The time base of a file's first video stream (ffmpeg's `tbn`): every timestamp in the stream is
 * a whole number of these ticks. `analyze` snaps decoded frame times to it, so the same frame gets
 * the same time whether it was decoded from the start or after a seek (ffmpeg converts a seek's
 * time differences to µs and rounds them, which moves a frame by a µs or two).
 * Additive to probe.ts (whose ProbeInfo is pinned by other code): a second, cheap `ffmpeg -i`.
 */
import { spawn } from 'node:child_process';
import { probeArgs } from './args.js';
import { ffmpegPath } from './ffmpegPath.js';

/** `… 30 fps, 30 tbr, 15360 tbn, 60 tbc` → 15360; `90k tbn` → 90000. Pure. */
export function parseTimeBaseHz(stderr: string): number | undefined {
  const line = stderr.split(/\r?\n/).find((l) => /^\s+Stream #0:\d+.*: Video: /.test(l));
  const m = line && /, ([\d.]+)(k?) tbn\b/.exec(line);
  if (!m) return undefined;
  const hz = Number(m[1]) * (m[2] === 'k' ? 1000 : 1);
  return Number.isFinite(hz) && hz > 0 ? hz : undefined;
}

/** The time base of a local file's first video stream, or undefined (not a file, not stated). */
export function probeTimeBaseHz(uri: string, timeoutMs = 20_000): Promise<number | undefined> {
  return new Promise((resolve) => {
    const proc = spawn(ffmpegPath(), probeArgs(uri), { stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (s: string) => {
      if (text.length < 200_000) text += s;
    });
    const timer = setTimeout(() => proc.kill('SIGKILL'), timeoutMs);
    proc.on('error', () => {
      clearTimeout(timer);
      resolve(undefined);
    });
    proc.on('close', () => {
      clearTimeout(timer);
      resolve(parseTimeBaseHz(text));
    });
  });
}
