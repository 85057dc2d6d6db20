/** The event stage: tracks (table mm, per frame) → strokes with sub-frame contact timing. */
export { eventParams, eventParamsSchema, type EventParams, type EventParamsInput } from './params.js';
export { analyseStroke, buildPaths, cueBallOf, linesOf, radiusOfBall, type StrokeAnalysis, type StrokeWindow } from './detect.js';
export { bridgeDropouts, seriesToStrokes, tracksToStrokes, type SeriesHeader, type StrokesResult, type TracksToStrokesOptions } from './strokes.js';
export { buildSeries, motionSpans, Presence, SeriesBuilder, type BallSeries, type MotionSpan, type Series } from './series.js';
export { segmentPath, kinksOf, type Kink, type Segment } from './segments.js';
