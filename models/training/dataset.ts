/**
 * Renders the detector's training data: random ball layouts on randomised tables, looks and camera
 * poses (domain randomisation), letterboxed to the network input exactly as the detector's
 * pre-processing does at run time.
 *
 *   npx tsx models/training/dataset.ts --out DIR --frames N --seed S [--cameras overhead,broadcast,oblique] [--packs P] [--cloths P] [--pockets P] [--spots P]
 *
 * `--packs P`: on a fraction P of snooker and pool frames the reds (the pool balls) start in a
 * rack — whole, or broken up a little, where it is racked or anywhere at any angle — since real
 * footage is full of packs, where a model trained on scattered balls sees one blob (Bucharest Task1:
 * 60 of 76 miscounted balls were reds in the pack). 0 (default) renders exactly the older sets.
 * `--cloths P`: on a fraction P of scenes the cloth is drawn from a palette of real cloth colours
 * (teal, blues, grey, burgundy, camel…) whatever the game (0, default: the game's own colour).
 * `--pockets P`: on a fraction P of snooker and pool frames 1–3 clusters of 1–4 balls of any colour
 * gather at pocket mouths, touching (0, default: none). `--spots P`: on a fraction P of scenes the
 * cue ball is a spotted one (six dots, or "measles"; 0, default: plain).
 *
 * Writes DIR/meta.json, DIR/images.u8 (N × H × W × 3 bytes) and DIR/labels.jsonl (one JSON array of
 * {u, v, r, class, visible} per image, in network-input pixels). Same seed, same bytes.
 *
 * `--patches`: the kind classifier's data instead (src/detection/kinds.ts): every visible ball's
 * patch cut from the full-resolution frame by `ballPatch`, as the detector cuts it at run time,
 * centred and sized with the errors a detection carries (centre off by up to a quarter radius,
 * radius ×0.8–1.25). Writes DIR/patches.u8 (M × 32 × 32 × 3 bytes), DIR/patches.jsonl (one
 * {class, game, frame} per patch) and DIR/meta.json.
 */
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { GameId } from '../../src/core/games.js';
import { builtinProfile, completeProfile, type TableProfile } from '../../src/core/table.js';
import { preprocess } from '../../src/detection/preprocess.js';
import { lookAt, presetCamera, type Camera, type CameraKind } from '../../src/sim/camera.js';
import { Renderer, ballClass, mulberry32, randomCueBallSpots, randomLook } from '../../src/sim/render/index.js';
import type { BallSnapshot, FrameSnapshot, Occluder } from '../../src/sim/types.js';
import { ballPatch, PATCH_PX } from '../../src/detection/patch.js';

export const CLASSES = ['white', 'red', 'yellow', 'green', 'brown', 'blue', 'pink', 'black', 'cue', 'eight', 'solid', 'stripe', 'striker', 'pawnA', 'pawnB'];
export const GAME_CLASSES: Record<GameId, string[]> = {
  snooker: CLASSES.slice(0, 8),
  pool8: CLASSES.slice(8, 12),
  novus: CLASSES.slice(12),
};
const INPUT_W = 640, INPUT_H = 384;
const FRAMES_PER_SCENE = 8; // frames sharing one camera, look and table (the renderer precomputes those)

const { values } = parseArgs({
  options: {
    out: { type: 'string' },
    frames: { type: 'string', default: '400' },
    seed: { type: 'string', default: '1' },
    cameras: { type: 'string', default: 'overhead,broadcast,oblique' },
    games: { type: 'string', default: 'snooker,pool8,novus' },
    packs: { type: 'string', default: '0' },
    cloths: { type: 'string', default: '0' },
    pockets: { type: 'string', default: '0' },
    spots: { type: 'string', default: '0' },
    patches: { type: 'boolean', default: false },
  },
});
if (!values.out) throw new Error('--out DIR is required');
const N = Number(values.frames), SEED = Number(values.seed), PACKS = Number(values.packs), CLOTHS = Number(values.cloths);
const POCKETS = Number(values.pockets), SPOTS = Number(values.spots);
const cameras = values.cameras!.split(',') as CameraKind[];
const games = values.games!.split(',') as GameId[];

function tableFor(game: GameId, rnd: () => number): TableProfile {
  if (game === 'snooker') {
    // Full size, club sizes (the Bern table is 1881 × 943) and in between.
    const f = [1, 1, 0.85, 0.53, 0.7][Math.floor(rnd() * 5)]!;
    return f === 1 ? builtinProfile('snooker') : completeProfile({ format: 'cueref.table/1', game, bed: { width: Math.round(1778 * f), length: Math.round(3569 * f) }, ballDiameter: f < 0.6 ? 52.3 : 52.5 });
  }
  if (game === 'pool8') return builtinProfile((['pool8-9ft', 'pool8-8ft', 'pool8-7ft'] as const)[Math.floor(rnd() * 3)]!);
  return builtinProfile('novus');
}

function idsFor(game: GameId, rnd: () => number): string[] {
  if (game === 'snooker') {
    const reds = Math.floor(rnd() * 16);
    return ['white', ...Array.from({ length: reds }, (_, i) => `red${i + 1}`), ...['yellow', 'green', 'brown', 'blue', 'pink', 'black'].filter(() => rnd() < 0.85)];
  }
  if (game === 'pool8') return ['cue', ...Array.from({ length: 15 }, (_, i) => String(i + 1)).filter(() => rnd() < 0.7)];
  return ['striker', ...Array.from({ length: 8 }, (_, i) => `a${i + 1}`).filter(() => rnd() < 0.8), ...Array.from({ length: 8 }, (_, i) => `b${i + 1}`).filter(() => rnd() < 0.8)];
}

/**
 * Rack slots: a triangle of rows 1…5 with its apex at (ax, ay), pointing along `angle` (radians;
 * 0 = the triangle grows towards +y, as racked on the pink or foot spot), balls `gap` mm apart.
 */
function rackSlots(ax: number, ay: number, angle: number, R: number, gap: number): [number, number][] {
  const out: [number, number][] = [];
  const d = 2 * R + gap;
  for (let row = 0; row < 5; row++) {
    for (let c = 0; c <= row; c++) {
      const lx = (c - row / 2) * d, ly = row * d * Math.sqrt(3) / 2;
      out.push([ax + lx * Math.cos(angle) - ly * Math.sin(angle), ay + lx * Math.sin(angle) + ly * Math.cos(angle)]);
    }
  }
  return out;
}

/** Fisher–Yates in place, from `rnd`. */
function shuffle<T>(a: T[], rnd: () => number): T[] {
  for (let k = a.length - 1; k > 0; k--) {
    const j = Math.floor(rnd() * (k + 1));
    [a[k], a[j]] = [a[j]!, a[k]!];
  }
  return a;
}

/** Random non-overlapping positions; some balls in touching clusters and along the cushions, as in play. */
function layoutFor(game: GameId, table: TableProfile, rnd: () => number): BallSnapshot[] {
  const ids = idsFor(game, rnd);
  const R = table.ballDiameter / 2;
  const { width: W, length: L } = table.bed;
  const out: BallSnapshot[] = [];
  const packed = new Set<string>();
  if (PACKS > 0 && game !== 'novus' && rnd() < PACKS) {
    // The pack's balls: the reds, or every pool ball but the cue.
    const members = ids.filter((id) => (game === 'snooker' ? id.startsWith('red') : id !== 'cue'));
    if (members.length >= 6) {
      const spot = game === 'snooker' ? (table.spots.pink ?? { x: W / 2, y: 0.75 * L }) : (table.spots.foot ?? { x: W / 2, y: 0.75 * L });
      const racked = rnd() < 0.5;
      const angle = racked ? 0 : rnd() * 2 * Math.PI;
      const [ax, ay] = racked ? [spot.x, spot.y + (game === 'snooker' ? 2 * R + 1 : 0)] : [R * 5 + rnd() * (W - R * 10), R * 5 + rnd() * (L - R * 10)];
      const loose = rnd() < 0.6 ? 0 : 1 + rnd() * 5; // a fresh rack, or one nudged apart a little
      const slots = rackSlots(ax, ay, angle, R, 0.3 + rnd() * 0.7);
      shuffle(slots, rnd);
      for (const id of members) {
        const slot = slots.pop();
        if (!slot) break;
        const a = rnd() * 2 * Math.PI, m = loose * rnd();
        const x = slot[0] + Math.cos(a) * m, y = slot[1] + Math.sin(a) * m;
        if (x < R || x > W - R || y < R || y > L - R || out.some((o) => Math.hypot(o.x - x, o.y - y) < 2 * R + 0.3)) continue;
        out.push({ id, x, y, z: R, vx: 0, vy: 0, state: 'rest' });
        packed.add(id);
      }
    }
  }
  if (POCKETS > 0 && game !== 'novus' && rnd() < POCKETS) {
    // Balls gathered at pocket mouths, of any colours, touching: where play leaves them (a ball
    // hanging in the jaws, the ones that missed it beside it), in the pocket's shadow. A model that
    // saw them only in open cloth lost them there (Bern: most of its misses are such clusters).
    const free = shuffle(ids.filter((id) => !packed.has(id) && id !== 'striker'), rnd);
    const pockets = Object.values(table.pockets).filter((p) => p !== undefined);
    const clusters = 1 + Math.floor(rnd() * 3);
    for (let c = 0; c < clusters && free.length; c++) {
      const pk = pockets[Math.floor(rnd() * pockets.length)]!;
      // Towards the bed's centre from the pocket: the first ball sits in or just off the jaws.
      const tx = W / 2 - pk.x, ty = L / 2 - pk.y, tn = Math.hypot(tx, ty);
      const d = R * (1.2 + rnd() * 2.5);
      const cluster: { x: number; y: number }[] = [];
      const size = 1 + Math.floor(rnd() * 4);
      for (let m = 0; m < size && free.length; m++) {
        for (let attempt = 0; attempt < 20; attempt++) {
          let x: number, y: number;
          if (cluster.length === 0) {
            x = pk.x + (tx / tn) * d + (rnd() * 2 - 1) * R;
            y = pk.y + (ty / tn) * d + (rnd() * 2 - 1) * R;
          } else {
            const o = cluster[Math.floor(rnd() * cluster.length)]!;
            const a = rnd() * 2 * Math.PI;
            x = o.x + Math.cos(a) * (2 * R + rnd() * 2);
            y = o.y + Math.sin(a) * (2 * R + rnd() * 2);
          }
          x = Math.min(W - R, Math.max(R, x));
          y = Math.min(L - R, Math.max(R, y));
          if (out.some((o) => Math.hypot(o.x - x, o.y - y) < 2 * R + 0.3)) continue;
          const id = free.pop()!;
          out.push({ id, x, y, z: R, vx: 0, vy: 0, state: 'rest' });
          packed.add(id);
          cluster.push({ x, y });
          break;
        }
      }
    }
  }
  for (const id of ids) {
    if (packed.has(id)) continue;
    const r = id === 'striker' ? table.cueBallDiameter / 2 : R;
    for (let attempt = 0; attempt < 50; attempt++) {
      let x: number, y: number;
      const mode = rnd();
      if (mode < 0.25 && out.length > 0) {
        const o = out[Math.floor(rnd() * out.length)]!;
        const a = rnd() * 2 * Math.PI;
        x = o.x + Math.cos(a) * (2 * R + rnd() * 3);
        y = o.y + Math.sin(a) * (2 * R + rnd() * 3);
      } else if (mode < 0.4) {
        const side = Math.floor(rnd() * 4);
        x = side === 0 ? r + rnd() * 4 : side === 1 ? W - r - rnd() * 4 : r + rnd() * (W - 2 * r);
        y = side === 2 ? r + rnd() * 4 : side === 3 ? L - r - rnd() * 4 : r + rnd() * (L - 2 * r);
      } else {
        x = r + rnd() * (W - 2 * r);
        y = r + rnd() * (L - 2 * r);
      }
      if (x < r || x > W - r || y < r || y > L - r) continue;
      if (out.some((o) => Math.hypot(o.x - x, o.y - y) < 2 * R + 0.3)) continue;
      // A quarter of the balls move (motion blur), some fast.
      const moving = rnd() < 0.25;
      const speed = moving ? 300 + rnd() * 3500 : 0;
      const dir = rnd() * 2 * Math.PI;
      out.push({ id, x, y, z: game === 'novus' ? 0 : r, vx: speed * Math.cos(dir), vy: speed * Math.sin(dir), state: moving ? 'moving' : 'rest' });
      break;
    }
  }
  return out;
}

/**
 * Cloth colours tables really have, for any game (`--cloths P`: on a fraction P of scenes): the
 * game's own default alone leaves the model blind to a snooker table under a teal or blue cloth
 * (the Bern club table, ≈ 100, 170, 150, where v8 read reds as black and lost touching colours).
 */
const CLOTH_PALETTE: [number, number, number][] = [
  [18, 184, 30], // tournament green
  [40, 150, 130], // spruce / teal
  [95, 170, 150], // pale teal (Bern)
  [48, 152, 188], // pool blue
  [30, 100, 180], // royal blue
  [90, 120, 150], // grey blue
  [120, 125, 120], // grey
  [90, 120, 40], // olive
  [125, 35, 45], // burgundy
  [190, 160, 110], // camel
  [70, 45, 110], // purple
];
function clothFrom(rnd: () => number): [number, number, number] {
  const c = CLOTH_PALETTE[Math.floor(rnd() * CLOTH_PALETTE.length)]!;
  const light = 0.75 + rnd() * 0.5;
  return c.map((v) => Math.max(0, Math.min(255, v * light + (rnd() * 2 - 1) * 12))) as [number, number, number];
}

/** The preset pose jittered: other heights, angles, zooms and lenses than the presets. */
function jitteredCamera(kind: CameraKind, table: TableProfile, rnd: () => number): Camera {
  const base = presetCamera(kind, table, { width: 1280, height: 720 });
  const L = table.bed.length;
  const j = (s: number) => (rnd() * 2 - 1) * s;
  const eye: [number, number, number] = [base.position[0] + j(0.08 * L), base.position[1] + j(0.08 * L), base.position[2] * (1 + j(0.12))];
  const target: [number, number, number] = [table.bed.width / 2 + j(0.03 * L), L / 2 + j(0.05 * L), 0];
  const fwd = [target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]];
  // Keep the image's up direction close to the preset's.
  const upWorld: [number, number, number] = [-base.R[1][0], -base.R[1][1], -base.R[1][2]];
  void fwd;
  const R = lookAt(eye, target, upWorld);
  const zoom = 1 + j(0.1);
  return { ...base, position: eye, R, fx: base.fx * zoom, fy: base.fy * zoom, k1: base.k1 + j(0.04), k2: base.k2 + j(0.01) };
}

function occludersFor(table: TableProfile, balls: BallSnapshot[], rnd: () => number): Occluder[] {
  const out: Occluder[] = [];
  if (rnd() < 0.35 && balls.length) {
    // A cue over the table towards a ball, the player's arm at its butt end.
    const b = balls[Math.floor(rnd() * balls.length)]!;
    const a = rnd() * 2 * Math.PI;
    const len = 1200;
    const from: [number, number, number] = [b.x + Math.cos(a) * len, b.y + Math.sin(a) * len, 250];
    out.push({ kind: 'cue', from, to: [b.x + Math.cos(a) * 60, b.y + Math.sin(a) * 60, 40], radiusMm: 7 });
    if (rnd() < 0.6) out.push({ kind: 'hand', centre: [b.x + Math.cos(a) * 250, b.y + Math.sin(a) * 250, 60], radiusMm: 60 });
  }
  if (rnd() < 0.2) {
    const edgeX = rnd() < 0.5 ? -150 : table.bed.width + 150;
    out.push({ kind: 'body', centre: [edgeX, rnd() * table.bed.length, 900], radiusMm: 350 });
  }
  return out;
}

mkdirSync(values.out, { recursive: true });
const PATCHES = values.patches!;
const fd = openSync(join(values.out, PATCHES ? 'patches.u8' : 'images.u8'), 'w');
const patch = new Uint8Array(PATCH_PX * PATCH_PX * 3);
let patchCount = 0;
const labelLines: string[] = [];
const side = { width: INPUT_W, height: INPUT_H, mean: [0, 0, 0] as [number, number, number], std: [1 / 255, 1 / 255, 1 / 255] as [number, number, number] };
const tensor = new Float32Array(3 * INPUT_W * INPUT_H);
const bytes = new Uint8Array(INPUT_W * INPUT_H * 3);
const t0 = Date.now();
let renderer: Renderer | null = null;
let game: GameId = games[0]!;
let table: TableProfile = tableFor(game, Math.random);
for (let k = 0; k < N; k++) {
  const rnd = mulberry32(SEED * 100003 + k);
  if (k % FRAMES_PER_SCENE === 0) {
    game = games[Math.floor(rnd() * games.length)]!;
    table = tableFor(game, rnd);
    const kind = cameras[Math.floor(rnd() * cameras.length)]!;
    const look = randomLook(game, SEED * 7919 + k);
    if (CLOTHS > 0 && rnd() < CLOTHS) look.clothRgb = clothFrom(rnd);
    if (SPOTS > 0 && rnd() < SPOTS) look.cueBallSpots = randomCueBallSpots(rnd);
    renderer = new Renderer({ game, table, camera: jitteredCamera(kind, table, rnd), look, seed: SEED * 31 + k });
  }
  const balls = layoutFor(game, table, rnd);
  const frame: FrameSnapshot = { i: k, t: k / 30, balls, occluders: occludersFor(table, balls, rnd) };
  // Sub-frame snapshots over the exposure for motion blur, centred on the frame time (the label).
  const exp = renderer!.exposureS;
  const history: FrameSnapshot[] = [-0.5, -0.25, 0.25, 0.5].map((f) => ({ ...frame, t: frame.t + f * exp, balls: balls.map((b) => ({ ...b, x: b.x + b.vx * f * exp, y: b.y + b.vy * f * exp })) }));
  const img = renderer!.render(frame, history);
  if (PATCHES) {
    for (const l of img.labels) {
      if (!l.visible || l.r < 2) continue;
      // A detection's errors: centre within a quarter radius, radius ×0.8–1.25.
      const a = rnd() * 2 * Math.PI, m = 0.25 * l.r * Math.sqrt(rnd());
      const r = l.r * Math.exp((rnd() * 2 - 1) * Math.log(1.25));
      writeSync(fd, ballPatch({ width: img.width, height: img.height, rgb: img.rgb }, l.u + m * Math.cos(a), l.v + m * Math.sin(a), r, patch));
      labelLines.push(JSON.stringify({ class: ballClass(game, l.id), game, frame: k }));
      patchCount++;
    }
    if (k % 50 === 0) process.stderr.write(`frame ${k}/${N}, ${patchCount} patches, ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
    continue;
  }
  const { view } = preprocess({ width: img.width, height: img.height, rgb: img.rgb }, side, tensor);
  const box = view.kind === 'letterbox' ? view.box : { scale: 1, padX: 0, padY: 0 };
  // The normalisation above is the identity on 0–255, so the tensor holds the letterboxed bytes.
  const plane = INPUT_W * INPUT_H;
  for (let p = 0; p < plane; p++) {
    bytes[p * 3] = Math.round(tensor[p]!);
    bytes[p * 3 + 1] = Math.round(tensor[plane + p]!);
    bytes[p * 3 + 2] = Math.round(tensor[2 * plane + p]!);
  }
  writeSync(fd, bytes);
  labelLines.push(
    JSON.stringify(
      img.labels.map((l) => ({ u: l.u * box.scale + box.padX, v: l.v * box.scale + box.padY, r: l.r * box.scale, class: ballClass(game, l.id), visible: l.visible })),
    ),
  );
  if (k % 50 === 0) process.stderr.write(`frame ${k}/${N} ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
}
closeSync(fd);
if (PATCHES) {
  writeFileSync(join(values.out, 'patches.jsonl'), labelLines.join('\n') + '\n');
  writeFileSync(join(values.out, 'meta.json'), JSON.stringify({ version: 'patches-v1', seed: SEED, packs: PACKS, cloths: CLOTHS, pockets: POCKETS, spots: SPOTS, frames: N, count: patchCount, patchPx: PATCH_PX, classes: CLASSES, games: GAME_CLASSES, cameras }, null, 2));
  process.stderr.write(`wrote ${patchCount} patches from ${N} frames to ${values.out} in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  process.exit(0);
}
writeFileSync(join(values.out, 'labels.jsonl'), labelLines.join('\n') + '\n');
writeFileSync(
  join(values.out, 'meta.json'),
  JSON.stringify({ version: POCKETS > 0 || SPOTS > 0 ? 'render-v3' : PACKS > 0 ? 'render-v2' : 'render-v1', seed: SEED, packs: PACKS, pockets: POCKETS, spots: SPOTS, count: N, width: INPUT_W, height: INPUT_H, classes: CLASSES, games: GAME_CLASSES, cameras, scale: 'network input (640×384 letterbox of 1280×720)' }, null, 2),
);
process.stderr.write(`wrote ${N} frames to ${values.out} in ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
