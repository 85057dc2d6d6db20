/**
 * Ball centres fitted to the outlines (src/detection/centres.ts), on frames drawn here with balls
 * at known sub-pixel centres: anti-aliased, shaded (bright core, dark limb, as a lamp lights
 * them), on a cloth with noise.
 */
import { describe, expect, test } from 'vitest';
import { fitCentres, refineCentres } from '../../src/detection/centres.js';
import type { Rgb } from '../../src/detection/preprocess.js';
import { mulberry32 } from '../../src/core/random.js';
import { readStill } from '../../src/calibration/frames.js';
import { join } from 'node:path';

const CLOTH = [20, 140, 35] as const;
const RED = [200, 25, 25] as const;
const W = 200, H = 120;

interface Drawn {
  u: number;
  v: number;
  r: number;
  colour: readonly number[];
  /** Motion blur along u, px (the ball drawn at this many positions over the span). */
  blurPx?: number;
}

/**
 * A frame of cloth with the balls drawn by 4×4 supersampling, the limb 0.8 of the core's
 * brightness (as the renders have it: a white ball's 255 falls to 204–214 at its edge).
 */
function drawFrame(balls: readonly Drawn[], noise = 3, seed = 1, cue?: { from: [number, number]; to: [number, number]; halfWidthPx: number; colour: readonly number[] }): Rgb {
  const rand = mulberry32(seed);
  const rgb = new Uint8Array(W * H * 3);
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const acc = [0, 0, 0];
      for (let sy = 0; sy < 4; sy++) {
        for (let sx = 0; sx < 4; sx++) {
          const px = x - 0.375 + sx * 0.25, py = y - 0.375 + sy * 0.25;
          let c: readonly number[] = CLOTH;
          if (cue) {
            // A cue lying over the cloth: within its half width of the segment.
            const [ax, ay] = cue.from, [bx, by] = cue.to;
            const t = Math.max(0, Math.min(1, ((px - ax) * (bx - ax) + (py - ay) * (by - ay)) / ((bx - ax) ** 2 + (by - ay) ** 2)));
            if (Math.hypot(px - ax - t * (bx - ax), py - ay - t * (by - ay)) <= cue.halfWidthPx) c = cue.colour;
          }
          for (const b of balls) {
            const steps = b.blurPx ? 7 : 1;
            let hit = 0, shade = 0;
            for (let k = 0; k < steps; k++) {
              const bu = b.u + (steps > 1 ? ((k / (steps - 1)) - 0.5) * b.blurPx! : 0);
              const q = Math.hypot(px - bu, py - b.v) / b.r;
              if (q <= 1) (hit++, (shade += 1 - 0.2 * q * q));
            }
            if (hit) {
              const cover = hit / steps, s = shade / hit;
              c = c.map((ch, j) => ch * (1 - cover) + b.colour[j]! * s * cover);
            }
          }
          for (let j = 0; j < 3; j++) acc[j]! += c[j]!;
        }
      }
      for (let j = 0; j < 3; j++) rgb[(y * W + x) * 3 + j] = Math.max(0, Math.min(255, Math.round(acc[j]! / 16 + (rand() - 0.5) * 2 * noise)));
    }
  }
  return { width: W, height: H, rgb };
}

const R = 8.2;
const det = (b: Drawn, du: number, dv: number) => ({ u: b.u + du, v: b.v + dv, r: R * 0.93 });

describe('fitCentres: ball centres from their outlines', () => {
  test('lone balls placed 1.5 px off come back to within 0.1 px of where they are drawn', () => {
    const balls: Drawn[] = [
      { u: 40.3, v: 30.7, r: R, colour: RED },
      { u: 120.55, v: 60.2, r: R, colour: [240, 240, 230] },
      { u: 160.8, v: 90.45, r: R, colour: [15, 15, 15] },
    ];
    const frame = drawFrame(balls);
    const fits = fitCentres(frame, [det(balls[0]!, 1.5, -0.8), det(balls[1]!, -1.2, 1.1), det(balls[2]!, 0.9, 1.4)]);
    fits.forEach((f, i) => {
      expect(f.used).toBe(true);
      expect(Math.hypot(f.u - balls[i]!.u, f.v - balls[i]!.v)).toBeLessThan(0.1);
      // The outline's radius as the half level sees it.
      expect(f.freeRadius).toBeGreaterThan(R - 0.6);
      expect(f.freeRadius).toBeLessThan(R + 0.3);
    });
  });

  test('a ball touching another is fitted to the arc away from it (the rays into the other ball are left out)', () => {
    const a: Drawn = { u: 80.4, v: 60.3, r: R, colour: [240, 240, 230] };
    const b: Drawn = { u: a.u + 2 * R, v: 60.3, r: R, colour: RED };
    const lone: Drawn = { u: 30.2, v: 25.6, r: R, colour: RED };
    const frame = drawFrame([a, b, lone], 3, 7);
    const fits = fitCentres(frame, [det(a, 1.2, 0.9), det(b, -1.4, -0.6), det(lone, 0.5, 0.5)]);
    for (const [i, truth] of [[0, a], [1, b]] as const) {
      expect(fits[i]!.used).toBe(true);
      expect(Math.hypot(fits[i]!.u - truth.u, fits[i]!.v - truth.v)).toBeLessThan(0.15);
      // Not the whole outline: the side against the other ball has no cloth edge.
      expect(fits[i]!.arcShare).toBeLessThan(0.9);
    }
    // The gap the referee reads: touching within a tenth of a pixel (0.3 mm at 720p overhead).
    expect(Math.abs(Math.hypot(fits[1]!.u - fits[0]!.u, fits[1]!.v - fits[0]!.v) - 2 * R)).toBeLessThan(0.2);
  });

  test('a pack: a ball surrounded keeps the network centre, a ball at its edge is fitted to its outer arc; a ball the colour of the cloth keeps its centre; a ball smeared by motion is placed at its mid-exposure centre', () => {
    // A hexagon of six round a seventh, all touching.
    const c = { u: 70.3, v: 60.6 };
    const pack: Drawn[] = [{ ...c, r: R, colour: RED }];
    for (let k = 0; k < 6; k++) pack.push({ u: c.u + 2 * R * Math.cos((k * Math.PI) / 3), v: c.v + 2 * R * Math.sin((k * Math.PI) / 3), r: R, colour: RED });
    const blurred: Drawn = { u: 150.3, v: 30.4, r: R, colour: [240, 240, 230], blurPx: 9 };
    const faint: Drawn = { u: 150.6, v: 90.2, r: R, colour: [30, 150, 45] };
    // Two lone balls at rest (a frame's colours on their spots): their whole outlines give the
    // outline's radius the pack's half outlines are fitted with.
    const spots: Drawn[] = [{ u: 20.4, v: 100.3, r: R, colour: [240, 240, 230] }, { u: 110.7, v: 100.1, r: R, colour: [15, 15, 15] }];
    const frame = drawFrame([...pack, ...spots, blurred, faint], 3, 3);
    const rows = [...pack.map((b) => det(b, 0.7, 0.7)), ...spots.map((b) => det(b, -0.5, 0.5)), det(blurred, 0.8, -0.8), det(faint, 0.8, 0.8)];
    const fits = fitCentres(frame, rows);
    const out = refineCentres(frame, rows);
    // The middle ball touches six: no outline of its own against the cloth.
    expect(fits[0]!.used).toBe(false);
    expect(out[0]).toEqual(rows[0]);
    // Each outer ball touches three (the middle and two beside it): half its outline is cloth.
    for (let i = 1; i <= 6; i++) {
      expect(fits[i]!.used).toBe(true);
      expect(Math.hypot(out[i]!.u - pack[i]!.u, out[i]!.v - pack[i]!.v)).toBeLessThan(0.2);
    }
    // A green ball on green cloth: too little contrast to see an edge.
    const iFaint = rows.length - 1, iBlur = rows.length - 2;
    expect(fits[iFaint]!.used).toBe(false);
    expect(out[iFaint]).toEqual(rows[iFaint]);
    // Half the exposure covers a point one radius from the mid-exposure centre along the motion,
    // so the half-level outline is that centre's circle.
    expect(fits[iBlur]!.used).toBe(true);
    expect(Math.hypot(out[iBlur]!.u - blurred.u, out[iBlur]!.v - blurred.v)).toBeLessThan(0.1);
  });

  test('a lone ball with a cue lying against it: kept, or placed as well as the network (a cue over its edge is not its outline)', () => {
    const ball: Drawn = { u: 100.4, v: 60.2, r: R, colour: [20, 90, 70] };
    const spots: Drawn[] = [{ u: 30.3, v: 30.6, r: R, colour: RED }, { u: 170.5, v: 95.2, r: R, colour: RED }];
    // A light cue lying against the ball, over its edge along a third of its outline.
    const frame = drawFrame([ball, ...spots], 3, 5, { from: [60, 60.2 + R + 0.5], to: [140, 60.2 + R + 0.5], halfWidthPx: 1.5, colour: [225, 190, 140] });
    const rows = [det(ball, 0.6, -0.6), ...spots.map((b) => det(b, 0.4, 0.4))];
    const [fit] = refineCentres(frame, rows);
    expect(Math.hypot(fit!.u - ball.u, fit!.v - ball.v)).toBeLessThanOrEqual(Math.hypot(rows[0]!.u - ball.u, rows[0]!.v - ball.v));
    // The same ball with the cue away is fitted.
    const clear = fitCentres(drawFrame([ball, ...spots], 3, 5), rows);
    expect(clear[0]!.used).toBe(true);
    expect(Math.hypot(clear[0]!.u - ball.u, clear[0]!.v - ball.v)).toBeLessThan(0.15);
  });

  test('a rendered frame (S39 overhead, 25 fps, frame 16): the white fitted to within 0.2 px of the truth; the green on the baulk line, the cue beside it, not moved off', async () => {
    // The crop's origin in the frame was (284, 238); the network's detections there (models/detector,
    // blobs) and the truth projected through the rendering camera, in the crop's pixels.
    const frame = await readStill(join(import.meta.dirname, 'fixtures/s39-green-cue-overhead-25-f16.png'));
    const rows = [
      { u: 316.9 - 284, v: 270.4 - 238, r: 8.3 },
      { u: 458.2 - 284, v: 362.7 - 238, r: 7.6 },
    ];
    const truth = [
      { u: 316.75 - 284, v: 269.89 - 238 },
      { u: 459.13 - 284, v: 363.4 - 238 },
    ];
    const out = refineCentres(frame, rows);
    const off = (i: number, p: { u: number; v: number }) => Math.hypot(p.u - truth[i]!.u, p.v - truth[i]!.v);
    // The network had the white 1.2 px off (3.9 mm).
    expect(off(1, rows[1]!)).toBeGreaterThan(1);
    expect(off(1, out[1]!)).toBeLessThan(0.2);
    // A third of the green's rays meet the cue, the line or its shadow: fitted, it went 3.9 px
    // (11 mm) off and the tracker read the green as moved. It keeps the network's 0.5 px.
    expect(off(0, out[0]!)).toBeLessThan(0.6);
  });

  test('no detections, no fits; a ball at the frame edge does not throw', () => {
    const frame = drawFrame([{ u: 3, v: 60, r: R, colour: RED }]);
    expect(fitCentres(frame, [])).toEqual([]);
    const [f] = fitCentres(frame, [{ u: 3.5, v: 60, r: R }]);
    expect(Number.isFinite(f!.u)).toBe(true);
  });
});
