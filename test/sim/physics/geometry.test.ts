/** The table the physics plays on, built from profiles: cushions between jaws, pockets, lines. */
import { describe, expect, it } from 'vitest';
import { builtinProfile, parseTableProfile } from '../../../src/core/table.js';
import { buildTableGeom, depthPastMouth } from '../../../src/sim/physics/index.js';

describe('table geometry from a profile', () => {
  it('snooker: six cushions between the jaw noses, two jaws per pocket, the baulk line', () => {
    const g = buildTableGeom(builtinProfile('snooker'));
    const cushions = g.segments.filter((s) => !s.jaw);
    expect(cushions.map((s) => s.id).sort()).toEqual(['bottom', 'left1', 'left2', 'right1', 'right2', 'top']);
    expect(g.segments.filter((s) => s.jaw)).toHaveLength(12);
    const bottom = cushions.find((s) => s.id === 'bottom')!;
    // Corner noses mouth/√2 from the corner: 84/√2 = 59.40 mm.
    expect(bottom.x0).toBeCloseTo(84 / Math.SQRT2, 9);
    expect(bottom.x1).toBeCloseTo(1778 - 84 / Math.SQRT2, 9);
    expect(bottom.nx + 0).toBe(0);
    expect(bottom.ny).toBe(1);
    const left1 = cushions.find((s) => s.id === 'left1')!;
    expect(left1.y1).toBeCloseTo(1784.5 - 43, 9);
    expect(g.pockets.map((p) => p.id).sort()).toEqual(['BL', 'BR', 'ML', 'MR', 'TL', 'TR']);
    expect(g.lines).toEqual([{ name: 'baulkLine', y: 737 }]);
  });

  it('every cushion normal points into the bed; jaw normals point into their pocket throat', () => {
    for (const name of ['snooker', 'pool8-9ft', 'pool8-7ft', 'novus'] as const) {
      const g = buildTableGeom(builtinProfile(name));
      for (const s of g.segments) {
        const mx = (s.x0 + s.x1) / 2, my = (s.y0 + s.y1) / 2;
        if (!s.jaw) expect((g.width / 2 - mx) * s.nx + (g.length / 2 - my) * s.ny).toBeGreaterThan(0);
        else {
          const pk = g.pockets.find((p) => p.id === s.jaw)!;
          expect((pk.mx - s.x0) * s.nx + (pk.my - s.y0) * s.ny).toBeGreaterThan(0);
        }
      }
    }
  });

  it('novus: four corner pockets only, four whole cushions; pool: head string and centre string', () => {
    const n = buildTableGeom(builtinProfile('novus'));
    expect(n.pockets.map((p) => p.id).sort()).toEqual(['BL', 'BR', 'TL', 'TR']);
    expect(n.segments.filter((s) => !s.jaw).map((s) => s.id).sort()).toEqual(['bottom', 'left', 'right', 'top']);
    expect(n.lines).toEqual([]);
    const p = buildTableGeom(builtinProfile('pool8-9ft'));
    expect(p.lines).toEqual([{ name: 'headString', y: 635 }, { name: 'centreLine', y: 1270 }]);
  });

  it('the drop line sits behind the mouth, along the pocket axis', () => {
    const g = buildTableGeom(builtinProfile('snooker'));
    const tr = g.pockets.find((p) => p.id === 'TR')!;
    expect(depthPastMouth(tr, tr.mx, tr.my)).toBeCloseTo(0, 9);
    expect(depthPastMouth(tr, 1778, 3569)).toBeCloseTo(42, 6); // the corner is mouth/2 behind the mouth line
    expect(depthPastMouth(tr, 889, 1784.5)).toBeLessThan(0);
  });

  it('a custom profile (10-ft table, wider pockets) changes the geometry', () => {
    const t = parseTableProfile({ format: 'cueref.table/1', game: 'snooker', bed: { width: 1600, length: 3200 }, pockets: { TR: { x: 1600, y: 3200, mouth: 100 } } });
    const g = buildTableGeom(t);
    const top = g.segments.find((s) => s.id === 'top')!;
    expect(top.x1).toBeCloseTo(1600 - 100 / Math.SQRT2, 9);
    expect(g.lines[0]!.y).toBeCloseTo((737 * 3200) / 3569, 9);
  });
});
