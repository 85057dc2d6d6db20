import { describe, expect, it } from 'vitest';
import type { BaseCall, CallsDoc } from '../../src/core/contracts/calls.js';
import type { StrokeLog } from '../../src/core/contracts/strokes.js';
import { defaultProfileFor } from '../../src/core/table.js';
import { breaksOf, renderReport, scoreChartSvg } from '../../src/report/html.js';

const call = (stroke: number, player: 0 | 1, points: number, scores: [number, number], extra: Partial<BaseCall> = {}): BaseCall =>
  ({ stroke, player, ballOn: ['red'], legal: true, potted: [], points, fouls: [], penalty: 0, miss: false, scores, nextPlayer: player, frameOver: false, winner: null, review: [], summary: `stroke ${stroke}`, ...extra }) as unknown as BaseCall;

const doc: CallsDoc = {
  format: 'cueref.calls/1',
  game: 'snooker',
  calls: [
    call(0, 0, 1, [1, 0]),
    call(1, 0, 7, [8, 0]),
    call(2, 0, 0, [8, 0]),
    call(3, 1, 0, [12, 0], { legal: false, penalty: 4, fouls: [{ code: 'IN_OFF', penalty: 4, detail: 'white potted' }] } as Partial<BaseCall>),
    call(4, 0, 1, [13, 0]),
    call(5, 0, 0, [13, 0], { review: [{ code: 'LOW_CONF_CONTACT', reason: 'first contact uncertain', conf: 0.4 }] }),
  ],
} as unknown as CallsDoc;

const log: StrokeLog = {
  format: 'cueref.strokes/1',
  game: 'snooker',
  strokes: doc.calls.map((c) => ({ t: c.stroke * 10, events: [{ t: c.stroke * 10, type: 'strike', ball: 'white', conf: 0.8 }] })),
} as unknown as StrokeLog;

describe('breaksOf', () => {
  it('runs of scoring strokes by one player; a miss or a foul ends them; penalties are not breaks', () => {
    expect(breaksOf(doc)).toEqual([
      { player: 0, points: 8, from: 0, to: 1 },
      { player: 0, points: 1, from: 4, to: 4 },
    ]);
  });
});

describe('scoreChartSvg', () => {
  it('one line per player through the score after every stroke', () => {
    const svg = scoreChartSvg(doc, 640, 220);
    const pts = [...svg.matchAll(/data-player="(\d)"[^>]*points="([^"]+)"/g)].map((m) => m[2]!.split(' ').map((p) => p.split(',').map(Number)));
    expect(pts).toHaveLength(2);
    expect(pts[0]).toHaveLength(doc.calls.length + 1);
    // Player A's line rises to the top (13 is the highest score), player B's stays on the baseline.
    const top = Math.min(...pts[0]!.map((p) => p[1]!));
    expect(top).toBeCloseTo(12, 5);
    expect(new Set(pts[1]!.map((p) => p[1]))).toEqual(new Set([220 - 28]));
    expect(svg).toContain('Player A 13');
  });
});

describe('renderReport', () => {
  const table = defaultProfileFor('snooker');
  const html = renderReport({
    calls: doc,
    strokes: log,
    table,
    clips: { 3: 'clips/stroke-003.mp4' },
    replays: { 3: { paths: [{ id: 'white', points: [[100, 100], [200, 300]] }], replay: [{ t: 30, balls: { white: [100, 100] } }, { t: 30.5, balls: { white: [200, 300] } }] } },
    meta: { detector: { runs: 30, frames: 120, outOfView: 6 }, status: 'interrupted at frame 119' },
  });

  it('a flagged-stroke section with the clip and the replay for the foul, and the review-only stroke without a clip', () => {
    expect(html).toMatch(/<article id="stroke-3"[^>]*><h3>Stroke 3: FOUL IN_OFF \(4\)<\/h3>.*<video [^>]*src="clips\/stroke-003\.mp4">.*data-topdown-replay/s);
    expect(html).toMatch(/<article id="stroke-5"[^>]*>.*LOW_CONF_CONTACT: first contact uncertain \(conf 0\.40\).*no clip/s);
    expect(html).toContain('<a href="#stroke-3">clip</a>');
    expect(html).toContain('<script>(() => {');
  });

  it('meta: detector use, an interrupted banner, the breaks table, events with confidences', () => {
    expect(html).toContain('detector ran on 30 of 120 frames (25.0 %), 6 out of view skipped');
    expect(html).toContain('<p class="status">interrupted at frame 119</p>');
    expect(html).toMatch(/<table class="breaks">.*<td>Player A<\/td><td>8<\/td><td>0–1<\/td>/s);
    expect(html).toContain('30.00s strike white (conf 0.80)');
  });

  it('without replays there is no script at all', () => {
    expect(renderReport({ calls: doc, strokes: log })).not.toContain('<script');
  });
});

describe('event wording', () => {
  it('the report and the review page say the same thing for an event, with time and doubt', async () => {
    const { describeEvent } = await import('../../src/report/html.js');
    const { eventLabel } = await import('../../src/report/labels.js');
    const e = { t: 3.14159, type: 'cushion' as const, ball: 'red3', side: 'left' as const, conf: 0.7 };
    expect(eventLabel(e)).toBe('red3 hits the left cushion');
    expect(describeEvent(e)).toBe('3.14s red3 hits the left cushion (conf 0.70)');
    expect(describeEvent({ t: 5, type: 'place', ball: 'white', x: 800.4, y: 600.6 })).toBe('5.00s white placed at (800, 601) mm');
  });
});
