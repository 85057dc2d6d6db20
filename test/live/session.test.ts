/**
 * The live chain on a scripted snooker frame (4 strokes, fake detector, manual clock): calls as the
 * balls stop, equal to the batch pipeline's; a dropped stream; a restart from the log.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import type { TrackFrame } from '../../src/core/contracts/tracks.js';
import { tracksToStrokes } from '../../src/events/index.js';
import { LiveSession, type LiveMessage, type LiveSessionOptions } from '../../src/live/session.js';
import { refereeVisionLog } from '../../src/pipeline/reconcile.js';
import { createTracker, mapDetections, type PixelDetection } from '../../src/tracking/index.js';
import { calibration, fakeDetector, fakeFrame, ManualClock, scriptedFeed, snookerFrame, table, type Connection, type Frame3 } from './scenario.js';

const FPS = 30;
let frame: Frame3;

function session(connections: Connection[], outDir = mkdtempSync(join(tmpdir(), 'cueref-live-')), extra: Partial<LiveSessionOptions> = {}) {
  const clock = new ManualClock();
  const opened = { count: 0 };
  const s = new LiveSession({
    game: 'snooker',
    table,
    calibration,
    detector: fakeDetector(frame),
    open: scriptedFeed(connections, clock, opened),
    outDir,
    clock,
    lostAfterMs: 0,
    reconnect: { initialMs: 100, maxAttempts: 3 },
    log: () => undefined,
    ...extra,
  });
  const messages: LiveMessage[] = [];
  /** calls.json as it was on disk when each call was pushed. */
  const onDisk: number[] = [];
  s.subscribe((m) => {
    if (m.type === 'balls') return;
    messages.push(m);
    if (m.type === 'call') onDisk.push(JSON.parse(readFileSync(join(outDir, 'calls.json'), 'utf8')).calls.length);
  });
  return { s, messages, onDisk, outDir, opened };
}

const calls = (ms: LiveMessage[]) => ms.flatMap((m) => (m.type === 'call' ? [m] : []));
const brief = (ms: LiveMessage[]) => calls(ms).map((m) => [m.call.stroke, m.call.summary, m.call.fouls.map((f) => f.code), m.call.scores, m.call.nextPlayer]);

beforeAll(() => {
  frame = snookerFrame();
});

describe('live session on a scripted frame', () => {
  test('calls every stroke within 1 s (stream time) of the last ball stopping, the same calls as the batch pipeline, each on disk before it is pushed', async () => {
    const { s, messages, onDisk, outDir } = session([{ fromS: 0, toS: frame.durationS, end: 'end' }]);
    await s.start();
    await s.close();

    // The batch pipeline on the same detections: tracker over all frames, events, referee.
    const det = fakeDetector(frame);
    const tracker = createTracker(table);
    const frames: TrackFrame[] = [];
    for (let i = 0; i <= frame.durationS * FPS; i++) {
      const px = det.detect(fakeFrame(i, (i / FPS) * 1000)) as PixelDetection[];
      frames.push(tracker.step({ i, t: i / FPS, detections: mapDetections(px, calibration, 'snooker', i) }));
    }
    const batch = refereeVisionLog(tracksToStrokes({ format: 'cueref.tracks/1', game: 'snooker', frames }, table).log, table);
    expect(batch.ok).toBe(true);
    if (!batch.ok) return;
    const batchBrief = batch.value.calls.calls.map((c) => [c.stroke, c.summary, c.fouls.map((f) => f.code), c.scores, c.nextPlayer]);

    expect(brief(messages)).toEqual(batchBrief);
    expect(brief(messages)).toEqual([
      [0, 'white→red; potted red TR', [], [1, 0], 0],
      [1, 'white hit nothing', ['NO_CONTACT'], [1, 7], 1],
      [2, 'white→red', [], [1, 7], 0],
      [3, 'white hit nothing', ['NO_CONTACT'], [1, 11], 1],
    ]);
    // Latency in stream time: from the true moment the last ball stopped to the call.
    calls(messages).forEach((m, k) => {
      const late = m.timing.confirmT - frame.restTimes[k]!;
      expect(late, `stroke ${k}`).toBeGreaterThan(0);
      expect(late, `stroke ${k}`).toBeLessThanOrEqual(1.0);
      // The manual clock is stream time: pushed = confirm frame, rest frame = restT.
      expect(m.timing.pushedWallMs - m.timing.restFrameWallMs).toBeCloseTo((m.timing.confirmT - m.timing.restT) * 1000, 3);
    });
    expect(onDisk).toEqual([1, 2, 3, 4]);
    const lines = readFileSync(join(outDir, 'strokes.jsonl'), 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0]!)).toMatchObject({ format: 'cueref.strokes/1', game: 'snooker', start: { player: 0, scores: [0, 0] } });
    expect(lines).toHaveLength(5);
    expect(s.snapshot().scoreboard).toMatchObject({ scores: [1, 11], toPlay: 1, ballOn: ['red'] });
    expect(messages.filter((m) => m.type === 'status').map((m) => (m.type === 'status' ? m.status : ''))).toEqual(['connecting', 'live', 'ended']);
  });

  test('a frame joined midway (50–40, player 1 at the table): the calls go on from that score, and the log says so', async () => {
    const { s, messages, outDir } = session([{ fromS: 0, toS: frame.durationS, end: 'end' }], undefined, { start: { scores: [50, 40], player: 1 } });
    await s.start();
    await s.close();
    // The same strokes as from 0–0 with player 0 (above), played by the other player from 50–40.
    expect(brief(messages)).toEqual([
      [0, 'white→red; potted red TR', [], [50, 41], 1],
      [1, 'white hit nothing', ['NO_CONTACT'], [57, 41], 0],
      [2, 'white→red', [], [57, 41], 1],
      [3, 'white hit nothing', ['NO_CONTACT'], [61, 41], 0],
    ]);
    const header = JSON.parse(readFileSync(join(outDir, 'strokes.jsonl'), 'utf8').split('\n')[0]!);
    expect(header.start).toMatchObject({ player: 1, scores: [50, 40] });
  });

  test('a file that ends 0.3 s after the last ball stops (before "at rest" is confirmed) still gets its last call', async () => {
    const end = frame.restTimes.at(-1)! + 0.3;
    const { s, messages } = session([{ fromS: 0, toS: end, end: 'end' }]);
    await s.start();
    await s.close();
    expect(brief(messages).map((c) => c[1])).toEqual(['white→red; potted red TR', 'white hit nothing', 'white→red', 'white hit nothing']);
    expect(calls(messages).at(-1)!.timing.confirmT).toBeCloseTo(Math.floor(end * FPS) / FPS, 6);
    // A camera stream that drops at the same moment is not a file: that stroke is flagged, not called.
    const cut = session([{ fromS: 0, toS: end, end: 'error' }]);
    await cut.s.start();
    await cut.s.close();
    expect(calls(cut.messages)).toHaveLength(3);
  });

  test('the stream drops mid-stroke and comes back while the ball still rolls: camera lost pushed, no phantom call, the stroke flagged, later strokes called', async () => {
    // Stroke B is struck at 7 s and rolls until 10.4 s; the camera is away from 8.0 to 9.0 s.
    const { s, messages, opened } = session([
      { fromS: 0, toS: 8.0, end: 'error' },
      { fromS: 9.0, toS: frame.durationS, end: 'end' },
    ]);
    await s.start();
    await s.close();
    expect(opened.count).toBe(2);
    const statuses = messages.flatMap((m) => (m.type === 'status' ? [m.status] : []));
    expect(statuses).toEqual(['connecting', 'live', 'lost', 'reconnecting', 'live', 'ended']);
    const lostAt = messages.findIndex((m) => m.type === 'status' && m.status === 'lost');
    const flag = messages.find((m) => m.type === 'flag');
    expect(flag).toMatchObject({ type: 'flag', flag: { code: 'STROKE_INTERRUPTED' } });
    expect(flag!.type === 'flag' && flag!.flag.t).toBeCloseTo(8.0, 1);
    expect(messages.indexOf(flag!)).toBeGreaterThan(lostAt);
    // A is called before the drop; B (interrupted) never; C and D after, numbered on.
    const b = brief(messages);
    expect(b.map((c) => c[0])).toEqual([0, 1, 2]);
    expect(b[0]).toEqual([0, 'white→red; potted red TR', [], [1, 0], 0]);
    expect(b[1]![1]).toBe('white→red');
    expect(b[2]![1]).toBe('white hit nothing');
    // Tracker state kept: the same identities after the drop (no second white, no new red).
    const ids = s.snapshot().balls.map(([id]) => id).sort();
    expect(ids).toHaveLength(4);
    expect(ids.filter((id) => /^red\d+$/.test(id))).toHaveLength(1);
    expect(ids.filter((id) => !id.startsWith('red'))).toEqual(['black', 'white', 'yellow']);
    expect(s.snapshot().flags.map((f) => f.code)).toEqual(['STROKE_INTERRUPTED']);
  });

  test('a stroke played while the camera was away (table at rest both sides): flagged as a changed table, not called', async () => {
    const { s, messages } = session([
      { fromS: 0, toS: 5, end: 'error' },
      { fromS: 12, toS: frame.durationS, end: 'end' },
    ]);
    await s.start();
    await s.close();
    expect(messages.flatMap((m) => (m.type === 'flag' ? [m.flag.code] : []))).toEqual(['TABLE_CHANGED_WHILE_LOST']);
    const f = messages.find((m) => m.type === 'flag');
    expect(f?.type === 'flag' && f.flag.reason).toMatch(/white moved \d+ mm/);
    expect(brief(messages).map((c) => [c[0], c[1]])).toEqual([
      [0, 'white→red; potted red TR'],
      [1, 'white→red'],
      [2, 'white hit nothing'],
    ]);
  });

  test('a camera that does not come back: reconnect attempts with backoff, then the session ends; the calls stay', async () => {
    const { s, messages, opened, outDir } = session([{ fromS: 0, toS: 5, end: 'error' }]);
    await s.start();
    await s.close();
    // 1 connection + 3 failed reconnects (maxAttempts 3).
    expect(opened.count).toBe(4);
    expect(messages.at(-1)).toMatchObject({ type: 'status', status: 'ended' });
    expect(JSON.parse(readFileSync(join(outDir, 'calls.json'), 'utf8')).calls).toHaveLength(1);
  });

  test("the operator's nomination goes with the next stroke only, into its call and the log", async () => {
    const { s, messages, outDir } = session([{ fromS: 0, toS: frame.durationS, end: 'end' }]);
    expect(() => s.setNext({ nominated: 'purple' })).toThrow(/nominated.*'purple' is not a snooker ball/);
    expect(() => s.setNext({ nominated: 'blue', colour: 'blue' })).toThrow(/BAD_OPERATOR_INPUT|unrecognized|Unrecognized/);
    // After the red is potted (call 0), the striker nominates the yellow, then misses everything.
    s.subscribe((m) => {
      if (m.type === 'call' && m.call.stroke === 0) s.setNext({ nominated: 'yellow' });
    });
    await s.start();
    await s.close();
    expect(brief(messages).slice(0, 3)).toEqual([
      [0, 'white→red; potted red TR', [], [1, 0], 0],
      // NO_CONTACT at the nominated yellow's value (4 at least), not the 7 of no nomination.
      [1, 'white hit nothing', ['NO_CONTACT'], [1, 4], 1],
      [2, 'white→red', [], [1, 4], 0],
    ]);
    const logged = readFileSync(join(outDir, 'strokes.jsonl'), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l));
    expect(logged.map((st: { nominated?: string }) => st.nominated ?? null)).toEqual([null, 'yellow', null, null]);
    expect(messages.filter((m) => m.type === 'next').map((m) => (m.type === 'next' ? m.next : null))).toEqual([{ nominated: 'yellow' }, {}]);
    expect(s.snapshot().next).toEqual({});
  });

  test('a restarted process restores the frame from its log and goes on with the same scores', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cueref-live-restart-'));
    // First run: strokes A and B, then the process stops (Ctrl-C) at 12 s.
    const first = session([{ fromS: 0, toS: 12, end: 'end' }], dir);
    await first.s.start();
    await first.s.close();
    expect(brief(first.messages).map((c) => c[3])).toEqual([[1, 0], [1, 7]]);

    const second = session([{ fromS: 11.5, toS: frame.durationS, end: 'end' }], dir);
    expect(second.s.restore()).toBe(2);
    expect(second.s.snapshot().scoreboard).toMatchObject({ scores: [1, 7], toPlay: 1 });
    expect(second.s.snapshot().calls.map((c) => c.summary)).toEqual(['white→red; potted red TR', 'white hit nothing']);
    await second.s.start();
    await second.s.close();
    expect(brief(second.messages)).toEqual([
      [2, 'white→red', [], [1, 7], 0],
      [3, 'white hit nothing', ['NO_CONTACT'], [1, 11], 1],
    ]);
    const onDisk = JSON.parse(readFileSync(join(dir, 'calls.json'), 'utf8'));
    expect(onDisk.calls.map((c: { scores: number[] }) => c.scores)).toEqual([[1, 0], [1, 7], [1, 7], [1, 11]]);
    // The log is one header and four strokes, and times never go backwards across the restart.
    const strokes = readFileSync(join(dir, 'strokes.jsonl'), 'utf8').trim().split('\n').slice(1).map((l) => JSON.parse(l) as { t: number });
    expect(strokes).toHaveLength(4);
    for (let k = 1; k < strokes.length; k++) expect(strokes[k]!.t).toBeGreaterThan(strokes[k - 1]!.t);
  });
});

describe('the log on disk', () => {
  test('a torn last line (killed mid-write) is dropped on restore and the file cut back; the frame goes on from the complete strokes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cueref-live-torn-'));
    const first = session([{ fromS: 0, toS: 12, end: 'end' }], dir);
    await first.s.start();
    await first.s.close();
    const path = join(dir, 'strokes.jsonl');
    const whole = readFileSync(path, 'utf8');
    // The second stroke's line half written.
    const lines = whole.trim().split('\n');
    writeFileSync(path, [lines[0], lines[1], lines[2]!.slice(0, 40)].join('\n'));
    const logs: string[] = [];
    const again = new LiveSession({ game: 'snooker', table, calibration, detector: fakeDetector(frame), open: scriptedFeed([], new ManualClock()), outDir: dir, lostAfterMs: 0, log: (l) => logs.push(l) });
    expect(again.restore()).toBe(1);
    expect(logs.some((l) => /last line was incomplete/.test(l))).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe([lines[0], lines[1], ''].join('\n'));
    expect(again.snapshot().scoreboard.scores).toEqual([1, 0]);
    expect(JSON.parse(readFileSync(join(dir, 'calls.json'), 'utf8')).calls).toHaveLength(1);
  });

  test('a log from another game is refused with a clear error', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cueref-live-game-'));
    writeFileSync(join(dir, 'strokes.jsonl'), JSON.stringify({ format: 'cueref.strokes/1', game: 'pool8', start: { balls: 'standard' } }) + '\n');
    const s = new LiveSession({ game: 'snooker', table, calibration, detector: fakeDetector(frame), open: scriptedFeed([], new ManualClock()), outDir: dir, lostAfterMs: 0, log: () => undefined });
    expect(() => s.restore()).toThrow(/LIVE_LOG_GAME_MISMATCH/);
  });
});
