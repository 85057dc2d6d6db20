/**
 * Typed probe. @ffmpeg-installer ships no ffprobe, so we run `ffmpeg -hide_banner -i FILE` (no
 * output: it describes the input on stderr and exits 1) and parse that text. The parser is pure
 * and pinned on captured stderr samples; `probe()` adds the process and the error mapping.
 */
import { spawn, spawnSync } from 'node:child_process';
import { stat } from 'node:fs/promises';
import { InputError } from '../core/errors.js';
import { parseFfmpegCaps, probeArgs, type FfmpegCaps } from './args.js';
import { ffmpegPath } from './ffmpegPath.js';

export interface VideoStreamInfo {
  /** Index among the input's streams (`Stream #0:N`). */
  index: number;
  codec: string;
  pixelFormat?: string;
  /** Coded size, before autorotation. */
  width: number;
  height: number;
  /** Average frame rate (`fps`); for VFR files this is the mean, not the rate of every frame. */
  fps?: number;
  /** Clockwise rotation a player applies (metadata `rotate` or display matrix), 0 if none. */
  rotationDeg: number;
  /** The colour tags ffmpeg prints after the pixel format, e.g. `yuv420p(tv, bt709)`; absent when untagged. */
  colour?: VideoColourTags;
}

/** ffmpeg's names: range `tv`|`pc`; space, primaries, transfer as `-colorspace`, `-color_primaries`, `-color_trc` take them. */
export interface VideoColourTags {
  range?: 'tv' | 'pc';
  space?: string;
  primaries?: string;
  transfer?: string;
}

/**
 * The colour tags in a stream line's `pix_fmt(…)`: `tv`/`pc`, then `space` when space, primaries
 * and transfer agree, else `space/primaries/transfer` (`unknown` for an unset one). Pure.
 */
export function parseColourTags(body: string): VideoColourTags | undefined {
  const m = /^[\w-]+(?: \([^)]*\))*, \w+\(([^)]*)\)/.exec(body);
  if (!m) return undefined;
  const tags: VideoColourTags = {};
  for (const t of m[1]!.split(',').map((x) => x.trim())) {
    if (t === 'tv' || t === 'pc') tags.range = t;
    else if (/^[a-z][\w-]*(\/[a-z][\w-]*\/[a-z][\w-]*)?$/.test(t) && !['progressive', 'top', 'bottom'].includes(t)) {
      const [space, primaries = space, transfer = space] = t.split('/');
      const known = (v: string | undefined) => (v && v !== 'unknown' && v !== 'reserved' ? v : undefined);
      if (known(space)) tags.space = space!;
      if (known(primaries)) tags.primaries = primaries;
      if (known(transfer)) tags.transfer = transfer;
    }
  }
  return Object.keys(tags).length ? tags : undefined;
}

export interface AudioStreamInfo {
  index: number;
  codec: string;
  sampleRateHz?: number;
}

export interface ProbeInfo {
  /** Demuxer names as ffmpeg lists them, e.g. `mov,mp4,m4a,3gp,3g2,mj2`. */
  format: string;
  /** Container duration; undefined for live streams and formats that do not store one. */
  durationMs?: number;
  /** Timestamp of the first packet; decoded frame times are reported relative to it. */
  startMs: number;
  bitrateKbps?: number;
  video: VideoStreamInfo[];
  audio: AudioStreamInfo[];
}

/** The typed result of parsing probe stderr: the description, or why there is none. */
export type ProbeParse =
  | { ok: true; info: ProbeInfo }
  | { ok: false; code: ProbeErrorCode; detail: string };

export type ProbeErrorCode = 'FILE_NOT_FOUND' | 'FILE_NOT_READABLE' | 'NOT_A_VIDEO' | 'VIDEO_TRUNCATED' | 'NO_VIDEO_STREAM' | 'SOURCE_UNREACHABLE';

/** Parse `ffmpeg -i` stderr. Pure. */
export function parseProbe(stderr: string): ProbeParse {
  const lines = stderr.split(/\r?\n/);
  const input = /^Input #0, (.+?), from '/.exec(lines.find((l) => l.startsWith('Input #0')) ?? '');
  if (!input) {
    return { ok: false, ...classifyFailure(stderr) };
  }
  const info: ProbeInfo = { format: input[1]!, startMs: 0, video: [], audio: [] };
  const dur = /Duration: (?:(\d+):(\d+):(\d+(?:\.\d+)?)|N\/A)(?:, start: (-?[\d.]+))?(?:, bitrate: (\d+) kb\/s)?/.exec(stderr);
  if (dur) {
    if (dur[1] !== undefined) info.durationMs = Math.round((Number(dur[1]) * 3600 + Number(dur[2]) * 60 + Number(dur[3])) * 1000);
    if (dur[4] !== undefined) info.startMs = Number(dur[4]) * 1000;
    if (dur[5] !== undefined) info.bitrateKbps = Number(dur[5]);
  }
  let current: VideoStreamInfo | undefined;
  for (const line of lines) {
    const s = /^\s+Stream #0:(\d+)(?:\[\w+\])?(?:\([^)]*\))?: (Video|Audio|Subtitle|Data|Attachment): (.*)$/.exec(line);
    if (s) {
      current = undefined;
      const index = Number(s[1]);
      const body = s[3]!;
      const codec = /^([\w-]+)/.exec(body)?.[1] ?? 'unknown';
      if (s[2] === 'Video') {
        const size = /, (\d+)x(\d+)/.exec(body);
        const fps = /, ([\d.]+)(k?) fps/.exec(body);
        const pix = /^[\w-]+(?: \([^)]*\))*(?: \([^)]*\))?, (\w+)/.exec(body);
        current = {
          index,
          codec,
          width: size ? Number(size[1]) : 0,
          height: size ? Number(size[2]) : 0,
          rotationDeg: 0,
        };
        if (pix?.[1] !== undefined) current.pixelFormat = pix[1];
        const colour = parseColourTags(body);
        if (colour) current.colour = colour;
        if (fps) current.fps = Number(fps[1]) * (fps[2] === 'k' ? 1000 : 1);
        info.video.push(current);
      } else if (s[2] === 'Audio') {
        const hz = /, (\d+) Hz/.exec(body);
        info.audio.push(hz ? { index, codec, sampleRateHz: Number(hz[1]) } : { index, codec });
      }
      continue;
    }
    if (current) {
      const rotate = /^\s+rotate\s*:\s*(-?\d+)/.exec(line);
      // The display matrix states the counter-clockwise angle to undo: -90 means "rotate 90° clockwise".
      const matrix = /displaymatrix: rotation of (-?[\d.]+) degrees/.exec(line);
      if (rotate) current.rotationDeg = ((Number(rotate[1]) % 360) + 360) % 360;
      else if (matrix) current.rotationDeg = ((Math.round(-Number(matrix[1])) % 360) + 360) % 360;
    }
  }
  if (info.video.length === 0) {
    const has = info.audio.length ? `only audio (${info.audio.map((a) => a.codec).join(', ')})` : 'no video stream';
    return { ok: false, code: 'NO_VIDEO_STREAM', detail: has };
  }
  return { ok: true, info };
}

/** Turn ffmpeg's failure text into one of our stable codes, keeping its own words as detail. */
export function classifyFailure(stderr: string): { code: ProbeErrorCode; detail: string } {
  const meaningful = stderr
    .split(/\r?\n/)
    .map((l) => l.replace(/^\[[^\]]+ @ 0x[0-9a-f]+\] /, '').trim())
    .filter((l) => l !== '' && !l.startsWith('At least one output file'));
  const detail = meaningful.slice(-3).join('; ') || 'ffmpeg gave no reason';
  if (/No such file or directory/.test(stderr)) return { code: 'FILE_NOT_FOUND', detail };
  if (/Permission denied/.test(stderr)) return { code: 'FILE_NOT_READABLE', detail };
  // A real mp4 whose recording was cut off lacks its index (written last); a text file that merely
  // ends in .mp4 is only "detected with low score" by the mp4 demuxer before failing the same way.
  if (/moov atom not found/.test(stderr) && !/misdetection possible/.test(stderr)) return { code: 'VIDEO_TRUNCATED', detail };
  if (/Connection refused|Connection timed out|Server returned|Failed to resolve|Network is unreachable|End of file|I\/O error/.test(stderr)) {
    return { code: 'SOURCE_UNREACHABLE', detail };
  }
  return { code: 'NOT_A_VIDEO', detail };
}

const ADVICE: Record<ProbeErrorCode, string> = {
  FILE_NOT_FOUND: 'check the path (relative paths are from the current directory)',
  FILE_NOT_READABLE: 'check the file permissions',
  NOT_A_VIDEO: 'ffmpeg cannot read it as video; give a video file, an image, an image sequence or a stream URL',
  VIDEO_TRUNCATED: 'the recording looks cut off before it was finalised (the mp4 index is missing); re-export it or recover it with a tool such as untrunc',
  NO_VIDEO_STREAM: 'the file has no picture to referee; give the video recording, not the audio',
  SOURCE_UNREACHABLE: 'check the URL, that the camera or server is on, and the network',
};

/** The InputError users see for a probe failure: what is wrong, ffmpeg's words, what to do. */
export function probeError(uri: string, code: ProbeErrorCode, detail: string): InputError {
  const what: Record<ProbeErrorCode, string> = {
    FILE_NOT_FOUND: `no such file '${uri}'`,
    FILE_NOT_READABLE: `cannot read '${uri}'`,
    NOT_A_VIDEO: `'${uri}' is not a video ffmpeg can read (${detail})`,
    VIDEO_TRUNCATED: `'${uri}' is truncated or damaged (${detail})`,
    NO_VIDEO_STREAM: `'${uri}' has ${detail}`,
    SOURCE_UNREACHABLE: `cannot open '${uri}' (${detail})`,
  };
  return new InputError({ code, message: `${what[code]}: ${ADVICE[code]}` });
}

const capsByPath = new Map<string, FfmpegCaps>();

/** Capabilities of the ffmpeg binary in use, read once per binary (`ffmpeg -version`, ~20 ms). */
export function ffmpegCaps(binary: string = ffmpegPath()): FfmpegCaps {
  let caps = capsByPath.get(binary);
  if (!caps) {
    const r = spawnSync(binary, ['-hide_banner', '-version'], { encoding: 'utf8', timeout: 10_000 });
    caps = parseFfmpegCaps(`${r.stdout ?? ''}${r.stderr ?? ''}`);
    capsByPath.set(binary, caps);
  }
  return caps;
}

export interface ProbeOptions {
  /** Input flags placed before `-i` (e.g. timeouts for URLs). */
  inputArgs?: string[];
  /** Give up after this long: a probe must never hang on a dead URL or a blocked FIFO. */
  timeoutMs?: number;
}

/**
 * Describe a video file or URL. Throws InputError with code FILE_NOT_FOUND, FILE_NOT_READABLE,
 * NOT_A_VIDEO, VIDEO_TRUNCATED, NO_VIDEO_STREAM or SOURCE_UNREACHABLE.
 */
export async function probe(uri: string, opts: ProbeOptions = {}): Promise<ProbeInfo> {
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(uri)) {
    // Check local paths ourselves: clearer than ffmpeg's message, and a directory is not a video.
    const st = await stat(uri).catch(() => undefined);
    if (!st) throw probeError(uri, 'FILE_NOT_FOUND', 'missing');
    if (st.isDirectory()) {
      throw new InputError({ code: 'NOT_A_VIDEO', message: `'${uri}' is a directory: open it as an image sequence (openSource) or give a video file inside it` });
    }
  }
  const timeoutMs = opts.timeoutMs ?? 20_000;
  const stderr = await new Promise<string>((resolve, reject) => {
    const proc = spawn(ffmpegPath(), probeArgs(uri, opts.inputArgs), { stdio: ['ignore', 'ignore', 'pipe'] });
    let text = '';
    proc.stderr.setEncoding('utf8');
    proc.stderr.on('data', (s: string) => {
      // The description is at the start; cap what we keep in case a URL streams endless warnings.
      if (text.length < 200_000) text += s;
    });
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new InputError({ code: 'SOURCE_UNREACHABLE', message: `probing '${uri}' took over ${timeoutMs} ms: check that the source is reachable and sends video` }));
    }, timeoutMs);
    proc.on('error', (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run ffmpeg to probe '${uri}': ${e.message}`));
    });
    proc.on('close', () => {
      clearTimeout(timer);
      resolve(text);
    });
  });
  const parsed = parseProbe(stderr);
  if (!parsed.ok) throw probeError(uri, parsed.code, parsed.detail);
  return parsed.info;
}
