import { describe, expect, test } from 'vitest';
import { drawOverlay, type Rgb, type Shape } from '../../src/video/overlay.js';

const RED: Rgb = [255, 0, 0];

/** Render shapes on a black w×h frame and return the painted pixels as a picture of '#' and '.'. */
function render(w: number, h: number, shapes: Shape[]): string[] {
  const rgb = drawOverlay(new Uint8Array(w * h * 3), w, h, shapes);
  const rows: string[] = [];
  for (let v = 0; v < h; v++) {
    let row = '';
    for (let u = 0; u < w; u++) row += rgb[(v * w + u) * 3] === 255 ? '#' : '.';
    rows.push(row);
  }
  return rows;
}

describe('drawOverlay', () => {
  test('a 1-px horizontal line covers exactly its pixels (integer = pixel centre)', () => {
    expect(render(6, 3, [{ kind: 'line', from: [1, 1], to: [4, 1], color: RED }])).toEqual(['......', '.####.', '......']);
  });

  test('a 3-px line is 3 rows thick with round ends', () => {
    expect(render(7, 5, [{ kind: 'line', from: [2, 2], to: [4, 2], color: RED, widthPx: 3 }])).toEqual([
      '.......',
      '.#####.',
      '.#####.',
      '.#####.',
      '.......',
    ]);
  });

  test('a diagonal line hits the diagonal pixels', () => {
    expect(render(4, 4, [{ kind: 'line', from: [0, 0], to: [3, 3], color: RED }])).toEqual(['#...', '.#..', '..#.', '...#']);
  });

  test('a polyline (ball path) joins its points', () => {
    expect(render(5, 4, [{ kind: 'polyline', points: [[0, 0], [4, 0], [4, 3]], color: RED }])).toEqual(['#####', '....#', '....#', '....#']);
  });

  test('circle ring and disc', () => {
    expect(render(7, 7, [{ kind: 'circle', center: [3, 3], radiusPx: 2, color: RED }])).toEqual([
      '.......',
      '..###..',
      '.#...#.',
      '.#...#.',
      '.#...#.',
      '..###..',
      '.......',
    ]);
    expect(render(5, 5, [{ kind: 'circle', center: [2, 2], radiusPx: 1, color: RED, fill: true }])).toEqual([
      '.....',
      '..#..',
      '.###.',
      '..#..',
      '.....',
    ]);
  });

  test('filled box with alpha blends; outline box leaves the inside', () => {
    const rgb = new Uint8Array(4 * 2 * 3).fill(100);
    drawOverlay(rgb, 4, 2, [{ kind: 'box', x: 1, y: 0, width: 2, height: 1, color: [200, 0, 100], alpha: 0.25 }]);
    expect(Array.from(rgb.subarray(0, 12))).toEqual([100, 100, 100, 125, 75, 100, 125, 75, 100, 100, 100, 100]);
    expect(Array.from(rgb.subarray(12))).toEqual(new Array(12).fill(100));
    expect(render(5, 4, [{ kind: 'box', x: 0, y: 0, width: 5, height: 4, color: RED, outlinePx: 1 }])).toEqual(['#####', '#...#', '#...#', '#####']);
  });

  test('shapes partly or wholly outside the frame are clipped, not wrapped', () => {
    expect(render(4, 3, [
      { kind: 'line', from: [-10, 1], to: [1, 1], color: RED },
      { kind: 'circle', center: [100, 100], radiusPx: 5, color: RED, fill: true },
      { kind: 'box', x: 3, y: -5, width: 10, height: 6, color: RED },
    ])).toEqual(['...#', '##..', '....']);
  });

  test('rejects a buffer of the wrong size', () => {
    expect(() => drawOverlay(new Uint8Array(10), 2, 2, [])).toThrow(RangeError);
  });
});
