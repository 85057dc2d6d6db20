/**
 * The one module that touches @techstark/opencv-js. Every function takes and returns plain arrays,
 * allocates its Mats inside and frees them in `finally`, so no cv.Mat ever leaves this file and a
 * thrown error cannot leak WASM memory.
 */
import { createRequire } from 'node:module';

// The package is CommonJS (an Emscripten module); its initialisation finishes asynchronously.
type Cv = any; // eslint-disable-line @typescript-eslint/no-explicit-any

// Boxed: the module object has a `then` method, so returning it from an async function (or
// resolving a promise with it) would make the promise adopt it and never settle.
let cvPromise: Promise<{ cv: Cv }> | null = null;

/**
 * Load and initialise OpenCV once per process (≈ 0.4 s). Returns `{ cv }`, never `cv` itself: the
 * module is a thenable, and an async function returning it would wait on it forever.
 */
export function loadCv(): Promise<{ cv: Cv }> {
  if (!cvPromise) {
    cvPromise = (async () => {
      const require = createRequire(import.meta.url);
      let cv: Cv = require('@techstark/opencv-js');
      // This build exports the module object itself, which has a `then` method: awaiting it would
      // recurse, so only a real Promise is awaited and otherwise we wait for onRuntimeInitialized.
      if (cv instanceof Promise) cv = await cv;
      if (!cv.Mat) {
        // Poll rather than hook onRuntimeInitialized: the runtime may finish before a late hook is
        // attached (it does under tsx), and replacing the hook can stall this build's own start-up.
        // Give up after 30 s rather than hang.
        await new Promise<void>((resolve, reject) => {
          const t0 = Date.now();
          const tick = () => {
            if (cv.Mat) resolve();
            else if (Date.now() - t0 > 30_000) reject(new Error('OpenCV (opencv-js) did not initialise within 30 s'));
            else setTimeout(tick, 5);
          };
          tick();
        });
      }
      return { cv };
    })();
  }
  return cvPromise;
}

export interface HomographyFit {
  /** 3×3 row-major, mapping src → dst. */
  h: number[][];
  /** Per correspondence: 1 when RANSAC kept it. */
  inlierMask: Uint8Array;
}

/**
 * Robust homography src → dst (RANSAC with `thresholdPx` reprojection tolerance in dst units).
 * Returns null when OpenCV cannot find one (degenerate points).
 */
export async function findHomographyRansac(
  src: ReadonlyArray<readonly [number, number]>,
  dst: ReadonlyArray<readonly [number, number]>,
  thresholdPx: number,
): Promise<HomographyFit | null> {
  if (src.length !== dst.length || src.length < 4) return null;
  const { cv } = await loadCv();
  const mats: Cv[] = [];
  try {
    const a = cv.matFromArray(src.length, 1, cv.CV_64FC2, src.flat());
    const b = cv.matFromArray(dst.length, 1, cv.CV_64FC2, dst.flat());
    const mask = new cv.Mat();
    mats.push(a, b, mask);
    const method = src.length === 4 ? 0 : cv.RANSAC;
    const H = cv.findHomography(a, b, method, thresholdPx, mask, 2000, 0.999);
    mats.push(H);
    if (H.rows !== 3 || H.cols !== 3) return null;
    const d: Float64Array = H.data64F;
    const h = [
      [d[0]!, d[1]!, d[2]!],
      [d[3]!, d[4]!, d[5]!],
      [d[6]!, d[7]!, d[8]!],
    ];
    const inlierMask = new Uint8Array(src.length);
    if (mask.rows === src.length) for (let i = 0; i < src.length; i++) inlierMask[i] = mask.data[i] ? 1 : 0;
    else inlierMask.fill(1);
    return { h, inlierMask };
  } finally {
    for (const m of mats) m.delete();
  }
}
