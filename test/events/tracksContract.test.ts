/** cueref.tracks/1 reading and writing: JSON and JSON Lines, round trips, errors naming frame and field. */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { formatTracksJsonl, parseTracksDoc, parseTracksText, roundFrame, type TracksDoc } from '../../src/core/contracts/tracks.js';
import { InputError } from '../../src/core/errors.js';

const doc: TracksDoc = {
  format: 'cueref.tracks/1',
  game: 'snooker',
  source: { uri: 'match.mp4', fps: 30 },
  frames: [
    { i: 0, t: 0, balls: [{ id: 'white', x: 889.1, y: 540.2, conf: 0.99, state: 'rest' }] },
    { i: 1, t: 1 / 30, balls: [] , view: false },
    { i: 2, t: 2 / 30, balls: [{ id: 'white', x: 889.2, y: 540.1, state: 'occluded' }] },
  ],
};

describe('cueref.tracks/1', () => {
  test('JSON and JSON Lines read the same document', () => {
    const a = parseTracksText(JSON.stringify(doc));
    const b = parseTracksText(formatTracksJsonl(doc));
    expect(b.frames).toEqual(a.frames.map(roundFrame));
    expect(b.game).toBe('snooker');
    expect(formatTracksJsonl(doc).split('\n')[0]).not.toMatch(/frames/);
  });

  test('property: write → read keeps every ball to 0.01 mm and every time to 10 µs', () => {
    const ball = fc.record({ id: fc.constantFrom('white', 'red1', 'pink'), x: fc.double({ min: -100, max: 4000, noNaN: true }), y: fc.double({ min: -100, max: 4000, noNaN: true }) });
    fc.assert(
      fc.property(fc.array(fc.uniqueArray(ball, { selector: (b) => b.id, maxLength: 3 }), { minLength: 1, maxLength: 20 }), (frames) => {
        const d: TracksDoc = { format: 'cueref.tracks/1', game: 'snooker', frames: frames.map((balls, i) => ({ i, t: i * 0.04, balls })) };
        const back = parseTracksText(formatTracksJsonl(d));
        expect(back.frames).toHaveLength(frames.length);
        back.frames.forEach((f, i) => {
          expect(Math.abs(f.t - i * 0.04)).toBeLessThanOrEqual(5e-6);
          f.balls.forEach((b, k) => {
            expect(Math.abs(b.x - frames[i]![k]!.x)).toBeLessThanOrEqual(0.005 + 1e-9);
            expect(Math.abs(b.y - frames[i]![k]!.y)).toBeLessThanOrEqual(0.005 + 1e-9);
          });
        });
      }),
      { numRuns: 100 },
    );
  });

  test.each([
    ['a bad coordinate', { ...doc, frames: [doc.frames[0], { i: 1, t: 0.1, balls: [{ id: 'red1', x: 'oops', y: 1 }] }] }, /frame 1, field frames\[1\]\.balls\[0\]\.x/],
    ['frames out of time order', { ...doc, frames: [doc.frames[0], { i: 1, t: 0, balls: [] }] }, /frame 1, field frames\[1\]\.t: time 0 s is not after/],
    ['a ball twice in one frame', { ...doc, frames: [{ i: 5, t: 0, balls: [{ id: 'red1', x: 1, y: 1 }, { id: 'red1', x: 2, y: 2 }] }] }, /frame 5, field frames\[0\]\.balls\[1\]\.id: ball id 'red1' appears twice/],
    ['an unknown state', { ...doc, frames: [{ i: 0, t: 0, balls: [{ id: 'red1', x: 1, y: 1, state: 'flying' }] }] }, /frames\[0\]\.balls\[0\]\.state/],
    ['a wrong format', { ...doc, format: 'cueref.tracks/2' }, /field format/],
    ['no frames', { format: 'cueref.tracks/1', game: 'snooker' }, /needs a "frames" array/],
  ])('refuses %s with the frame and field named', (_, raw, re) => {
    expect(() => parseTracksDoc(raw)).toThrow(InputError);
    expect(() => parseTracksDoc(raw)).toThrow(re);
  });

  test('JSON Lines errors name the line', () => {
    const text = formatTracksJsonl(doc).replace('"x":889.2', '"x":"bad"');
    expect(() => parseTracksText(text)).toThrow(/frame 2, field frames\[2\]\.balls\[0\]\.x: not a valid cueref.tracks\/1 frame \(line 4\)/);
    expect(() => parseTracksText(formatTracksJsonl(doc) + '{oops\n')).toThrow(/line 5 is not valid JSON/);
  });
});
