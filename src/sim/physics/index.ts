/** The table physics: ball state, the stroke simulator and the table geometry it runs on. */
export { accelOf, isMoving, kineticEnergy, slip, type BallState, type Placement } from './ball.js';
export { collideBalls, collideCushion } from './collide.js';
export { simulate, smallestGap, type Exit, type PhysEvent, type Sample, type SampledBall, type SimulateOptions, type StrokeRun, type StrokeScript } from './engine.js';
export { buildTableGeom, depthPastMouth, type PocketGeom, type Segment, type TableGeom } from '../../core/tableGeometry.js';
export { defaultPhysics, physicsOverrideSchema, type PhysicsOverride, type PhysicsParams } from './params.js';
export { makeBall, strikeBall, type StrikeSpec } from './strike.js';
