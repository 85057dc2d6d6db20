/**
 * Calibration figures on rendered frames, per game and camera kind, against the rendering camera:
 *   npx tsx test/calibration/measureSim.ts [randomCount]
 * Presets with the default look, then `randomCount` (default 4) random cameras and looks per kind
 * (held-out-style variation: pose, field of view, roll, lens, lighting, cloth, noise, TV overlay).
 * Pool and Novus errors are taken modulo the table's symmetry (their ends are not marked).
 */
import { builtinProfile, type TableProfile } from '../../src/core/table.js';
import { presetCamera, randomCamera, type Camera, type CameraKind } from '../../src/sim/camera.js';
import { Renderer, defaultLook, randomLook, type LookParams } from '../../src/sim/render/index.js';
import { frameOf, novusStart, pool8Rack, snookerOpening } from '../../src/sim/render/demoLayouts.js';
import { calibrateFrame } from '../../src/calibration/solve.js';
import { symmetricBedErrorsMm } from './helpers.js';

const randomCount = Number(process.argv[2] ?? 4);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

function render(table: TableProfile, cam: Camera, look: LookParams, seed: number) {
  const game = table.game;
  const balls = game === 'snooker' ? snookerOpening(table) : game === 'pool8' ? pool8Rack(table) : novusStart(table);
  const r = new Renderer({ game, table, camera: cam, look, seed }).render(frameOf(balls));
  return { width: r.width, height: r.height, rgb: r.rgb };
}

for (const name of ['snooker', 'pool8-9ft', 'novus'] as const) {
  const table = builtinProfile(name);
  for (const kind of ['overhead', 'broadcast', 'oblique'] as CameraKind[]) {
    const rows: string[] = [];
    const meds: number[] = [];
    let fails = 0, ends = 0, n = 0;
    for (let s = -1; s < randomCount; s++) {
      const cam = s < 0 ? presetCamera(kind, table) : randomCamera(kind, table, 1000 + s);
      const look = s < 0 ? defaultLook(table.game) : randomLook(table.game, 2000 + s);
      const frame = render(table, cam, look, 7 + s);
      n++;
      const r = calibrateFrame(frame, { table });
      if (!r.ok) {
        fails++;
        rows.push(`  ${s < 0 ? 'preset' : `seed ${s}`}: FAILED ${r.error.code} (${r.error.message})`);
        continue;
      }
      const cal = r.value.calibration;
      const e = symmetricBedErrorsMm(cal, cam, table);
      meds.push(median(e));
      if (cal.end === 'found') ends++;
      rows.push(`  ${s < 0 ? 'preset' : `seed ${s}`}: median ${median(e).toFixed(2)} mm, p95 ${e[Math.floor(e.length * 0.95)]!.toFixed(1)} mm, reported ${cal.reprojectionErrorMm.toFixed(2)} mm, lens ${cal.distortion ? cal.distortion.k1.toFixed(3) : '-'} (true k1 ${cam.k1.toFixed(3)}), end ${cal.end}`);
    }
    console.log(`${name} ${kind}: ${n - fails}/${n} solved, median of medians ${meds.length ? median(meds).toFixed(2) : '-'} mm, worst ${meds.length ? Math.max(...meds).toFixed(2) : '-'} mm${table.game === 'snooker' ? `, end from markings ${ends}/${n - fails}` : ''}`);
    for (const r of rows) console.log(r);
  }
}
