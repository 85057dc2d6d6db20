/**
 * The ball tracker: detections in table mm per frame → one identity per ball (cueref.tracks/1
 * frames). Built from plugged-in parts with range-checked parameters (norfair's tracker.py): the
 * Kalman filter (./kalman.ts) predicts, the assignment (./assignment.ts) matches, the class model
 * (./classes.ts) keeps kinds and ids.
 *
 * One frame:
 *  1. predict every live track to the frame's time (rest tracks barely move, moving ones coast);
 *  2. stage 1: match by Mahalanobis distance within a χ² gate (a ball at rest: within 2R of its place);
 *  3. stage 2: what is left is matched by plain distance within what a ball can travel since it
 *     was last seen (`maxSpeedMmPerS`): a struck ball, a ball out of a collision, a ball found again
 *     after a player hid it (re-identification). Both stages run first with the detection's class
 *     agreeing with the track's kind, then, for what is left, with a class that disagrees at a
 *     price (not forbidden: a blurred red may look brown for a frame);
 *  4. tracks still unmatched were moving into a pocket (pocketed), off the bed (offTable), or are
 *     hidden (occluded: position predicted, never measured, so the event stage invents nothing);
 *  5. detections still unmatched (and not a ball read twice: within R of one taken) start
 *     tentative tracks, confirmed after `minHits` frames, their
 *     kind decided by the votes so far: a ball put on the table by hand, or a potted colour respotted
 *     (which takes its old id back).
 *
 * Kind by voting: every match votes for its detection's class, weighted by confidence and less when
 * the ball moves fast (motion blur makes colours unreliable). A confirmed track keeps its id; the
 * votes only decide new tracks.
 *
 * Positions written: at rest, the running mean of the measurements (noise averages out); moving,
 * the measurement itself — the event stage fits its own paths, and a filtered position would lag
 * behind every impulse and blur the contact times.
 */
import { z } from 'zod';
import type { TrackFrame, TrackStateName, TrackedBall } from '../core/contracts/tracks.js';
import { InputError } from '../core/errors.js';
import { cueBallId, POCKETS, type GameId } from '../core/games.js';
import { pocketHoleUnder, type TableProfile } from '../core/table.js';
import { assign } from './assignment.js';
import { idsOfKind, isSingleBallClass, kindOfClass, kindOfId, kindsOf, namedId } from './classes.js';
import type { DetectionFrame } from './detections.js';
import { initState, mahalanobis2, predict, speedOf, update, type KalmanState } from './kalman.js';

export const trackerParamsSchema = z
  .object({
    /** Standard deviation of a detection's position on the bed, mm. Higher: smoother, slower to follow. */
    measurementNoiseMm: z.number().min(0.1).max(30).default(1.5),
    /** Process noise at rest, mm/s². Higher: a nudged ball is followed sooner; rest positions noisier. */
    restProcessNoiseMmPerS2: z.number().min(0).max(1000).default(20),
    /** Process noise moving (friction, swerve), mm/s². Higher: wider gates, more confusion in clusters. */
    movingProcessNoiseMmPerS2: z.number().min(10).max(50000).default(4000),
    /** Stage-1 gate on the squared Mahalanobis distance (χ², 2 dof; 16 ≈ 99.97 %). */
    gateChi2: z.number().min(1).max(100).default(16),
    /** Extra stage-1 cost when the class disagrees with the track's kind (χ² units). */
    classMismatchChi2: z.number().min(0).max(100).default(25),
    /** Fastest ball (a power break), mm/s: bounds the stage-2 gate. Higher: more re-identification, more risk of swaps. */
    maxSpeedMmPerS: z.number().min(500).max(20000).default(9000),
    /** Extra stage-2 cost for a class that disagrees with the kind, mm. */
    classMismatchCostMm: z.number().min(0).max(1000).default(150),
    /** Frames a new ball must be seen in a row before it gets an id. Higher: fewer phantom balls; later placements. */
    minHits: z.number().int().min(1).max(30).default(3),
    /** A resting ball is moving once a detection is this far from its rest position, mm. */
    moveThresholdMm: z.number().min(0.5).max(50).default(5),
    /** A moving ball is at rest once its detections stay this close to their mean for `atRestMs`, mm. */
    restToleranceMm: z.number().min(0.5).max(30).default(3),
    /** How long a ball must stay still to be `rest` again, ms. */
    atRestMs: z.number().min(30).max(5000).default(300),
    /** A ball lost while moving this close to a pocket's opening (beyond half its mouth) is pocketed, mm. */
    pocketCaptureMm: z.number().min(0).max(200).default(40),
    /**
     * A moving ball must stay unseen this long near a pocket (or off the bed) before it is
     * `pocketed` (`offTable`), ms. Higher: fewer phantom pots when the detector misses a ball for a
     * frame or two; lower: the pot is reported sooner. Until then it is `occluded`.
     */
    lostAfterMs: z.number().min(0).max(2000).default(100),
    /**
     * Detections whose centre is further than this outside the bed are dropped, mm. A ball's
     * centre on the bed is at least R inside the cushion nose; one over a pocket's edge or
     * flying off is at most a little outside. Higher: balls leaving the table stay tracked longer;
     * lower: fewer false balls on rails and in pocket shadows.
     */
    offBedMarginMm: z.number().min(0).max(500).default(20),
    /**
     * A moving ball seen with its centre this far beyond where a ball against the cushion can
     * be, inside a pocket's reach, is over the hole; lost within `dropSeenMs` after that, it is
     * `pocketed` wherever the camera saw it last (a falling ball slides off the bed plane in the
     * picture), mm.
     */
    overHoleMarginMm: z.number().min(0).max(30).default(8),
    /** See `overHoleMarginMm`, ms. */
    dropSeenMs: z.number().min(0).max(2000).default(500),
    /** Deceleration of a moving ball while hidden (rolling resistance), mm/s². */
    coastDecelMmPerS2: z.number().min(0).max(10000).default(300),
    /**
     * Detections under this confidence are weak (the detector's `weakConf` lets them through): a
     * weak one only keeps a resting ball seen where it rests (class agreeing, inside the χ² gate),
     * or starts a ball of a one-ball kind no track holds when it is by far that class's strongest
     * peak in the frame (`weakDominance`) and not over a pocket. It never moves a ball, never starts
     * a red, never holds a moving ball (a pot must not be held off by a smudge in the jaw).
     */
    strongConf: z.number().min(0).max(1).default(0.3),
    /** A weak detection names a free one-ball kind only at this many times the class's next peak. */
    weakDominance: z.number().min(1).max(100).default(2),
    /**
     * …and only from this confidence: a lone weak peak is trivially its class's strongest (a 0.16
     * `blue` in a pocket's clutter, Bucharest Task2 clip 3, became a blue).
     */
    weakBirthConf: z.number().min(0).max(1).default(0.2),
    /**
     * A ball that rested (seen still on 10 frames) — at rest, or just struck, still within a
     * ball's width of where it lay — unseen this long, with bare cloth showing where it was seen
     * last (the frame's `bare` probe), is gone: no longer reported (`vanished`; the event stage
     * decides where it went). Hidden by a player, its place is not cloth and it stays `occluded`.
     * Lower: a struck ball's pot is seen sooner; higher: a ball missed while starting to move has
     * longer to be found again, ms.
     */
    vanishAfterMs: z.number().min(100).max(5000).default(600),
    /** Class votes weigh conf / (1 + speed / this): blur at speed makes colours unreliable, mm/s. */
    voteSpeedScaleMmPerS: z.number().min(10).max(100000).default(800),
    /**
     * A confirmed ball's kind is decided again when another kind's votes outweigh its own this many
     * times (`relabel`). Lower: a wrong first read is put right sooner, but a ball the detector
     * confuses under some light may flip.
     */
    relabelRatio: z.number().min(1.5).max(1000).default(4),
    /** …and that kind holds at least this much vote weight (≈ frames at rest × confidence). */
    relabelMinVotes: z.number().min(0).max(1000).default(5),
  })
  .strict();

export type TrackerParams = z.infer<typeof trackerParamsSchema>;
export type TrackerParamsInput = z.input<typeof trackerParamsSchema>;

export function trackerParams(raw: TrackerParamsInput = {}): TrackerParams {
  const parsed = trackerParamsSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new InputError({ code: 'BAD_TRACKER_PARAMS', field: issue.path.join('.') || '(root)', message: `tracker parameter out of range: ${issue.message}` });
}

interface Track {
  /** Assigned on confirmation; '' while tentative. */
  id: string;
  kind: string;
  kf: KalmanState;
  /** Time the filter state refers to, s. */
  kfT: number;
  moving: boolean;
  anchor: { x: number; y: number; n: number };
  lastSeenT: number;
  last: { x: number; y: number };
  hits: number;
  confirmed: boolean;
  votes: Map<string, number>;
  /** The strongest read of each kind so far. */
  firmest: Map<string, number>;
  named: Map<string, number>;
  /** Some vote was cast while it lay still (a sharp read); false for a ball born flying until it rests. */
  sharpRead: boolean;
  /** The class of the detection it was born from. */
  bornCls: string;
  /** Sightings while tentative ([frame i, x, y]), reported once with its first frame if it moves then (`trail`); null once reported. */
  trail: [number, number, number][] | null;
  /** Recent measurements while moving, for the return to rest. */
  recent: { t: number; x: number; y: number }[];
  /** Left the table (`vanished`: gone from where it was seen, not known where to; not reported). */
  gone: TrackStateName | 'vanished' | null;
  /** Confidence of the last matched detection. */
  conf: number;
  /** The track has been seen moving (a ball in play, not a flicker at one place). */
  everMoved: boolean;
  /** Last time it was seen moving over a pocket's hole, s (−∞: never). */
  overHoleT: number;
  /** Started from a weak detection (see `strongConf`): while tentative, only dominant weak ones keep it. */
  bornWeak: boolean;
  /** The id it had until its kind was decided again this frame (reported once, as `was`). */
  was?: string;
}

export interface Tracker {
  step(frame: DetectionFrame): TrackFrame;
  /** Ids currently on the table (not pocketed or off). */
  liveIds(): string[];
  /**
   * Start from a known table (a restarted process restoring its log): balls at rest with their
   * ids, and ids that have left the table, as of time `tS`. Only before the first frame. Without
   * it a fresh tracker would hand out ids in its own order — a potted red's id to a red still on
   * the table — and the restored frame would refuse the next stroke.
   */
  seed(onTable: readonly { id: string; x: number; y: number }[], gone: readonly string[], tS: number): void;
}

/** Frames a ball must have been seen resting at its place before bare cloth there can mean it is gone. */
const VANISH_MIN_REST_HITS = 10;
/** Cue-ball id handover on a spot (`handOverCueId`): the newcomer's read at least this strong, the holder's mean at most this, the holder within this of the spot, mm. */
const HANDOVER_MIN_CONF = 0.7;
const HANDOVER_MAX_HOLDER_CONF = 0.5;
const HANDOVER_SPOT_MM = 15;
/** A ball's votes for the cue ball need outweigh its own kind's only this many times while no ball holds the cue ball's id (see `relabel`). */
const CUE_RELABEL_RATIO = 2;
/** A ball put back on a spot (`respotOf`) is renamed when its votes for the returning kind are this many times its own kind's, and at least this much weight (≈ 3 frames read at 0.75). */
const RESPOT_RELABEL_RATIO = 2;
const RESPOT_RELABEL_MIN_VOTES = 2;
/** A read at least this strong is firm; a respot never read firmly as its own kind is renamed on votes alone (`relabel`). */
const RESPOT_FIRM_CONF = 0.5;

export function createTracker(table: TableProfile, raw: TrackerParamsInput = {}): Tracker {
  const p = trackerParams(raw);
  const game: GameId = table.game;
  const R = table.ballDiameter / 2;
  const tracks: Track[] = [];
  /** Every id a track has had. */
  const everHeld = new Set<string>();
  let lastT = -Infinity;

  const nearPocket = (x: number, y: number): boolean =>
    POCKETS.some((id) => {
      const pk = table.pockets[id];
      return pk !== undefined && Math.hypot(x - pk.x, y - pk.y) <= pk.mouth / 2 + R + p.pocketCaptureMm;
    });
  /** Centre over a pocket's opening (a hanging ball). */
  const inOpening = (x: number, y: number): boolean =>
    POCKETS.some((id) => {
      const pk = table.pockets[id];
      return pk !== undefined && Math.hypot(x - pk.x, y - pk.y) < pk.mouth / 2;
    });
  const offBed = (x: number, y: number): boolean => x < -R * 0.5 || y < -R * 0.5 || x > table.bed.width + R * 0.5 || y > table.bed.length + R * 0.5;
  /**
   * Where no ball can lie: its centre nearer a cushion's nose than R / 3 (a ball on the bed is R
   * from it; calibration error is a few mm), away from the pockets. A ball is only ever put on the
   * bed, so no track is born there (rendered power break, broadcast 30 fps: the hand bringing the
   * white in read `white` 0.2 over the bottom rail, 12 mm beyond the nose, and that track held
   * the white's id while the real white lay in the D).
   */
  const noBirth = (x: number, y: number): boolean =>
    (x < R / 3 || y < R / 3 || x > table.bed.width - R / 3 || y > table.bed.length - R / 3) && !nearPocket(x, y);

  const onBed = (d: DetectionFrame['detections']): DetectionFrame['detections'] => {
    const keep: number[] = [];
    const m = p.offBedMarginMm;
    for (let k = 0; k < d.length; k++) {
      const x = d.x[k]!, y = d.y[k]!;
      if (x >= -m && y >= -m && x <= table.bed.width + m && y <= table.bed.length + m) keep.push(k);
    }
    if (keep.length === d.length) return d;
    return { length: keep.length, x: Float64Array.from(keep, (k) => d.x[k]!), y: Float64Array.from(keep, (k) => d.y[k]!), conf: Float32Array.from(keep, (k) => d.conf[k]!), cls: keep.map((k) => d.cls[k]!) };
  };

  /**
   * A weak detection that stands for a one-ball kind: the class's strongest peak in the frame by
   * `weakDominance`, not over a pocket's opening.
   */
  const dominant = (D: DetectionFrame['detections'], c: number): boolean => {
    const cls = D.cls[c]!;
    if (!isSingleBallClass(game, cls) || inOpening(D.x[c]!, D.y[c]!)) return false;
    for (let k = 0; k < D.length; k++) {
      if (k !== c && D.cls[k] === cls && D.conf[k]! * p.weakDominance > D.conf[c]!) return false;
    }
    return true;
  };
  const spots = Object.values(table.spots);
  const onSpot = (x: number, y: number) => spots.some((q) => Math.hypot(q.x - x, q.y - y) <= 2 * R);
  /** A dominant weak detection may start a ball when its id is free and nobody is gathering it. */
  const namesFreeBall = (D: DetectionFrame['detections'], c: number): boolean => {
    if (D.conf[c]! < p.weakBirthConf || !dominant(D, c)) return false;
    const kind = kindOfClass(game, D.cls[c]!);
    const id = namedId(game, D.cls[c]!) ?? idsOfKind(game, kind)[0];
    if (id === undefined || takenIds().has(id)) return false;
    // A ball that left the table comes back on a spot (a respot, a ball spotted after a foul) —
    // weakly seen perhaps, the hand still over it — and nowhere else (rendered short frame,
    // broadcast 60 fps: a 0.24 `green` flickering by the near rail brought the potted green back,
    // and the white was read to hit it; S26-S27: the black respotted under the hand, read weakly).
    if (tracks.some((t) => t.confirmed && t.gone && t.id === id) && !onSpot(D.x[c]!, D.y[c]!)) return false;
    // Nor, in snooker, a colour no ball here has been while balls roll: it does not appear
    // mid-stroke, so a weak read of it then is a moving ball's blur (rendered power break,
    // overhead 60 fps: a red's streak read `brown` 0.28 beside its `red` started a track that
    // took the red's next detection, and the red, lost, was called off the table).
    if (game === 'snooker' && kind !== 'red' && kind !== cueKind && !everHeld.has(id) && tracks.some((t) => t.confirmed && !t.gone && t.moving)) return false;
    return !tracks.some((t) => !t.gone && !t.confirmed && t.kind === kind);
  };

  const takenIds = () => new Set(tracks.filter((t) => t.confirmed && !t.gone).map((t) => t.id));

  /** All of a track's vote weight, whatever the kind. */
  const evidence = (tr: Track) => [...tr.votes.values()].reduce((a, b) => a + b, 0);

  /** The kind with the most votes (and its votes; the track's own kind on a tie). */
  function bestVoted(tr: Track): [string, number] {
    let best = tr.kind, bestVotes = tr.votes.get(tr.kind) ?? 0;
    for (const [k, v] of tr.votes) if (v > bestVotes) (best = k), (bestVotes = v);
    return [best, bestVotes];
  }

  /** A track takes an id (and its kind); every id given is remembered in `everHeld`. */
  function giveId(tr: Track, id: string, kind: string): void {
    tr.id = id;
    tr.kind = kind;
    everHeld.add(id);
  }

  /** `tr` takes over `id` from a ball that left the table: the old (gone) track is retired, so the id has one owner. */
  function retireGone(id: string, tr: Track): void {
    for (let j = tracks.length - 1; j >= 0; j--) if (tracks[j] !== tr && tracks[j]!.id === id && tracks[j]!.gone) tracks.splice(j, 1);
  }

  function voteWeight(conf: number, speed: number): number {
    return conf / (1 + speed / p.voteSpeedScaleMmPerS);
  }

  function addVote(tr: Track, cls: string, conf: number, speed: number) {
    const w = voteWeight(conf, speed);
    const k = kindOfClass(game, cls);
    tr.votes.set(k, (tr.votes.get(k) ?? 0) + w);
    tr.firmest.set(k, Math.max(tr.firmest.get(k) ?? 0, conf));
    if (speed === 0) tr.sharpRead = true;
    const nid = namedId(game, cls);
    if (nid) tr.named.set(nid, (tr.named.get(nid) ?? 0) + w);
  }

  const cueKind = kindOfId(game, cueBallId(game));

  /**
   * A track whose second sighting is already away from its first was born flying: its birth read,
   * voted as if it lay still, is weighed at that speed instead, and no longer counts as a still
   * (sharp) read — what `allocate` asks of a ball first seen in flight.
   */
  function reweighBirth(tr: Track, speed: number) {
    const less = voteWeight(tr.conf, 0) - voteWeight(tr.conf, speed);
    const k = kindOfClass(game, tr.bornCls);
    tr.votes.set(k, Math.max(0, (tr.votes.get(k) ?? 0) - less));
    // Its only vote so far was that one.
    tr.sharpRead = false;
    const nid = namedId(game, tr.bornCls);
    if (nid) tr.named.set(nid, Math.max(0, (tr.named.get(nid) ?? 0) - less));
  }

  /**
   * A ball at rest on a spot whose votes say a one-ball kind that has left the table (no ball on
   * the table holds its id) is that ball put back: a respot. It needs less to be renamed than other
   * balls (`RESPOT_RELABEL_RATIO`, `RESPOT_RELABEL_MIN_VOTES`): what it was read as under the hand
   * that set it down counts for little (rendered S26-S27 overhead 25 fps: the black, read `pink`
   * 0.48 twice in the hand, was the pink for 17 frames of `black` 0.75 on the black's spot).
   */
  function respotOf(tr: Track, kind: string): boolean {
    const only = idsOfKind(game, kind);
    const at = tr.moving ? (settledNow(tr) ? tr.last : undefined) : tr.anchor;
    return only.length === 1 && !!at && onSpot(at.x, at.y) && !takenIds().has(only[0]!) && tracks.some((t) => t.confirmed && t.gone && t.id === only[0]);
  }

  /**
   * Set moving by a jump but read still since (its last reads within the rest tolerance of their
   * mean, two at least): a ball put down by a hand that hid it, re-found a little off where it was
   * hidden — it takes `atRestMs` of such reads to be at rest again.
   */
  function settledNow(tr: Track): boolean {
    return tr.recent.length >= 2 && stillAt(tr.recent) !== undefined;
  }

  /** The mean of these reads if every one is within the rest tolerance of it. */
  function stillAt(reads: readonly { x: number; y: number }[]): { x: number; y: number } | undefined {
    const x = reads.reduce((a, r) => a + r.x, 0) / reads.length;
    const y = reads.reduce((a, r) => a + r.y, 0) / reads.length;
    return reads.every((r) => Math.hypot(r.x - x, r.y - y) <= p.restToleranceMm) ? { x, y } : undefined;
  }

  /**
   * A confirmed ball whose votes now say another kind by far takes an id of that kind: a ball
   * first seen blurred at speed as the wrong kind (rendered power break, broadcast: a red leaving
   * the pack read `brown` on its first 5 frames, `red` on the next 249) would otherwise keep the
   * wrong id — a second brown the referee refuses, with all its events. Only to an id no track has
   * held (a potted ball's id stays its own; a colour's comes back on a spot), never from the cue
   * ball (a cue ball read wrongly for a while is still the ball struck), and to it only while no
   * ball on the table is the cue ball. The frame of the change reports the old id as `was`; the
   * events stage takes the old id's frames as the new id's.
   */
  function relabel(tr: Track): void {
    const own = tr.votes.get(tr.kind) ?? 0;
    let [best, bestVotes] = bestVoted(tr);
    // Its own kind never read firmly: a kind that was, if this is that ball respotted (below).
    if (best === tr.kind && (tr.firmest.get(tr.kind) ?? 0) < RESPOT_FIRM_CONF) {
      const firm = [...tr.votes].filter(([k]) => k !== tr.kind && (tr.firmest.get(k) ?? 0) >= RESPOT_FIRM_CONF).sort((a, b) => b[1] - a[1])[0];
      if (firm && respotOf(tr, firm[0])) [best, bestVotes] = firm;
    }
    // The cue ball while no ball holds its id needs less: it must be somewhere on the table, and
    // a ball set down in hand is read as another kind under the hand (rendered P01 broadcast
    // 60 fps: `stripe` for 0.3 s under the hand, then `cue` for 0.45 s until the break, which at
    // four times the votes would have been struck as the 14).
    if (best === tr.kind) return;
    const respot = respotOf(tr, best);
    // A respot whose own kind was never read firmly: those reads were the hand's, or the ball in
    // it (rendered S26-S27 overhead 25 fps: the black read `pink` at 0.48 in the hand for five
    // frames, then `black` at 0.75 on its spot — the pink's id for seven frames at twice the votes).
    const handRead = respot && (tr.firmest.get(tr.kind) ?? 0) < RESPOT_FIRM_CONF && (tr.firmest.get(best) ?? 0) >= RESPOT_FIRM_CONF;
    const ratio = best === cueKind && !takenIds().has(cueBallId(game)) ? CUE_RELABEL_RATIO : handRead ? 0 : respot ? RESPOT_RELABEL_RATIO : p.relabelRatio;
    if (bestVotes < (respot ? RESPOT_RELABEL_MIN_VOTES : p.relabelMinVotes) || bestVotes < ratio * own) return;
    if (tr.kind === cueKind || !kindsOf(game).includes(best)) return;
    // Nor a colour lying on its own spot, read weakly as the white (`allocate`): still misread.
    if (best === cueKind && colourSpotUnder(tr) === tr.kind) return;
    let id: string | undefined;
    if (best === cueKind) {
      // To the cue ball only while no ball on the table holds its id: a cue ball in hand, placed
      // under the hand and read as another kind until the hand left (rendered P27: a `stripe`
      // for half a second, then `cue`). Its old track, if it was potted, is retired.
      const cueId = cueBallId(game);
      if (takenIds().has(cueId)) return;
      retireGone(cueId, tr);
      id = cueId;
    } else {
      const held = new Set(tracks.filter((t) => t.confirmed).map((t) => t.id));
      id = idsOfKind(game, best).find((i) => !held.has(i));
      // A one-ball kind whose ball left the table may come back on a spot (a respot: the rendered
      // S26-S27 black, read `pink` under the hand that set it down, then `black` for seconds).
      if (id === undefined && respot) {
        id = idsOfKind(game, best)[0]!;
        retireGone(id, tr);
      }
    }
    if (id === undefined) return;
    tr.was = tr.id;
    giveId(tr, id, best);
  }

  /**
   * Snooker: a ball lying on a colour's spot from the start, that colour nowhere else, read weakly
   * as the white, holds the cue ball's id — while a white read strongly elsewhere (the real cue
   * ball set down in the D) cannot get one. The ball on the spot is that colour misread (rendered
   * S01 broadcast: the pink, `white` 0.4 on every frame): it becomes the colour (its old id
   * reported as `was`) and the newcomer the cue ball. Only on a spot, for a holder that never
   * moved: a weak real cue ball and a strong white glove must not swap (Bucharest Task3).
   */
  function handOverCueId(tr: Track): boolean {
    if (game !== 'snooker' || bestVoted(tr)[0] !== cueKind || tr.conf < HANDOVER_MIN_CONF) return false;
    const cueId = cueBallId(game);
    const holder = tracks.find((t) => t !== tr && t.confirmed && !t.gone && t.id === cueId);
    if (!holder || holder.moving || holder.everMoved || (holder.votes.get(cueKind) ?? 0) / Math.max(1, holder.hits) > HANDOVER_MAX_HOLDER_CONF) return false;
    if (Math.hypot(tr.last.x - holder.anchor.x, tr.last.y - holder.anchor.y) < 4 * R) return false;
    const colour = colourSpotAt(holder.anchor.x, holder.anchor.y);
    if (colour === undefined || takenIds().has(colour)) return false;
    holder.was = holder.id;
    giveId(holder, colour, colour);
    return allocate(tr);
  }

  /**
   * Snooker: the colour whose spot a resting ball lies on (within HANDOVER_SPOT_MM), when the
   * ball is read as the white only weakly (HANDOVER_MAX_HOLDER_CONF on average) and has never moved.
   */
  function colourSpotUnder(tr: Track): string | undefined {
    if (game !== 'snooker' || tr.moving || tr.everMoved) return undefined;
    if ((tr.votes.get(cueKind) ?? 0) / Math.max(1, tr.hits) > HANDOVER_MAX_HOLDER_CONF) return undefined;
    return colourSpotAt(tr.anchor.x, tr.anchor.y);
  }

  /** The one-ball colour whose spot lies within HANDOVER_SPOT_MM of (x, y) (spots are far further apart). */
  function colourSpotAt(x: number, y: number): string | undefined {
    return Object.entries(table.spots).find(([id, q]) => Math.hypot(q.x - x, q.y - y) <= HANDOVER_SPOT_MM && idsOfKind(game, id).length === 1)?.[0];
  }

  /** Kind and id for a track being confirmed: the best-voted kind with a free id. */
  function allocate(tr: Track): boolean {
    const taken = takenIds();
    const kinds = [...tr.votes.entries()].sort((a, b) => b[1] - a[1]).map(([k]) => k);
    // Snooker: a ball first seen flying, every read blurred, read as a colour no ball has been
    // here: a colour does not appear mid-stroke (one off the table comes back by hand, at rest, on
    // its spot), so it is a red that left a pack unseen (rendered power break, broadcast: a red
    // leaving at 5.8 m/s read `brown` on its first three frames, `red` after).
    if (game === 'snooker' && !tr.sharpRead && evidence(tr) < 1) {
      const k = kinds[0];
      if (k !== undefined && k !== 'red' && k !== cueKind && !everHeld.has(k)) kinds.unshift('red');
    }
    // Snooker: a resting ball read only weakly as the white, on the spot of a colour no ball on the
    // table is, is that colour misread (rendered S01 broadcast: the pink at the pack's apex, `white`
    // 0.4 on every frame, was the cue ball for a second, until the real one was set down in the D).
    if (kinds[0] === cueKind) {
      const colour = colourSpotUnder(tr);
      if (colour !== undefined && !taken.has(colour)) kinds.unshift(colour);
    }
    for (const k of kinds) {
      if (!kindsOf(game).includes(k)) continue;
      // A named pool ball, then a ball of this kind that left the table (a respot, a replacement), then a free id.
      const named = [...tr.named.entries()].sort((a, b) => b[1] - a[1]).map(([id]) => id).filter((id) => kindOfId(game, id) === k && !taken.has(id));
      const returning = tracks.filter((t) => t.confirmed && t.gone && t.kind === k && !taken.has(t.id)).map((t) => t.id);
      const free = idsOfKind(game, k).filter((id) => !taken.has(id));
      const id = named[0] ?? returning[0] ?? free[0];
      if (id !== undefined) {
        retireGone(id, tr);
        giveId(tr, id, k);
        tr.confirmed = true;
        return true;
      }
    }
    return false;
  }

  function toRest(tr: Track, x: number, y: number, n: number) {
    tr.moving = false;
    tr.anchor = { x, y, n };
    tr.kf = initState(x, y, p.measurementNoiseMm / Math.sqrt(Math.max(1, n)), 1);
    tr.recent = [];
  }

  function measure(tr: Track, x: number, y: number, t: number, cls: string, conf: number) {
    const dtSeen = Math.max(1e-3, t - tr.lastSeenT);
    if (!tr.moving) {
      if (Math.hypot(x - tr.anchor.x, y - tr.anchor.y) > p.moveThresholdMm) {
        // Started moving (struck, or nudged): a fresh filter with the velocity the jump implies.
        tr.moving = true;
        tr.everMoved = true;
        tr.kf = initState(x, y, p.measurementNoiseMm, 2000, (x - tr.last.x) / dtSeen, (y - tr.last.y) / dtSeen);
        // Born one frame ago and already away: it was born flying, and its first read, voted as
        // if it lay still, was as blurred as this one: weigh it at this speed.
        if (tr.hits === 1) reweighBirth(tr, speedOf(tr.kf));
        tr.recent = [{ t, x, y }];
      } else {
        tr.anchor.n = Math.min(tr.anchor.n + 1, 100);
        tr.anchor.x += (x - tr.anchor.x) / tr.anchor.n;
        tr.anchor.y += (y - tr.anchor.y) / tr.anchor.n;
        tr.kf = update(tr.kf, x, y, p.measurementNoiseMm);
      }
    } else {
      tr.kf = update(tr.kf, x, y, p.measurementNoiseMm);
      if (pocketHoleUnder(table, x, y, R, p.overHoleMarginMm)) tr.overHoleT = t;
      tr.recent.push({ t, x, y });
      while (tr.recent.length > 2 && t - tr.recent[1]!.t >= p.atRestMs / 1000) tr.recent.shift();
      if (t - tr.recent[0]!.t >= p.atRestMs / 1000 - 1e-9) {
        const m = stillAt(tr.recent);
        if (m) toRest(tr, m.x, m.y, tr.recent.length);
      }
    }
    addVote(tr, cls, conf, tr.moving ? speedOf(tr.kf) : 0);
    tr.kfT = t;
    tr.lastSeenT = t;
    tr.last = { x, y };
    tr.conf = conf;
    tr.hits++;
  }

  function step(frame: DetectionFrame): TrackFrame {
    const { t } = frame;
    if (!(t > lastT)) throw new InputError({ code: 'FRAMES_OUT_OF_ORDER', frame: frame.i, field: 't', message: `frame time ${t} s is not after the previous ${lastT} s` });
    const frameDt = Number.isFinite(lastT) ? t - lastT : 0;
    lastT = t;
    if (frame.view === false) return { i: frame.i, t, view: false, balls: [] };
    // A detection whose centre lies off the bed (beyond the cushion nose by more than
    // `offBedMarginMm`) is not a ball in play: a pocket's shadow, a ball on the rail, a false hit.
    const D = onBed(frame.detections);
    const live = tracks.filter((tr) => !tr.gone);
    // 1. Predict.
    const pred = live.map((tr) => {
      const dt = t - tr.kfT;
      if (!tr.moving) return predict(tr.kf, dt, p.restProcessNoiseMmPerS2);
      return predict(tr.kf, dt, p.movingProcessNoiseMmPerS2);
    });
    const usedDet = new Uint8Array(D.length);
    const matched = new Array<number>(live.length).fill(-1);
    const weak = (c: number) => D.conf[c]! < p.strongConf;
    // Matching in passes over what is still unmatched, each a gated minimum-cost assignment;
    // the strong detections first, the weak ones last (`strongConf`).
    const pass = (cost: (r: number, c: number) => number, unmatchedRowCost = Infinity, weakOnes = false) => {
      const rows = live.map((_, r) => r).filter((r) => matched[r]! < 0 && (!weakOnes || (!live[r]!.moving && (live[r]!.confirmed || live[r]!.bornWeak))));
      const cols = Array.from({ length: D.length }, (_, c) => c).filter((c) => !usedDet[c] && weak(c) === weakOnes);
      if (!rows.length || !cols.length) return;
      assign(rows.map((r) => cols.map((c) => cost(r, c))), unmatchedRowCost).forEach((k, i) => {
        if (k >= 0) {
          matched[rows[i]!] = cols[k]!;
          usedDet[cols[k]!] = 1;
        }
      });
    };
    // Stage 1: squared Mahalanobis distance within the χ² gate — for a ball at rest, within a ball's
    // width of where it lies whatever its covariance: one hidden for seconds has a gate grown over
    // the table, and took a struck red's first detection 850 mm away from the red lying beside it,
    // whose own gate had stayed tight (rendered S11 overhead, 25 fps). Found further off, a resting
    // ball is re-found in stage 2, where the nearest wins.
    const near = (r: number, c: number) => {
      const tr = live[r]!;
      if (!tr.moving && Math.hypot(D.x[c]! - tr.anchor.x, D.y[c]! - tr.anchor.y) > 2 * R) return Infinity;
      // Nor, for a moving one, further from where it should be than its own speed takes it: a
      // track coasting unseen has a gate grown just as wide (a false red coasting 0.3 s took a
      // struck red's first detection 1.9 m away from the red resting 10 mm from it: rendered S03,
      // S11, S12 and S41 overhead, 60 fps).
      if (tr.moving && closeBy(r, c) === Infinity) return Infinity;
      const m2 = mahalanobis2(pred[r]!, D.x[c]!, D.y[c]!, p.measurementNoiseMm);
      return m2 <= p.gateChi2 ? m2 : Infinity;
    };
    // Stage 2: plain distance within what a ball can travel since it was last seen.
    const reachable = (r: number, c: number) => {
      const tr = live[r]!;
      const reach = p.maxSpeedMmPerS * (t - tr.lastSeenT) + 2 * R;
      const dLast = Math.hypot(D.x[c]! - tr.last.x, D.y[c]! - tr.last.y);
      if (dLast > reach) return Infinity;
      const [px, py] = tr.moving ? [pred[r]!.s[0]!, pred[r]!.s[1]!] : [tr.anchor.x, tr.anchor.y];
      return Math.min(dLast, Math.hypot(D.x[c]! - px, D.y[c]! - py));
    };
    // Stage 2 for a detection of another class: only near where the ball should be (its own
    // speed's reach, or a couple of ball widths). Far off, a different colour is another object
    // (a hand, a cue tip, a misread ball), not this ball re-found.
    const closeBy = (r: number, c: number) => {
      const tr = live[r]!;
      const s = pred[r]!.s;
      const [px, py] = tr.moving ? [s[0]!, s[1]!] : [tr.anchor.x, tr.anchor.y];
      const d = Math.hypot(D.x[c]! - px, D.y[c]! - py);
      return d <= 4 * R + 1.5 * (tr.moving ? speedOf(pred[r]!) : 0) * (t - tr.lastSeenT) ? d : Infinity;
    };
    // A tentative track's kind is not settled: any class agrees with it — but a moving one only
    // near where it should be, as for a class that disagrees (`closeBy`): set moving by a few weak
    // reads, its velocity is a guess and its gate wide — a weak `yellow` on the cue's butt took the
    // cue ball's first moving detection 170 mm away, became the potted yellow come back and a
    // second ball (rendered short frame, broadcast 25 fps).
    const agrees = (r: number, c: number) => kindOfClass(game, D.cls[c]!) === live[r]!.kind || (!live[r]!.confirmed && closeBy(r, c) < Infinity);
    // A weak detection where a ball rests, of its kind, keeps it seen (a dim cue ball). A ball not
    // yet confirmed is kept so only if it started weak and the detection still stands out: one
    // that started strong must earn its id with strong detections (a false green seen strong
    // once in three frames, weakly between, must not get one — Bucharest Task2 clip 3).
    const weakKeeps = (r: number, c: number) => kindOfClass(game, D.cls[c]!) === live[r]!.kind && (live[r]!.confirmed || dominant(D, c));
    // 2. Each stage first with the classes agreeing, then — for what is left — with a class that
    //    disagrees at a price (a blurred red may look brown for a frame). Agreeing classes go
    //    first so that after a contact, with one ball's detection missed, the other ball's
    //    detection is never given to the wrong track. Leaving a track unmatched in stage 1 costs
    //    what the worst acceptable match would, so two tracks are never matched crosswise just to
    //    match both; stage 2 picks up what is left.
    pass((r, c) => (agrees(r, c) ? near(r, c) : Infinity), p.gateChi2);
    pass((r, c) => (agrees(r, c) ? reachable(r, c) : Infinity));
    pass((r, c) => (agrees(r, c) ? near(r, c) : closeBy(r, c) < Infinity ? near(r, c) + p.classMismatchChi2 : Infinity), p.gateChi2 + p.classMismatchChi2);
    pass((r, c) => (agrees(r, c) ? reachable(r, c) : closeBy(r, c) + p.classMismatchCostMm));
    pass((r, c) => (weakKeeps(r, c) ? near(r, c) : Infinity), p.gateChi2, true);
    const out: TrackedBall[] = [];
    live.forEach((tr, r) => {
      const c = matched[r]!;
      if (c >= 0) {
        tr.kf = pred[r]!;
        measure(tr, D.x[c]!, D.y[c]!, t, D.cls[c]!, D.conf[c]!);
        tr.trail?.push([frame.i, D.x[c]!, D.y[c]!]);
        return;
      }
      // 4. Unmatched: pocketed, off the bed, gone from where it lay, or hidden.
      // (Rested there: seen still there on `VANISH_MIN_REST_HITS` frames. A rolling ball's last
      // place showing cloth says nothing: it rolled on, unseen.)
      if (
        tr.confirmed &&
        frame.bare &&
        t - tr.lastSeenT >= p.vanishAfterMs / 1000 - 1e-9 &&
        tr.anchor.n >= VANISH_MIN_REST_HITS &&
        Math.hypot(tr.last.x - tr.anchor.x, tr.last.y - tr.anchor.y) <= 2 * R &&
        frame.bare(tr.last.x, tr.last.y)
      ) {
        tr.gone = 'vanished';
        tr.kfT = t;
        return;
      }
      if (tr.moving) {
        const s = pred[r]!.s;
        const speed = Math.hypot(s[2]!, s[3]!);
        // Coast with rolling resistance so a hidden ball does not fly on for ever.
        const dt = t - tr.kfT;
        const f = speed > 0 ? Math.max(0, speed - p.coastDecelMmPerS2 * dt) / speed : 0;
        tr.kf = { s: Float64Array.of(s[0]!, s[1]!, s[2]! * f, s[3]! * f), P: pred[r]!.P };
        tr.kfT = t;
        const [x, y] = [tr.kf.s[0]!, tr.kf.s[1]!];
        // A missed detection or two is not a pot: decide only once it has been gone a while.
        const lostLongEnough = t - tr.lastSeenT >= p.lostAfterMs / 1000 - 1e-9;
        if (tr.confirmed && lostLongEnough && (nearPocket(tr.last.x, tr.last.y) || nearPocket(x, y) || t - tr.overHoleT <= p.dropSeenMs / 1000)) tr.gone = 'pocketed';
        else if (tr.confirmed && lostLongEnough && offBed(x, y)) tr.gone = 'offTable';
        // (Not in a pocket's opening: a ball lost there while moving is dropping, however slowly it
        // seemed to go — a sinking ball stalls in the picture — and is pocketed once lost long
        // enough, not put to rest on the lip: rendered N05 overhead, 60 fps, the striker read at
        // 15 mm/s in the corner's mouth, lost, and left "resting" there to the end of the clip.)
        else if (speed * f < 1 && !inOpening(tr.last.x, tr.last.y)) toRest(tr, x, y, 1);
      } else if (!tr.confirmed) {
        // A tentative track that misses a frame was probably noise.
        tr.gone = 'offTable';
      } else if (tr.everMoved && tr.hits >= 10 && inOpening(tr.anchor.x, tr.anchor.y) && t - tr.lastSeenT >= Math.max(p.lostAfterMs, 500) / 1000) {
        // (Only a ball that rolled there and was seen resting: a false detection in a pocket's
        // shadow that comes and goes must not make a pot.)
        // A ball that crept to rest over a pocket's edge (hanging) and is then gone has dropped.
        tr.gone = 'pocketed';
        tr.kfT = t;
      }
    });
    // 5. New tentative tracks from what is left (weak detections: see `strongConf`), the strongest
    //    first — but not from a detection within a radius of one a track took this frame, or one a
    //    track was born from: two balls cannot overlap, so it is one ball read twice (under two
    //    classes, or a stale and a fresh look), and a track born there would take a free or potted
    //    ball's id.
    //    Around a moving ball's detection the radius is 1.5 R (still short of the 2 R between two
    //    touching balls): motion blur spreads its reads along the streak — a 4.5 m/s cue ball read
    //    `cue` and, 32 mm behind, `stripe`; the stripe track took the struck 8's first detection
    //    and the 8 was lost at its spot (rendered P24 overhead, 30 fps). Along its way the streak
    //    reaches as far as the ball went in a frame: a red at 5.6 m/s, 60 fps, read `red` and,
    //    51 mm ahead, `brown` 0.56 (rendered power break, overhead), whose track, a second red,
    //    then took the red's detections and left the red lost, called off the table.
    const movingVel: ([number, number] | undefined)[] = new Array(D.length);
    live.forEach((tr, r) => {
      if (matched[r]! >= 0 && tr.moving) movingVel[matched[r]!] = [tr.kf.s[2]!, tr.kf.s[3]!];
    });
    const doubleRead = (c: number) => {
      for (let k = 0; k < D.length; k++) {
        if (!usedDet[k]) continue;
        const dx = D.x[c]! - D.x[k]!, dy = D.y[c]! - D.y[k]!;
        const v = movingVel[k];
        if (Math.hypot(dx, dy) < (v ? 1.5 : 1) * R) return true;
        const speed = v ? Math.hypot(v[0], v[1]) : 0;
        if (!v || speed <= 0) continue;
        const along = (dx * v[0] + dy * v[1]) / speed, across = (dx * v[1] - dy * v[0]) / speed;
        if (Math.abs(across) < R && Math.abs(along) < R + speed * frameDt) return true;
      }
      return false;
    };
    //    Nor on a resting ball hidden this frame (within a radius of where it lies): that ball is
    //    there, misread — a hand over the 5 made it read `cue`, a cue track was born on it and
    //    then took the real cue ball's first clear detection 150 mm away (rendered P27 overhead).
    const onHidden = (c: number) =>
      live.some((tr, r) => matched[r]! < 0 && tr.confirmed && !tr.gone && !tr.moving && Math.hypot(D.x[c]! - tr.anchor.x, D.y[c]! - tr.anchor.y) < R);
    const byConf = Array.from({ length: D.length }, (_, c) => c).sort((a, b) => D.conf[b]! - D.conf[a]!);
    for (const c of byConf) {
      if (usedDet[c] || (weak(c) && !namesFreeBall(D, c)) || doubleRead(c) || onHidden(c) || noBirth(D.x[c]!, D.y[c]!)) continue;
      usedDet[c] = 1;
      const tr: Track = {
        id: '',
        kind: kindOfClass(game, D.cls[c]!),
        kf: initState(D.x[c]!, D.y[c]!, p.measurementNoiseMm, 1),
        kfT: t,
        moving: false,
        anchor: { x: D.x[c]!, y: D.y[c]!, n: 1 },
        lastSeenT: t,
        last: { x: D.x[c]!, y: D.y[c]! },
        hits: 1,
        confirmed: false,
        votes: new Map(),
        firmest: new Map(),
        named: new Map(),
        sharpRead: false,
        bornCls: D.cls[c]!,
        trail: [[frame.i, D.x[c]!, D.y[c]!]],
        recent: [],
        gone: null,
        conf: D.conf[c]!,
        everMoved: false,
        overHoleT: -Infinity,
        bornWeak: weak(c),
      };
      addVote(tr, D.cls[c]!, D.conf[c]!, 0);
      tracks.push(tr);
    }
    // Confirm tentative tracks seen long enough, the best-evidenced first: two candidates for
    // one id (the cue ball and a white shirt cuff both read `white`) go to the stronger, not to
    // whichever was made last. Drop dead tentative ones and those left without an id.
    const ready = tracks.filter((tr) => !tr.confirmed && !tr.gone && tr.hits >= p.minHits);
    ready.sort((a, b) => evidence(b) - evidence(a));
    const refused = new Set(ready.filter((tr) => !allocate(tr) && !handOverCueId(tr)));
    for (let j = tracks.length - 1; j >= 0; j--) {
      const tr = tracks[j]!;
      if ((!tr.confirmed && tr.gone) || refused.has(tr)) tracks.splice(j, 1);
    }
    for (const tr of tracks) if (tr.confirmed && !tr.gone && tr.lastSeenT === t) relabel(tr);
    for (const tr of tracks) {
      if (!tr.confirmed) continue;
      if (tr.gone) {
        // Reported once, on the frame the ball left; then the track rests (its id may come back).
        if (tr.lastSeenT >= 0 && tr.kfT === t && tr.gone !== 'vanished') out.push({ id: tr.id, x: round2(tr.last.x), y: round2(tr.last.y), conf: round3(tr.conf), state: tr.gone });
        tr.kfT = Infinity;
        continue;
      }
      const seen = tr.lastSeenT === t;
      const state: TrackStateName = !seen ? 'occluded' : tr.moving ? 'moving' : 'rest';
      const [x, y] = !seen ? (tr.moving ? [tr.kf.s[0]!, tr.kf.s[1]!] : [tr.anchor.x, tr.anchor.y]) : tr.moving ? [tr.last.x, tr.last.y] : [tr.anchor.x, tr.anchor.y];
      const ball: TrackedBall = { id: tr.id, x: round2(x), y: round2(y), conf: round3(seen ? tr.conf : tr.conf * 0.5), state };
      if (tr.was !== undefined) {
        ball.was = tr.was;
        delete tr.was;
      }
      if (tr.trail) {
        const before = tr.trail.filter((q) => q[0] < frame.i);
        if (tr.moving && before.length) ball.trail = before.map(([i, x, y]) => [i, round2(x), round2(y)]);
        tr.trail = null;
      }
      out.push(ball);
    }
    out.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    return { i: frame.i, t, balls: out };
  }

  function seed(onTable: readonly { id: string; x: number; y: number }[], gone: readonly string[], tS: number): void {
    if (tracks.length || Number.isFinite(lastT)) throw new Error('Tracker.seed after the first frame');
    const make = (id: string, x: number, y: number, left: TrackStateName | null): Track => {
      const kind = kindOfId(game, id);
      return {
        id, kind, kf: initState(x, y, p.measurementNoiseMm, 1), kfT: tS, moving: false,
        anchor: { x, y, n: 10 }, lastSeenT: left ? -1 : tS, last: { x, y }, hits: p.minHits, confirmed: true,
        votes: new Map([[kind, 10]]), firmest: new Map([[kind, 1]]), named: new Map(), sharpRead: true, bornCls: kind, trail: null, recent: [], gone: left, conf: 0.5, everMoved: false, overHoleT: -Infinity, bornWeak: false,
      };
    };
    for (const b of onTable) tracks.push(make(b.id, b.x, b.y, null));
    for (const id of gone) if (!onTable.some((b) => b.id === id)) tracks.push(make(id, NaN, NaN, 'pocketed'));
    for (const tr of tracks) everHeld.add(tr.id);
  }

  return { step, seed, liveIds: () => tracks.filter((t) => t.confirmed && !t.gone).map((t) => t.id) };
}

const round2 = (v: number) => Math.round(v * 100) / 100;
const round3 = (v: number) => Math.round(v * 1000) / 1000;
