/**
 * The table's cushions as segments: cushions between the pocket jaws, short jaw segments leading
 * into each pocket, and a drop line per pocket — what the simulator's physics bounces balls off and
 * what the event stage reads jaw contacts against. Built from a cueref.table/1 profile, so any bed
 * size and pocket mouth works.
 *
 * Model (2-D, top-down): the cushion nose is the bed outline. A corner pocket's mouth (the
 * profile's `mouth`, measured between the jaw noses) cuts the corner at 45°: the noses sit
 * mouth/√2 from the corner on both cushions. A middle pocket's noses sit mouth/2 either side of the
 * pocket centre. From each nose a jaw runs back into the pocket, parallel to the pocket's axis;
 * a ball whose centre passes the mouth line by `dropDepthMm` falls.
 */
import type { CushionSide, PocketId } from './games.js';
import type { TableProfile } from './table.js';

export interface Segment {
  /** Stable id, e.g. `bottom`, `left1`, `jaw-BL-bottom`. */
  id: string;
  side: CushionSide;
  /** Set for a jaw segment: the pocket it belongs to. */
  jaw?: PocketId;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Unit normal pointing to the side balls play on. */
  nx: number;
  ny: number;
  /**
   * Whether the end points are rounded obstacles of their own. Jaw ends are (the jaw nose is where
   * a ball rattles); cushion ends coincide with jaw noses or meet another cushion in a concave
   * corner, so a hit on the nose is reported once, as the jaw.
   */
  ends: boolean;
}

export interface PocketGeom {
  id: PocketId;
  /** Pocket centre from the profile (on the bed outline). */
  x: number;
  y: number;
  /** Mouth midpoint (between the jaw noses). */
  mx: number;
  my: number;
  /** Unit axis pointing from the bed into the pocket. */
  ax: number;
  ay: number;
  /** The ball has fallen once its centre is this far past the mouth line along the axis. */
  dropDepthMm: number;
  /** Half the mouth width, mm. */
  halfMouthMm: number;
}

/** A marking line across the table (y = const) whose crossings are reported as `cross` events. */
export interface MarkLine {
  name: 'baulkLine' | 'headString' | 'centreLine';
  y: number;
}

export interface TableGeom {
  width: number;
  length: number;
  segments: Segment[];
  pockets: PocketGeom[];
  lines: MarkLine[];
}

const SQRT1_2 = Math.SQRT1_2;

export function buildTableGeom(table: TableProfile): TableGeom {
  const W = table.bed.width;
  const L = table.bed.length;
  const R = table.ballDiameter / 2;
  const jawLen = 2.5 * R;
  const segments: Segment[] = [];
  const pockets: PocketGeom[] = [];
  const p = table.pockets;
  // Distance of a corner pocket's nose from the corner along each cushion.
  const cornerNose = (id: PocketId) => (p[id] ? p[id]!.mouth * SQRT1_2 : 0);

  const seg = (id: string, side: CushionSide, x0: number, y0: number, x1: number, y1: number, towardX: number, towardY: number, jaw?: PocketId) => {
    const dx = x1 - x0, dy = y1 - y0;
    const len = Math.hypot(dx, dy);
    if (len < 1e-9) return;
    let nx = -dy / len, ny = dx / len;
    // Orient the normal towards a point on the playing side.
    if ((towardX - x0) * nx + (towardY - y0) * ny < 0) {
      nx = -nx;
      ny = -ny;
    }
    const s: Segment = { id, side, x0, y0, x1, y1, nx, ny, ends: jaw !== undefined };
    if (jaw) s.jaw = jaw;
    segments.push(s);
  };

  // Long cushions, split by the middle pockets when the table has them.
  const bl = cornerNose('BL'), br = cornerNose('BR'), tl = cornerNose('TL'), tr = cornerNose('TR');
  seg('bottom', 'bottom', bl, 0, W - br, 0, W / 2, L / 2);
  seg('top', 'top', tl, L, W - tr, L, W / 2, L / 2);
  for (const [side, x, mid, lo, hi] of [
    ['left', 0, p.ML, bl, tl],
    ['right', W, p.MR, br, tr],
  ] as const) {
    if (mid) {
      seg(`${side}1`, side, x, lo, x, mid.y - mid.mouth / 2, W / 2, L / 2);
      seg(`${side}2`, side, x, mid.y + mid.mouth / 2, x, L - hi, W / 2, L / 2);
    } else {
      seg(side, side, x, lo, x, L - hi, W / 2, L / 2);
    }
  }

  // Corner pockets: axis along the diagonal out of the corner.
  const corners: [PocketId, number, number, number, number][] = [
    ['BL', 0, 0, -1, -1],
    ['BR', W, 0, 1, -1],
    ['TL', 0, L, -1, 1],
    ['TR', W, L, 1, 1],
  ];
  for (const [id, cx, cy, sx, sy] of corners) {
    const pk = p[id];
    if (!pk) continue;
    const a = pk.mouth * SQRT1_2;
    // Noses on the short (bottom/top) and long (left/right) cushions.
    const nShortX = cx - sx * a, nShortY = cy;
    const nLongX = cx, nLongY = cy - sy * a;
    const ax = sx * SQRT1_2, ay = sy * SQRT1_2;
    const mx = (nShortX + nLongX) / 2, my = (nShortY + nLongY) / 2;
    const shortSide: CushionSide = cy === 0 ? 'bottom' : 'top';
    const longSide: CushionSide = cx === 0 ? 'left' : 'right';
    seg(`jaw-${id}-${shortSide}`, shortSide, nShortX, nShortY, nShortX + ax * jawLen, nShortY + ay * jawLen, mx, my, id);
    seg(`jaw-${id}-${longSide}`, longSide, nLongX, nLongY, nLongX + ax * jawLen, nLongY + ay * jawLen, mx, my, id);
    pockets.push({ id, x: pk.x, y: pk.y, mx, my, ax, ay, dropDepthMm: 0.35 * R, halfMouthMm: pk.mouth / 2 });
  }
  // Middle pockets: axis straight out of the long cushion.
  for (const [id, x, sx] of [
    ['ML', 0, -1],
    ['MR', W, 1],
  ] as const) {
    const pk = p[id];
    if (!pk) continue;
    const side: CushionSide = sx < 0 ? 'left' : 'right';
    const y0 = pk.y - pk.mouth / 2, y1 = pk.y + pk.mouth / 2;
    seg(`jaw-${id}-lower`, side, x, y0, x + sx * jawLen, y0, x, pk.y, id);
    seg(`jaw-${id}-upper`, side, x, y1, x + sx * jawLen, y1, x, pk.y, id);
    pockets.push({ id, x: pk.x, y: pk.y, mx: x, my: pk.y, ax: sx, ay: 0, dropDepthMm: 0.6 * R, halfMouthMm: pk.mouth / 2 });
  }
  // Lines the rules read crossings of: snooker's baulk line, pool's head string (kitchen) and centre
  // string (blackball break). Novus zone lines depend on the disc's hole, so the referee reads them
  // from the paths instead.
  const lines: MarkLine[] = [];
  if (table.game === 'snooker' && table.baulkLineY !== undefined) lines.push({ name: 'baulkLine', y: table.baulkLineY });
  if (table.game === 'pool8') {
    lines.push({ name: 'headString', y: table.headStringY ?? L / 4 });
    lines.push({ name: 'centreLine', y: L / 2 });
  }
  return { width: W, length: L, segments, pockets, lines };
}

/** Signed distance of a point past a pocket's mouth line, along the pocket axis (mm; > 0 = inside). */
export function depthPastMouth(pk: PocketGeom, x: number, y: number): number {
  return (x - pk.mx) * pk.ax + (y - pk.my) * pk.ay;
}
