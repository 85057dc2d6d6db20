/** Small 3×3 matrix helpers (row-major number[][]), for homographies and rotations. */
export type Mat3 = [[number, number, number], [number, number, number], [number, number, number]];

export function mul3(a: Mat3, b: Mat3): Mat3 {
  const r: number[][] = [[0, 0, 0], [0, 0, 0], [0, 0, 0]];
  for (let i = 0; i < 3; i++) {
    const ai = a[i as 0];
    for (let j = 0; j < 3; j++) r[i]![j] = ai[0] * b[0][j as 0] + ai[1] * b[1][j as 0] + ai[2] * b[2][j as 0];
  }
  return r as Mat3;
}

export function inv3(m: Mat3): Mat3 {
  const [[a, b, c], [d, e, f], [g, h, i]] = m;
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  if (Math.abs(det) < 1e-15) throw new Error('singular 3×3 matrix');
  const s = 1 / det;
  return [
    [A * s, -(b * i - c * h) * s, (b * f - c * e) * s],
    [B * s, (a * i - c * g) * s, -(a * f - c * d) * s],
    [C * s, -(a * h - b * g) * s, (a * e - b * d) * s],
  ];
}

/** Apply a homography to a point: (x, y, 1) → (x', y'). */
export function applyH(h: Mat3, x: number, y: number): [number, number] {
  const w = h[2][0] * x + h[2][1] * y + h[2][2];
  return [(h[0][0] * x + h[0][1] * y + h[0][2]) / w, (h[1][0] * x + h[1][1] * y + h[1][2]) / w];
}

/** Scale so that h[2][2] = 1 (the usual normal form for a homography). */
export function normaliseH(h: Mat3): Mat3 {
  const s = h[2][2];
  return h.map((row) => row.map((v) => v / s)) as Mat3;
}
