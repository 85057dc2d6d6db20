/**
 * Renderer behaviour: determinism, looks from seeds, motion blur, occlusion and overlay visibility,
 * pool and Novus pieces, shadows, noise level and JPEG degradation.
 */
import { describe, expect, test } from 'vitest';
import { builtinProfile } from '../../../src/core/table.js';
import { presetCamera, project } from '../../../src/sim/camera.js';
import { novusStart, pool8Rack, snookerOpening } from '../../../src/sim/render/demoLayouts.js';
import { jpegRoundTrip } from '../../../src/sim/render/imageIo.js';
import { buildOverlay, overlayCovers } from '../../../src/sim/render/overlay.js';
import { ballClass, defaultLook, mulberry32, randomCueBallSpots, randomLook, Renderer } from '../../../src/sim/render/index.js';
import { imageCentroid, measurementLook, rest } from './helpers.js';

const snooker = builtinProfile('snooker');
const R = snooker.ballDiameter / 2;
const W = snooker.bed.width, L = snooker.bed.length;
const camOver = presetCamera('overhead', snooker, { width: 640, height: 360 });

describe('looks', () => {
  test('randomLook is a function of the seed', () => {
    expect(randomLook('snooker', 42)).toEqual(randomLook('snooker', 42));
    expect(randomLook('snooker', 42)).not.toEqual(randomLook('snooker', 43));
  });

  test.each([1, 2, 3, 4, 5, 6, 7, 8])('randomLook(%i) stays in physical ranges', (seed) => {
    for (const game of ['snooker', 'pool8', 'novus'] as const) {
      const l = randomLook(game, seed);
      for (const c of [...l.clothRgb, ...l.railRgb, ...l.floorRgb]) expect(c).toBeGreaterThanOrEqual(0), expect(c).toBeLessThanOrEqual(255);
      expect(l.lights.length).toBeGreaterThanOrEqual(1);
      expect(l.exposureS).toBeGreaterThanOrEqual(0);
      expect(l.exposureS).toBeLessThanOrEqual(1 / 30);
      expect(l.noiseSigma).toBeGreaterThan(0);
      if (l.jpegQuality !== undefined) expect(l.jpegQuality).toBeGreaterThanOrEqual(55);
    }
  });

  test('mulberry32 is uniform enough: mean 0.5 ± 0.01 over 10⁵ draws', () => {
    const r = mulberry32(9);
    let s = 0;
    for (let k = 0; k < 1e5; k++) s += r();
    expect(s / 1e5).toBeCloseTo(0.5, 2);
  });
});

test('a non-finite ball position is an error naming the frame and ball', () => {
  const r = new Renderer({ game: 'snooker', table: snooker, camera: presetCamera('overhead', snooker, { width: 64, height: 36 }), look: defaultLook('snooker'), seed: 1 });
  expect(() => r.render({ i: 12, t: 0.4, balls: [rest('pink', NaN, 100, R)] })).toThrow("frame 12: ball 'pink' has a non-finite position");
  expect(() => r.render({ i: 0, t: 0, balls: [rest('purple', 100, 100, R)] })).toThrow(/unknown snooker ball id 'purple'/);
});

describe('determinism', () => {
  test('same inputs, same bytes; another seed, other noise', () => {
    const look = defaultLook('snooker');
    const balls = snookerOpening(snooker);
    const a = new Renderer({ game: 'snooker', table: snooker, camera: camOver, look, seed: 5 }).render({ i: 3, t: 0.1, balls });
    const b = new Renderer({ game: 'snooker', table: snooker, camera: camOver, look, seed: 5 }).render({ i: 3, t: 0.1, balls });
    const c = new Renderer({ game: 'snooker', table: snooker, camera: camOver, look, seed: 6 }).render({ i: 3, t: 0.1, balls });
    expect(Buffer.compare(Buffer.from(a.rgb), Buffer.from(b.rgb))).toBe(0);
    expect(Buffer.compare(Buffer.from(a.rgb), Buffer.from(c.rgb))).not.toBe(0);
    expect(a.labels).toEqual(c.labels);
    // Rendering into a caller's buffer gives the same bytes.
    const into = new Uint8Array(a.rgb.length).fill(7);
    const d = new Renderer({ game: 'snooker', table: snooker, camera: camOver, look, seed: 5 }).render({ i: 3, t: 0.1, balls }, [], into);
    expect(d.rgb).toBe(into);
    expect(Buffer.compare(Buffer.from(a.rgb), Buffer.from(into))).toBe(0);
  });
});

describe('motion blur', () => {
  const look = { ...measurementLook('snooker'), exposureS: 1 / 30 };
  const r = new Renderer({ game: 'snooker', table: snooker, camera: camOver, look, seed: 1 });
  const bg = r.tableImage();

  test('a ball moving at 3 m/s is smeared over speed × exposure, centred on its label', () => {
    // 3000 mm/s × 1/30 s = 100 mm of travel along y (image x under the overhead camera).
    const ball = { ...rest('red1', W / 2, L / 2, R), vy: 3000, state: 'moving' as const };
    const f = r.render({ i: 0, t: 0, balls: [ball] });
    const label = f.labels[0]!;
    const m = imageCentroid(f.rgb, bg, 640, 360, label.u, label.v, 40, 0, 215);
    expect(Math.hypot(m.u - label.u, m.v - label.v)).toBeLessThan(0.5);
    // Horizontal extent of the smear: pixels on the centre row with any coverage.
    let first = -1, last = -1;
    const j = Math.round(label.v);
    for (let i = 0; i < 640; i++) {
      if (f.rgb[(j * 640 + i) * 3]! > bg[(j * 640 + i) * 3]! + 8) {
        if (first < 0) first = i;
        last = i;
      }
    }
    const pxPerMm = (project(camOver, W / 2, L / 2 + 100, R)![0] - project(camOver, W / 2, L / 2, R)![0]) / 100;
    const expected = (100 + 2 * R) * pxPerMm;
    expect(last - first + 1).toBeGreaterThan(expected - 3);
    expect(last - first + 1).toBeLessThan(expected + 3);
    // Mean coverage is conserved: the smear holds one ball's worth of area.
    expect(m.areaPx).toBeCloseTo(Math.PI * label.r * label.r, -1);
  });

  test('history snapshots within the exposure are averaged; older ones are ignored', () => {
    const at = (x: number, t: number, i: number) => ({ i, t, balls: [rest('red1', W / 2, x, R)] });
    const f = r.render(at(L / 2, 1, 30), [at(L / 2 - 2000, 0.5, 15), at(L / 2 - 60, 1 - 1 / 60, 29)]);
    const label = f.labels[0]!;
    const m = imageCentroid(f.rgb, bg, 640, 360, label.u, label.v, 30, 0, 215);
    // Two poses (−60 mm and 0): the centroid sits half-way, 30 mm before the label.
    const mid = project(camOver, W / 2, L / 2 - 30, R)!;
    expect(Math.hypot(m.u - mid[0], m.v - mid[1])).toBeLessThan(0.5);
  });

  test('history centred on the frame time centres the smear on the label', () => {
    const at = (y: number, t: number, i: number) => ({ i, t, balls: [{ ...rest('red1', W / 2, y, R), vy: 3000, state: 'moving' as const }] });
    const e = 1 / 30;
    const hist = [-2, -1, 1, 2].map((k) => at(L / 2 + (3000 * k * e) / 4, 1 + (k * e) / 4, 30));
    const f = r.render(at(L / 2, 1, 30), hist);
    const label = f.labels[0]!;
    const m = imageCentroid(f.rgb, bg, 640, 360, label.u, label.v, 40, 0, 215);
    expect(Math.hypot(m.u - label.u, m.v - label.v)).toBeLessThan(0.5);
  });
});

describe('visibility', () => {
  const look = { ...defaultLook('snooker'), overlay: true };
  const cam = presetCamera('broadcast', snooker, { width: 640, height: 360 });
  const r = new Renderer({ game: 'snooker', table: snooker, camera: cam, look, seed: 2 });

  test('a ball under a hand is not visible, a pocketed ball has no label, a dropping one is not visible, a free ball is', () => {
    const f = r.render({
      i: 0,
      t: 0,
      balls: [
        rest('red1', W / 2, L * 0.3, R),
        rest('red2', W / 2, L / 2, R),
        { ...rest('red3', 0, 0, -40), state: 'pocketed' },
        { ...rest('red4', -20, L + 20, 5), state: 'pocketed' },
      ],
      occluders: [{ kind: 'hand', centre: [W / 2, L / 2, 120], radiusMm: 90 }],
    });
    const byId = Object.fromEntries(f.labels.map((l) => [l.id, l]));
    expect(byId.red1!.visible).toBe(true);
    expect(byId.red2!.visible).toBe(false);
    expect(byId.red3).toBeUndefined();
    expect(byId.red4!.visible).toBe(false);
  });

  test('a ball under the score bar is not visible', () => {
    // As on TV the bar sits over the near rail of the broadcast view; under the overhead camera it
    // covers the bottom cushion's side of the bed; the break box is right of the image centre.
    const over = new Renderer({ game: 'snooker', table: snooker, camera: camOver, look, seed: 2 });
    const f = over.render({ i: 0, t: 0, balls: [rest('white', W - 40, L / 2 + 330, R), rest('pink', W / 2, L / 2, R)] });
    const [white, pink] = f.labels;
    expect(white!.v).toBeGreaterThan(305);
    expect(white!.visible).toBe(false);
    expect(pink!.visible).toBe(true);
  });

  test('overlay styles: the snooker bar and the pool corner box with a shot clock', () => {
    const bar = buildOverlay('snooker', 1280, 720, 1, 'bar');
    // Bucharest's bar: about the middle half of the width, in the bottom tenth.
    expect(bar.x0).toBeGreaterThan(250);
    expect(bar.x0 + bar.w).toBeLessThan(1030);
    expect(bar.y0 + bar.h).toBeLessThan(720);
    expect(bar.y0).toBeGreaterThan(600);
    const corner = buildOverlay('pool8', 1024, 576, 1, 'corner');
    // Names box at the bottom left; the clock's centre (bottom middle) is dark, its rim green or grey.
    expect(overlayCovers(corner, 0.06 * 1024, corner.y0 + 6)).toBe(true);
    expect(overlayCovers(corner, 512, 0.9 * 576)).toBe(true);
    expect(overlayCovers(corner, 0.3 * 1024, corner.y0 + 6)).toBe(false);
  });

  test('occluders are drawn only when the look allows them', () => {
    const off = new Renderer({ game: 'snooker', table: snooker, camera: cam, look: { ...look, occluders: false, overlay: false }, seed: 2 });
    const f = off.render({ i: 0, t: 0, balls: [rest('red2', W / 2, L / 2, R)], occluders: [{ kind: 'hand', centre: [W / 2, L / 2, 120], radiusMm: 90 }] });
    expect(f.labels[0]!.visible).toBe(true);
  });
});

describe('pool and Novus pieces', () => {
  test('pool classes and rendered stripes: a stripe shows white and colour, a solid mostly colour', () => {
    expect(['cue', '1', '7', '8', '9', '15'].map((id) => ballClass('pool8', id))).toEqual(['cue', 'solid', 'solid', 'eight', 'stripe', 'stripe']);
    expect(() => ballClass('pool8', '16')).toThrow(/unknown pool8 ball id '16'/);
    const table = builtinProfile('pool8-9ft');
    const cam = presetCamera('overhead', table, { width: 640, height: 360 });
    const r = new Renderer({ game: 'pool8', table, camera: cam, look: measurementLook('pool8'), seed: 1 });
    // Rotated a quarter turn about x so the stripe band faces the camera across the ball's middle.
    const q: [number, number, number, number] = [Math.SQRT1_2, Math.SQRT1_2, 0, 0];
    const Rp = table.ballDiameter / 2;
    const f = r.render({ i: 0, t: 0, balls: [{ ...rest('11', 400, 800, Rp), orientation: q }, { ...rest('3', 800, 800, Rp), orientation: q }] });
    const countWhite = (id: string): number => {
      const l = f.labels.find((x) => x.id === id)!;
      let white = 0, n = 0;
      for (let j = Math.round(l.v - l.r * 0.8); j <= Math.round(l.v + l.r * 0.8); j++) {
        for (let i = Math.round(l.u - l.r * 0.8); i <= Math.round(l.u + l.r * 0.8); i++) {
          if ((i - l.u) ** 2 + (j - l.v) ** 2 > (l.r * 0.8) ** 2) continue;
          const p = (j * 640 + i) * 3;
          n++;
          if (f.rgb[p + 1]! > 200 && f.rgb[p + 2]! > 180) white++;
        }
      }
      return white / n;
    };
    // Band across the top, white caps at the sides: a good part of the stripe reads white, the
    // solid only shows its number disc's edge at the limb.
    expect(countWhite('11')).toBeGreaterThan(0.15);
    expect(countWhite('11')).toBeLessThan(0.8);
    expect(countWhite('3')).toBeLessThan(0.08);
  });

  test('a spotted cue ball shows its dots, which roll with it; the look without spots keeps a plain white', () => {
    const cam = presetCamera('overhead', snooker, { width: 1280, height: 720 });
    const look = { ...measurementLook('snooker'), cueBallSpots: randomCueBallSpots(mulberry32(3)) };
    const spots = look.cueBallSpots;
    // Six dots on the axes: with the identity orientation one faces the overhead camera (+z or −z).
    const six = { ...spots, dirs: [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]] as [number, number, number][], radiusRad: 0.3, rgb: [190, 25, 35] as [number, number, number] };
    const dotted = (o: [number, number, number, number] | undefined, withSpots: boolean): number => {
      const r = new Renderer({ game: 'snooker', table: snooker, camera: cam, look: withSpots ? { ...look, cueBallSpots: six } : measurementLook('snooker'), seed: 1 });
      const f = r.render({ i: 0, t: 0, balls: [{ ...rest('white', 900, 1800, R), ...(o ? { orientation: o } : {}) }, rest('red1', 400, 1800, R)] });
      const l = f.labels.find((x) => x.id === 'white')!;
      let red = 0;
      for (let j = Math.round(l.v - l.r); j <= Math.round(l.v + l.r); j++) {
        for (let i = Math.round(l.u - l.r); i <= Math.round(l.u + l.r); i++) {
          if ((i - l.u) ** 2 + (j - l.v) ** 2 > (l.r * 0.9) ** 2) continue;
          const p = (j * 1280 + i) * 3;
          if (f.rgb[p]! > 150 && f.rgb[p + 1]! < 90) red++;
        }
      }
      return red;
    };
    // A dot of 0.3 rad seen face on: π (0.3 R)² ≈ 14 px of red (R ≈ 7 px here).
    expect(dotted([1, 0, 0, 0], true)).toBeGreaterThan(8);
    // Turned 45° about x and then about z: no dot faces the camera squarely, two or three show at a slant.
    const c = Math.cos(Math.PI / 8), s = Math.sin(Math.PI / 8);
    expect(dotted([c * c, c * s, s * s, c * s], true)).toBeGreaterThan(0);
    expect(dotted([1, 0, 0, 0], false)).toBe(0);
    // The spots are the cue ball's alone, and drawn from the given rng.
    expect(randomCueBallSpots(mulberry32(3))).toEqual(spots);
    expect(spots.dirs.length).toBeGreaterThanOrEqual(6);
  });

  test('Novus discs have a hole: the board shows through at the centre of a pawn', () => {
    const table = builtinProfile('novus');
    const cam = presetCamera('overhead', table, { width: 640, height: 360 });
    const r = new Renderer({ game: 'novus', table, camera: cam, look: measurementLook('novus'), seed: 1 });
    const balls = novusStart(table);
    expect(balls.filter((b) => b.id.startsWith('a'))).toHaveLength(8);
    const f = r.render({ i: 0, t: 0, balls: [rest('b1', 500, 500, 16), rest('striker', 300, 500, 19)] });
    const bg = r.tableImage();
    const l = f.labels.find((x) => x.id === 'b1')!;
    expect(l.class).toBe('pawnB');
    const at = (u: number, v: number): number => f.rgb[(Math.round(v) * 640 + Math.round(u)) * 3]!;
    const bgAt = (u: number, v: number): number => bg[(Math.round(v) * 640 + Math.round(u)) * 3]!;
    // Centre: the hole (board colour); half-way out: the dark pawn.
    expect(Math.abs(at(l.u, l.v) - bgAt(l.u, l.v))).toBeLessThan(40);
    expect(at(l.u + l.r * 0.65, l.v)).toBeLessThan(80);
    const s = f.labels.find((x) => x.id === 'striker')!;
    expect(s.r).toBeGreaterThan(l.r * 1.1);
  });

  test('the 8-ball rack renders with every ball labelled and visible', () => {
    const table = builtinProfile('pool8-9ft');
    const cam = presetCamera('broadcast', table, { width: 512, height: 288 });
    const f = new Renderer({ game: 'pool8', table, camera: cam, look: defaultLook('pool8'), seed: 4 }).render({ i: 0, t: 0, balls: pool8Rack(table) });
    expect(f.labels).toHaveLength(16);
    expect(f.labels.every((l) => l.visible)).toBe(true);
    const counts = f.labels.reduce<Record<string, number>>((a, l) => ((a[l.class] = (a[l.class] ?? 0) + 1), a), {});
    expect(counts).toEqual({ solid: 7, stripe: 7, eight: 1, cue: 1 });
  });
});

describe('image statistics', () => {
  test('shadow: the cloth just beside a ball is darker than open cloth', () => {
    const look = { ...defaultLook('snooker'), noiseSigma: 0 };
    const r = new Renderer({ game: 'snooker', table: snooker, camera: camOver, look, seed: 1 });
    const f = r.render({ i: 0, t: 0, balls: [rest('red1', W / 2, L / 2, R)] });
    const bg = r.tableImage();
    const l = f.labels[0]!;
    // Darkening summed around the ball ring just outside the outline.
    let darker = 0, n = 0;
    for (let a = 0; a < 16; a++) {
      const u = Math.round(l.u + Math.cos((a * Math.PI) / 8) * (l.r + 1.5)), v = Math.round(l.v + Math.sin((a * Math.PI) / 8) * (l.r + 1.5));
      const p = (v * 640 + u) * 3 + 1;
      darker += bg[p]! - f.rgb[p]!;
      n++;
    }
    expect(darker / n).toBeGreaterThan(10);
  });

  test('sensor noise has the standard deviation the look asks for', () => {
    const look = { ...measurementLook('snooker'), noiseSigma: 4 };
    const r = new Renderer({ game: 'snooker', table: snooker, camera: camOver, look, seed: 1 });
    const f = r.render({ i: 7, t: 0, balls: [] });
    const bg = r.tableImage();
    let s = 0, s2 = 0, n = 0;
    for (let p = 1; p < f.rgb.length; p += 3 * 7) {
      if (bg[p]! < 20 || bg[p]! > 235) continue; // away from clamping
      const d = f.rgb[p]! - bg[p]!;
      s += d;
      s2 += d * d;
      n++;
    }
    const sd = Math.sqrt(s2 / n - (s / n) ** 2);
    expect(sd).toBeGreaterThan(3.8);
    expect(sd).toBeLessThan(4.3);
    expect(Math.abs(s / n)).toBeLessThan(0.2);
  });

  test('JPEG round trip keeps the frame shape and degrades it a little', async () => {
    const r = new Renderer({ game: 'snooker', table: snooker, camera: camOver, look: defaultLook('snooker'), seed: 1 });
    const f = r.render({ i: 0, t: 0, balls: snookerOpening(snooker) });
    const j = await jpegRoundTrip(f, 60);
    expect(j.length).toBe(f.rgb.length);
    let err = 0;
    for (let p = 0; p < j.length; p++) err += Math.abs(j[p]! - f.rgb[p]!);
    const mae = err / j.length;
    expect(mae).toBeGreaterThan(0.3);
    expect(mae).toBeLessThan(6);
  });
});
