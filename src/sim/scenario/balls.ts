/** Physics balls from listed positions, with each game's sizes and masses. */
import type { TableProfile } from '../../core/table.js';
import { makeBall, type BallState, type PhysicsParams } from '../physics/index.js';
import type { Pos } from './aim.js';
import { radiusOf } from './layouts.js';

export function makeBalls(list: readonly Pos[], table: TableProfile, p: PhysicsParams, orient?: Map<string, [number, number, number, number]>): BallState[] {
  return list.map((b) => {
    const cue = b.id === 'white' || b.id === 'cue' || b.id === 'striker';
    const ball = makeBall(b.id, b.x, b.y, radiusOf(table, b.id), cue ? p.cueBallMassG : p.ballMassG);
    const q = orient?.get(b.id);
    if (q) ball.q = [...q] as [number, number, number, number];
    return ball;
  });
}

