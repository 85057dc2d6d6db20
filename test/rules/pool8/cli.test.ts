/** End to end: the bundled pool8 samples through `cueref referee` (one real process, the rest in-process). */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { formatCalls } from '../../../src/cli/referee.js';
import { refereeLog } from '../../../src/rules/registry.js';

const sample = (name: string): unknown => JSON.parse(readFileSync(`samples/strokes/${name}`, 'utf8'));

describe('cueref referee on pool8 samples', () => {
  test('node bin/cueref.js referee …wpa-rack.json --json: groups, a foul, the 8 won by Ana', { timeout: 30_000 }, () => {
    const out = JSON.parse(execFileSync(process.execPath, ['bin/cueref.js', 'referee', 'samples/strokes/pool8-wpa-rack.json', '--json'], { encoding: 'utf8' }));
    expect(out).toMatchObject({ format: 'cueref.calls/1', game: 'pool8', variant: 'wpa' });
    const calls = out.calls as Record<string, unknown>[];
    expect(calls).toHaveLength(12);
    expect(calls[1]).toMatchObject({ groups: ['solids', 'stripes'], tableOpen: false, callFulfilled: true });
    expect(calls.flatMap((c) => (c.fouls as { code: string }[]).map((f) => f.code))).toEqual(['WRONG_GROUP_FIRST', 'SCRATCH']);
    expect(calls.at(-1)).toMatchObject({ frameOver: true, winner: 0, scores: [1, 0] });
    expect(out.final).toMatchObject({ scores: [1, 0], rackOver: true });
  });

  test.each([
    ['pool8-blackball-frame.json', /Cara 1 – 0 Dev \(frame over, Cara wins\)/],
    ['pool8-break-options.json', /Eli 0 – 0 Fay \(frame in progress\)/],
  ])('%s runs through the registry and prints its result', (file, line) => {
    const res = refereeLog(sample(file));
    expect(res.ok).toBe(true);
    if (res.ok) expect(formatCalls(res.value)).toMatch(line);
  });

  test('bad input comes back as an error naming the stroke and the field', () => {
    const log = { format: 'cueref.strokes/1', game: 'pool8', strokes: [{ events: [{ t: 1, type: 'strike', ball: 'cue' }, { t: 1.2, type: 'contact', a: 'cue', b: 'red1' }] }] };
    const res = refereeLog(log);
    expect(!res.ok && res.error).toMatchObject({ code: 'UNKNOWN_BALL', stroke: 0, field: 'events[1].b' });
  });
});
