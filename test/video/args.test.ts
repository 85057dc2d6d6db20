import { describe, expect, test } from 'vitest';
import { decodeArgs, expectedSize, liveInputArgs, liveProtocol, parseFfmpegCaps, scaleFilter, type FfmpegCaps } from '../../src/video/args.js';
import { classifyUri } from '../../src/video/source.js';
import { parseSourceOptions } from '../../src/video/options.js';
import { backoffMs } from '../../src/video/live.js';
import { orderSequence, patternToRegExp } from '../../src/video/images.js';

const OLD: FfmpegCaps = { fpsMode: false, rtspTimeoutFlag: '-stimeout' };
const NEW: FfmpegCaps = { fpsMode: true, rtspTimeoutFlag: '-timeout' };

describe('parseFfmpegCaps', () => {
  test.each([
    ['static 4.x git build', 'ffmpeg version N-47683-g0e8eb07980-static\nlibavutil      56. 24.101\nlibavformat    58. 24.100', OLD],
    ['ffmpeg 5.0', 'ffmpeg version 5.0.1\nlibavformat    59. 16.100', { fpsMode: false, rtspTimeoutFlag: '-timeout' }],
    ['ffmpeg 5.1', 'ffmpeg version 5.1.2\nlibavformat    59. 27.100', NEW],
    ['ffmpeg 7.1', 'ffmpeg version 7.1\nlibavformat    61.  7.100', NEW],
    ['unreadable output falls back to the oldest behaviour', 'garbage', OLD],
  ])('%s', (_name, text, caps) => {
    expect(parseFfmpegCaps(text)).toEqual(caps);
  });
});

describe('scaling', () => {
  test.each([
    [undefined, undefined],
    [{}, undefined],
    [{ width: 640 }, 'scale=640:-2'],
    [{ height: 360 }, 'scale=-2:360'],
    [{ width: 320, height: 200 }, 'scale=320:200'],
    [{ width: 1280, height: 720, flags: 'area' as const }, 'scale=1280:720:flags=area'],
    [{ height: 720, flags: 'area' as const }, 'scale=-2:720:flags=area'],
    [{ flags: 'area' as const }, undefined], // an algorithm alone scales nothing
  ])('scaleFilter(%j) = %s', (scale, filter) => {
    expect(scaleFilter(scale)).toBe(filter);
  });

  test.each([
    [{ width: 1920, height: 1080 }, undefined, { width: 1920, height: 1080 }],
    [{ width: 1920, height: 1080 }, { width: 640 }, { width: 640, height: 360 }],
    [{ width: 1920, height: 1080 }, { height: 100 }, { width: 178, height: 100 }], // 177.8 → even 178
    [{ width: 64, height: 48 }, { width: 33 }, { width: 33, height: 24 }], // 24.75 → even 24
    [{ width: 1920, height: 1080, rotationDeg: 90 }, undefined, { width: 1080, height: 1920 }],
    [{ width: 1920, height: 1080, rotationDeg: 270 }, { width: 540 }, { width: 540, height: 960 }],
    [{ width: 1920, height: 1080, rotationDeg: 180 }, undefined, { width: 1920, height: 1080 }],
  ])('expectedSize(%j, %j) = %j', (src, scale, size) => {
    expect(expectedSize(src, scale)).toEqual(size);
  });
});

describe('decodeArgs', () => {
  test('a scale with an algorithm goes into the filter graph before the rgb24 conversion', () => {
    const args = decodeArgs('in.mp4', NEW, { scale: { width: 1280, height: 720, flags: 'area' } });
    expect(args[args.indexOf('-vf') + 1]).toBe('scale=1280:720:flags=area,format=rgb24');
  });

  test('openSource options take the algorithm, and refuse one ffmpeg would not know', () => {
    expect(parseSourceOptions({ scale: { height: 720, flags: 'area' } }).scale).toEqual({ height: 720, flags: 'area' });
    expect(() => parseSourceOptions({ scale: { height: 720, flags: 'nearest-ish' } })).toThrow(/scale\.flags/);
  });

  test('raw rgb24 on stdout, per-frame timestamps in µs, passthrough timing (ffmpeg 4)', () => {
    expect(decodeArgs('in.mp4', OLD)).toEqual([
      '-hide_banner', '-nostdin', '-nostats', '-loglevel', 'repeat+info', '-debug_ts',
      '-i', 'in.mp4', '-map', '0:v:0', '-an', '-sn', '-dn',
      '-vsync', 'passthrough', '-enc_time_base', '1:1000000',
      '-vf', 'format=rgb24', '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-flush_packets', '1', 'pipe:1',
    ]);
  });

  test('ffmpeg ≥ 5.1 gets -fps_mode instead of the deprecated -vsync', () => {
    const args = decodeArgs('in.mp4', NEW);
    expect(args).toContain('-fps_mode');
    expect(args).not.toContain('-vsync');
  });

  test('start and end are input options (before -i), end becomes a duration; scale precedes the pixel format', () => {
    const args = decodeArgs('in.mp4', OLD, { startSec: 1.5, endSec: 4, scale: { width: 320 }, inputArgs: ['-f', 'mpegts'] });
    const i = args.indexOf('-i');
    expect(args.slice(args.indexOf('-ss'), i)).toEqual(['-ss', '1.500', '-t', '2.500', '-f', 'mpegts']);
    expect(args[args.indexOf('-vf') + 1]).toBe('scale=320:-2,format=rgb24');
  });

  test('startSec 0 adds no seek; endSec alone is a duration from the start', () => {
    const args = decodeArgs('in.mp4', OLD, { startSec: 0, endSec: 2 });
    expect(args).not.toContain('-ss');
    expect(args[args.indexOf('-t') + 1]).toBe('2.000');
  });
});

describe('live input', () => {
  test.each([
    ['rtsp://cam/stream', 'rtsp'],
    ['RTSP://cam/stream', 'rtsp'],
    ['rtmp://server/live', 'rtmp'],
    ['https://host/cam.mjpg', 'http'],
    ['udp://239.0.0.1:1234', 'udp'],
    ['srt://host:9000', 'srt'],
    ['/dev/video0', 'device'],
  ])('liveProtocol(%s) = %s', (uri, proto) => {
    expect(liveProtocol(uri)).toBe(proto);
  });

  test('rtsp over tcp with the socket timeout flag of the ffmpeg in use (old -timeout would listen!)', () => {
    expect(liveInputArgs('rtsp://cam/s', OLD, { ioTimeoutMs: 5000 })).toEqual(['-rtsp_transport', 'tcp', '-stimeout', '5000000']);
    expect(liveInputArgs('rtsp://cam/s', NEW, { ioTimeoutMs: 5000, lowDelay: true })).toEqual(['-fflags', 'nobuffer', '-rtsp_transport', 'tcp', '-timeout', '5000000']);
  });

  test('http gets the generic rw_timeout in µs and an optional forced format', () => {
    expect(liveInputArgs('http://h/s', OLD, { ioTimeoutMs: 2500, inputFormat: 'mjpeg' })).toEqual(['-rw_timeout', '2500000', '-f', 'mjpeg']);
  });

  test('devices use v4l2 with the requested mode', () => {
    expect(liveInputArgs('/dev/video2', OLD, { ioTimeoutMs: 1000, deviceFps: 30, deviceSize: { width: 1280, height: 720 } })).toEqual([
      '-f', 'v4l2', '-framerate', '30', '-video_size', '1280x720',
    ]);
  });
});

describe('classifyUri', () => {
  test.each([
    ['match.mp4', false, undefined, 'file'],
    ['match.MKV', false, undefined, 'file'],
    ['frame.png', false, undefined, 'image'],
    ['photo.JPEG', false, undefined, 'image'],
    ['frames/%05d.png', false, undefined, 'sequence'],
    ['shots/img_%d.jpg', false, undefined, 'sequence'],
    ['frames', true, undefined, 'sequence'],
    ['rtsp://10.0.0.5/stream1', false, undefined, 'live'],
    ['http://cam.local/video.mjpg', false, undefined, 'live'],
    ['https://cdn.example/match.mp4?sig=abc', false, undefined, 'file'],
    ['https://cdn.example/match.mp4', false, true, 'live'],
    ['http://cam.local/stream', false, false, 'file'],
    ['/dev/video0', false, undefined, 'live'],
    ['udp://0.0.0.0:5000', false, undefined, 'live'],
  ])('%s (dir=%s, live=%s) → %s', (uri, dir, live, kind) => {
    expect(classifyUri(uri, dir, live)).toBe(kind);
  });
});

describe('backoffMs', () => {
  const policy = { initialMs: 500, maxMs: 10_000, factor: 2 };
  test.each([
    [1, 500],
    [2, 1000],
    [3, 2000],
    [5, 8000],
    [6, 10_000],
    [40, 10_000],
  ])('attempt %i waits %i ms', (attempt, ms) => {
    expect(backoffMs(attempt, policy)).toBe(ms);
  });
});

describe('image sequences', () => {
  test('a printf pattern matches its numbers only and orders them numerically', () => {
    const names = ['f_10.png', 'f_2.png', 'f_1.png', 'f_x.png', 'g_3.png', 'f_3.jpg', 'f_0003.png'];
    expect(orderSequence(names, 'f_%d.png')).toEqual(['f_1.png', 'f_2.png', 'f_0003.png', 'f_10.png']);
    expect(patternToRegExp('cam.%05d.png').exec('cam.00042.png')?.[1]).toBe('00042');
  });

  test('a directory keeps images only, in natural order', () => {
    expect(orderSequence(['10.png', '9.png', 'notes.txt', '100.jpg', '1.PNG'])).toEqual(['1.PNG', '9.png', '10.png', '100.jpg']);
  });

  test('a pattern needs exactly one %d', () => {
    expect(() => patternToRegExp('frames.png')).toThrow(/BAD_SEQUENCE_PATTERN/);
  });
});
