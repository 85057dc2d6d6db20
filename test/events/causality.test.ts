/** Inferences from what must have happened: nothing at rest meets anything before the striker has touched a ball; a path into a jaw met it. */
import { describe, expect, test } from 'vitest';
import type { StrokeEvent } from '../../src/core/contracts/strokes.js';
import { builtinProfile } from '../../src/core/table.js';
import { CAUSAL_SLACK_S, possibleFirstContact, retimeBeforeStriker, unseenJawContact, type BallPath } from '../../src/events/detect.js';
import type { Segment } from '../../src/events/segments.js';

type Contact = Extract<StrokeEvent, { type: 'contact' }>;
const contact = (t: number, a: string, b: string, conf = 0.9): Contact => ({ t, type: 'contact', a, b, conf });
const order = (ev: StrokeEvent[]) => ev.filter((e): e is Contact => e.type === 'contact').sort((u, v) => u.t - v.t).map((c) => `${c.a}-${c.b}`);

describe('retimeBeforeStriker', () => {
  test('a pack contact timed 18 ms before the cue ball reached the pack follows the cue ball\'s contact, order kept, doubted (rendered S01 overhead)', () => {
    const ev: StrokeEvent[] = [{ t: 1.097, type: 'strike', ball: 'white', conf: 0.99 }, contact(1.5652, 'red3', 'red11', 0.55), contact(1.5795, 'red3', 'red1'), contact(1.5836, 'white', 'red2', 0.97), contact(1.585, 'red5', 'red2')];
    retimeBeforeStriker(ev, 'white', 1.097, 1 / 30, () => false);
    expect(order(ev)).toEqual(['white-red2', 'red3-red11', 'red3-red1', 'red5-red2']);
    const moved = ev.filter((e): e is Contact => e.type === 'contact' && e.a === 'red3');
    for (const c of moved) {
      expect(c.t).toBeGreaterThan(1.5836);
      expect(c.t).toBeLessThan(1.585);
      expect(c.conf).toBeLessThanOrEqual(0.6);
    }
    // The striker's own contact and the later one are untouched.
    expect(ev.find((e) => e.type === 'contact' && e.a === 'white')!.t).toBe(1.5836);
    expect(ev.find((e) => e.type === 'contact' && e.a === 'red5')!.t).toBe(1.585);
  });

  test('a ball still rolling at the strike may meet another before the striker does', () => {
    const ev: StrokeEvent[] = [contact(1.2, 'red1', 'red2'), contact(1.25, 'white', 'blue')];
    retimeBeforeStriker(ev, 'white', 1.0, 1 / 30, (id) => id === 'red1');
    expect(ev[0]!.t).toBe(1.2);
  });

  test('timed far earlier than the striker\'s first contact (that contact missed) it is left as measured; with no striker contact nothing moves', () => {
    const far = contact(1.6028, 'red3', 'pink');
    const ev: StrokeEvent[] = [far, contact(1.6028 + CAUSAL_SLACK_S + 0.09, 'white', 'red3')];
    retimeBeforeStriker(ev, 'white', 1.1, 1 / 30, () => false);
    expect(far.t).toBe(1.6028);
    const lone = [contact(1.2334, '14', '15')];
    retimeBeforeStriker(lone, 'cue', 1.1, 1 / 30, () => false);
    expect(lone[0]!.t).toBe(1.2334);
  });
});

describe('unseenJawContact', () => {
  const table = builtinProfile('snooker');
  const R = table.ballDiameter / 2;
  const midY = table.bed.length / 2;
  test('a ball last seen at the middle pocket\'s upper jaw nose, going down into it, meets the lower jaw before it can fall (rendered short frame, the black 49 ms before its drop)', () => {
    const jaw = unseenJawContact(table, 'MR', 'black', R, [1752, 1822], [271, -527], 32.967, 33.2);
    expect(jaw).toMatchObject({ type: 'cushion', ball: 'black', side: 'right', jaw: 'MR' });
    // Centre R above the lower jaw's face (y = mid − 43): (1822 − (mid − 43 + R)) / 527 s later.
    const tWant = 32.967 + (1822 - (midY - 43 + R)) / 527;
    expect(Math.abs(jaw!.t - tWant)).toBeLessThan(0.002);
  });
  test('straight into the middle of the mouth, or a shallow angle that falls first: no jaw', () => {
    expect(unseenJawContact(table, 'MR', 'black', R, [1700, midY], [800, 0], 0, 0.3)).toBeUndefined();
    expect(unseenJawContact(table, 'MR', 'black', R, [1700, midY + 10], [800, -30], 0, 0.3)).toBeUndefined();
  });
  test('already against a face when last seen (a seen contact\'s business), or too slow to say: nothing', () => {
    expect(unseenJawContact(table, 'MR', 'black', R, [1790, midY + 43 - R], [100, -200], 0, 0.3)).toBeUndefined();
    expect(unseenJawContact(table, 'MR', 'black', R, [1752, 1822], [27, -52], 0, 0.3)).toBeUndefined();
  });
});

describe('possibleFirstContact', () => {
  // A white rolling up the table at 600 mm/s, seen every 1/30 s; a red 300 mm ahead that sets off
  // at 0.5 s though no contact was found (the red read off behind the white in a broadcast view).
  const seg = (t0: number, t1: number, x: number, y: number, vy: number, still: boolean): Segment => ({ s0: 0, s1: 10, t0, t1, fit: { t0, x: [x, 0, 0], y: [y, vy, 0] }, still });
  const samplesOf = (t0: number, t1: number, x: number, y0: number, vy: number) => {
    const s = { t: [] as number[], x: [] as number[], y: [] as number[] };
    for (let t = t0; t <= t1 + 1e-9; t += 1 / 30) (s.t.push(t), s.x.push(x), s.y.push(y0 + vy * (t - t0)));
    return s;
  };
  const path = (id: string, segs: Segment[], samples: ReturnType<typeof samplesOf>): BallPath => ({ id, radiusMm: 26.25, samples, segs, kinks: [], moved: true, hiddenAtEnd: false });
  const white = path('white', [seg(0, 1, 889, 1000, 600, false)], samplesOf(0, 1, 889, 1000, 600));
  /** At rest at (x, y0) until tOff, then off up the table at vy (what the camera reads of a struck ball). */
  const restThenOff = (x: number, y0: number, tOff: number, vy: number) => {
    const s = samplesOf(0, 1, x, y0, 0);
    s.y = s.t.map((t) => y0 + vy * Math.max(0, t - tOff));
    return s;
  };
  const onsetOf = (b: BallPath, t: number) => ({ b, k: { t, tLo: t - 1 / 30, tHi: t, x: 889, y: 1300, vIn: [0, 0] as [number, number], vOut: [0, 500] as [number, number], before: b.segs[0]!, after: b.segs[1]!, gapMm: 0 } });
  test('a red that sets off after the white came within 2R + 40 mm of it: a contact at conf 0.3, when the white reached 2R', () => {
    const red = path('red1', [seg(0, 0.5, 889 + 30, 1300, 0, true), seg(0.5, 1, 889 + 30, 1300, 500, false)], restThenOff(919, 1300, 0.5, 500));
    const c = possibleFirstContact([], [white, red], [onsetOf(red, 0.5)], 'white', 0, 1 / 30);
    expect(c).toMatchObject({ type: 'contact', a: 'white', b: 'red1', conf: 0.3 });
    // The white passes x = 889 by the red at x = 919 (30 mm off): 2R = 52.5 mm apart at
    // y = 1300 − √(52.5² − 30²) ≈ 1257, i.e. 0.428 s (nearest, at y = 1300, at 0.5 s).
    expect(c!.t).toBeCloseTo(0.428, 2);
  });
  test('none when a contact of the white was found, or when the white never came near the ball that set off', () => {
    const red = path('red1', [seg(0, 0.5, 889 + 30, 1300, 0, true), seg(0.5, 1, 889 + 30, 1300, 500, false)], restThenOff(919, 1300, 0.5, 500));
    expect(possibleFirstContact([{ t: 0.4, type: 'contact', a: 'white', b: 'blue', conf: 0.9 }], [white, red], [onsetOf(red, 0.5)], 'white', 0, 1 / 30)).toBeUndefined();
    const far = path('red2', [seg(0, 0.5, 889 + 150, 1300, 0, true), seg(0.5, 1, 889 + 150, 1300, 500, false)], restThenOff(1039, 1300, 0.5, 500));
    expect(possibleFirstContact([], [white, far], [onsetOf(far, 0.5)], 'white', 0, 1 / 30)).toBeUndefined();
  });
  test('a ball read as setting off early (misplaced as the white comes over it, rendered S16 broadcast) is judged from when it really went; the white hidden as it got there still counts; a ball that only jittered never set off', () => {
    // The red's onset read at 0.2 s (the white 180 mm off), though it goes only at 0.5 s; the
    // white unseen from 0.4 to 0.6 s (one blob with the red).
    const red = path('red1', [seg(0, 0.2, 919, 1300, 0, true), seg(0.2, 1, 919, 1300, 500, false)], restThenOff(919, 1300, 0.5, 500));
    const hidden = { ...white, samples: (() => { const w = samplesOf(0, 1, 889, 1000, 600); const keep = w.t.map((t) => t < 0.4 || t > 0.6); return { t: w.t.filter((_, i) => keep[i]), x: w.x.filter((_, i) => keep[i]), y: w.y.filter((_, i) => keep[i]) }; })() };
    const c = possibleFirstContact([], [hidden, red], [onsetOf(red, 0.2)], 'white', 0, 1 / 30);
    expect(c).toMatchObject({ type: 'contact', a: 'white', b: 'red1', conf: 0.3 });
    // The white within 2R of the red's place from 300 − 52.5 mm, i.e. at ≈ 0.41 s.
    expect(c!.t).toBeGreaterThan(0.38);
    expect(c!.t).toBeLessThan(0.52);
    // Read off its place by 13 mm at most, back and forth: it never set off.
    const jitter = restThenOff(919, 1300, 0.5, 0);
    jitter.y = jitter.y.map((y, i) => y + (i % 2 ? 13 : -13) * (jitter.t[i]! > 0.2 ? 1 : 0));
    const jittered = path('red1', [seg(0, 0.2, 919, 1300, 0, true), seg(0.2, 1, 919, 1300, 100, false)], jitter);
    expect(possibleFirstContact([], [white, jittered], [onsetOf(jittered, 0.2)], 'white', 0, 1 / 30)).toBeUndefined();
  });
});
