/**
 * Detections as a columnar struct of typed arrays (roboflow/supervision's `Detections`): one
 * allocation per frame, cheap to filter, checked when built.
 */
export interface Detections {
  readonly count: number;
  /** Ball centre in frame pixels (the centre of the ball's outline as seen). */
  readonly u: Float32Array;
  readonly v: Float32Array;
  /** Radius in pixels. */
  readonly r: Float32Array;
  readonly conf: Float32Array;
  /** Index into `classes`. */
  readonly cls: Uint8Array;
  readonly classes: readonly string[];
}

export interface DetectionRow {
  u: number;
  v: number;
  r: number;
  conf: number;
  class: string;
}

export function makeDetections(rows: readonly DetectionRow[], classes: readonly string[]): Detections {
  const n = rows.length;
  const d = { count: n, u: new Float32Array(n), v: new Float32Array(n), r: new Float32Array(n), conf: new Float32Array(n), cls: new Uint8Array(n), classes };
  rows.forEach((row, i) => {
    const k = classes.indexOf(row.class);
    if (k < 0) throw new Error(`detection ${i}: class '${row.class}' is not one of ${classes.join(', ')}`);
    if (!Number.isFinite(row.u) || !Number.isFinite(row.v) || !(row.r > 0) || !(row.conf >= 0 && row.conf <= 1)) {
      throw new Error(`detection ${i}: bad values u=${row.u} v=${row.v} r=${row.r} conf=${row.conf}`);
    }
    d.u[i] = row.u;
    d.v[i] = row.v;
    d.r[i] = row.r;
    d.conf[i] = row.conf;
    d.cls[i] = k;
  });
  return d;
}

export function toRows(d: Detections): DetectionRow[] {
  const out: DetectionRow[] = [];
  for (let i = 0; i < d.count; i++) out.push({ u: d.u[i]!, v: d.v[i]!, r: d.r[i]!, conf: d.conf[i]!, class: d.classes[d.cls[i]!]! });
  return out;
}

/** Keep the rows where `keep(i)` is true. */
export function filterDetections(d: Detections, keep: (i: number) => boolean): Detections {
  const idx: number[] = [];
  for (let i = 0; i < d.count; i++) if (keep(i)) idx.push(i);
  const pick = <T extends Float32Array | Uint8Array>(a: T, make: (n: number) => T): T => {
    const o = make(idx.length);
    idx.forEach((j, k) => (o[k] = a[j]!));
    return o;
  };
  return {
    count: idx.length,
    u: pick(d.u, (n) => new Float32Array(n)),
    v: pick(d.v, (n) => new Float32Array(n)),
    r: pick(d.r, (n) => new Float32Array(n)),
    conf: pick(d.conf, (n) => new Float32Array(n)),
    cls: pick(d.cls, (n) => new Uint8Array(n)),
    classes: d.classes,
  };
}
