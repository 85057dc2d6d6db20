/**
 * What the physics hands the renderer and the truth writers: the state of every ball at one
 * instant. Positions in table mm; `z` is the height of the ball's centre above the cloth (R on the
 * bed; more while jumping; falling below 0 into a pocket).
 */
import type { GameId } from '../core/games.js';

export type TrackState = 'rest' | 'moving' | 'occluded' | 'pocketed' | 'offTable';

export interface BallSnapshot {
  id: string;
  x: number;
  y: number;
  z: number;
  vx: number;
  vy: number;
  state: TrackState;
  /** Rotation of the ball's texture (pool numbers, Novus is flat), as a unit quaternion [w, x, y, z]. */
  orientation?: [number, number, number, number];
}

export interface FrameSnapshot {
  /** Frame index and time (s) from the start of the recording. */
  i: number;
  t: number;
  balls: BallSnapshot[];
  /** Hands, arms, cues and bodies over the table this frame (renderer draws them as occluders). */
  occluders?: Occluder[];
}

export type Occluder =
  | { kind: 'cue'; from: [number, number, number]; to: [number, number, number]; radiusMm: number }
  | { kind: 'body'; centre: [number, number, number]; radiusMm: number }
  | { kind: 'hand'; centre: [number, number, number]; radiusMm: number };

export interface SimulatedRecording {
  game: GameId;
  fps: number;
  frames: FrameSnapshot[];
}
