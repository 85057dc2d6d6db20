/** Repairs between the cameras and the referee, and the HTML report (pure, no video). */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { StrokeLog } from '../../src/core/contracts/strokes.js';
import { builtinProfile } from '../../src/core/table.js';
import { admitHiddenBalls, dropUnknownBalls, HIDDEN_LONG_SIGHTINGS, HIDDEN_MIN_SIGHTINGS, joinSplitTracks, refereeVisionLog } from '../../src/pipeline/reconcile.js';
import { renderReport, scoreLine } from '../../src/report/html.js';
import { refereeLog } from '../../src/rules/registry.js';

const table = builtinProfile('snooker');
const start = [
  { id: 'white', x: 1300, y: 3080 },
  { id: 'red1', x: 1590, y: 3376 },
  { id: 'black', x: 889, y: 3245 },
];
// A phantom red3 (a false detection) appears and "drops" into the middle pocket.
const log: StrokeLog = {
  format: 'cueref.strokes/1',
  game: 'snooker',
  start: { balls: start },
  strokes: [
    {
      t: 1.1,
      before: [...start, { id: 'red3', x: 10, y: 1700 }],
      events: [
        { t: 1.0, type: 'place', ball: 'red3', x: 10, y: 1700 },
        { t: 1.1, type: 'strike', ball: 'white' },
        { t: 1.2, type: 'pot', ball: 'red3', pocket: 'ML' },
        { t: 1.3, type: 'contact', a: 'white', b: 'red1' },
        { t: 1.6, type: 'pot', ball: 'red1', pocket: 'TR' },
      ],
      rest: [{ id: 'white', x: 1200, y: 3000 }, { id: 'black', x: 889, y: 3245 }],
    },
  ],
};

describe('refereeVisionLog', () => {
  it('the plain referee refuses the phantom red; the pipeline drops it and flags the stroke', () => {
    expect(refereeLog(log, table).ok).toBe(false);
    const r = refereeVisionLog(log, table);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.repairs).toEqual([expect.objectContaining({ stroke: 0, code: 'VISION_UNKNOWN_BALL' })]);
    const c = r.value.calls.calls[0]!;
    expect(c.potted).toEqual(['red1']);
    expect(c.points).toBe(1);
    expect(c.review.map((x) => x.code)).toContain('VISION_UNKNOWN_BALL');
    expect(JSON.stringify(r.value.log)).not.toContain('red3');
  });

  it('one red detected twice in the opening layout (overlapping): the second is left out, the stroke called', () => {
    // The rendered overhead S08 through the detector: red6 36.6 mm from red5 in the layout.
    const twice: StrokeLog = {
      ...log,
      start: { balls: [...start, { id: 'red2', x: 1590, y: 3376 + 36.6 }] },
      strokes: [{ t: 1.1, events: [{ t: 1.1, type: 'strike', ball: 'white' }, { t: 1.3, type: 'contact', a: 'white', b: 'red1' }, { t: 1.6, type: 'pot', ball: 'red1', pocket: 'TR' }], rest: [{ id: 'white', x: 1200, y: 3000 }, { id: 'black', x: 889, y: 3245 }, { id: 'red2', x: 1590, y: 3376 + 36.6 }] }],
    };
    expect(refereeLog(twice, table).ok).toBe(false);
    const r = refereeVisionLog(twice, table);
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (!r.ok) return;
    expect((r.value.log.start!.balls as { id: string }[]).map((b) => b.id)).toEqual(['white', 'red1', 'black']);
    expect(r.value.repairs[0]).toMatchObject({ code: 'VISION_UNKNOWN_BALL', reason: expect.stringContaining("'red2' was refused in the opening layout") });
    expect(r.value.calls.calls[0]!.potted).toEqual(['red1']);
    expect(JSON.stringify(r.value.log.strokes)).not.toContain('red2');
  });

  it('regression (1080p break, replayed truth): a cue ball placed after the opening layout is not a phantom', () => {
    const reds = start.filter((b) => b.id !== 'white');
    const inHand: StrokeLog = {
      ...log,
      start: { balls: reds },
      strokes: [{ t: 1.1, events: [{ t: 0.6, type: 'place', ball: 'white', x: 1300, y: 3080 }, { t: 1.1, type: 'strike', ball: 'white' }, { t: 1.3, type: 'contact', a: 'white', b: 'red1' }], rest: [{ id: 'white', x: 1200, y: 3000 }, ...reds] }],
    };
    expect(dropUnknownBalls(inHand).repairs).toEqual([]);
    const r = refereeVisionLog(inHand, table);
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
  });

  it('a clean log passes through untouched', () => {
    const clean = dropUnknownBalls(log).log;
    const r = refereeVisionLog(clean, table);
    expect(r.ok && r.value.repairs).toEqual([]);
    expect(r.ok && r.value.log).toBe(clean);
  });
});

describe('one ball tracked as two (step 00)', () => {
  /**
   * The rendered S20 overhead, stroke 3: red1 struck at 1.4 s; its track ends at 1.40 and `newId`
   * starts `gapMm` from it `gapS` later and runs 30 frames; the events stage read red1's end as a pot.
   */
  const split = (o: { newId?: string; gapMm?: number; gapS?: number; potConf?: number } = {}): StrokeLog => {
    const { newId = 'red7', gapMm = 3, gapS = 0.033, potConf = 0.6 } = o;
    const t0 = 1.4 + gapS;
    return {
      ...log,
      strokes: [
        {
          t: 1.1,
          events: [
            { t: 1.1, type: 'strike', ball: 'white' },
            { t: 1.39, type: 'contact', a: 'white', b: 'red1', conf: 0.62 },
            { t: 1.41, type: 'pot', ball: 'red1', pocket: 'TL', conf: potConf },
            { t: 1.9, type: 'cushion', ball: newId, side: 'left' },
          ],
          paths: {
            red1: [[1.3, 1590, 3376], [1.4, 1590, 3376]],
            [newId]: Array.from({ length: 30 }, (_, k) => [t0 + k / 30, 1590 - gapMm - 15 * k, 3376] as [number, number, number]),
          },
          rest: [{ id: 'white', x: 1200, y: 3000 }, { id: 'black', x: 889, y: 3245 }, { id: newId, x: 1150, y: 3376 }],
        },
      ],
    };
  };

  it('the newcomer takes the lost ball’s id back and the pot it never made goes', () => {
    const r = refereeVisionLog(split(), table);
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (!r.ok) return;
    expect(r.value.repairs).toEqual([expect.objectContaining({ stroke: 0, code: 'VISION_TRACK_JOINED', conf: 0.7, reason: expect.stringContaining("'red1' was lost at 1.40 s and 'red7' first seen 3 mm from it at 1.43 s") })]);
    const c = r.value.calls.calls[0]!;
    expect(c.potted).toEqual([]);
    expect(c.points).toBe(0);
    const s0 = r.value.log.strokes[0]!;
    expect(JSON.stringify(s0)).not.toContain('red7');
    expect(s0.events.find((e) => e.type === 'cushion')).toMatchObject({ ball: 'red1' });
    expect(s0.rest!.map((b) => b.id)).toContain('red1');
    // One path, in time order: the lost track's samples, then the newcomer's.
    expect(s0.paths!.red1!.length).toBe(32);
    expect(s0.paths!.red1!.every((p, k, a) => k === 0 || a[k - 1]![0] <= p[0])).toBe(true);
  });

  it.each([
    ['a sure pot (conf ≥ 0.8)', { potConf: 0.95 }],
    ['a newcomer too far from where the ball was lost', { gapMm: 2.5 * 52.5 }],
    ['a newcomer seen too late', { gapS: 0.6 }],
    ['a newcomer of another kind', { newId: 'pink' }],
  ])('not joined: %s', (_name, o) => {
    expect(joinSplitTracks(split(o), table).repairs).toEqual([]);
  });
});

describe('balls hidden at the start (step 0)', () => {
  /** A red the layout lacks, first seen `fromMm` beside red1 for `samples` frames, then potted. */
  const hiddenRed = (id: string, fromMm: number, samples: number, game: StrokeLog['game'] = 'snooker'): StrokeLog => {
    const path = Array.from({ length: samples }, (_, k) => [1.2 + k / 30, 1590 + fromMm + 20 * k, 3376] as [number, number, number]);
    return {
      ...log,
      game,
      strokes: [
        {
          t: 1.1,
          events: [
            { t: 1.1, type: 'strike', ball: 'white' },
            { t: 1.15, type: 'contact', a: 'white', b: 'red1' },
            { t: 1.3, type: 'contact', a: 'red1', b: id },
            { t: 1.9, type: 'pot', ball: id, pocket: 'TR' },
          ],
          paths: { [id]: path },
          rest: [{ id: 'white', x: 1200, y: 3000 }, { id: 'red1', x: 1500, y: 3300 }, { id: 'black', x: 889, y: 3245 }],
        },
      ],
    };
  };

  it('a red first seen beside the pack and then potted is put in the layout and its pot counts', () => {
    const r = refereeVisionLog(hiddenRed('red2', 40, 12), table);
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (!r.ok) return;
    expect(r.value.repairs).toEqual([expect.objectContaining({ stroke: 0, code: 'VISION_HIDDEN_BALL', conf: 0.8, reason: expect.stringContaining("'red2' was not seen at the start: first seen at 1.20 s beside 'red1'") })]);
    expect(r.value.calls.calls[0]!.potted).toEqual(['red2']);
    expect(r.value.calls.calls[0]!.points).toBe(1);
    // Placed clear of red1 (a diameter apart), near where it was first seen.
    const red2 = (r.value.log.start!.balls as { id: string; x: number; y: number }[]).find((b) => b.id === 'red2')!;
    expect(Math.hypot(red2.x - 1590, red2.y - 3376)).toBeGreaterThanOrEqual(table.ballDiameter);
    expect(Math.hypot(red2.x - 1630, red2.y - 3376)).toBeLessThan(table.ballDiameter);
    // Step 1 alone (what the pipeline did before) takes it for a ghost and loses the pot.
    const dropped = dropUnknownBalls(hiddenRed('red2', 40, 12));
    expect(dropped.repairs.map((x) => x.code)).toEqual(['VISION_UNKNOWN_BALL']);
    expect(dropped.log.strokes[0]!.events.some((e) => e.type === 'pot')).toBe(false);
  });

  it('a ball first seen far from the others but followed for a second is admitted too (a break sends a hidden ball off fast)', () => {
    const r = admitHiddenBalls(hiddenRed('red2', -400, HIDDEN_LONG_SIGHTINGS), table);
    expect(r.repairs).toEqual([expect.objectContaining({ code: 'VISION_HIDDEN_BALL', reason: expect.stringContaining(`followed for ${HIDDEN_LONG_SIGHTINGS} frames`) })]);
    const v = refereeVisionLog(hiddenRed('red2', -400, HIDDEN_LONG_SIGHTINGS), table);
    expect(v.ok && v.value.calls.calls[0]!.potted).toEqual(['red2']);
  });

  it.each([
    ['first seen far from every ball and soon lost (a ghost out on the bed)', hiddenRed('red2', -400, HIDDEN_LONG_SIGHTINGS - 1), 'VISION_UNKNOWN_BALL'],
    ['seen for fewer frames than a real ball', hiddenRed('red2', 40, HIDDEN_MIN_SIGHTINGS - 1), 'VISION_UNKNOWN_BALL'],
    ['a lone colour (more often another ball misread as it)', hiddenRed('pink', 40, 12), 'VISION_UNKNOWN_BALL'],
    ['an id outside the set (a 16th red)', hiddenRed('red16', 40, 12), 'VISION_UNKNOWN_BALL'],
  ])('not admitted: %s', (_name, l, code) => {
    expect(admitHiddenBalls(l, table).repairs).toEqual([]);
    const r = refereeVisionLog(l, table);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.repairs.map((x) => x.code)).toContain(code);
    expect(r.value.calls.calls[0]!.potted).toEqual([]);
  });

  it('not admitted while a red of the layout is lost in a doubtful pot during its life (it may be that red under a second id)', () => {
    const l = hiddenRed('red2', -400, HIDDEN_LONG_SIGHTINGS);
    const s0 = l.strokes[0]!;
    const doubtful: StrokeLog = { ...l, strokes: [{ ...s0, events: [...s0.events, { t: 1.4, type: 'pot', ball: 'red1', pocket: 'TR', conf: 0.6 }] }] };
    expect(admitHiddenBalls(l, table).repairs).toHaveLength(1);
    expect(admitHiddenBalls(doubtful, table).repairs).toEqual([]);
  });

  it('no room in the set: a 16th red when 15 are listed is not admitted', () => {
    const full = [...start, ...Array.from({ length: 14 }, (_, k) => ({ id: `red${k + 2}`, x: 200 + 100 * (k % 7), y: 1000 + 100 * Math.floor(k / 7) }))];
    const l = { ...hiddenRed('red17', 40, 12), start: { balls: full } };
    expect(admitHiddenBalls(l, table).repairs).toEqual([]);
  });
});

describe('renderReport', () => {
  it('escapes names and shows score, calls and review flags', () => {
    const r = refereeVisionLog({ ...log, players: ['<Ann>', 'Bob & Co'] }, table);
    if (!r.ok) throw new Error(r.error.message);
    const html = renderReport({ calls: r.value.calls, strokes: r.value.log, title: 'a<b>.mp4' });
    expect(scoreLine(r.value.calls)).toBe('<Ann> 1 – 0 Bob & Co (frame in progress)');
    expect(html).toContain('&lt;Ann&gt; 1 – 0 Bob &amp; Co (frame in progress)');
    expect(html).not.toContain('<Ann>');
    expect(html).toContain('a&lt;b&gt;.mp4');
    expect(html).toContain('VISION_UNKNOWN_BALL');
    expect(html).toContain('white hits red1');
    expect(html).toContain('class="review"');
  });
});

describe('a free ball with no nomination heard', () => {
  // The bundled S13 recording's truth: A misses everything and leaves B snookered (free ball);
  // B plays the yellow first and pots it. Cameras cannot hear B nominate the yellow.
  const truth = JSON.parse(readFileSync(new URL('../../samples/video/snooker-free-ball-S13-broadcast/truth.strokes.json', import.meta.url), 'utf8')) as StrokeLog;
  const unheard: StrokeLog = { ...truth, strokes: truth.strokes.map(({ nominated: _n, ...s }) => s) };

  it('the plain referee judges the yellow as a ball not on; the pipeline takes it as the free ball and asks', () => {
    const plain = refereeLog(unheard, table);
    expect(plain.ok && plain.value.calls[1]!.fouls.map((f) => f.code)).toContain('WRONG_BALL_FIRST');
    const r = refereeVisionLog(unheard, table);
    if (!r.ok) throw new Error(r.error.message);
    const call = r.value.calls.calls[1]!;
    expect(call.fouls).toEqual([]);
    expect(call['freeBallPlayed']).toBe('yellow');
    expect(call.scores).toEqual([0, 5]);
    expect(call.review).toContainEqual(expect.objectContaining({ code: 'VISION_IMPLICIT_FREE_BALL', conf: 0.7 }));
    expect(r.value.log.strokes[1]!.nominated).toBe('yellow');
    // The same log with the nomination heard needs no inference.
    const heard = refereeVisionLog(truth, table);
    expect(heard.ok && heard.value.repairs).toEqual([]);
  });

  it('no free ball awarded: a colour hit first stays a foul', () => {
    // B's stroke alone, as the frame's first: no foul before it, no free ball.
    const { player: _p, ...only } = unheard.strokes[1]!;
    const r = refereeVisionLog({ ...unheard, strokes: [{ ...only, events: only.events.filter((e) => e.type !== 'pot') }] }, table);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.calls.calls[0]!.fouls.map((f) => f.code)).toEqual(['WRONG_BALL_FIRST']);
    expect(r.value.repairs).toEqual([]);
  });
});

describe('the live referee, one stroke at a time', () => {
  it('takes the unheard free ball as nominated, like the offline pipeline', async () => {
    const { LiveReferee } = await import('../../src/live/referee.js');
    const truth = JSON.parse(readFileSync(new URL('../../samples/video/snooker-free-ball-S13-broadcast/truth.strokes.json', import.meta.url), 'utf8')) as StrokeLog;
    const { strokes, ...header } = truth;
    const live = new LiveReferee('snooker', table);
    live.begin(header);
    const calls = strokes.map(({ nominated: _n, ...s }) => live.add(s));
    const got = calls.map((c) => (c.ok ? c.call : undefined));
    expect(got[0]!.fouls.map((f) => f.code)).toEqual(['NO_CONTACT']);
    expect(got[1]!.fouls).toEqual([]);
    expect(got[1]!.scores).toEqual([0, 5]);
    expect(got[1]!.review).toContainEqual(expect.objectContaining({ code: 'VISION_IMPLICIT_FREE_BALL', conf: 0.7 }));
    const offline = refereeVisionLog({ ...truth, strokes: strokes.map(({ nominated: _n, ...s }) => s) }, table);
    expect(offline.ok && offline.value.calls.calls.map((c) => c.scores)).toEqual(got.map((c) => c!.scores));
  });
});

describe('refereeVisionLog on a long log', () => {
  it('an hour\'s worth of refusals (a potted red seen again at rest, stroke after stroke) is repaired, not refused: the cap grows with the log', () => {
    // red1 potted in the first stroke; then 80 strokes of the white rolling about, each listing
    // red1 at rest again (the cameras "see" it: the referee refuses each one).
    const strokes: StrokeLog['strokes'] = [
      { t: 1, events: [{ t: 1, type: 'strike', ball: 'white' }, { t: 1.2, type: 'contact', a: 'white', b: 'red1' }, { t: 1.5, type: 'pot', ball: 'red1', pocket: 'TR' }], rest: [{ id: 'white', x: 1500, y: 3300 }, { id: 'black', x: 889, y: 3245 }] },
    ];
    for (let k = 1; k <= 80; k++) {
      const t = 10 * k;
      strokes.push({ t, events: [{ t, type: 'strike', ball: 'white' }, { t: t + 0.5, type: 'contact', a: 'white', b: 'black' }], rest: [{ id: 'white', x: 600 + (k % 7) * 100, y: 1000 }, { id: 'black', x: 889, y: 3245 }, { id: 'red1', x: 1590, y: 3376 }] });
    }
    const long: StrokeLog = { format: 'cueref.strokes/1', game: 'snooker', start: { balls: start }, strokes };
    expect(refereeVisionLog(long, table, 50).ok).toBe(false);
    const r = refereeVisionLog(long, table);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.calls.calls).toHaveLength(81);
    expect(r.value.repairs.length).toBeGreaterThan(50);
  });
});

describe('refereeVisionLog with nothing callable', () => {
  it('a log whose only stroke has no strike and no events is emptied with a note, not refused', () => {
    // What the events stage wrote for the rendered broadcast F21 (balls seen moving, no strike).
    const noStrike: StrokeLog = { format: 'cueref.strokes/1', game: 'snooker', start: { balls: start }, strokes: [{ t: 2.4, events: [], rest: start }] };
    expect(refereeLog(noStrike, table).ok).toBe(false);
    const r = refereeVisionLog(noStrike, table);
    expect(r.ok, JSON.stringify(!r.ok && r.error)).toBe(true);
    if (!r.ok) return;
    expect(r.value.log.strokes).toEqual([]);
    expect(r.value.calls.calls).toEqual([]);
    expect(r.value.repairs).toEqual([expect.objectContaining({ stroke: 0, code: 'VISION_STROKE_DROPPED', reason: expect.stringContaining('seen at 2.40 s') })]);
  });
});
