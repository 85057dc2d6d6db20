/**
 * Rule profiles (spec §9, §10): one set of flags per named rule book, chosen by the log's `variant`
 * and fine-tuned by the log's `config` (any flag below, by name). WPA-2025 is the default; every
 * other profile is the WPA flags with the differences its rule book makes.
 */
import { z } from 'zod';
import { POCKETS, type PocketId } from '../../core/games.js';
import type { InputErrorInfo } from '../../core/errors.js';
import { err, ok, type Result } from '../../core/result.js';

export const ZONES = ['anywhere', 'kitchen', 'baulk'] as const;
export type InHandZone = (typeof ZONES)[number];

const pocket = z.enum(POCKETS);

export const flagsSchema = z.object({
  /** `wpa`: American 8-ball (calls, open table until a called pot). `blackball`: UK rules (visits, free shot, no calls). */
  family: z.enum(['wpa', 'blackball']),
  /** WPA edition: 2025 adds the open-table claim of a cleared group and widens the break-foul options (spec §5 B2, §8.2). */
  edition: z.union([z.literal(2016), z.literal(2025)]),
  /** Which shots need a called pocket: `all` (WPA call shot), `eight` (only the 8: APA, Latin rules), `none` (blackball). */
  callMode: z.enum(['all', 'eight', 'none']),
  /** With no call entered, infer one for an obvious shot (spec §3.2 OBVIOUS_ASSIST). Off = a missing call is no call. */
  inferObviousCalls: z.boolean(),
  /** Legal break: `rails4` (4 distinct object balls to a rail, or a pot; WPA), `centre2` (2 balls over the centre string, or a pot; blackball), `cushions4` (WEPF), `points3` (IEPF: 1 per pot + 1 per ball past the centre line). */
  breakRule: z.enum(['rails4', 'centre2', 'cushions4', 'points3']),
  /** Where the incoming player places the cue ball after a foul on the break. */
  breakFoulZone: z.enum(ZONES),
  /** Where the incoming player places the cue ball after a standard foul. */
  foulZone: z.enum(ZONES),
  /** Fouls other than a scratch only pass the turn; the cue ball stays where it lies (bar, South America, Pakistan). */
  foulsWithoutBih: z.boolean(),
  /** After a standard foul the cue ball may be taken in hand in `foulZone` or played where it lies (blackball: from baulk or as it lies). */
  inHandOptional: z.boolean(),
  /** Visits the incoming player gets after a foul (blackball: 2 = free shot + visit; Pakistan/India: two shots). */
  visitsAfterFoul: z.number().int().min(1).max(2),
  /** Visits after a foul when the incoming player is on the 8 (two shots become one once the table is cleared). */
  visitsAfterFoulOnEight: z.number().int().min(1).max(2),
  /** The first shot after a foul is a free shot: any ball may be hit and potted first (blackball). */
  freeShot: z.boolean(),
  /** After the shooter's group is cleared, a foul that does not pocket the 8 gives the opponent this many visits (India: 2; 0 = the standard foul). */
  postClearFoulVisits: z.number().int().min(0).max(2),
  /** Three consecutive fouls (by either player) once a player is on the 8: stalemate, re-rack (Russia). */
  threeFoulsStalemate: z.boolean(),
  /** The 8 pocketed on the break: `options` (WPA B1/B2), `rerack` (blackball: the same breaker breaks again), `wins` (APA, bar). */
  eightOnBreak: z.enum(['options', 'rerack', 'wins']),
  /** With `eightOnBreak: wins`, the 8 on the break together with a scratch loses instead. */
  eightOnBreakWithScratchLoses: z.boolean(),
  /** A cue-ball scratch while on the 8 loses even when the 8 stays up (APA, bar, Canada). */
  scratchOnEightLoses: z.boolean(),
  /** Failing to hit the 8 first while on it loses (Canada; the referee may excuse a block: review). */
  missEightLoses: z.boolean(),
  /** Pocketing an opponent's ball while on the 8 loses (Canada). */
  opponentBallOnEightLoses: z.boolean(),
  /** Three failed shots at the 8 in a row lose (Canada). */
  threeFailedEightLoses: z.boolean(),
  /** Pocketing balls of both groups on one shot is a foul (Canada `split`). */
  splitFoul: z.boolean(),
  /** The cue ball contacting the same object ball twice is a foul (Canada). */
  doubleKissFoul: z.boolean(),
  /** The 8 must go in the pocket where the shooter's last group ball went (Latin America, North Africa). */
  lastPocket: z.boolean(),
  /** Ball 1 and ball 15 must each go in their own side pocket (South America, North Africa); otherwise a foul. */
  ball1And15Pockets: z.object({ one: pocket, fifteen: pocket }).nullable(),
  /** On a foul the opponent's lowest-numbered ball is pocketed for him; the cue ball stays (Brazil). */
  foulPocketsOpponentLowest: z.boolean(),
  /** A break that pots more of one group gives the breaker that group (USA bar). */
  breakAssignsGroup: z.boolean(),
  /** Pocketing both groups on the shot that decides groups lets the shooter choose (`calledBall`/`nominated` says which; seed 004, APA). */
  bothGroupsChoose: z.boolean(),
  /** Blackball: potting balls of both colours leaves the table open. */
  bothGroupsStayOpen: z.boolean(),
  /** A ball that bounces out of a pocket still counts as pocketed (seed 004; WPA says no). */
  bounceOutCounts: z.boolean(),
  /** Jump shots are fouls (blackball). */
  jumpIsFoul: z.boolean(),
  /** Potting an opponent's ball is a foul (blackball). */
  opponentBallFoul: z.boolean(),
  /** …unless a ball of the shooter's own group is potted on the same shot (some blackball texts). */
  opponentBallFoulUnlessOwn: z.boolean(),
  /** Object balls that leave the table are respotted on the long string (blackball); WPA leaves them out. */
  offTableRespot: z.boolean(),
  /** An object ball driven off the table is a foul (WPA 3.5). Pakistan (seed 004): no penalty, the ball is just put back. */
  offTableFoul: z.boolean(),
  /** A called shot that is not made is a foul (no ball in hand where fouls pass the turn): USA bar, seed 004 §USA. */
  missedCallFoul: z.boolean(),
  /** Once only the 8 is left on the table, any foul by a player on it loses (India, seed 004). */
  foulLosesWhenOnlyEight: z.boolean(),
  /** The 8 off the table after the break: loss (WPA L-d). Blackball respots it instead (a foul). */
  eightOffTableLoses: z.boolean(),
  /** If the 8 blocks, a player on the 8 may nominate an opponent ball to hit; potting it loses (New Zealand). */
  nominateWhenBlocked: z.boolean(),
  /** Who breaks the next rack. */
  breakOrder: z.enum(['alternate', 'winner', 'loser']),
  /** A ball hanging on the lip that drops within this window after it stopped counts as pocketed on the stroke (WPA R 2.2). */
  hangingWindowS: z.number().positive().max(60),
  /** Contacts (and a cushion before contact) within this many seconds are simultaneous (spec τ_tie). */
  tieS: z.number().min(0).max(0.1),
});
export type Pool8Flags = z.infer<typeof flagsSchema>;

export const WPA_2025: Pool8Flags = {
  family: 'wpa',
  edition: 2025,
  callMode: 'all',
  inferObviousCalls: true,
  breakRule: 'rails4',
  breakFoulZone: 'kitchen',
  foulZone: 'anywhere',
  foulsWithoutBih: false,
  inHandOptional: false,
  visitsAfterFoul: 1,
  visitsAfterFoulOnEight: 1,
  freeShot: false,
  postClearFoulVisits: 0,
  threeFoulsStalemate: false,
  eightOnBreak: 'options',
  eightOnBreakWithScratchLoses: false,
  scratchOnEightLoses: false,
  missEightLoses: false,
  opponentBallOnEightLoses: false,
  threeFailedEightLoses: false,
  splitFoul: false,
  doubleKissFoul: false,
  lastPocket: false,
  ball1And15Pockets: null,
  foulPocketsOpponentLowest: false,
  breakAssignsGroup: false,
  bothGroupsChoose: false,
  bothGroupsStayOpen: false,
  bounceOutCounts: false,
  jumpIsFoul: false,
  opponentBallFoul: false,
  opponentBallFoulUnlessOwn: false,
  offTableRespot: false,
  offTableFoul: true,
  missedCallFoul: false,
  foulLosesWhenOnlyEight: false,
  eightOffTableLoses: true,
  nominateWhenBlocked: false,
  breakOrder: 'alternate',
  hangingWindowS: 5,
  tieS: 0.002,
};

const BLACKBALL: Pool8Flags = {
  ...WPA_2025,
  family: 'blackball',
  callMode: 'none',
  inferObviousCalls: false,
  breakRule: 'centre2',
  breakFoulZone: 'baulk',
  foulZone: 'baulk',
  inHandOptional: true,
  visitsAfterFoul: 2,
  visitsAfterFoulOnEight: 2,
  freeShot: true,
  eightOnBreak: 'rerack',
  bothGroupsStayOpen: true,
  jumpIsFoul: true,
  opponentBallFoul: true,
  offTableRespot: true,
  eightOffTableLoses: false,
};

/** Profiles by canonical name. The doc (docs/rules-pool8.md) lists each with its source. */
export const PROFILES: Readonly<Record<string, Pool8Flags>> = {
  wpa: WPA_2025,
  wpa2016: { ...WPA_2025, edition: 2016 },
  // APA: only the 8 is called (and must be marked), 8 on the break wins, scratch on the 8 loses.
  apa: { ...WPA_2025, callMode: 'eight', inferObviousCalls: false, eightOnBreak: 'wins', eightOnBreakWithScratchLoses: true, scratchOnEightLoses: true, bothGroupsChoose: true, breakFoulZone: 'anywhere' },
  // USA bar "straight eight": call shot, fouls without a scratch just pass the turn, a scratch gives the kitchen.
  bar: { ...WPA_2025, inferObviousCalls: false, foulsWithoutBih: true, foulZone: 'kitchen', eightOnBreak: 'wins', eightOnBreakWithScratchLoses: true, scratchOnEightLoses: true, breakAssignsGroup: true, missedCallFoul: true },
  blackball: BLACKBALL,
  wepf: { ...BLACKBALL, freeShot: false, breakRule: 'cushions4' },
  iepf: { ...BLACKBALL, freeShot: false, visitsAfterFoul: 1, visitsAfterFoulOnEight: 1, breakRule: 'points3', foulZone: 'anywhere', inHandOptional: false },
  // Seed 004's own baseline (the article's general rules): only the 8 is called, a player who pots
  // both groups chooses, a ball that bounces out still counts, a scratch while on the 8 loses.
  seed004: { ...WPA_2025, callMode: 'eight', inferObviousCalls: false, bothGroupsChoose: true, bounceOutCounts: true, scratchOnEightLoses: true },
  canada: { ...WPA_2025, scratchOnEightLoses: true, missEightLoses: true, opponentBallOnEightLoses: true, threeFailedEightLoses: true, splitFoul: true, doubleKissFoul: true },
  latinamerica: { ...WPA_2025, callMode: 'eight', lastPocket: true, foulZone: 'kitchen' },
  brazil: { ...WPA_2025, callMode: 'eight', foulsWithoutBih: true, foulZone: 'kitchen', foulPocketsOpponentLowest: true },
  southamerica: { ...WPA_2025, callMode: 'eight', lastPocket: true, foulsWithoutBih: true, ball1And15Pockets: { one: 'MR', fifteen: 'ML' } },
  northafrica: { ...WPA_2025, callMode: 'eight', lastPocket: true, foulsWithoutBih: true, foulZone: 'kitchen', ball1And15Pockets: { one: 'ML', fifteen: 'MR' } },
  india: { ...WPA_2025, postClearFoulVisits: 2, foulLosesWhenOnlyEight: true },
  pakistan: { ...WPA_2025, foulsWithoutBih: true, foulZone: 'kitchen', visitsAfterFoul: 2, visitsAfterFoulOnEight: 1, offTableRespot: true, offTableFoul: false },
  russia: { ...WPA_2025, threeFoulsStalemate: true },
  newzealand: { ...BLACKBALL, foulZone: 'kitchen', breakFoulZone: 'kitchen', nominateWhenBlocked: true },
};

/** Spellings users write for the same profile (`WPA-2025`, `standard`, `UK`, `Latin America`…). */
const ALIASES: Readonly<Record<string, string>> = {
  standard: 'wpa',
  eightball: 'wpa',
  '8ball': 'wpa',
  pool8: 'wpa',
  bca: 'wpa',
  uk8ball: 'blackball',
  canadian: 'canada',
  brazilian: 'brazil',
  indian: 'india',
  pakistani: 'pakistan',
  southamerican: 'southamerica',
  northafrican: 'northafrica',
  wpa2025: 'wpa',
  wpa8ball: 'wpa',
  wpa2008: 'wpa2016',
  usabar: 'bar',
  usa: 'bar',
  latin: 'latinamerica',
  straighteight: 'bar',
  uk: 'blackball',
  epa: 'blackball',
  wpablackball: 'blackball',
  pub: 'blackball',
  international: 'iepf',
  mexico: 'latinamerica',
  latam: 'latinamerica',
  nz: 'newzealand',
  russian: 'russia',
  wikipedia: 'seed004',
  seed: 'seed004',
  pul8: 'seed004',
  ukblackball: 'blackball',
  blackballwpa: 'blackball',
  epapub: 'blackball',
  ukpub: 'blackball',
  english: 'blackball',
  englishpool: 'blackball',
  americanpoolplayersassociation: 'apa',
  apaleague: 'apa',
  barbox: 'bar',
  barpool: 'bar',
  barroom: 'bar',
  newzealander: 'newzealand',
  southafrica: 'blackball',
  worldpoolbilliardassociation: 'wpa',
  americanbar: 'bar',
};

/**
 * A variant not found as written: drop the words a rule book's title adds ("8-ball", "rules",
 * "pool"), then take the longest profile name or alias the rest begins with ("APA 8-ball rules" →
 * `apa`, "Russia (seed 004)" → `russia`, "WPA 8-Ball 2016" → `wpa2016`).
 */
function looseVariant(key: string): string | undefined {
  const bare = key.replace(/eightball|8ball|pool8|rulesofplay|rules|rule|edition|version|pool|billiards|game/g, '');
  const known = (k: string) => PROFILES[k] ? k : ALIASES[k];
  if (bare && known(bare)) return known(bare);
  // WPA editions before 2025 (2008, 2010, 2016…) share the rules this module switches on 2016.
  const year = /^wpa(\d{4})$/.exec(bare)?.[1];
  if (year) return Number(year) >= 2025 ? 'wpa' : 'wpa2016';
  const names = [...Object.keys(PROFILES), ...Object.keys(ALIASES)].filter((n) => n.length >= 2 && bare.startsWith(n)).sort((a, b) => b.length - a.length);
  return names[0] ? known(names[0]) : undefined;
}

export const VARIANT_NAMES: readonly string[] = [...Object.keys(PROFILES), ...Object.keys(ALIASES)];

export interface Pool8Profile {
  /** Canonical profile name (`wpa`, `blackball`…). */
  name: string;
  flags: Pool8Flags;
  /** `config` keys that are no rule flag (match settings, other tools' keys): ignored, reported for review. */
  ignoredConfig: string[];
}

const normalise = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The spec's §10 flag names (`scratch_on_8_loses`…), each a boolean that sets the flags it stands for. */
const SPEC_FLAGS: Readonly<Record<string, (on: boolean) => Partial<Pool8Flags>>> = {
  eightonbreakwins: (on) => ({ eightOnBreak: on ? 'wins' : 'options' }),
  eightonbreakwithscratchloses: (on) => ({ eightOnBreakWithScratchLoses: on }),
  scratchon8loses: (on) => ({ scratchOnEightLoses: on }),
  miss8loses: (on) => ({ missEightLoses: on }),
  oppballon8loses: (on) => ({ opponentBallOnEightLoses: on }),
  threefailedcallson8loses: (on) => ({ threeFailedEightLoses: on }),
  splitfoul: (on) => ({ splitFoul: on }),
  doublekissfoul: (on) => ({ doubleKissFoul: on }),
  lastpocket: (on) => ({ lastPocket: on }),
  bihkitchenonly: (on) => ({ foulZone: on ? 'kitchen' : 'anywhere' }),
  foulswithoutbih: (on) => ({ foulsWithoutBih: on }),
  twoshotsafterfoul: (on) => (on ? { visitsAfterFoul: 2, visitsAfterFoulOnEight: 1 } : { visitsAfterFoul: 1, visitsAfterFoulOnEight: 1 }),
  ball1and15pockets: (on) => ({ ball1And15Pockets: on ? { one: 'MR', fifteen: 'ML' } : null }),
  indiapostclearfoul: (on) => ({ postClearFoulVisits: on ? 2 : 0 }),
  russiapostclearfoul: (on) => ({ threeFoulsStalemate: on }),
  nzdandnomination: (on) => (on ? { nominateWhenBlocked: true, foulZone: 'kitchen' } : { nominateWhenBlocked: false }),
  brazilfoulopplowestball: (on) => ({ foulPocketsOpponentLowest: on }),
  breakassignsgroup: (on) => ({ breakAssignsGroup: on }),
  bothgroupschoose: (on) => ({ bothGroupsChoose: on }),
};

/** Spec settings with a value rather than on/off. */
const SPEC_SETTINGS: Readonly<Record<string, (v: unknown) => Partial<Pool8Flags> | null>> = {
  callmode: (v) => (typeof v === 'string' && ['explicit', 'obviousassist'].includes(normalise(v)) ? { inferObviousCalls: normalise(v) === 'obviousassist' } : null),
  breakorder: (v) => (typeof v === 'string' && ['alternate', 'winner', 'loser'].includes(v.toLowerCase()) ? { breakOrder: v.toLowerCase() as Pool8Flags['breakOrder'] } : null),
};

const FLAG_BY_KEY: Readonly<Record<string, keyof Pool8Flags>> = Object.fromEntries(Object.keys(flagsSchema.shape).map((k) => [normalise(k), k as keyof Pool8Flags]));

/**
 * The log's `variant` (absent = WPA) and `config` → the profile, or an error naming the field.
 * `config` takes this module's flags (any spelling: `scratchOnEightLoses`, `scratch_on_eight_loses`)
 * and the spec's §10 names (`scratch_on_8_loses: true`); other keys are ignored and reported.
 */
export function resolveProfile(variant: string | undefined, config: Record<string, unknown> | undefined): Result<Pool8Profile, InputErrorInfo> {
  const key = variant === undefined ? 'wpa' : normalise(variant);
  const name = PROFILES[key] ? key : (ALIASES[key] ?? looseVariant(key));
  if (!name) {
    return err({
      code: 'UNKNOWN_VARIANT',
      field: 'variant',
      message: `unknown pool8 variant '${variant}': use one of ${Object.keys(PROFILES).join(', ')} (or leave it out for WPA)`,
    });
  }
  const base = PROFILES[name]!;
  const direct: Record<string, unknown> = {};
  const rawKeyOf: Record<string, string> = {};
  let fromSpec: Partial<Pool8Flags> = {};
  const ignoredConfig: string[] = [];
  for (const [k, v] of Object.entries(config ?? {})) {
    const nk = normalise(k);
    const flag = FLAG_BY_KEY[nk];
    if (SPEC_FLAGS[nk] && (typeof v === 'boolean' || !flag)) {
      if (typeof v !== 'boolean') return err({ code: 'BAD_CONFIG', field: `config.${k}`, message: `pool8 rule flag ${k} must be true or false, got ${JSON.stringify(v)}` });
      fromSpec = { ...fromSpec, ...SPEC_FLAGS[nk]!(v) };
    } else if (SPEC_SETTINGS[nk]) {
      const set = SPEC_SETTINGS[nk]!(v);
      if (!set) return err({ code: 'BAD_CONFIG', field: `config.${k}`, message: `invalid value ${JSON.stringify(v)} for ${k} (call_mode: EXPLICIT|OBVIOUS_ASSIST; break_order: ALTERNATE|WINNER|LOSER)` });
      fromSpec = { ...fromSpec, ...set };
    } else if (flag) {
      direct[flag] = v;
      rawKeyOf[flag] = k;
    } else {
      ignoredConfig.push(k);
    }
  }
  const parsed = flagsSchema.partial().safeParse(direct);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const [head, ...rest] = issue.path.map(String);
    const path = [head !== undefined ? (rawKeyOf[head] ?? head) : undefined, ...rest].filter((x) => x !== undefined).join('.');
    return err({ code: 'BAD_CONFIG', field: path ? `config.${path}` : 'config', message: `invalid pool8 rule flag: ${issue.message} (flags: docs/rules-pool8.md)` });
  }
  const overrides = Object.fromEntries(Object.entries(parsed.data).filter(([, v]) => v !== undefined));
  return ok({ name, flags: { ...base, ...fromSpec, ...overrides } as Pool8Flags, ignoredConfig });
}

export type { PocketId };
