/** Scenarios: the format, opening layouts, aiming, the stroke finder and the runner. */
export { aimAngleRad, cutAngleAim, pocketTarget, potCutDeg, type Pos } from './aim.js';
export { makeBalls } from './balls.js';
export { findStroke, snookerTest, tryStroke, type FinderContext, type FoundStroke } from './finder.js';
export { allBallIds, cueBallId, defaultCueBallPlace, radiusOf, SNOOKER_COLOURS, spot, standardLayout, type PlacedBall } from './layouts.js';
export { checkExpectations, type ExpectFailure } from './expect.js';
export { respotPosition } from './respot.js';
export { resolveTable, runScenario, type HandMove, type Recording, type RefereeFn, type RunOptions, type SimStroke } from './run.js';
export { parseScenario, scenarioSchema, type Aim, type Goal, type Scenario, type ScenarioStroke } from './schema.js';
