/**
 * Parameters of the event stage, range-checked (zod) like every input. Each says what raising it
 * buys and what it costs; defaults suit ~1 mm position noise at 25–60 fps.
 */
import { z } from 'zod';
import { InputError } from '../core/errors.js';

export const eventParamsSchema = z
  .object({
    /**
     * A ball counts as moving once it is this far from where it rested, mm. Higher: fewer false
     * starts from noise and jitter; lower: earlier detection of slow touches. ~5σ of the noise.
     */
    moveThresholdMm: z.number().min(0.5).max(50).default(5),
    /**
     * Every ball within this of its own running mean for `atRestMs` means "stopped", mm.
     * Higher: strokes end sooner under noise; lower: slow creeping balls are not cut short.
     */
    restToleranceMm: z.number().min(0.5).max(30).default(3),
    /**
     * How long every ball must stay still before the stroke ends (T_still in rules-snooker §3.1), ms.
     * Higher: fewer strokes split by a ball pausing on a pocket edge; lower: faster calls live.
     */
    atRestMs: z.number().min(100).max(5000).default(700),
    /**
     * Largest gap between a fitted trajectory and a measured position that is still noise, mm.
     * Higher: fewer false kinks; lower: gentler deflections (thin cuts, soft cushions) are seen.
     */
    kinkToleranceMm: z.number().min(0.5).max(30).default(4),
    /**
     * Contact geometry: the centres must be 2R apart within this, mm (plus what the timing
     * uncertainty allows at the balls' speed). Higher: contacts found through worse tracks; lower:
     * fewer contacts with a ball that was only passed close by.
     */
    contactToleranceMm: z.number().min(0.5).max(40).default(6),
    /** Like `contactToleranceMm` for cushions (centre R from the cushion nose), mm. */
    cushionToleranceMm: z.number().min(0.5).max(40).default(8),
    /**
     * A ball that vanishes this close to a pocket's mouth (beyond half the opening) is potted, mm.
     * Higher: pots seen through late tracks; lower: fewer phantom pots from balls lost near a pocket.
     */
    potCaptureMm: z.number().min(0).max(200).default(40),
    /**
     * A ball whose centre is this far beyond where a ball against the cushion can be, inside a
     * pocket's reach, hangs over the hole: seen there shortly before it is lost, it was potted
     * there, mm. Higher: fewer pots read from noise along a cushion; lower: drops caught earlier.
     */
    overHoleMarginMm: z.number().min(0).max(30).default(8),
    /** Marking lines must be passed by this much to count as crossed (hysteresis), mm. */
    lineHysteresisMm: z.number().min(0).max(20).default(3),
    /** Balls at rest closer than 2R + this are touching candidates (rules-snooker §10.3: 1.5 mm). */
    touchingGapMm: z.number().min(0).max(10).default(1.5),
    /** Expected standard deviation of the measured positions, mm (sets confidences and tie windows). */
    noiseMm: z.number().min(0.05).max(20).default(1),
    /** Write `paths` (sampled positions of each moving ball) on every stroke. */
    paths: z.boolean().default(true),
  })
  .strict();

export type EventParams = z.infer<typeof eventParamsSchema>;
export type EventParamsInput = z.input<typeof eventParamsSchema>;

export function eventParams(raw: EventParamsInput = {}): EventParams {
  const parsed = eventParamsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new InputError({ code: 'BAD_EVENT_PARAMS', field: issue.path.join('.') || '(root)', message: `event parameter out of range: ${issue.message}` });
}
