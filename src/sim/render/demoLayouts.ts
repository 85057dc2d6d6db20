/**
 * Hand-built ball layouts for the renderer's tests, docs and bench: known positions without the
 * physics (the standard openings, plus a few balls in motion).
 */
import type { TableProfile } from '../../core/table.js';
import type { BallSnapshot, FrameSnapshot } from '../types.js';

const rest = (id: string, x: number, y: number, R: number): BallSnapshot => ({ id, x, y, z: R, vx: 0, vy: 0, state: 'rest' });

/** Snooker opening: colours on their spots, reds in a triangle whose apex is 2 mm above the pink. */
export function snookerOpening(table: TableProfile): BallSnapshot[] {
  const R = table.ballDiameter / 2;
  const s = table.spots;
  const balls: BallSnapshot[] = [];
  for (const c of ['yellow', 'green', 'brown', 'blue', 'pink', 'black'] as const) balls.push(rest(c, s[c]!.x, s[c]!.y, R));
  // Apex red touches the pink plus a 2 mm gap; rows √3·R apart, balls in a row 2R apart.
  const apexY = s.pink!.y + 2 * R + 2;
  let k = 1;
  for (let row = 0; row < 5; row++) {
    for (let c = 0; c <= row; c++) {
      balls.push(rest(`red${k++}`, s.pink!.x + (c - row / 2) * 2 * R, apexY + row * Math.sqrt(3) * R, R));
    }
  }
  balls.push(rest('white', s.brown!.x - table.dRadius! * 0.45, s.brown!.y - table.dRadius! * 0.5, table.cueBallDiameter / 2));
  return balls;
}

/** 8-ball rack: apex on the foot spot, 8 in the middle of the third row; cue ball in the kitchen. */
export function pool8Rack(table: TableProfile): BallSnapshot[] {
  const R = table.ballDiameter / 2;
  const foot = table.spots.foot!;
  const order = [1, 9, 2, 10, 8, 3, 11, 4, 12, 5, 13, 6, 14, 7, 15];
  const balls: BallSnapshot[] = [];
  let k = 0;
  for (let row = 0; row < 5; row++) {
    for (let c = 0; c <= row; c++) {
      balls.push(rest(String(order[k++]), foot.x + (c - row / 2) * (2 * R + 0.5), foot.y + row * Math.sqrt(3) * (R + 0.25), R));
    }
  }
  balls.push(rest('cue', table.bed.width * 0.4, table.bed.length / 4 - 60, table.cueBallDiameter / 2));
  return balls;
}

/** Novus start: each player's 8 pawns against the far edge, 4 either side of the middle line. */
export function novusStart(table: TableProfile): BallSnapshot[] {
  const W = table.bed.width, L = table.bed.length;
  const r = table.ballDiameter / 2;
  const balls: BallSnapshot[] = [];
  for (let k = 0; k < 8; k++) {
    const off = (k < 4 ? -(k + 1) : k - 3) * 2 * r - Math.sign(k < 4 ? -1 : 1) * r;
    balls.push(rest(`a${k + 1}`, W / 2 + off, L - r, r));
    balls.push(rest(`b${k + 1}`, W / 2 - off, r, r));
  }
  balls.push(rest('striker', W / 2, 60, table.cueBallDiameter / 2));
  return balls;
}

export function frameOf(balls: BallSnapshot[], i = 0, fps = 30): FrameSnapshot {
  return { i, t: i / fps, balls };
}
