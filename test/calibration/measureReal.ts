/**
 * Prints the calibration figures on every frame of the real sets:
 *   npx tsx test/calibration/measureReal.ts [bern|bucharest|padova]...
 */
import { bucharestFrames, evalBern, evalBucharest, evalPadova, haveReal, REAL_DIR } from './realSets.js';

const median = (xs: number[]) => {
  const s = xs.filter(Number.isFinite).sort((a, b) => a - b);
  return s.length ? s[s.length >> 1]! : NaN;
};
const which = process.argv.slice(2);
const want = (s: string) => !which.length || which.includes(s);

if (!haveReal()) {
  console.log(`real footage not found at ${REAL_DIR}: nothing to measure`);
  process.exit(0);
}
if (want('bern')) {
  const r = await evalBern();
  for (const x of r) console.log(`bern ${x.image}: ${x.ok ? `median ${x.medianMm.toFixed(1)} mm, max ${Math.max(...x.errorsMm).toFixed(1)} mm, reproj ${x.reprojectionErrorMm.toFixed(2)} mm, end ${x.end}` : 'FAILED'}`);
  const all = r.flatMap((x) => x.errorsMm);
  console.log(`BERN: ${r.filter((x) => x.ok).length}/${r.length} calibrated; ball error median ${median(all).toFixed(2)} mm over ${all.length} balls; p90 ${[...all].sort((a, b) => a - b)[Math.floor(all.length * 0.9)]?.toFixed(1)} mm`);
}
if (want('bucharest')) {
  const r = await evalBucharest(bucharestFrames());
  for (const x of r) console.log(`bucharest ${x.image}: ${x.ok ? `spots on balls [${x.spotsOnBalls.join(' ')}], end ${x.end}, reproj ${x.reprojectionErrorMm.toFixed(2)} mm` : `FAILED ${x.message}`}`);
  const ok = r.filter((x) => x.ok);
  console.log(`BUCHAREST: ${ok.length}/${r.length} calibrated (${((100 * ok.length) / r.length).toFixed(1)} %); end from markings on ${ok.filter((x) => x.end === 'found').length}; ≥ 1 colour on its projected spot in ${ok.filter((x) => x.spotsOnBalls.length >= 1).length} frames, ≥ 2 in ${ok.filter((x) => x.spotsOnBalls.length >= 2).length}; colours seen on spots ${ok.reduce((s, x) => s + x.spotsOnBalls.length, 0)}`);
}
if (want('padova')) {
  const r = await evalPadova();
  for (const x of r) console.log(`padova ${x.image}: ${x.ok ? `IoU ${x.iou.toFixed(3)}` : 'FAILED'}`);
  const ok = r.filter((x) => x.ok);
  console.log(`PADOVA: ${ok.length}/${r.length} calibrated; outline IoU with the playing-field mask median ${median(ok.map((x) => x.iou)).toFixed(3)}, min ${Math.min(...ok.map((x) => x.iou)).toFixed(3)}; rail diamonds found on ${ok.filter((x) => x.diamonds).length}`);
}
if (want('gate')) {
  const { evalGate } = await import('./realSets.js');
  const g = await evalGate(bucharestFrames(), 100);
  console.log(`GATE: main view accepted ${g.mainAccepted}/${g.mainTotal}; other broadcast angles rejected ${g.otherRejected}/${g.otherTotal}, not calibrated (table runs out of frame) ${g.otherUnsolved}/${g.otherTotal}`);
}
