/** Order statistics on numeric arrays, in linear time. */

/**
 * The k-th smallest of a[0 … n) (k from 0), found by quickselect: a is reordered so that a[k]
 * holds it, everything before is ≤ it and everything after ≥ it. O(n) on average, against
 * O(n log n) for a sort — the detector takes a median of ~30 000 cloth samples per channel per frame.
 */
export function selectInPlace(a: Float64Array | number[], k: number, n = a.length): number {
  let lo = 0, hi = n - 1;
  while (hi > lo) {
    // Median of three as the pivot: sorted or constant runs (the cloth is nearly uniform) stay linear.
    const mid = (lo + hi) >> 1;
    const x = a[lo]!, y = a[mid]!, z = a[hi]!;
    const pivot = x < y ? (y < z ? y : x < z ? z : x) : x < z ? x : y < z ? z : y;
    let i = lo, j = hi;
    while (i <= j) {
      while (a[i]! < pivot) i++;
      while (a[j]! > pivot) j--;
      if (i <= j) {
        const t = a[i]!;
        a[i] = a[j]!;
        a[j] = t;
        i++;
        j--;
      }
    }
    if (k <= j) hi = j;
    else if (k >= i) lo = i;
    else break;
  }
  return a[k]!;
}

/** The median of a[0 … n) (the mean of the two middle values when n is even); reorders a. NaN when empty. */
export function medianInPlace(a: Float64Array | number[], n = a.length): number {
  if (n <= 0) return NaN;
  const k = n >> 1;
  const hi = selectInPlace(a, k, n);
  if (n % 2) return hi;
  // After selecting k, a[0 … k) are all ≤ a[k]: the other middle value is their maximum.
  let lo = -Infinity;
  for (let i = 0; i < k; i++) if (a[i]! > lo) lo = a[i]!;
  return (lo + hi) / 2;
}
