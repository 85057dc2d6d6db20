/** The tracking stage: detections in table mm → one identity per ball (cueref.tracks/1 frames). */
export { assign } from './assignment.js';
export { DETECTION_CLASSES, idsOfKind, isSingleBallClass, kindOfClass, kindOfId, kindsOf } from './classes.js';
export { emptyDetections, makeDetections, MAX_BLOB_TO_BALL_RADIUS, mapDetections, notOneBall, type DetectionFrame, type PixelDetection, type TableDetection, type TableDetections } from './detections.js';
export { initState, innovation, mahalanobis2, predict, speedOf, update, type KalmanState } from './kalman.js';
export { createTracker, trackerParams, trackerParamsSchema, type Tracker, type TrackerParams, type TrackerParamsInput } from './tracker.js';
