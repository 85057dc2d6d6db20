/**
 * Re-run the stages after the detector on a finished `cueref analyze` folder: its
 * tracker-input.jsonl (the detections the tracker was given, frame by frame) through a fresh
 * tracker, the events stage and the referee, with the code as it is now. For working on the
 * tracker, the events or the referee without paying the detector again (seconds, not minutes).
 *
 *   npx tsx bench/rechain.ts DIR [--truth truth.calls.json] [--write]
 *   npx tsx bench/rechain.ts --library FPS --out NAME [--from NAME0]
 *
 * Prints each stroke's events (cushions left out) and call; with --truth, the truth calls beside;
 * with --write, also writes DIR/tracks.rechain.jsonl, DIR/strokes.rechain.json and DIR/calls.rechain.json.
 *
 * `--library`: the tracker alone over every clip of `bench/events-rendered.ts`'s library at that
 * rate (/tmp/cueref-events-rendered/<clip>-FPS/NAME0, default s20a), writing <clip>-FPS/NAME/
 * tracks.jsonl (and NAME0's strokes.json beside it) for `bench/events-rendered.ts --events-from
 * NAME`. The 88 clips of a rate take seconds; compare two codes' NAMEs clip by clip with `cmp`.
 * Replays are not byte for byte the stored tracks: compare replays with replays.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TracksHeader, TrackFrame } from '../src/core/contracts/tracks.js';
import type { TableProfile } from '../src/core/table.js';
import { tracksToStrokes } from '../src/events/index.js';
import { refereeVisionLog } from '../src/pipeline/reconcile.js';
import type { TrackerInputLine } from '../src/pipeline/vision.js';
import { createTracker, emptyDetections, makeDetections, type TableDetections } from '../src/tracking/index.js';

/** The tracker over DIR/tracker-input.jsonl, with DIR/tracks.jsonl's header. */
function replay(dir: string): { header: TracksHeader; frames: TrackFrame[] } {
  const header = JSON.parse(readFileSync(join(dir, 'tracks.jsonl'), 'utf8').split('\n', 1)[0]!) as TracksHeader;
  const lines = readFileSync(join(dir, 'tracker-input.jsonl'), 'utf8').split('\n').filter(Boolean).slice(1).map((l) => JSON.parse(l) as TrackerInputLine);
  const tracker = createTracker(header.table as TableProfile);
  const frames: TrackFrame[] = [];
  let last: TableDetections | undefined;
  for (const line of lines) {
    let det: TableDetections;
    if ('view' in line) det = emptyDetections();
    else if (line.g === 'reuse') det = last ?? emptyDetections();
    else det = last = makeDetections(line.d.map(([x, y, conf, cls]) => ({ x, y, conf, class: cls })), header.game, line.i);
    frames.push(tracker.step({ i: line.i, t: line.t, detections: det, ...('view' in line ? { view: false } : {}) }));
  }
  return { header, frames };
}

const tracksText = (header: TracksHeader, frames: readonly TrackFrame[]) => [JSON.stringify(header), ...frames.map((f) => JSON.stringify(f))].join('\n') + '\n';
const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : undefined;
};

const fps = arg('--library');
if (fps !== undefined) {
  const out = arg('--out'), from = arg('--from') ?? 's20a';
  if (!out) {
    console.error('usage: npx tsx bench/rechain.ts --library FPS --out NAME [--from NAME0]');
    process.exit(2);
  }
  const ROOT = '/tmp/cueref-events-rendered';
  let n = 0;
  for (const d of existsSync(ROOT) ? readdirSync(ROOT).filter((x) => x.endsWith(`-${fps}`)).sort() : []) {
    const src = join(ROOT, d, from);
    if (!existsSync(join(src, 'tracker-input.jsonl'))) continue;
    const { header, frames } = replay(src);
    mkdirSync(join(ROOT, d, out), { recursive: true });
    writeFileSync(join(ROOT, d, out, 'tracks.jsonl'), tracksText(header, frames));
    copyFileSync(join(src, 'strokes.json'), join(ROOT, d, out, 'strokes.json'));
    n++;
  }
  console.log(`${n} clips at ${fps} fps replayed into ${out}`);
  process.exit(0);
}

const dir = process.argv[2];
if (!dir) {
  console.error('usage: npx tsx bench/rechain.ts DIR [--truth FILE] [--write]');
  process.exit(2);
}
const ti = process.argv.indexOf('--truth');
const truthPath = ti > 0 ? process.argv[ti + 1] : undefined;

const { header, frames } = replay(dir);
const table = header.table as TableProfile;
const ev = tracksToStrokes({ ...header, frames }, table);
const ref = refereeVisionLog(ev.log, table);
if (!ref.ok) throw new Error(ref.error.message);
if (process.argv.includes('--write')) {
  writeFileSync(join(dir, 'strokes.rechain.json'), JSON.stringify(ref.value.log, null, 1) + '\n');
  writeFileSync(join(dir, 'calls.rechain.json'), JSON.stringify(ref.value.calls, null, 1) + '\n');
  writeFileSync(join(dir, 'tracks.rechain.jsonl'), tracksText(header, frames));
}
const truth = truthPath ? (JSON.parse(readFileSync(truthPath, 'utf8')).calls as { fouls: { code: string }[]; potted: string[]; scores: number[] }[]) : [];
const show = (c: { fouls: { code: string }[]; potted: string[]; scores: number[] }) => `${c.fouls.map((f) => f.code).join('+') || 'legal'} [${c.potted.join(',')}] ${c.scores.join('-')}`;
ref.value.log.strokes.forEach((s, i) => {
  const evs = s.events.filter((e) => e.type !== 'cushion').map((e) => `${e.type}:${'ball' in e ? e.ball : 'a' in e ? `${e.a}-${e.b}` : ''}${'pocket' in e ? `@${e.pocket}` : ''}@${e.t}${e.conf !== undefined ? `(${e.conf})` : ''}`);
  console.log(`stroke ${i}: ${evs.join(' ')}`);
  const c = ref.value.calls.calls[i]!;
  console.log(`  call  ${show(c as never)}${c.review?.length ? ` review ${c.review.map((r) => r.code).join(',')}` : ''}`);
  if (truth[i]) console.log(`  truth ${show(truth[i]!)}`);
});
for (const n of [...ev.notes, ...ref.value.repairs.map((r) => `stroke ${r.stroke}: ${r.reason}`)]) console.log(`note: ${n}`);
