/**
 * The spec's configuration options (rules-snooker.md). EBSA-2004 options are off by default; the
 * log's `variant: "ebsa-2004"` turns them on. Every option can be set in the log's `config`.
 */
import { z } from 'zod';

export const snookerConfigSchema = z
  .object({
    /** EBSA-2004: a player needing 4+ snookers with only colours left loses the frame. */
    ebsaFourSnookers: z.boolean().default(false),
    /** How "snookers needed" is counted for that option: divide by 7, or by max(4, ball-on value). */
    fourSnookersDivisor: z.enum(['seven', 'ballOn']).default('seven'),
    /** EBSA-2004: after a third foul-and-miss from a total snooker, the incoming player may play from hand. */
    ebsaThirdMissInHand: z.boolean().default(false),
    /** Respot order with several colours (spec Q8): own free spots first, or strictly by value. */
    respotOrder: z.enum(['ownFirst', 'valueFirst']).default('ownFirst'),
    /** Colours other than pink/black with no room towards the top cushion (spec Q5): search down the line. */
    respotSearchDown: z.boolean().default(true),
    /** ε_place: a spot is occupied when a centre is closer than 2R + this, mm. */
    placeEpsMm: z.number().min(0).max(20).default(0.5),
    /** A cue ball within this of the D line is in; within ±3 mm the call is flagged for review. */
    inDEpsMm: z.number().min(0).max(20).default(1),
    inDReviewBandMm: z.number().min(0).max(50).default(3),
    /** A ball whose centre is within 2R + this of the cue ball is proposed as touching. */
    touchingGapMm: z.number().min(0).max(10).default(1.5),
    /** Contacts of the cue ball within this of its first contact are simultaneous, s (τ_tie). */
    tieWindowS: z.number().min(0).max(0.1).default(0.002),
    /** Below this the call on a snooker or a clear path is flagged (margin), mm. */
    geometryMarginMm: z.number().min(0).max(20).default(2),
    /** Grid step when testing every point of the D for a cue ball in hand, mm. */
    dGridStepMm: z.number().min(1).max(50).default(5),
    /** A ball slower than this at the strike is at rest (v_stop), mm/s. */
    stopSpeedMmPerS: z.number().min(0).max(100).default(3),
    /** A ball that came to rest over a pocket and drops later than this after it stopped there fell on its own (spec §3.1, §10.2), s. */
    hangingWaitS: z.number().min(0).max(60).default(5),
    /** Events with a confidence below this are flagged for review. */
    reviewConfidence: z.number().min(0).max(1).default(0.8),
    /** Respot placed further than this from its target raises RESPOT_DEVIATION, mm. */
    respotDeviationMm: z.number().min(0).max(50).default(3),
    /** Frame awarded after a third miss or conduct: add the table's value to the opponent's score, or replace it. */
    awardScoring: z.enum(['add', 'replace']).default('add'),
  })
  .strict();

export type SnookerConfig = z.infer<typeof snookerConfigSchema>;

export const SNOOKER_VARIANTS = ['standard', 'wpbsa', 'ebsa-2004'] as const;

export function configFor(variant: string | undefined, raw: unknown) {
  const base = variant === 'ebsa-2004' ? { ebsaFourSnookers: true, ebsaThirdMissInHand: true } : {};
  return snookerConfigSchema.safeParse({ ...base, ...(raw as object | undefined) });
}
