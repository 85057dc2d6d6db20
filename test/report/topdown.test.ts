import { describe, expect, it } from 'vitest';
import { defaultProfileFor } from '../../src/core/table.js';
import { ballFill, topDownSvg } from '../../src/report/topdown.js';

describe('topDownSvg', () => {
  const table = defaultProfileFor('snooker');

  it('draws a ball at its table position, length left to right, baulk on the left', () => {
    const svg = topDownSvg({ game: 'snooker', table, balls: [{ id: 'white', x: 500, y: 600 }] });
    // SVG x = table y; SVG y = width − table x.
    expect(svg).toContain(`data-ball="white" transform="translate(600 ${table.bed.width - 500})"`);
    expect(svg).toMatch(/^<svg class="topdown"/);
    // Six pockets and the baulk line.
    expect(svg.match(/pocket<\/title>/g)).toHaveLength(6);
    expect(svg).toContain(`x1="${table.baulkLineY}"`);
  });

  it('draws paths and rings highlighted balls', () => {
    const svg = topDownSvg({ game: 'snooker', table, balls: [{ id: 'red3', x: 100, y: 100 }], paths: [{ id: 'white', points: [[0, 0], [10, 20]] }], highlight: ['red3'] });
    expect(svg).toContain(`<path class="path" data-ball="white" d="M0 ${table.bed.width} L20 ${table.bed.width - 10}"`);
    expect(svg).toContain('stroke="#ffd400"');
    expect(ballFill('snooker', 'red3').fill).toBe('#c8102e');
    expect(ballFill('pool8', '11')).toEqual({ fill: ballFill('pool8', '3').fill, stripe: true });
  });

  it('a replay carries its frames and hides balls not yet on the table', () => {
    const html = topDownSvg({ game: 'snooker', table, replay: [{ t: 1, balls: { white: [1, 2] } }, { t: 1.5, balls: { white: [3, 4], pink: [5, 6] } }] });
    expect(html).toContain('data-topdown-replay');
    expect(html).toContain('0.00 / 0.50 s');
    expect(html).toMatch(/data-ball="pink" transform="translate\(0 0\)" visibility="hidden"/);
    const json = JSON.parse(html.match(/<script type="application\/json" class="replay-data">(.*?)<\/script>/)![1]!);
    expect(json.frames[1].b.pink).toEqual([5, 6]);
  });

  it('escapes ids', () => {
    const svg = topDownSvg({ game: 'pool8', table: defaultProfileFor('pool8'), balls: [{ id: '<x>', x: 1, y: 1 }] });
    expect(svg).not.toContain('<x>');
  });
});
