/**
 * Minimum-cost assignment (Hungarian method, O(n²m)) over a rectangular cost matrix, with gating:
 * pairs whose cost is Infinity are never matched. A frame has at most 22 balls and a few spurious
 * detections, so the exact solution is cheap.
 */

/**
 * Returns, for each row, the matched column or −1. `cost[r][c]` may be Infinity (gated out).
 * `unmatchedRowCost`: what leaving a row unmatched costs. Infinity (the default) matches as many
 * rows as the gates allow, then minimises the cost; a finite value leaves a row unmatched rather
 * than take a match that makes the total dearer (lapjv's cost_limit, as ByteTrack uses it).
 */
export function assign(cost: readonly (readonly number[])[], unmatchedRowCost = Infinity): number[] {
  const nRows = cost.length;
  const nCols = nRows ? cost[0]!.length : 0;
  if (nRows === 0) return [];
  if (nCols === 0) return new Array<number>(nRows).fill(-1);
  if (Number.isFinite(unmatchedRowCost)) {
    // One dummy column per row, reachable only by that row, at the price of staying unmatched.
    const padded = cost.map((row, r) => [...row, ...Array.from({ length: nRows }, (_, d) => (d === r ? unmatchedRowCost : Infinity))]);
    return assign(padded).map((c) => (c >= nCols ? -1 : c));
  }
  // Gated pairs get a large finite cost, then are dropped from the answer.
  let maxFinite = 0;
  for (const row of cost) for (const v of row) if (Number.isFinite(v)) maxFinite = Math.max(maxFinite, Math.abs(v));
  const BIG = (maxFinite + 1) * (nRows + nCols + 1) * 10;
  const transpose = nRows > nCols;
  const n = transpose ? nCols : nRows;
  const m = transpose ? nRows : nCols;
  const a = (i: number, j: number) => {
    const v = transpose ? cost[j]![i]! : cost[i]![j]!;
    return Number.isFinite(v) ? v : BIG;
  };
  // e-maxx formulation, 1-based with potentials u, v.
  const u = new Float64Array(n + 1), v = new Float64Array(m + 1);
  const p = new Int32Array(m + 1), way = new Int32Array(m + 1);
  for (let i = 1; i <= n; i++) {
    p[0] = i;
    let j0 = 0;
    const minv = new Float64Array(m + 1).fill(Infinity);
    const used = new Uint8Array(m + 1);
    do {
      used[j0] = 1;
      const i0 = p[j0]!;
      let delta = Infinity, j1 = 0;
      for (let j = 1; j <= m; j++) {
        if (used[j]) continue;
        const cur = a(i0 - 1, j - 1) - u[i0]! - v[j]!;
        if (cur < minv[j]!) {
          minv[j] = cur;
          way[j] = j0;
        }
        if (minv[j]! < delta) {
          delta = minv[j]!;
          j1 = j;
        }
      }
      for (let j = 0; j <= m; j++) {
        if (used[j]) {
          u[p[j]!]! += delta;
          v[j]! -= delta;
        } else minv[j]! -= delta;
      }
      j0 = j1;
    } while (p[j0] !== 0);
    do {
      const j1 = way[j0]!;
      p[j0] = p[j1]!;
      j0 = j1;
    } while (j0);
  }
  const out = new Array<number>(nRows).fill(-1);
  for (let j = 1; j <= m; j++) {
    const i = p[j]!;
    if (i === 0) continue;
    const r = transpose ? j - 1 : i - 1;
    const c = transpose ? i - 1 : j - 1;
    if (Number.isFinite(cost[r]![c]!)) out[r] = c;
  }
  return out;
}
