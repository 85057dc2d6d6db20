/** Inferences from what must have happened: nothing at rest meets anything before the striker has touched a ball; a path into a jaw met it. */
import { describe, expect, test } from 'vitest';
import type { StrokeEvent } from '../../src/core/contracts/strokes.js';
import { builtinProfile } from '../../src/core/table.js';
import { CAUSAL_SLACK_S, retimeBeforeStriker, unseenJawContact } from '../../src/events/detect.js';

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
