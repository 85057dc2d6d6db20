/**
 * Plain RGB frames and the few pixel operations calibration needs (no OpenCV: typed arrays only).
 */
export interface RgbFrame {
  width: number;
  height: number;
  /** Interleaved 8-bit RGB, row-major, length width·height·3. */
  rgb: Uint8Array;
}

export function checkFrame(f: RgbFrame): void {
  if (!Number.isInteger(f.width) || !Number.isInteger(f.height) || f.width < 16 || f.height < 16) {
    throw new RangeError(`frame size ${f.width}×${f.height} is too small to calibrate`);
  }
  if (f.rgb.length !== f.width * f.height * 3) {
    throw new RangeError(`frame buffer has ${f.rgb.length} bytes, expected ${f.width * f.height * 3}`);
  }
}

/** Box-filter downscale by an integer factor (averaging keeps thin markings as faint lines). */
export function downscale(f: RgbFrame, factor: number): RgbFrame {
  if (factor <= 1) return f;
  const w = Math.floor(f.width / factor), h = Math.floor(f.height / factor);
  const out = new Uint8Array(w * h * 3);
  const n = factor * factor;
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let r = 0, g = 0, b = 0;
      for (let dy = 0; dy < factor; dy++) {
        let i = ((y * factor + dy) * f.width + x * factor) * 3;
        for (let dx = 0; dx < factor; dx++, i += 3) {
          r += f.rgb[i]!;
          g += f.rgb[i + 1]!;
          b += f.rgb[i + 2]!;
        }
      }
      const o = (y * w + x) * 3;
      out[o] = r / n;
      out[o + 1] = g / n;
      out[o + 2] = b / n;
    }
  }
  return { width: w, height: h, rgb: out };
}

/** HSV of one RGB pixel: hue in degrees [0, 360), saturation and value in [0, 1]. */
export function rgbToHsv(r: number, g: number, b: number): [number, number, number] {
  const max = Math.max(r, g, b), min = Math.min(r, g, b);
  const v = max / 255;
  const d = max - min;
  const s = max === 0 ? 0 : d / max;
  let h = 0;
  if (d > 0) {
    if (max === r) h = ((g - b) / d) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
    h *= 60;
    if (h < 0) h += 360;
  }
  return [h, s, v];
}

export interface HsvPlanes {
  h: Float32Array;
  s: Float32Array;
  v: Float32Array;
}

export function toHsv(f: RgbFrame): HsvPlanes {
  const n = f.width * f.height;
  const h = new Float32Array(n), s = new Float32Array(n), v = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const [hh, ss, vv] = rgbToHsv(f.rgb[3 * i]!, f.rgb[3 * i + 1]!, f.rgb[3 * i + 2]!);
    h[i] = hh;
    s[i] = ss;
    v[i] = vv;
  }
  return { h, s, v };
}

/** Bilinear RGB sample at a sub-pixel position; null outside the frame. */
export function sampleRgb(f: RgbFrame, x: number, y: number, out: Float64Array): boolean {
  if (!(x >= 0 && y >= 0 && x <= f.width - 1 && y <= f.height - 1)) return false;
  const x0 = Math.min(Math.floor(x), f.width - 2), y0 = Math.min(Math.floor(y), f.height - 2);
  const ax = x - x0, ay = y - y0;
  const i00 = (y0 * f.width + x0) * 3, i10 = i00 + 3, i01 = i00 + f.width * 3, i11 = i01 + 3;
  for (let c = 0; c < 3; c++) {
    const top = f.rgb[i00 + c]! * (1 - ax) + f.rgb[i10 + c]! * ax;
    const bot = f.rgb[i01 + c]! * (1 - ax) + f.rgb[i11 + c]! * ax;
    out[c] = top * (1 - ay) + bot * ay;
  }
  return true;
}

export const hueDistanceDeg = (a: number, b: number): number => {
  const d = Math.abs(a - b) % 360;
  return d > 180 ? 360 - d : d;
};
