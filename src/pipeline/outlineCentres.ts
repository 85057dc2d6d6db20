/**
 * The detector's centres moved onto the balls' outlines (detection/centres.ts) where that is
 * measured to help (`npx tsx bench/looks-rendered.ts`, the first frames of the rendered library):
 * - snooker from a camera looking down on the bed: lone balls off by median 0.62 mm instead of
 *   1.64 (99.1 % within 3 mm instead of 85.4 %), balls in pairs 0.76 mm instead of 1.46;
 * - not from a low broadcast angle: a ball's shadow and reflection on the cloth join its outline
 *   (lone balls 62.8 → 51.4 % within 3 mm);
 * - not pool: a stripe's white and its band, a solid's number disc, are edges inside the ball
 *   (lone balls 87.5 → 62.5 % within 3 mm, four of sixteen 4–7 mm off);
 * - not Novus: its discs in pairs came out 6.2 mm off instead of 4.5.
 */
import { bedForeshortening } from '../calibration/ballSize.js';
import type { Mat3 } from '../core/mat3.js';
import type { GameId } from '../core/games.js';
import type { TableProfile } from '../core/table.js';
import { refineCentres } from '../detection/centres.js';
import type { DetectCallOptions, FrameDetector } from './track.js';

/** Least bed foreshortening (calibration/ballSize.ts) at which outlines are fitted: the rendered overhead camera is 1.00, the broadcast one 0.36. */
export const OUTLINE_MIN_FORESHORTENING = 0.8;

/** Whether a game's balls seen through this calibration get outline centres (see above). */
export function outlineCentresFor(game: GameId, calibration: { imageToTable: Mat3 }, table: Pick<TableProfile, 'bed' | 'ballDiameter'>): boolean {
  return game === 'snooker' && bedForeshortening(calibration, table) >= OUTLINE_MIN_FORESHORTENING;
}

/**
 * `detector` as this view wants it — what the video stages (track, analyze, live) detect with.
 * Where `outlineCentresFor` says so (snooker seen from above): each ball's centre on its outline,
 * and a second, enlarged look at every group of balls (`looks: 'groups'`), not only at balls the
 * first look merged. From above a pack's balls are apart in the picture, so the enlarged look finds
 * the same ones frame after frame — the rendered overhead library at 30 fps (snooker, `npx tsx
 * bench/events-rendered.ts --cameras overhead`): the reds of a full pack 11–12 of 15 with the
 * blobs-only looks, all 15 with these; rest positions within 3 mm 79.2 → 86.3 % (balls against
 * another 48.7 → 67.0 %), no other figure moved. From a broadcast angle a pack's balls overlap in
 * the picture and the enlarged look's count changes from frame to frame: the same bench at the
 * broadcast camera lost first contacts 100 → 90.7 % (balls read as touched before the strike), so
 * there the looks stay on merged blobs (clusters.ts). Not pool: its rack is found whole by the
 * first look from above (rest within 3 mm 94.8 % of balls against another), and these looks moved
 * its rest positions (median 0.9 → 1.4 mm) and broke the rendered break P01's first contact (13→8
 * read for cue→3, not flagged); Novus has no packs to gain on. A calibration without the bed's
 * homography: the detector as it is.
 */
export function viewDetectorFor(detector: FrameDetector, game: GameId, calibration: { imageToTable?: Mat3 }, table: Pick<TableProfile, 'bed' | 'ballDiameter'>): FrameDetector {
  const { imageToTable } = calibration;
  return imageToTable && outlineCentresFor(game, { imageToTable }, table) ? withOutlineCentres(withLooks(detector, 'groups')) : detector;
}

/** `detector` asked for `looks` on every call (a caller's own choice wins). */
function withLooks(detector: FrameDetector, looks: NonNullable<DetectCallOptions['looks']>): FrameDetector {
  const out: FrameDetector = { detect: (f, o) => detector.detect(f, { looks, ...o }) };
  if (detector.detectRegions) {
    const regions = detector.detectRegions.bind(detector);
    out.detectRegions = (f, boxes, opts) => regions(f, boxes, { looks, ...opts });
  }
  return out;
}

/**
 * `detector` with each ball's centre fitted to its outline in the frame. Detections already free
 * of lens distortion (`ideal`, a stand-in detector's) are not in the frame's pixels and stay.
 */
function withOutlineCentres(detector: FrameDetector): FrameDetector {
  const refine = <T extends { u: number; v: number; r: number; ideal?: boolean }>(f: Parameters<FrameDetector['detect']>[0], rows: T[]): T[] => (rows.some((r) => r.ideal) ? rows : refineCentres(f, rows));
  const out: FrameDetector = {
    detect: async (f, o) => {
      const rows = await detector.detect(f, o);
      return rows === null ? null : refine(f, rows);
    },
  };
  if (detector.detectRegions) {
    const regions = detector.detectRegions.bind(detector);
    out.detectRegions = async (f, boxes, opts) => refine(f, await regions(f, boxes, opts));
  }
  return out;
}
