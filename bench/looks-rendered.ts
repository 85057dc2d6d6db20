/**
 * The detector's second looks at clusters and the centres fitted to the balls' outlines, on the
 * first frame of the rendered scenario library: for each look mode (`off` one look, `blobs` as
 * video runs, `groups` as stills run), with the network's centres and with the outlines fitted
 * (detection/centres.ts), how many balls are found and how far off (table mm, through the truth
 * calibration) — lone balls, balls touching one other (centres within 2.2 R) and balls in packs
 * (two or more). Packs are where rest positions go wrong (docs/tracking.md); this measures the
 * detector there without the tracker.
 *
 *   npx tsx bench/looks-rendered.ts [--game snooker|pool8|novus] [--camera overhead|broadcast] [--model models/detector] [--root /tmp/cueref-events-rendered] [--fps 25]
 *
 * Reads the clips `bench/events-rendered.ts` rendered (ROOT/<scenario>-<camera>-<fps>/video.mp4
 * and truth.tracks.json). The product fits outlines only where `outlineCentresFor` says (snooker,
 * seen from above); the other rows show why.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readStill } from '../src/calibration/frames.js';
import type { RadialLens } from '../src/core/lens.js';
import type { Mat3 } from '../src/core/mat3.js';
import { toRows } from '../src/detection/detections.js';
import { openBallDetector } from '../src/detection/open.js';
import { mapDetections } from '../src/tracking/detections.js';
import { refineCentres } from '../src/detection/centres.js';
import { outlineCentresFor } from '../src/pipeline/outlineCentres.js';
import { defaultProfileFor, type TableProfile } from '../src/core/table.js';
import type { GameId } from '../src/core/games.js';
import { ffmpegPath } from '../src/video/ffmpegPath.js';

const { values } = parseArgs({
  options: {
    game: { type: 'string', default: 'snooker' },
    camera: { type: 'string', default: 'overhead' },
    model: { type: 'string', default: 'models/detector' },
    root: { type: 'string', default: '/tmp/cueref-events-rendered' },
    fps: { type: 'string', default: '25' },
  },
});
const root = values.root!;
const game = values.game as GameId;
const clips = existsSync(root) ? readdirSync(root).filter((d) => d.startsWith(`${game}-`) && d.endsWith(`-${values.camera}-${values.fps}`)) : [];
if (clips.length === 0) {
  console.log(`no rendered ${game} clips in ${root}: render them with  npx tsx bench/events-rendered.ts --fps ${values.fps}`);
  process.exit(0);
}
/** The detector's kind of a simulator's ball id. */
const kindOf = (id: string) => (game === 'snooker' ? id.replace(/\d+$/, '') : game === 'novus' ? (id === 'striker' ? 'striker' : id[0] === 'a' ? 'pawnA' : 'pawnB') : id === 'cue' ? 'cue' : id === '8' ? 'eight' : Number(id) < 8 ? 'solid' : 'stripe');
const q = (a: number[], p: number) => (a.length ? [...a].sort((x, y) => x - y)[Math.floor(p * (a.length - 1))]! : NaN);
const modes = ['off', 'blobs', 'groups'] as const;
const dets = Object.fromEntries(await Promise.all(modes.map(async (m) => [m, await openBallDetector(values.model!, { game, clusterLooks: m })] as const)));
const by: Record<string, { dx: number[]; dy: number[]; d: number[]; missed: number }> = {};
const stills = '/tmp/cueref-looks';
mkdirSync(stills, { recursive: true });
for (const clip of clips) {
  const png = join(stills, `${clip}.png`);
  if (!existsSync(png)) execFileSync(ffmpegPath(), ['-v', 'error', '-i', join(root, clip, 'video.mp4'), '-frames:v', '1', png]);
  const truthDoc = JSON.parse(readFileSync(join(root, clip, 'truth.tracks.json'), 'utf8')) as { calibration: { imageToTable: Mat3; ballCentreToTable: Mat3; distortion?: RadialLens | null; table: TableProfile }; frames: { balls: { id: string; x: number; y: number }[] }[] };
  const cal = truthDoc.calibration;
  const diameter = cal.table.ballDiameter;
  const truth = truthDoc.frames[0]!.balls;
  const frame = await readStill(png);
  for (const [mode, centres] of modes.flatMap((m) => [[m, 'network'], [m, 'outlines']] as const)) {
    // Mapped as the pipeline maps them (without its blob filter: every detection, in order).
    const rows = toRows(await dets[mode]!.detector.detect(frame));
    const table = mapDetections(centres === 'outlines' ? refineCentres(frame, rows) : rows, cal, game);
    const pts = Array.from({ length: table.length }, (_, k) => ({ x: table.x[k]!, y: table.y[k]!, cls: table.cls[k]! }));
    const used = new Set<number>();
    for (const b of truth) {
      const kind = kindOf(b.id);
      let best = -1, bd = Infinity;
      pts.forEach((p, j) => {
        const dd = Math.hypot(p.x - b.x, p.y - b.y);
        if (!used.has(j) && p.cls === kind && dd < bd) [best, bd] = [j, dd];
      });
      const touching = truth.filter((o) => o !== b && Math.hypot(o.x - b.x, o.y - b.y) < 1.1 * diameter).length;
      const s = (by[`${mode}, ${centres === 'network' ? "network's centres" : 'outlines fitted'}: ${['lone', 'pair', 'pack'][Math.min(2, touching)]}`] ??= { dx: [], dy: [], d: [], missed: 0 });
      if (best < 0 || bd > 30) {
        s.missed++;
        continue;
      }
      used.add(best);
      s.dx.push(pts[best]!.x - b.x);
      s.dy.push(pts[best]!.y - b.y);
      s.d.push(bd);
    }
  }
}
for (const d of Object.values(dets)) await d.close();
console.log(`${values.model}, first frames of ${clips.length} ${values.camera} ${game} clips (${values.fps} fps), balls matched within 30 mm of their kind; outlines ${outlineCentresFor(game, JSON.parse(readFileSync(join(root, clips[0]!, 'truth.tracks.json'), 'utf8')).calibration, defaultProfileFor(game)) ? 'are' : 'are not'} fitted by the product here:`);
for (const [k, s] of Object.entries(by).sort()) {
  console.log(`  looks ${k}: found ${s.d.length} of ${s.d.length + s.missed}, off by median ${q(s.d, 0.5).toFixed(1)} mm (${((100 * s.d.filter((e) => e <= 3).length) / Math.max(1, s.d.length)).toFixed(0)} % within 3 mm), signed median x ${q(s.dx, 0.5).toFixed(1)} y ${q(s.dy, 0.5).toFixed(1)} mm`);
}
