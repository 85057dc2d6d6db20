/**
 * Ground truth: tracks and strokes in the contracts, the true calibration maps image points back
 * onto the table, and the same scenario gives byte-identical files.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { strokeLogSchema } from '../../../src/core/contracts/strokes.js';
import { applyH, type Mat3 } from '../../../src/core/mat3.js';
import { presetCamera, project, undistortPixel } from '../../../src/sim/camera.js';
import { parseScenario, runScenario } from '../../../src/sim/scenario/index.js';
import { snapshotAt, truthStrokes, truthTracks } from '../../../src/sim/truth.js';

const dir = join(import.meta.dirname, '../../../samples/scenarios');
const load = (name: string) => parseScenario(JSON.parse(readFileSync(join(dir, `${name}.json`), 'utf8')), name);

describe('truth files', () => {
  const s = load('snooker-in-off-S07');
  const rec = runScenario(s, { sampleDtS: 1 / 240 });
  const cam = presetCamera('overhead', rec.table, { width: 1280, height: 720 });

  it('the stroke log is a valid cueref.strokes/1 with before, rest, paths and the physics events', () => {
    const log = truthStrokes(rec);
    expect(strokeLogSchema.safeParse(log).success).toBe(true);
    const st = log.strokes[0]!;
    expect(st.events.map((e) => e.type)).toEqual(['strike', 'contact', 'pot', 'pot']);
    expect(st.events[2]).toMatchObject({ ball: 'red1', pocket: 'TR' });
    expect(st.before!.map((b) => b.id)).toContain('white');
    expect(st.rest!.map((b) => b.id)).not.toContain('white');
    expect(st.paths!.white!.length).toBeGreaterThan(10);
  });

  it('tracks: a frame every 1/fps, every ball with its state; the white is pocketed after the pot', () => {
    const tr = truthTracks(rec, cam, 30);
    expect(tr.frames.length).toBe(Math.floor(rec.durationS * 30) + 1);
    expect(tr.frames[10]!.t).toBeCloseTo(10 / 30, 5);
    const potT = rec.strokes[0]!.run.exits.find((e) => e.id === 'white')!.t;
    const after = tr.frames.find((f) => f.t > potT + 0.1)!;
    expect(after.balls.find((b) => b.id === 'white')!.state).toBe('pocketed');
    const during = tr.frames.find((f) => f.t > rec.strokes[0]!.tStrike + 0.05)!;
    expect(during.balls.find((b) => b.id === 'white')!.state).toBe('moving');
    expect(during.balls.find((b) => b.id === 'black')).toMatchObject({ x: 889, y: 3245, state: 'rest' });
  });

  it('the true calibration maps a ball centre seen in the image back to its table position', () => {
    const tr = truthTracks(rec, cam, 30);
    const H = tr.calibration.ballCentreToTable as Mat3;
    const Hc = tr.calibration.imageToTable as Mat3;
    for (const [x, y] of [[889, 3245], [100, 200], [1700, 1784.5]] as const) {
      const px = project(cam, x, y, 26.25)!;
      const [u, v] = undistortPixel(cam, px[0], px[1]);
      const [tx, ty] = applyH(H, u, v);
      expect(Math.hypot(tx - x, ty - y)).toBeLessThan(0.01);
      const cloth = project(cam, x, y, 0)!;
      const [cu, cv] = undistortPixel(cam, cloth[0], cloth[1]);
      const [cx, cy] = applyH(Hc, cu, cv);
      expect(Math.hypot(cx - x, cy - y)).toBeLessThan(0.01);
    }
  });

  it('snapshots carry occluders: the cue before the strike, a hand at placements', () => {
    const st = rec.strokes[0]!;
    expect(snapshotAt(rec, 0, st.tStrike - 0.2).occluders?.some((o) => o.kind === 'cue')).toBe(true);
    const r2 = runScenario(load('pool8-hand-touch-P27'), { sampleDtS: 1 / 240 });
    const m = r2.strokes[0]!.moves[0]!;
    expect(snapshotAt(r2, 0, m.t + 0.1).occluders?.some((o) => o.kind === 'hand')).toBe(true);
  });

  it('the same scenario gives byte-identical truth', () => {
    const again = runScenario(load('snooker-in-off-S07'), { sampleDtS: 1 / 240 });
    expect(JSON.stringify(truthStrokes(again))).toBe(JSON.stringify(truthStrokes(rec)));
    expect(JSON.stringify(truthTracks(again, cam, 30))).toBe(JSON.stringify(truthTracks(rec, cam, 30)));
  });
});
