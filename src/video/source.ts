/**
 * `openSource(uri, options)`: one entry point for every kind of input, dispatched on the URI —
 * a video file (anything ffmpeg reads), a still image, an image sequence (a directory or a printf
 * pattern like `frames/%05d.png`), or a live source (`rtsp://`, `rtmp://`, `udp://`, `srt://`,
 * `http(s)://` streams, `/dev/video*`). Each comes back as a FrameSource (an AsyncIterable<Frame>).
 */
import { stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { InputError } from '../core/errors.js';
import { decodeArgs, expectedSize, liveInputArgs } from './args.js';
import { decodeProcess, inventsTimestamps, type DecodeEnd } from './decode.js';
import { BufferPool } from './splitter.js';
import { ffmpegPath } from './ffmpegPath.js';
import { IMAGE_EXTENSIONS, imageSource, sequenceSource } from './images.js';
import { makeFrameSource } from './frameSource.js';
import { liveSource } from './live.js';
import { DEFAULT_FILE_STALL_MS, DEFAULT_IO_TIMEOUT_MS, parseSourceOptions, type SourceOptions, type SourceOptionsInput } from './options.js';
import { classifyFailure, ffmpegCaps, probe, type ProbeInfo } from './probe.js';
import { stderrLog, type Frame, type FrameSource, type SourceInfo, type SourceKind, type VideoLog } from './types.js';

/** Container extensions that mark an http(s) URL as a finite file rather than a live stream. */
const FILE_EXTENSIONS = ['.mp4', '.m4v', '.mov', '.mkv', '.webm', '.avi', '.wmv', '.flv', '.mpg', '.mpeg'];

/**
 * Which kind of source a URI names. Pure: the caller says whether the path is a directory.
 * http(s) URLs are live streams unless their path ends in a video file extension; `live` overrides.
 */
export function classifyUri(uri: string, isDirectory = false, live?: boolean): SourceKind {
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(uri)?.[1]?.toLowerCase();
  if (live === true) return 'live';
  if (uri.startsWith('/dev/')) return live === false ? 'file' : 'live';
  if (scheme !== undefined && scheme !== 'file') {
    if (live === false) return 'file';
    if (scheme === 'http' || scheme === 'https') {
      const path = uri.replace(/[?#].*$/, '');
      return FILE_EXTENSIONS.includes(extname(path).toLowerCase()) ? 'file' : 'live';
    }
    return 'live';
  }
  if (isDirectory || /%0?\d*d/.test(uri)) return 'sequence';
  if ((IMAGE_EXTENSIONS as readonly string[]).includes(extname(uri).toLowerCase())) return 'image';
  return 'file';
}

/**
 * Open a source. Files are probed first, so a missing file, a non-video or an audio-only file fails
 * here with an InputError (codes in probe.ts) instead of in the middle of a loop.
 */
export async function openSource(uri: string, options: SourceOptionsInput = {}): Promise<FrameSource> {
  const opts = parseSourceOptions(options);
  const log = opts.log ?? stderrLog;
  const localPath = uri.replace(/^file:\/\//, '');
  const isLocal = !/^[a-z][a-z0-9+.-]*:\/\//i.test(uri) || uri.startsWith('file://');
  const isDirectory = isLocal && (await stat(localPath).catch(() => undefined))?.isDirectory() === true;
  const kind = classifyUri(uri, isDirectory, opts.live);
  switch (kind) {
    case 'image':
      return imageSource(localPath, opts, log);
    case 'sequence':
      return sequenceSource(localPath, opts, log);
    case 'live':
      if (opts.startSec !== undefined) {
        throw new InputError({ code: 'BAD_VIDEO_OPTION', field: 'startSec', message: `a live source cannot seek: drop startSec for '${uri}'` });
      }
      return liveSource(uri, opts, log);
    case 'file':
      return fileSource(isLocal ? localPath : uri, opts, log);
  }
}

function fileSource(uri: string, opts: SourceOptions, log: VideoLog): Promise<FrameSource> {
  const isUrl = /^[a-z][a-z0-9+.-]*:\/\//i.test(uri);
  const binary = ffmpegPath();
  const caps = ffmpegCaps(binary);
  const ioTimeoutMs = opts.ioTimeoutMs ?? DEFAULT_IO_TIMEOUT_MS;
  const inputArgs = isUrl ? liveInputArgs(uri, caps, { ioTimeoutMs }) : [];
  if (!isUrl && opts.inputFormat !== undefined) inputArgs.push('-f', opts.inputFormat);
  return probe(uri, { inputArgs, timeoutMs: Math.max(20_000, ioTimeoutMs * 2) }).then((p) => {
    const video = p.video[0]!;
    const size = expectedSize(video, opts.scale);
    const startMs = (opts.startSec ?? 0) * 1000;
    const endMs = Math.min(opts.endSec !== undefined ? opts.endSec * 1000 : Infinity, p.durationMs ?? Infinity);
    const info: SourceInfo = { kind: 'file', uri, width: size.width, height: size.height };
    if (video.fps !== undefined) info.fps = video.fps;
    if (Number.isFinite(endMs)) info.durationMs = Math.max(0, endMs - startMs);
    const warnings: string[] = [];
    const warn = (msg: string): void => {
      warnings.push(msg);
      log(msg);
    };
    const args = decodeArgs(uri, caps, { inputArgs, startSec: opts.startSec, endSec: opts.endSec, scale: opts.scale });
    const stop = new AbortController();
    const pool = new BufferPool();
    return makeFrameSource(
      info,
      warnings,
      () => fileFrames({ uri, binary, args, startMs, endMs, probe: p, stallTimeoutMs: opts.stallTimeoutMs ?? DEFAULT_FILE_STALL_MS, warn, signal: stop.signal, pool }),
      () => stop.abort(),
      (f) => pool.give(f.rgb),
    );
  });
}

interface FileDecode {
  uri: string;
  binary: string;
  args: string[];
  startMs: number;
  /** Where frames should stop (end option or container duration); Infinity if unknown. */
  endMs: number;
  probe: ProbeInfo;
  stallTimeoutMs: number;
  warn: (msg: string) => void;
  /** Aborted by close(): the end is then ours, not a decoding problem. */
  signal: AbortSignal;
  pool: BufferPool;
}

async function* fileFrames(d: FileDecode): AsyncGenerator<Frame, void, void> {
  const gen = decodeProcess({ binary: d.binary, args: d.args, stallTimeoutMs: d.stallTimeoutMs, signal: d.signal, pool: d.pool });
  // Fallback spacing for frames without a usable timestamp (rare: broken muxers, raw streams).
  const nominalMs = 1000 / (d.probe.video[0]?.fps ?? 30);
  // Raw MJPEG and piped images carry no timestamps; ffmpeg's are made up: space frames nominally.
  const untimed = inventsTimestamps(d.probe.format);
  let index = 0;
  let lastPtsMs = -Infinity;
  let repaired = 0;
  let end: DecodeEnd | undefined;
  try {
    for (;;) {
      const r = await gen.next();
      if (r.done) {
        end = r.value;
        break;
      }
      const f = r.value;
      // ffmpeg reports times relative to the seek point: add it back to get recording time.
      let ptsMs = f.streamPtsMs === null || untimed ? NaN : f.streamPtsMs + d.startMs;
      if (!(ptsMs > lastPtsMs)) {
        repaired++;
        ptsMs = index === 0 ? d.startMs : lastPtsMs + nominalMs;
      }
      lastPtsMs = ptsMs;
      yield { index: index++, ptsMs, width: f.width, height: f.height, rgb: f.rgb };
    }
  } finally {
    await gen.return(undefined as never);
  }
  if (d.signal.aborted) return;
  if (repaired > 0) {
    d.warn(`'${d.uri}': ${repaired} frame(s) had a missing or non-increasing timestamp; placed ${nominalMs.toFixed(1)} ms after the previous one`);
  }
  judgeFileEnd(d, end, index, lastPtsMs, nominalMs);
}

/** Decide what the end of a file decode means: normal, a warning with the frames kept, or an error. */
function judgeFileEnd(d: FileDecode, end: DecodeEnd, frames: number, lastPtsMs: number, nominalMs: number): void {
  if (end.spawnError) throw new Error(`cannot run ffmpeg (${d.binary}): ${end.spawnError.message}`);
  const failed = end.exitCode !== 0 || end.stalled;
  const why = end.stalled
    ? `ffmpeg sent no data for ${d.stallTimeoutMs} ms and was stopped`
    : `ffmpeg stopped with ${end.signal ?? `exit code ${end.exitCode}`}: ${end.stderrTail.slice(-1)[0] ?? 'no message'}`;
  if (frames === 0) {
    if (failed) {
      const c = classifyFailure(end.stderrTail.join('\n'));
      throw new InputError({
        code: 'VIDEO_DECODE_FAILED',
        message: `no frame could be decoded from '${d.uri}' (${end.stalled ? why : c.detail}): check the file plays in a media player; re-encode it if it does not`,
      });
    }
    d.warn(`'${d.uri}': no frames between ${(d.startMs / 1000).toFixed(3)} s and the end of the selected span`);
    return;
  }
  if (failed) d.warn(`'${d.uri}': decoding stopped early after ${frames} frame(s) at ${(lastPtsMs / 1000).toFixed(3)} s (${why})`);
  if (end.leftoverBytes > 0) d.warn(`'${d.uri}': the last frame was incomplete (${end.leftoverBytes} bytes) and was dropped`);
  if (end.decodeErrorCount > 0) {
    d.warn(`'${d.uri}': ffmpeg reported ${end.decodeErrorCount} problem(s) with the data, e.g. "${end.decodeErrors[0]}"; some frames may be damaged or missing`);
  }
  // A file cut short still says its full length in the header: notice when frames stop well before it.
  const slackMs = Math.max(3 * nominalMs, 250);
  if (!failed && Number.isFinite(d.endMs) && lastPtsMs + slackMs < d.endMs) {
    d.warn(`'${d.uri}': frames stop at ${(lastPtsMs / 1000).toFixed(3)} s but the file says it lasts until ${(d.endMs / 1000).toFixed(3)} s: it looks truncated`);
  }
}
