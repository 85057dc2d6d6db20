/**
 * Look parameters: everything about how a rendered frame looks that is not geometry (the table
 * profile) or the camera. Defaults are fixed (tests and samples are reproducible); `randomLook`
 * draws every parameter from a seed for detector training (domain randomisation), around values
 * measured on the real footage in ../shared/real (cloth RGB, noise sigma, light falloff).
 */
import { assertNever, type GameId } from '../../core/games.js';
import type { OverlayStyle } from './overlay.js';
import { mulberry32 } from '../../core/random.js';

export type Rgb = [number, number, number];

/** A point light above the table (table mm; z above the cloth). */
export interface LightParams {
  x: number;
  y: number;
  z: number;
  /** Relative intensity; the brightest light of a look is about 1. */
  intensity: number;
}

export interface LookParams {
  /** Cloth colour (sRGB 0–255) under the brightest part of the lighting. */
  clothRgb: Rgb;
  /** Amplitude (fraction of brightness) of the cloth's nap texture; raising it adds the grain real cloth shows, at the cost of a noisier background for the detector. */
  clothTextureStrength: number;
  /** Cushion rubber/cloth colour: a little darker than the bed in real footage (shaded faces). */
  cushionRgb: Rgb;
  /** Wooden rail colour. */
  railRgb: Rgb;
  /** Floor / surroundings outside the table (carpet, arena). */
  floorRgb: Rgb;
  /** Pocket leather / plate colour around the corner and middle pocket openings. */
  pocketPlateRgb: Rgb;
  /** Marking line colour (baulk line, D, Novus lines) and diamonds/spots. */
  markingRgb: Rgb;
  /** Width of marking lines, mm (chalk lines are about 2–3 mm). */
  markingWidthMm: number;
  /** Lights in table mm; positions are relative to the bed (0…W, 0…L). */
  lights: LightParams[];
  /** Light that is not from the lamps (room, reflections), fraction of full brightness. */
  ambient: number;
  /** How fast the cloth darkens away from the lights: 0 flat, 1 full inverse-square/cosine falloff. */
  lightFalloff: number;
  /** Lens vignetting: fractional darkening at the image corners. */
  vignette: number;
  /**
   * Optical softness, pixels (σ of a Gaussian): lens defocus plus the softening of broadcast
   * scaling and compression. Real 720p TV frames measure about 0.7–1.2 px; 0 is a perfect lens.
   */
  softnessPx: number;
  /** Shutter time, s: motion blur integrates the history snapshots within it (0 = sharp). */
  exposureS: number;
  /** Sensor noise standard deviation in 0–255 units (real broadcast frames measure 1–4). */
  noiseSigma: number;
  /**
   * How much darker a ball's underside is than its top under the ambient light (0 flat, 1 black
   * underneath): the cloth around a ball reflects far less than the canopy above it.
   */
  ballHemisphere: number;
  /** Specular highlight strength on balls (0 matt, 1 polished phenolic). */
  specular: number;
  /** Phong exponent of the highlight: higher is a smaller, sharper spot. */
  shininess: number;
  /** Darkness of the contact shadow under a ball (0 none … 1 black). */
  shadowStrength: number;
  /** Softness of cast shadows: penumbra width as a fraction of ball radius. */
  shadowSoftness: number;
  /** Global gain applied to everything (exposure compensation). */
  gain: number;
  /**
   * Camera white balance: per-channel gains on everything the camera sees (not the TV overlay).
   * Real cameras differ here more than in anything else: the broadcast footage is warm (white balls
   * read ≈ 247, 253, 182), the club camera cool and desaturated.
   */
  whiteBalance: Rgb;
  /** JPEG quality when frames are written as images (undefined: lossless PNG). */
  jpegQuality?: number;
  /** Players' clothing seen from above (waistcoat), their sleeves (arms) and skin (hands). */
  playerRgb: Rgb;
  sleeveRgb: Rgb;
  skinRgb: Rgb;
  /** Draw occluders (players, cues) the snapshot lists. */
  occluders: boolean;
  /** Draw the TV score overlay, in one of the broadcasters' styles. */
  overlay: boolean;
  /** `bar`: snooker TV score bar bottom centre; `corner`: pool TV names box bottom left and a shot clock. */
  overlayStyle: OverlayStyle;
  /** Per-ball colour jitter (0 none): fraction of the colour varied between balls of one look. */
  ballColourJitter: number;
  /**
   * A spotted cue ball (snooker's white, pool's cue), as televised and club play often use: the
   * "pro cup" ball's six dots (one on each axis) or a "measles" ball's many; absent: plain.
   * Only the training data sets it (`dataset.ts --spots`), so the scenario renders keep a plain ball.
   */
  cueBallSpots?: CueBallSpots;
}

export interface CueBallSpots {
  /** Dot centres as unit vectors in the ball's own frame. */
  dirs: [number, number, number][];
  /** Angular radius of each dot, radians (a pro cup's ~5 mm dot on a 52.5 mm ball: ~0.1). */
  radiusRad: number;
  rgb: Rgb;
}

/** A random spotted cue ball: six dots on the axes (the common "pro cup") or 12–20 scattered ("measles"). */
export function randomCueBallSpots(rnd: () => number): CueBallSpots {
  const six = rnd() < 0.7;
  const dirs: [number, number, number][] = six
    ? [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]]
    : Array.from({ length: 12 + Math.floor(rnd() * 9) }, () => {
        // Uniform on the sphere.
        const z = rnd() * 2 - 1, a = rnd() * 2 * Math.PI, s = Math.sqrt(1 - z * z);
        return [s * Math.cos(a), s * Math.sin(a), z] as [number, number, number];
      });
  // Mostly red dots; some balls carry blue or black ones.
  const palette: Rgb[] = [[190, 25, 35], [200, 40, 40], [170, 20, 30], [30, 60, 170], [25, 25, 25]];
  const rgb = palette[Math.min(palette.length - 1, Math.floor(rnd() * rnd() * palette.length * 1.6))]!;
  return { dirs, radiusRad: six ? 0.08 + rnd() * 0.07 : 0.06 + rnd() * 0.04, rgb };
}

export { mulberry32 };

/** Lights as fractions of the bed; turned into mm by `lightsForBed`. */
function canopy(game: GameId): LightParams[] {
  // Snooker and pool tables hang a canopy of lamps about 1 m above the bed along the long axis;
  // relative positions here are fractions of (W, L) with z in mm.
  switch (game) {
    case 'snooker':
      return [
        { x: 0.5, y: 0.25, z: 1300, intensity: 0.9 },
        { x: 0.5, y: 0.5, z: 1300, intensity: 1 },
        { x: 0.5, y: 0.75, z: 1300, intensity: 0.9 },
      ];
    case 'pool8':
      return [
        { x: 0.5, y: 0.25, z: 900, intensity: 0.95 },
        { x: 0.5, y: 0.75, z: 900, intensity: 0.95 },
      ];
    case 'novus':
      return [{ x: 0.45, y: 0.55, z: 1400, intensity: 1 }];
    default:
      return assertNever(game);
  }
}

export function defaultLook(game: GameId): LookParams {
  const common = {
    clothTextureStrength: 0.012,
    markingWidthMm: 2.5,
    lights: canopy(game),
    ambient: 0.35,
    lightFalloff: 0.55,
    vignette: 0.12,
    softnessPx: 0.8,
    exposureS: 1 / 60,
    noiseSigma: 1.2,
    ballHemisphere: 0.6,
    specular: 0.85,
    shininess: 60,
    shadowStrength: 0.55,
    shadowSoftness: 0.35,
    gain: 1,
    whiteBalance: [1, 1, 1] as Rgb,
    // Snooker dress code: black waistcoat, white shirt sleeves.
    playerRgb: [22, 22, 26] as Rgb,
    sleeveRgb: [226, 226, 230] as Rgb,
    skinRgb: [214, 168, 140] as Rgb,
    occluders: true,
    overlay: false,
    overlayStyle: (game === 'pool8' ? 'corner' : 'bar') as OverlayStyle,
    ballColourJitter: 0,
  };
  switch (game) {
    case 'snooker':
      // Tournament green measured on the broadcast footage (≈ 2, 180, 1 at the centre, 132 far, 189 near).
      return {
        ...common,
        clothRgb: [18, 184, 30],
        cushionRgb: [14, 150, 26],
        // TV canopies light the bed evenly; the far end's darkening is the cloth's view angle.
        lightFalloff: 0.3,
        railRgb: [70, 28, 22],
        floorRgb: [112, 24, 20],
        pocketPlateRgb: [214, 196, 160],
        markingRgb: [235, 240, 230],
        markingWidthMm: 2,
      };
    case 'pool8':
      // Tournament blue measured on the pool broadcast (cloth windows' median ≈ 50, 163, 178).
      return {
        ...common,
        clothRgb: [48, 152, 188],
        cushionRgb: [40, 120, 170],
        railRgb: [52, 52, 50],
        floorRgb: [40, 55, 70],
        pocketPlateRgb: [60, 60, 60],
        markingRgb: [240, 240, 240],
        lights: canopy(game),
        playerRgb: [30, 30, 35],
        sleeveRgb: [38, 38, 44],
      };
    case 'novus':
      // Plywood board with black lines, red-brown frame.
      return {
        ...common,
        clothRgb: [214, 184, 140],
        clothTextureStrength: 0.04,
        cushionRgb: [120, 50, 35],
        railRgb: [110, 45, 30],
        floorRgb: [90, 80, 70],
        pocketPlateRgb: [40, 30, 25],
        markingRgb: [25, 20, 18],
        markingWidthMm: 3,
        specular: 0.25,
        shininess: 20,
        shadowStrength: 0.4,
      };
    default:
      return assertNever(game);
  }
}

const jitterRgb = (rng: () => number, c: Rgb, amount: number): Rgb =>
  c.map((v) => Math.max(0, Math.min(255, v * (1 + (rng() * 2 - 1) * amount) + (rng() * 2 - 1) * 10))) as Rgb;

/**
 * Every look parameter drawn from `seed` around the game's default (deterministic: the same seed
 * gives the same look). Ranges cover the real footage: club rooms with one dim lamp to TV arenas,
 * worn or new cloth, cheap webcams (noise 6) to broadcast cameras (noise 1).
 */
export function randomLook(game: GameId, seed: number): LookParams {
  const rng = mulberry32(seed ^ 0x9e3779b9);
  const base = defaultLook(game);
  const u = (lo: number, hi: number): number => lo + (hi - lo) * rng();
  const nLights = game === 'novus' ? 1 + Math.floor(rng() * 2) : 1 + Math.floor(rng() * 4);
  const lights: LightParams[] = [];
  for (let k = 0; k < nLights; k++) {
    lights.push({
      x: u(0.3, 0.7),
      y: nLights === 1 ? u(0.35, 0.65) : (k + 0.5) / nLights + u(-0.08, 0.08),
      z: u(700, 1800),
      intensity: u(0.6, 1),
    });
  }
  // Cloth: hue/brightness jitter, then desaturation towards its grey (worn or differently dyed
  // cloth, washed-out webcams: the club footage's cloth is ≈ 134, 169, 155).
  const cloth = jitterRgb(rng, base.clothRgb, 0.18);
  const desat = rng() < 0.4 ? u(0, 0.6) : 0;
  const grey = (cloth[0] + cloth[1] + cloth[2]) / 3;
  const clothRgb = cloth.map((c) => Math.min(255, c + (grey * 1.15 - c) * desat)) as Rgb;
  const look: LookParams = {
    ...base,
    clothRgb,
    clothTextureStrength: u(0.005, 0.06),
    cushionRgb: jitterRgb(rng, base.cushionRgb, 0.18),
    railRgb: jitterRgb(rng, base.railRgb, 0.4),
    floorRgb: jitterRgb(rng, base.floorRgb, 0.6),
    pocketPlateRgb: jitterRgb(rng, base.pocketPlateRgb, 0.3),
    markingRgb: jitterRgb(rng, base.markingRgb, 0.1),
    markingWidthMm: u(1.5, 3.5),
    lights,
    ambient: u(0.2, 0.55),
    lightFalloff: u(0.2, 0.9),
    vignette: u(0, 0.3),
    softnessPx: u(0, 1.6),
    exposureS: rng() < 0.2 ? 0 : u(1 / 250, 1 / 30),
    noiseSigma: u(0.5, 6),
    ballHemisphere: u(0.3, 0.8),
    specular: u(0.4, 1),
    shininess: u(25, 120),
    shadowStrength: u(0.3, 0.75),
    shadowSoftness: u(0.15, 0.6),
    gain: u(0.8, 1.15),
    whiteBalance: [u(0.88, 1.12), u(0.95, 1.05), u(0.8, 1.15)],
    occluders: rng() < 0.8,
    overlay: rng() < 0.4,
    overlayStyle: rng() < 0.5 ? 'bar' : 'corner',
    ballColourJitter: u(0, 0.1),
    playerRgb: jitterRgb(rng, rng() < 0.6 ? [22, 22, 26] : [u(20, 200), u(20, 200), u(20, 200)], 0.2),
    sleeveRgb: rng() < 0.5 ? jitterRgb(rng, [226, 226, 230], 0.05) : ([u(20, 220), u(20, 220), u(20, 220)] as Rgb),
    skinRgb: jitterRgb(rng, [[235, 195, 170], [214, 168, 140], [160, 110, 80], [100, 65, 45]][Math.floor(rng() * 4)] as Rgb, 0.05),
  };
  if (rng() < 0.5) look.jpegQuality = Math.round(u(55, 95));
  return look;
}

/** Lights of a look in table mm for a bed of W × L. */
export function lightsForBed(look: LookParams, widthMm: number, lengthMm: number): LightParams[] {
  return look.lights.map((l) => ({ ...l, x: l.x * widthMm, y: l.y * lengthMm }));
}
