import { writeFile, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { parseColourTags, parseProbe, probe } from '../../src/video/probe.js';
import { cfrClip, ffmpeg, tempDir } from './media.js';

const MP4_WITH_AUDIO = `Input #0, mov,mp4,m4a,3gp,3g2,mj2, from 'av.mp4':
  Metadata:
    major_brand     : isom
  Duration: 00:01:02.50, start: 0.021000, bitrate: 139 kb/s
    Stream #0:0(und): Video: h264 (High) (avc1 / 0x31637661), yuv420p(tv, bt709), 1920x1080 [SAR 1:1 DAR 16:9], 5000 kb/s, 29.97 fps, 29.97 tbr, 90k tbn, 59.94 tbc (default)
    Metadata:
      rotate          : 90
      handler_name    : VideoHandler
    Side data:
      displaymatrix: rotation of -90.00 degrees
    Stream #0:1(und): Audio: aac (LC) (mp4a / 0x6134706D), 48000 Hz, stereo, fltp, 128 kb/s (default)
At least one output file must be specified
`;

describe('parseColourTags', () => {
  test.each([
    ['h264 (High) (avc1 / 0x31637661), yuv420p(tv, bt709), 1920x1080, 256 kb/s', { range: 'tv', space: 'bt709', primaries: 'bt709', transfer: 'bt709' }],
    ['h264 (Main), yuv420p(tv, bt709/unknown/unknown, progressive), 1280x720', { range: 'tv', space: 'bt709' }],
    ['mjpeg (Baseline), yuvj420p(pc, bt470bg/unknown/unknown), 640x480', { range: 'pc', space: 'bt470bg' }],
    ['hevc (Main 10), yuv420p10le(tv, bt2020nc/bt2020/smpte2084), 3840x2160', { range: 'tv', space: 'bt2020nc', primaries: 'bt2020', transfer: 'smpte2084' }],
    ['h264 (High), yuv420p(progressive), 1920x1080', undefined],
    ['h264, yuv420p, 64x48', undefined],
    ['rawvideo (RGB[24] / 0x18424752), rgb24, 320x240', undefined],
  ])('%s', (body, want) => {
    expect(parseColourTags(body)).toEqual(want);
  });
});

describe('parseProbe (captured stderr)', () => {
  test('container, duration, start, video and audio streams, rotation', () => {
    const r = parseProbe(MP4_WITH_AUDIO);
    expect(r).toEqual({
      ok: true,
      info: {
        format: 'mov,mp4,m4a,3gp,3g2,mj2',
        durationMs: 62_500,
        startMs: 21,
        bitrateKbps: 139,
        video: [{ index: 0, codec: 'h264', pixelFormat: 'yuv420p', width: 1920, height: 1080, fps: 29.97, rotationDeg: 90, colour: { range: 'tv', space: 'bt709', primaries: 'bt709', transfer: 'bt709' } }],
        audio: [{ index: 1, codec: 'aac', sampleRateHz: 48000 }],
      },
    });
  });

  test('a live stream: no duration, fps in thousands, stream ids in brackets', () => {
    const text = `Input #0, mpegts, from 'http://127.0.0.1:8080/s':
  Duration: N/A, start: 1.400000, bitrate: N/A
  Program 1
    Stream #0:0[0x100]: Video: h264 (Constrained Baseline) ([27][0][0][0] / 0x001B), yuv420p(progressive), 640x360, 1k fps, 25 tbr, 90k tbn
`;
    const r = parseProbe(text);
    expect(r.ok).toBe(true);
    expect(r.ok && r.info.durationMs).toBeUndefined();
    expect(r.ok && r.info.startMs).toBe(1400);
    expect(r.ok && r.info.video[0]).toEqual({ index: 0, codec: 'h264', pixelFormat: 'yuv420p', width: 640, height: 360, fps: 1000, rotationDeg: 0 });
  });

  test.each([
    ['nope.mp4: No such file or directory', 'FILE_NOT_FOUND'],
    ["[mov,mp4 @ 0x1] Format mov detected only with low score of 1, misdetection possible!\n[mov,mp4 @ 0x1] moov atom not found\nx.mp4: Invalid data found when processing input", 'NOT_A_VIDEO'],
    ['[mov,mp4 @ 0x1] moov atom not found\nx.mp4: Invalid data found when processing input', 'VIDEO_TRUNCATED'],
    ['x.mp4: Permission denied', 'FILE_NOT_READABLE'],
    ['[tcp @ 0x1] Connection to tcp://127.0.0.1:9 failed: Connection refused\nhttp://127.0.0.1:9/: Connection refused', 'SOURCE_UNREACHABLE'],
    ["Input #0, mp3, from 'a.mp3':\n  Duration: 00:00:01.00, start: 0.000000, bitrate: 64 kb/s\n    Stream #0:0: Audio: mp3, 44100 Hz, mono, fltp, 64 kb/s", 'NO_VIDEO_STREAM'],
  ])('failure %# → %s', (text, code) => {
    const r = parseProbe(text);
    expect(r.ok).toBe(false);
    expect(!r.ok && r.code).toBe(code);
  });
});

describe('probe (real ffmpeg)', () => {
  let dir = '';
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir('probe'));
    await cfrClip(join(dir, 'ok.mp4'), { fps: 10, seconds: 1 });
    await writeFile(join(dir, 'notes.mp4'), 'this is a text file, renamed .mp4\n'.repeat(20));
    await ffmpeg('-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', join(dir, 'audio.m4a'));
    // Default (non-faststart) mp4 keeps its index at the end: half the bytes = no index.
    await ffmpeg('-f', 'lavfi', '-i', 'testsrc=size=64x48:rate=10', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', join(dir, 'full.mp4'));
    const full = await readFile(join(dir, 'full.mp4'));
    await writeFile(join(dir, 'cut.mp4'), full.subarray(0, full.length >> 1));
  });
  afterAll(() => cleanup());

  test('a good clip', async () => {
    const info = await probe(join(dir, 'ok.mp4'));
    expect(info.durationMs).toBe(1000);
    expect(info.video).toEqual([{ index: 0, codec: 'h264', pixelFormat: 'yuv420p', width: 64, height: 48, fps: 10, rotationDeg: 0 }]);
    expect(info.audio).toEqual([]);
  });

  test.each([
    ['missing.mp4', 'FILE_NOT_FOUND', /no such file .*missing\.mp4.*check the path/],
    ['notes.mp4', 'NOT_A_VIDEO', /notes\.mp4' is not a video ffmpeg can read/],
    ['audio.m4a', 'NO_VIDEO_STREAM', /has only audio \(aac\).*give the video recording/],
    ['cut.mp4', 'VIDEO_TRUNCATED', /truncated or damaged \(moov atom not found/],
    ['.', 'NOT_A_VIDEO', /is a directory/],
  ])('%s → %s', async (name, code, message) => {
    const err = await probe(join(dir, name)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InputError);
    expect((err as InputError).code).toBe(code);
    expect((err as InputError).message).toMatch(message);
  });
});
