/** Reading the run's logs back a line at a time (the resume of a long run). */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { JsonLinesReader } from '../../src/pipeline/runlog.js';

const all = (r: JsonLinesReader) => {
  const out = [];
  for (let l = r.next(); l; l = r.next()) out.push(l);
  return out;
};

describe('JsonLinesReader', () => {
  test('lines longer than its 1 MB reads and lines across the reads come back whole, with their end offsets', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'cueref-runlog-')), 'a.jsonl');
    const big = 'x'.repeat(1_500_000);
    const lines = [JSON.stringify({ k: 0, s: big }), ...Array.from({ length: 3000 }, (_, k) => JSON.stringify({ k: k + 1, s: 'y'.repeat(k % 700) }))];
    writeFileSync(path, lines.join('\n') + '\n');
    const r = new JsonLinesReader(path);
    const got = all(r);
    expect(got.map((l) => (l.value as { k: number }).k)).toEqual(lines.map((_, k) => k));
    expect(got[0]!.text).toBe(lines[0]);
    expect(got.at(-1)!.end).toBe(r.size);
    expect(got[1]!.end).toBe(Buffer.byteLength(lines[0]! + '\n' + lines[1]! + '\n'));
  });
  test('stops at a torn last line (killed mid-write) and at a line that does not parse', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cueref-runlog-'));
    writeFileSync(join(dir, 'torn.jsonl'), '{"a":1}\n{"a":2}\n{"a":');
    const torn = new JsonLinesReader(join(dir, 'torn.jsonl'));
    const t = all(torn);
    expect(t.map((l) => l.value)).toEqual([{ a: 1 }, { a: 2 }]);
    expect(torn.size - t.at(-1)!.end).toBe(5);
    writeFileSync(join(dir, 'bad.jsonl'), '{"a":1}\nnot json\n{"a":3}\n');
    expect(all(new JsonLinesReader(join(dir, 'bad.jsonl'))).map((l) => l.value)).toEqual([{ a: 1 }]);
    const none = new JsonLinesReader(join(dir, 'missing.jsonl'));
    expect([none.size, none.next()]).toEqual([0, null]);
  });
});
