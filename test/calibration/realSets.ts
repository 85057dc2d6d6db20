/**
 * Evaluation on the third-party footage in ../shared/real (never copied into the repo). Used by
 * real.test.ts (a subset, with thresholds) and measureReal.ts (every frame, prints the figures).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { applyH, inv3 } from '../../src/core/mat3.js';
import { builtinProfile, parseTableProfile, type TableProfile } from '../../src/core/table.js';
import { readStill } from '../../src/calibration/frames.js';
import { calibrateFrame } from '../../src/calibration/solve.js';
import { distortPoint, undistortPoint } from '../../src/calibration/distortion.js';
import { classifyBallColour } from '../../src/calibration/markings.js';
import { sampleRgb, type RgbFrame } from '../../src/calibration/image.js';
import type { Calibration } from '../../src/calibration/contract.js';

export const REAL_DIR = resolve(import.meta.dirname, '../../../shared/real');
export const haveReal = (): boolean => existsSync(REAL_DIR);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : NaN;
};

/**
 * The Bern table as a cueref.table/1 profile, from its table-configuration.json: bed inside the
 * noses, ball size, baulk line through the brown spot, D radius from the yellow/green spots.
 */
export function bernTable(): TableProfile {
  const cfg = JSON.parse(readFileSync(join(REAL_DIR, 'bern-snooker-overhead/table-configuration.json'), 'utf8'));
  const W: number = cfg.table.innerTableWidth, L: number = cfg.table.innerTableLength;
  const spot = (t: string) => cfg.spots.find((s: { type: string }) => s.type === t).position as { x: number; y: number };
  // Their frame: origin at the centre, x along the table (baulk at −x), y across.
  const toOurs = (p: { x: number; y: number }) => ({ x: W / 2 - p.y, y: p.x + L / 2 });
  const brown = toOurs(spot('BROWN'));
  return parseTableProfile({
    format: 'cueref.table/1',
    game: 'snooker',
    name: 'bern',
    bed: { width: W, length: L },
    ballDiameter: cfg.radius * 2,
    baulkLineY: brown.y,
    dRadius: Math.abs(spot('YELLOW').y - spot('BROWN').y),
    spots: { brown, blue: toOurs(spot('BLUE')), pink: toOurs(spot('PINK')), black: toOurs(spot('BLACK')) },
  });
}

export interface BernResult {
  image: string;
  ok: boolean;
  medianMm: number;
  errorsMm: number[];
  reprojectionErrorMm: number;
  end: string;
}

/** Annotated ball pixels through ballCentreToTable vs their annotated positions (mm). */
export async function evalBern(limit = Infinity): Promise<BernResult[]> {
  const dir = join(REAL_DIR, 'bern-snooker-overhead/without_halo');
  const table = bernTable();
  const { width: W, length: L } = table.bed;
  const cases = JSON.parse(readFileSync(join(dir, 'testcases.json'), 'utf8')).cases as { image: string; balls: { x: number; y: number; pixelX: number; pixelY: number }[] }[];
  const out: BernResult[] = [];
  for (const c of cases.slice(0, limit)) {
    const name = c.image.split('/').pop()!;
    const frame = await readStill(join(dir, name));
    const r = calibrateFrame(frame, { table });
    if (!r.ok) {
      out.push({ image: name, ok: false, medianMm: NaN, errorsMm: [], reprojectionErrorMm: NaN, end: 'failed' });
      continue;
    }
    const cal = r.value.calibration;
    const errs = c.balls.map((b) => {
      const [u, v] = cal.distortion ? undistortPoint(cal.distortion, b.pixelX, b.pixelY) : [b.pixelX, b.pixelY];
      const [x, y] = applyH(cal.ballCentreToTable, u, v);
      return Math.hypot(y - L / 2 - b.x, W / 2 - x - b.y);
    });
    out.push({ image: name, ok: true, medianMm: median(errs), errorsMm: errs, reprojectionErrorMm: cal.reprojectionErrorMm, end: cal.end ?? '' });
  }
  return out;
}

export interface BucharestResult {
  image: string;
  ok: boolean;
  /** Colours whose projected spot (ball-centre height) shows that colour. */
  spotsOnBalls: string[];
  end: string;
  reprojectionErrorMm: number;
  message?: string;
}

/** Where a ball standing on spot `p` shows its centre in the frame. */
export function spotPixel(cal: Calibration, x: number, y: number): [number, number] {
  const [u, v] = applyH(inv3(cal.ballCentreToTable), x, y);
  return cal.distortion ? distortPoint(cal.distortion, u, v) : [u, v];
}

export function coloursOnSpots(frame: RgbFrame, cal: Calibration): string[] {
  const tmp = new Float64Array(3);
  const hits: string[] = [];
  for (const name of ['yellow', 'green', 'brown', 'blue', 'pink', 'black']) {
    const s = cal.table.spots[name];
    if (!s) continue;
    const [u, v] = spotPixel(cal, s.x, s.y);
    let r = 0, g = 0, b = 0, n = 0;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      if (!sampleRgb(frame, u + dx, v + dy, tmp)) continue;
      r += tmp[0]!;
      g += tmp[1]!;
      b += tmp[2]!;
      n++;
    }
    if (n && classifyBallColour(r / n, g / n, b / n, cal.cloth?.hueDeg ?? 120) === name) hits.push(name);
  }
  return hits;
}

export function bucharestFrames(): string[] {
  const dir = join(REAL_DIR, 'bucharest-snooker-broadcast/train/Task1');
  // 42.jpg is a broken 76×87 crop, not a frame (README).
  return readdirSync(dir)
    .filter((f) => f.endsWith('.jpg') && f !== '42.jpg')
    .sort((a, b) => parseInt(a) - parseInt(b))
    .map((f) => join(dir, f));
}

export async function evalBucharest(paths: string[]): Promise<BucharestResult[]> {
  const table = builtinProfile('snooker');
  const out: BucharestResult[] = [];
  for (const p of paths) {
    const frame = await readStill(p);
    const r = calibrateFrame(frame, { table });
    const image = p.split('/').pop()!;
    if (!r.ok) {
      out.push({ image, ok: false, spotsOnBalls: [], end: 'failed', reprojectionErrorMm: NaN, message: r.error.message });
      continue;
    }
    const cal = r.value.calibration;
    out.push({ image, ok: true, spotsOnBalls: coloursOnSpots(frame, cal), end: cal.end ?? '', reprojectionErrorMm: cal.reprojectionErrorMm });
  }
  return out;
}

export interface PadovaResult {
  image: string;
  ok: boolean;
  /** IoU of the projected table (bed + cushions) with the annotated playing-field mask. */
  iou: number;
  /** The rail diamonds showed where the solution puts them. */
  diamonds: boolean;
}

/** Pool cushion width (nose to rail) used to grow the bed to the playing-field mask, mm. */
export const POOL_CUSHION_MM = 50;

export async function evalPadova(limit = Infinity): Promise<PadovaResult[]> {
  const root = join(REAL_DIR, 'padova-pool-broadcast/Dataset');
  const table = builtinProfile('pool8-9ft');
  const out: PadovaResult[] = [];
  const items: { frame: string; mask: string; name: string }[] = [];
  for (const clip of readdirSync(root).filter((d) => d.startsWith('game')).sort()) {
    for (const which of ['first', 'last']) {
      items.push({ frame: join(root, clip, 'frames', `frame_${which}.png`), mask: join(root, clip, 'masks', `frame_${which}.png`), name: `${clip}/${which}` });
    }
  }
  for (const it of items.slice(0, limit)) {
    const frame = await readStill(it.frame);
    const mask = await readStill(it.mask);
    const r = calibrateFrame(frame, { table });
    if (!r.ok) {
      out.push({ image: it.name, ok: false, iou: 0, diamonds: false });
      continue;
    }
    const cal = r.value.calibration;
    const t2i = inv3(cal.imageToTable);
    const c = POOL_CUSHION_MM;
    const { width: W, length: L } = table.bed;
    const poly = [[-c, -c], [W + c, -c], [W + c, L + c], [-c, L + c]].map(([x, y]) => {
      const [u, v] = applyH(t2i, x!, y!);
      return cal.distortion ? distortPoint(cal.distortion, u, v) : [u, v];
    });
    let inter = 0, uni = 0;
    for (let y = 0; y < frame.height; y += 2) {
      for (let x = 0; x < frame.width; x += 2) {
        const a = mask.rgb[(y * mask.width + x) * 3]! > 0;
        const b = inside(poly as [number, number][], x, y);
        if (a && b) inter++;
        if (a || b) uni++;
      }
    }
    out.push({ image: it.name, ok: true, iou: uni ? inter / uni : 0, diamonds: cal.found.includes('diamonds') });
  }
  return out;
}

function inside(poly: [number, number][], x: number, y: number): boolean {
  let inn = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!, [xj, yj] = poly[j]!;
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inn = !inn;
  }
  return inn;
}

export interface GateResult {
  /** Task1 main-camera frames the gate accepts against their own calibration. */
  mainAccepted: number;
  mainTotal: number;
  /** Task4 other-angle frames: rejected by the gate (against a Task1 calibration) / no calibration solved on them. */
  otherRejected: number;
  otherUnsolved: number;
  otherTotal: number;
}

/**
 * The view gate on real broadcast: main-camera frames (Task1) are the table view of their own
 * calibration; the first frame of each other-angle clip (Task4) is not the view of the main
 * camera's calibration, and no calibration is solved on it (the table runs out of the frame).
 */
export async function evalGate(mainFrames: string[], otherClips: number): Promise<GateResult> {
  const { buildViewModel, checkView } = await import('../../src/calibration/viewGate.js');
  const table = builtinProfile('snooker');
  let mainAccepted = 0, mainTotal = 0;
  let model: ReturnType<typeof buildViewModel> | null = null;
  for (const p of mainFrames) {
    const f = await readStill(p);
    const r = calibrateFrame(f, { table });
    if (!r.ok) continue;
    mainTotal++;
    const m = buildViewModel(r.value.calibration);
    if (checkView(f, m).inView) mainAccepted++;
    model ??= m;
  }
  const { readVideoFrames } = await import('../../src/calibration/frames.js');
  const dir = join(REAL_DIR, 'bucharest-snooker-broadcast/train/Task4');
  const clips = readdirSync(dir).filter((f) => f.endsWith('.mp4')).sort((a, b) => parseInt(a) - parseInt(b)).slice(0, otherClips);
  let otherRejected = 0, otherUnsolved = 0;
  for (const c of clips) {
    const [first] = await readVideoFrames(join(dir, c), 0, 1, 0);
    const f = first!.frame;
    if (model && !checkView(f, model).inView) otherRejected++;
    if (!calibrateFrame(f, { table }).ok) otherUnsolved++;
  }
  return { mainAccepted, mainTotal, otherRejected, otherUnsolved, otherTotal: clips.length };
}
