/**
 * Physical constants of the simulator, per game. All lengths in mm, times in s, so g = 9810 mm/s².
 * The values are typical published figures (Alciatore's "Pool and Billiards Physics" resources,
 * pooltool's defaults), not measurements of one table: a scenario may override any of them.
 */
import { z } from 'zod';
import type { GameId } from '../../core/games.js';

export interface PhysicsParams {
  /** Gravity, mm/s². */
  gMmPerS2: number;
  /**
   * Sliding friction ball–cloth (or disc–board). Raising it makes stun/screw wear off sooner
   * (the slide-to-roll transition happens after 2|u|/(7 μs g) s).
   */
  muSlide: number;
  /** Rolling resistance: a rolling ball decelerates at μr g, so it rolls v²/(2 μr g) mm. */
  muRoll: number;
  /** Spin (about the vertical) decay: dωz/dt = −(5 μsp g)/(2R). */
  muSpin: number;
  /** Normal restitution ball–ball (1 = elastic). Snooker/pool phenolic balls ≈ 0.93–0.98. */
  eBall: number;
  /** Ball–ball surface friction: the source of throw (cut-induced and spin-induced). */
  muBall: number;
  /** Normal restitution ball–cushion. */
  eCushion: number;
  /** Ball–cushion friction: how much side spin bends the rebound. */
  muCushion: number;
  /**
   * Squirt: with side the cue ball leaves off the cue line, away from the side used, by this
   * angle at full side (tip R/2 off centre), degrees; proportional below. Real cues: 1–3°.
   */
  squirtDegAtFullSide: number;
  /** Pieces are flat discs sliding on a board (Novus): no rolling, no spin. */
  discs: boolean;
  /**
   * Time step ceiling, s. The motion between steps is exact (constant accelerations between state
   * changes); events inside a step are found by solving for the contact time, so the step only
   * bounds the error of the linear contact-time solve (≈ a·dt²/8, 10⁻⁵ mm at 0.1 ms).
   */
  maxStepS: number;
  /** Stop a stroke that has not come to rest after this long (a guard, never reached in play). */
  maxStrokeS: number;
  /** Mass of an object ball (pawn), g, and of the cue ball (striker). */
  ballMassG: number;
  cueBallMassG: number;
}

const base = {
  gMmPerS2: 9810,
  maxStepS: 1e-4,
  maxStrokeS: 60,
};

export function defaultPhysics(game: GameId): PhysicsParams {
  switch (game) {
    case 'snooker':
      // Napped snooker cloth is a little slower than pool baize.
      return { ...base, muSlide: 0.2, muRoll: 0.012, muSpin: 0.0095, eBall: 0.95, muBall: 0.05, eCushion: 0.78, muCushion: 0.2, squirtDegAtFullSide: 2, discs: false, ballMassG: 142, cueBallMassG: 142 };
    case 'pool8':
      return { ...base, muSlide: 0.2, muRoll: 0.01, muSpin: 0.0095, eBall: 0.95, muBall: 0.06, eCushion: 0.8, muCushion: 0.2, squirtDegAtFullSide: 2, discs: false, ballMassG: 163, cueBallMassG: 163 };
    case 'novus':
      // Powdered board: discs glide; the striker is heavier than a pawn (larger disc, same thickness).
      return { ...base, muSlide: 0.17, muRoll: 0.17, muSpin: 0, eBall: 0.9, muBall: 0, eCushion: 0.75, muCushion: 0, squirtDegAtFullSide: 0, discs: true, ballMassG: 10, cueBallMassG: 14 };
  }
}

const unit = z.number().min(0).max(1);
export const physicsOverrideSchema = z
  .object({
    muSlide: z.number().positive().max(1),
    muRoll: z.number().positive().max(1),
    // Positive: without spin decay a ball with side would never come to rest.
    muSpin: z.number().positive().max(1),
    eBall: unit,
    muBall: z.number().min(0).max(1),
    eCushion: unit,
    muCushion: z.number().min(0).max(1),
    squirtDegAtFullSide: z.number().min(0).max(10),
    maxStepS: z.number().positive().max(1e-3),
    maxStrokeS: z.number().positive().max(600),
    ballMassG: z.number().positive(),
    cueBallMassG: z.number().positive(),
  })
  .partial()
  .strict();
export type PhysicsOverride = z.infer<typeof physicsOverrideSchema>;
