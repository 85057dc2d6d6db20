/**
 * Pure ffmpeg argument builders. Nothing here spawns, reads files or looks at the clock, so every
 * flag choice is pinned by a table test (test/video/args.test.ts).
 *
 * How frames and timestamps come out of one ffmpeg process:
 *  - pixels: `-f rawvideo -pix_fmt rgb24 pipe:1`, split into width*height*3-byte frames;
 *  - timestamps: `-debug_ts` makes ffmpeg log one `encoder <- … frame_pts:P … time_base:1/1000000`
 *    line per frame handed to the (rawvideo) encoder, i.e. exactly one per frame on stdout, in order.
 *    `-enc_time_base 1:1000000` makes P microseconds, so variable-frame-rate files keep their real
 *    spacing (the default encoder time base is 1/fps, which would round VFR timestamps onto a grid).
 *    We tried `-vf showinfo` first: it checksums every frame and cost +55 % CPU at 1280×720.
 *  - passthrough frame timing (`-vsync passthrough` / `-fps_mode passthrough`): ffmpeg neither
 *    duplicates nor drops frames to reach a constant rate, so what you get is what was recorded;
 *  - `-loglevel repeat+info`: without `repeat`, ffmpeg folds identical consecutive log lines into
 *    "Last message repeated N times", which would silently lose timestamps.
 */

/** The flags that changed meaning between the ffmpeg versions we meet (static 4.x build, system 5–7). */
export interface FfmpegCaps {
  /** `-fps_mode` exists (ffmpeg ≥ 5.1); older builds only know `-vsync`. */
  fpsMode: boolean;
  /**
   * RTSP socket timeout flag. ffmpeg ≤ 4 calls it `-stimeout`, and its `-timeout` means "listen
   * for an incoming connection" — passing `-timeout` to an old ffmpeg turns a client into a server.
   */
  rtspTimeoutFlag: '-stimeout' | '-timeout';
}

/** Read the capabilities off `ffmpeg -version` (libavformat's version is reliable, even for git builds). */
export function parseFfmpegCaps(versionText: string): FfmpegCaps {
  const m = /libavformat\s+(\d+)\.\s*(\d+)/.exec(versionText);
  const major = m ? Number(m[1]) : 58;
  const minor = m ? Number(m[2]) : 0;
  // libavformat 59.27 shipped with ffmpeg 5.1 (fps_mode); 59.x is ffmpeg 5 (stimeout removed).
  return {
    fpsMode: major > 59 || (major === 59 && minor >= 27),
    rtspTimeoutFlag: major >= 59 ? '-timeout' : '-stimeout',
  };
}

/** Target size for scaling inside ffmpeg. Give one side to keep the aspect ratio (rounded to even). */
export interface ScaleOption {
  width?: number;
  height?: number;
  /**
   * ffmpeg's scaling algorithm (`flags=`; its default is bicubic). `area` averages the source
   * pixels each output pixel covers: the right filter for shrinking (no aliasing), and at 1080p →
   * 720p about half the CPU of bicubic (measured: 1.8 s against 3.4 s for 278 frames). Files and
   * live streams only; images and sequences are resized by sharp with its own default.
   */
  flags?: ScaleFlags;
}

export const SCALE_FLAGS = ['area', 'bilinear', 'bicubic', 'lanczos'] as const;
export type ScaleFlags = (typeof SCALE_FLAGS)[number];

/** ffmpeg `scale` filter for a ScaleOption; undefined when nothing is to be scaled. */
export function scaleFilter(scale: ScaleOption | undefined): string | undefined {
  if (!scale || (scale.width === undefined && scale.height === undefined)) return undefined;
  // -2: derive this side from the aspect ratio, rounded to a multiple of 2 (what encoders need later).
  const w = scale.width ?? -2;
  const h = scale.height ?? -2;
  return `scale=${w}:${h}${scale.flags ? `:flags=${scale.flags}` : ''}`;
}

/**
 * The frame size ffmpeg will produce, mirroring its rules so callers know it before decoding:
 * autorotation swaps the sides of a ±90° video, then `scale` with -2 derives the missing side as
 * round(other * ratio / 2) * 2 (libavfilter's av_rescale rounds to nearest).
 */
export function expectedSize(
  source: { width: number; height: number; rotationDeg?: number },
  scale?: ScaleOption,
): { width: number; height: number } {
  const quarterTurn = Math.abs(Math.round((source.rotationDeg ?? 0) / 90)) % 2 === 1;
  const inW = quarterTurn ? source.height : source.width;
  const inH = quarterTurn ? source.width : source.height;
  if (!scale || (scale.width === undefined && scale.height === undefined)) return { width: inW, height: inH };
  if (scale.width !== undefined && scale.height !== undefined) return { width: scale.width, height: scale.height };
  if (scale.width !== undefined) return { width: scale.width, height: Math.round((scale.width * inH) / (inW * 2)) * 2 };
  const h = scale.height!;
  return { width: Math.round((h * inW) / (inH * 2)) * 2, height: h };
}

/** Probe: ffmpeg with an input and no output prints the container and streams, then exits 1. */
export function probeArgs(input: string, inputArgs: string[] = []): string[] {
  return ['-hide_banner', '-nostdin', ...inputArgs, '-i', input];
}

export interface DecodeArgsOptions {
  /** Input flags placed before `-i` (format, timeouts, seeking). */
  inputArgs?: string[];
  startSec?: number;
  endSec?: number;
  scale?: ScaleOption;
}

/**
 * Arguments that decode the first video stream of `input` to raw RGB on stdout.
 * Seeking is on the input side (`-ss`/`-t` before `-i`): ffmpeg jumps to the keyframe before the
 * start, decodes up to it and trims exactly, so we never pipe frames we would throw away, and the
 * trim happens before our timestamp log line (an output-side `-t` would trim after it).
 */
export function decodeArgs(input: string, caps: FfmpegCaps, opts: DecodeArgsOptions = {}): string[] {
  const args = ['-hide_banner', '-nostdin', '-nostats', '-loglevel', 'repeat+info', '-debug_ts'];
  if (opts.startSec !== undefined && opts.startSec > 0) args.push('-ss', secondsArg(opts.startSec));
  if (opts.endSec !== undefined) args.push('-t', secondsArg(opts.endSec - (opts.startSec ?? 0)));
  args.push(...(opts.inputArgs ?? []), '-i', input);
  args.push('-map', '0:v:0', '-an', '-sn', '-dn');
  args.push(...(caps.fpsMode ? ['-fps_mode', 'passthrough'] : ['-vsync', 'passthrough']));
  args.push('-enc_time_base', '1:1000000');
  const filters = [scaleFilter(opts.scale), 'format=rgb24'].filter((f): f is string => f !== undefined);
  args.push('-vf', filters.join(','));
  // flush_packets: ffmpeg's output buffer is 32 KiB; without a flush per frame, frames smaller than
  // that (a 64×48 test clip, a thumbnail-scaled live feed) would leave in bursts, late.
  args.push('-f', 'rawvideo', '-pix_fmt', 'rgb24', '-flush_packets', '1', 'pipe:1');
  return args;
}

/** Seconds with millisecond precision, never in exponent notation (ffmpeg rejects "1e-7"). */
function secondsArg(sec: number): string {
  return Math.max(0, sec).toFixed(3);
}

export type LiveProtocol = 'rtsp' | 'rtmp' | 'http' | 'udp' | 'srt' | 'tcp' | 'device';

export interface LiveInputOptions {
  /** A read that waits longer than this ends the connection (ffmpeg exits, we reconnect). */
  ioTimeoutMs: number;
  /** `-f` for the input, e.g. `mjpeg`, `mpegts`; needed only when the stream cannot be sniffed. */
  inputFormat?: string;
  /** Device capture only: requested frame rate and size (v4l2 picks the nearest mode). */
  deviceFps?: number;
  deviceSize?: { width: number; height: number };
  /**
   * `-fflags nobuffer` (default off): starts a little sooner, but throws away every packet read
   * while ffmpeg probes the stream — on a reconnect that is up to several seconds of play. The
   * bounded queue already sheds any start-up backlog, so we keep the frames.
   */
  lowDelay?: boolean;
}

export function liveProtocol(uri: string): LiveProtocol {
  if (uri.startsWith('/dev/')) return 'device';
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(uri)?.[1]?.toLowerCase() ?? '';
  if (scheme === 'rtsp' || scheme === 'rtsps') return 'rtsp';
  if (scheme.startsWith('rtmp')) return 'rtmp';
  if (scheme === 'http' || scheme === 'https') return 'http';
  if (scheme === 'udp' || scheme === 'rtp') return 'udp';
  if (scheme === 'srt') return 'srt';
  return 'tcp';
}

/**
 * Input flags for a live source: a read timeout so a dead stream ends the process instead of
 * hanging forever; TCP for RTSP; the capture mode for devices.
 */
export function liveInputArgs(uri: string, caps: FfmpegCaps, opts: LiveInputOptions): string[] {
  const timeoutUs = String(Math.round(opts.ioTimeoutMs * 1000));
  const args = opts.lowDelay === true ? ['-fflags', 'nobuffer'] : [];
  switch (liveProtocol(uri)) {
    case 'rtsp':
      // TCP interleaving: UDP RTP loses packets on Wi-Fi and through NAT, which smears frames.
      args.push('-rtsp_transport', 'tcp', caps.rtspTimeoutFlag, timeoutUs);
      break;
    case 'device':
      args.push('-f', opts.inputFormat ?? 'v4l2');
      if (opts.deviceFps !== undefined) args.push('-framerate', String(opts.deviceFps));
      if (opts.deviceSize) args.push('-video_size', `${opts.deviceSize.width}x${opts.deviceSize.height}`);
      return args;
    case 'http':
    case 'rtmp':
    case 'udp':
    case 'srt':
    case 'tcp':
      // rw_timeout is the generic I/O timeout of every network protocol, in microseconds.
      args.push('-rw_timeout', timeoutUs);
      break;
  }
  if (opts.inputFormat !== undefined) args.push('-f', opts.inputFormat);
  return args;
}
