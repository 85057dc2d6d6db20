/**
 * Bitmap fonts: 3×5 for the numbers on pool balls (a few pixels across at most), 5×7 for the TV
 * overlays. Real broadcast type is sharper and proportional; the detector needs text-like clutter
 * in the overlay and a number-like mark on the balls, not legible names.
 */
const GLYPHS: Record<string, string> = {
  '0': '111101101101111', '1': '010110010010111', '2': '111001111100111', '3': '111001111001111',
  '4': '101101111001001', '5': '111100111001111', '6': '111100111101111', '7': '111001001001001',
  '8': '111101111101111', '9': '111101111001111',
  A: '010101111101101', B: '110101110101110', C: '011100100100011', D: '110101101101110',
  E: '111100110100111', F: '111100110100100', G: '011100101101011', H: '101101111101101',
  I: '111010010010111', J: '001001001101010', K: '101101110101101', L: '100100100100111',
  M: '101111111101101', N: '110101101101101', O: '010101101101010', P: '110101110100100',
  Q: '010101101110011', R: '110101110101101', S: '011100010001110', T: '111010010010010',
  U: '101101101101111', V: '101101101101010', W: '101101111111101', X: '101101010101101',
  Y: '101101010010010', Z: '111001010100111', '(': '010100100100010', ')': '010001001001010',
  ' ': '000000000000000', '-': '000000111000000',
};

export const GLYPH_W = 3;
export const GLYPH_H = 5;

export interface BitmapFont {
  w: number;
  h: number;
  /** Is cell (gx, gy) of `ch` inked? Unknown characters are blank. */
  bit(ch: string, gx: number, gy: number): boolean;
}

const TEXT_GLYPHS: Record<string, string> = {
  '0': '01110100011001110101110011000101110', '1': '00100011000010000100001000010001110',
  '2': '01110100010000100010001000100011111', '3': '11111000100010000010000011000101110',
  '4': '00010001100101010010111110001000010', '5': '11111100001111000001000011000101110',
  '6': '00110010001000011110100011000101110', '7': '11111000010001000100010000100001000',
  '8': '01110100011000101110100011000101110', '9': '01110100011000101111000010001001100',
  A: '01110100011000111111100011000110001', B: '11110100011000111110100011000111110',
  C: '01110100011000010000100001000101110', D: '11100100101000110001100011001011100',
  E: '11111100001000011110100001000011111', F: '11111100001000011110100001000010000',
  G: '01110100011000010111100011000101111', H: '10001100011000111111100011000110001',
  I: '01110001000010000100001000010001110', J: '00111000100001000010000101001001100',
  K: '10001100101010011000101001001010001', L: '10000100001000010000100001000011111',
  M: '10001110111010110101100011000110001', N: '10001100011100110101100111000110001',
  O: '01110100011000110001100011000101110', P: '11110100011000111110100001000010000',
  Q: '01110100011000110001101011001001101', R: '11110100011000111110101001001010001',
  S: '01111100001000001110000010000111110', T: '11111001000010000100001000010000100',
  U: '10001100011000110001100011000101110', V: '10001100011000110001100010101000100',
  W: '10001100011000110101101011010101010', X: '10001100010101000100010101000110001',
  Y: '10001100011000101010001000010000100', Z: '11111000010001000100010001000011111',
  '(': '00010001000100001000010000010000010', ')': '01000001000001000010000100010001000',
  '-': '00000000000000011111000000000000000',
};

/** 3×5 font (ball numbers). */
export const SMALL_FONT: BitmapFont = { w: GLYPH_W, h: GLYPH_H, bit: (ch, gx, gy) => glyphBit(ch, gx, gy) };

/** 5×7 font (overlays). */
export const TEXT_FONT: BitmapFont = {
  w: 5,
  h: 7,
  bit(ch, gx, gy) {
    const g = TEXT_GLYPHS[ch.toUpperCase()];
    if (!g || gx < 0 || gy < 0 || gx >= 5 || gy >= 7) return false;
    return g.charCodeAt(gy * 5 + gx) === 49;
  },
};

/** Is the glyph cell (gx, gy) of `ch` inked? Unknown characters render as blanks. */
export function glyphBit(ch: string, gx: number, gy: number): boolean {
  const g = GLYPHS[ch.toUpperCase()];
  if (!g || gx < 0 || gy < 0 || gx >= GLYPH_W || gy >= GLYPH_H) return false;
  return g.charCodeAt(gy * GLYPH_W + gx) === 49;
}

/**
 * Draw `text` into an RGB buffer with its top-left at (x0, y0), each font cell `scale` pixels.
 * Cells are drawn with box-filtered edges so fractional scales do not shimmer between frames.
 */
export function drawText(
  rgb: Uint8Array, width: number, height: number,
  text: string, x0: number, y0: number, scale: number, colour: readonly [number, number, number],
  /** Opacity layer to mark inked pixels in (overlays); omitted for opaque images. */
  alpha?: Uint8Array,
  font: BitmapFont = TEXT_FONT,
): void {
  const advance = (font.w + 1) * scale;
  for (let c = 0; c < text.length; c++) {
    const ch = text[c]!;
    const gx0 = x0 + c * advance;
    const i0 = Math.max(0, Math.floor(gx0)), i1 = Math.min(width - 1, Math.ceil(gx0 + font.w * scale));
    const j0 = Math.max(0, Math.floor(y0)), j1 = Math.min(height - 1, Math.ceil(y0 + font.h * scale));
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        // Sample the glyph at the pixel centre ± a quarter pixel (2×2) for soft edges.
        let cov = 0;
        for (const sy of [-0.25, 0.25]) {
          for (const sx of [-0.25, 0.25]) {
            const gx = Math.floor((i + sx - gx0) / scale), gy = Math.floor((j + sy - y0) / scale);
            if (font.bit(ch, gx, gy)) cov += 0.25;
          }
        }
        if (cov === 0) continue;
        const p = (j * width + i) * 3;
        rgb[p] = rgb[p]! + (colour[0] - rgb[p]!) * cov;
        rgb[p + 1] = rgb[p + 1]! + (colour[1] - rgb[p + 1]!) * cov;
        rgb[p + 2] = rgb[p + 2]! + (colour[2] - rgb[p + 2]!) * cov;
        if (alpha) {
          const q = j * width + i;
          alpha[q] = Math.max(alpha[q]!, Math.round(255 * cov));
        }
      }
    }
  }
}
