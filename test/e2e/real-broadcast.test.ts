/**
 * A real broadcast clip end to end (issue 7): Bucharest Task2 clip 1 (a red potted in the pocket
 * the annotators number 2, top-right as seen) through `analyze` with the shipped model; the report
 * must show the pot. Skips with a message when ../shared/real is not beside the repository.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, test } from 'vitest';
import { builtinProfile } from '../../src/core/table.js';
import { analyze } from '../../src/pipeline/analyze.js';
import { imagePocketNumbers } from './bucharest.js';

const ROOT = resolve(import.meta.dirname, '../..');
const CLIP = resolve(ROOT, '../shared/real/bucharest-snooker-broadcast/train/Task2/1.mp4');
const have = existsSync(CLIP);
if (!have) console.warn(`real-footage test skipped: ${CLIP} not found`);

describe.skipIf(!have)('Bucharest Task2 clip 1 through analyze', () => {
  test('the report shows the red potted in the top-right pocket (as seen)', async () => {
    const truth = readFileSync(resolve(CLIP, '../ground-truth/1_gt.txt'), 'utf8').trim().split(/\s+/);
    expect(truth).toEqual(['YES', '2', 'red']);
    const out = join(mkdtempSync(join(tmpdir(), 'cueref-real-')), 'run');
    const res = await analyze(CLIP, { game: 'snooker', outDir: out, modelsDir: join(ROOT, 'models') });
    const pots = res.strokes.strokes.flatMap((s) => s.events.filter((e) => e.type === 'pot')) as { ball: string; pocket: string }[];
    const numbers = imagePocketNumbers(res.calibration, builtinProfile('snooker'));
    expect(pots.map((p) => [p.ball.replace(/\d+$/, ''), numbers.get(p.pocket)])).toContainEqual(['red', 2]);
    const html = readFileSync(join(out, 'report.html'), 'utf8');
    const pot = pots.find((p) => p.ball.startsWith('red'))!;
    expect(html).toContain(`${pot.ball} potted ${pot.pocket}`);
  }, 240_000);
});
