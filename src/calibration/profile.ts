/**
 * The measured table profile a calibration can write back (`--write-table`): the profile it was
 * solved with, with what the frame measured in place of the defaults (today: the baulk line).
 * The bed size itself cannot be measured from one view (a homography has no absolute scale).
 */
import type { TableProfile } from '../core/table.js';
import type { Calibration } from './contract.js';

export function measuredProfile(cal: Calibration): TableProfile {
  const t: TableProfile = structuredClone(cal.table);
  const off = cal.checks?.baulkLineOffsetMm;
  if (off !== undefined && t.baulkLineY !== undefined) {
    const y = t.baulkLineY + off;
    for (const name of ['yellow', 'green', 'brown']) {
      const s = t.spots[name];
      if (s) t.spots[name] = { x: s.x, y };
    }
    t.baulkLineY = y;
    t.name = `${t.name}-measured`;
  }
  return t;
}
