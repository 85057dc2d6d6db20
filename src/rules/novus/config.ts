/**
 * Novus rule options: where the sources disagree (spec §14) the log's `variant` picks a profile and
 * `config` may override single switches. Every key is checked; an unknown key is an error naming it.
 */
import { z } from 'zod';
import type { InputErrorInfo } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';

export const NOVUS_VARIANTS = ['standard', 'na'] as const;
export type NovusVariant = (typeof NOVUS_VARIANTS)[number];

export const novusConfigSchema = z
  .object({
    /** Seed 003 rule 11.4(в): side edge then an own pawn in the centre circle is a correct rebound. */
    sideBankToCircleDark: z.boolean(),
    /** Seed 003 rule 11.4(б) read strictly: a far-edge rebound onto an own dark pawn is N-P6 while P has light pawns. */
    farEdgeOnlyWithoutLight: z.boolean(),
    /** UK-N i read strictly (Q7): a rebound must touch the far edge (or side edge → circle pawn). */
    reboundMustTouchFarEdge: z.boolean(),
    /** NA only (Q6): an own pawn driven off the board costs a penalty pawn (N-P18). */
    ownPawnOffPenalty: z.boolean(),
    /** NA only (Q8): a direct stroke that knocks a pawn into its owner's dark field is N-P19. */
    knockIntoDarkPenalty: z.boolean(),
    /**
     * Return line (Q2): `seed` — seed 003 rule 12.9, applies unless the striker has any dark pawn;
     * `na` — applies on direct strokes while the striker has a light pawn; `off`.
     */
    returnLine: z.enum(['seed', 'na', 'off']),
    /** Sets in the match (the competition regulations decide, seed 003 rule 12.1). */
    maxSets: z.number().int().min(1).max(99),
    /** Set wins that end the match early. */
    setsToWin: z.number().int().min(1).max(99),
    /** Who strikes first in the next set: alternate with the previous set's first striker, or the loser/winner of the set. */
    nextSetFirstStrike: z.enum(['alternate', 'loser', 'winner']),
    /** Contacts of the striker closer in time than this (s) are simultaneous (spec τ_tie). */
    tieS: z.number().min(0).max(0.1),
    /** Events with `conf` below this become review flags rather than calls. */
    minConf: z.number().min(0).max(1),
  })
  .strict();
export type NovusConfig = z.infer<typeof novusConfigSchema>;

const STANDARD: NovusConfig = {
  sideBankToCircleDark: true,
  farEdgeOnlyWithoutLight: false,
  reboundMustTouchFarEdge: false,
  ownPawnOffPenalty: false,
  knockIntoDarkPenalty: false,
  returnLine: 'seed',
  maxSets: 7,
  setsToWin: 4,
  nextSetFirstStrike: 'alternate',
  tieS: 0.002,
  minConf: 0.5,
};

/** `na`: the North-American lineage (novussadventure.com): N-P18 and N-P19 on, NA's return line. */
const PRESETS: Record<NovusVariant, NovusConfig> = {
  standard: STANDARD,
  na: { ...STANDARD, ownPawnOffPenalty: true, knockIntoDarkPenalty: true, returnLine: 'na' },
};

export function resolveConfig(variant: string | undefined, raw: Record<string, unknown> | undefined): Result<{ variant: NovusVariant; config: NovusConfig }, InputErrorInfo> {
  const v = variant ?? 'standard';
  if (!(NOVUS_VARIANTS as readonly string[]).includes(v)) {
    return err({ code: 'UNKNOWN_VARIANT', field: 'variant', message: `unknown Novus variant '${v}': use one of ${NOVUS_VARIANTS.join(', ')}` });
  }
  const base = PRESETS[v as NovusVariant];
  const parsed = novusConfigSchema.partial().strict().safeParse(camelKeys(raw ?? {}));
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const key = issue.code === 'unrecognized_keys' ? (issue as { keys: string[] }).keys[0] : issue.path.join('.');
    return err({
      code: 'BAD_CONFIG',
      field: `config${key ? '.' + key : ''}`,
      message: issue.code === 'unrecognized_keys' ? `unknown Novus option '${key}' (known: ${Object.keys(STANDARD).join(', ')})` : `invalid Novus option: ${issue.message}`,
    });
  }
  const config = { ...base, ...Object.fromEntries(Object.entries(parsed.data).filter(([, x]) => x !== undefined)) } as NovusConfig;
  if (config.setsToWin > config.maxSets) {
    return err({ code: 'BAD_CONFIG', field: 'config.setsToWin', message: `setsToWin ${config.setsToWin} is more than maxSets ${config.maxSets}` });
  }
  return ok({ variant: v as NovusVariant, config });
}

/** The spec names its flags in snake_case (`knock_into_dark_penalty`); the contract's style is camelCase. Accept both. */
function camelKeys(raw: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(raw).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));
}
