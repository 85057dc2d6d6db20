/**
 * The table drawn from above, in table millimetres: cloth, cushions, pockets, the game's markings,
 * the balls, their paths, and (optionally) an animated replay. One drawing shared by the report,
 * the review page and the live scoreboard, so the three show the same table the same way.
 *
 * Pure: data in, an SVG string out. The replay is a small browser script (`REPLAY_SCRIPT`, no
 * dependencies) that moves the drawn balls along recorded positions; pages include it once.
 *
 * Orientation: the table's length runs left to right (screens are wide), baulk / head on the left:
 * SVG x = table y (mm from the bottom cushion), SVG y = table width − table x (so the table's
 * left side, x = 0, is at the bottom of the drawing, as a referee standing at the baulk end sees it
 * turned a quarter to the right).
 */
import type { GameId } from '../core/games.js';
import type { TableProfile } from '../core/table.js';

export interface TopDownBall {
  id: string;
  /** Table millimetres (contract frame: x across, y along the length from the bottom cushion). */
  x: number;
  y: number;
}

export interface TopDownPath {
  id: string;
  /** Table millimetres, in time order. */
  points: readonly (readonly [number, number])[];
}

/** One replay sample: time (s) and the positions of the balls on the table then. */
export interface ReplayFrame {
  t: number;
  balls: Readonly<Record<string, readonly [number, number]>>;
}

export interface TopDownInput {
  game: GameId;
  table: TableProfile;
  balls?: readonly TopDownBall[];
  paths?: readonly TopDownPath[];
  /** Animate the balls through these frames (adds play/pause and a time slider; needs REPLAY_SCRIPT). */
  replay?: readonly ReplayFrame[];
  /** Rendered width in CSS px; the height follows the table's aspect (default 560). */
  widthPx?: number;
  /** Accessible title, e.g. "Stroke 4: positions at rest". */
  title?: string;
  /** Balls to ring in the highlight colour (e.g. the two in a disputed contact). */
  highlight?: readonly string[];
}

const SNOOKER: Record<string, string> = {
  white: '#f4f1e6', red: '#c8102e', yellow: '#f2c500', green: '#0b7a3b', brown: '#7a4a1e', blue: '#1f4fbf', pink: '#f08fb0', black: '#111111',
};
const POOL = ['#f4f1e6', '#f2c500', '#1f4fbf', '#c8102e', '#5b2a86', '#f07f1d', '#0b7a3b', '#7a1f1f', '#111111'];

/** Fill colour (and whether it is a pool stripe) of a ball id in a game, for drawings. */
export function ballFill(game: GameId, id: string): { fill: string; stripe: boolean } {
  if (game === 'snooker') {
    const k = /^red/.test(id) ? 'red' : id;
    return { fill: SNOOKER[k] ?? '#999999', stripe: false };
  }
  if (game === 'pool8') {
    if (id === 'cue') return { fill: POOL[0]!, stripe: false };
    const n = Number(id);
    if (Number.isInteger(n) && n >= 1 && n <= 15) return { fill: POOL[n > 8 ? n - 8 : n]!, stripe: n > 8 };
    return { fill: '#999999', stripe: false };
  }
  if (id === 'striker') return { fill: '#be1e1e', stripe: false };
  return { fill: /^a/.test(id) ? '#ebe4d2' : '#1e1c1e', stripe: false };
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
const n1 = (v: number): string => (Math.round(v * 10) / 10).toString();

/** The SVG drawing (a complete `<svg>` element, or a `<figure>` with controls when `replay` is set). */
export function topDownSvg(o: TopDownInput): string {
  const { table } = o;
  const W = table.bed.width;
  const L = table.bed.length;
  const rail = Math.max(60, 0.04 * L);
  const P = (x: number, y: number): [number, number] => [y, W - x];
  const widthPx = o.widthPx ?? 560;
  const heightPx = Math.round((widthPx * (W + 2 * rail)) / (L + 2 * rail));
  const parts: string[] = [];
  parts.push(`<rect x="${-rail}" y="${-rail}" width="${L + 2 * rail}" height="${W + 2 * rail}" rx="${rail / 2}" fill="#5a3a1e"/>`);
  parts.push(`<rect x="0" y="0" width="${L}" height="${W}" fill="${o.game === 'novus' ? '#d9c08c' : '#1f7a3a'}"/>`);
  const markStroke = o.game === 'novus' ? '#2b2b2b' : 'rgba(255,255,255,0.7)';
  if (table.baulkLineY !== undefined) {
    const [bx] = P(0, table.baulkLineY);
    parts.push(`<line x1="${n1(bx)}" y1="0" x2="${n1(bx)}" y2="${W}" stroke="${markStroke}" stroke-width="3"/>`);
    const brown = table.spots.brown;
    if (table.dRadius && brown) {
      const [cx, cy] = P(brown.x, brown.y);
      const r = table.dRadius;
      // The D: the half-circle on the baulk side of the line (to the left in this drawing).
      parts.push(`<path d="M ${n1(cx)} ${n1(cy - r)} A ${r} ${r} 0 0 0 ${n1(cx)} ${n1(cy + r)}" fill="none" stroke="${markStroke}" stroke-width="3"/>`);
    }
  }
  if (table.headStringY !== undefined) {
    const [hx] = P(0, table.headStringY);
    parts.push(`<line x1="${n1(hx)}" y1="0" x2="${n1(hx)}" y2="${W}" stroke="${markStroke}" stroke-width="2" stroke-dasharray="12 12"/>`);
  }
  if (table.zoneLineMm !== undefined) {
    for (const y of [table.zoneLineMm, L - table.zoneLineMm]) {
      const [zx] = P(0, y);
      parts.push(`<line x1="${n1(zx)}" y1="0" x2="${n1(zx)}" y2="${W}" stroke="${markStroke}" stroke-width="${table.zoneLineWidthMm ?? 5}"/>`);
    }
  }
  if (table.centreCircleRadiusMm !== undefined) {
    const [cx, cy] = P(W / 2, L / 2);
    parts.push(`<circle cx="${n1(cx)}" cy="${n1(cy)}" r="${table.centreCircleRadiusMm}" fill="none" stroke="${markStroke}" stroke-width="${table.centreCircleLineWidthMm ?? table.zoneLineWidthMm ?? 5}"/>`);
  }
  for (const [name, s] of Object.entries(table.spots)) {
    const [sx, sy] = P(s.x, s.y);
    parts.push(`<circle cx="${n1(sx)}" cy="${n1(sy)}" r="6" fill="${markStroke}"><title>${esc(name)} spot</title></circle>`);
  }
  for (const [id, p] of Object.entries(table.pockets)) {
    if (!p) continue;
    const [px, py] = P(p.x, p.y);
    parts.push(`<circle cx="${n1(px)}" cy="${n1(py)}" r="${n1(p.mouth / 2)}" fill="#111"><title>${esc(id)} pocket</title></circle>`);
  }
  const R = table.ballDiameter / 2;
  for (const path of o.paths ?? []) {
    if (path.points.length < 2) continue;
    const { fill } = ballFill(o.game, path.id);
    const d = path.points.map(([x, y], i) => `${i ? 'L' : 'M'}${n1(P(x, y)[0])} ${n1(P(x, y)[1])}`).join(' ');
    parts.push(`<path class="path" data-ball="${esc(path.id)}" d="${d}" fill="none" stroke="${fill}" stroke-opacity="0.85" stroke-width="${n1(R / 3)}" stroke-linejoin="round"/>`);
  }
  const highlight = new Set(o.highlight ?? []);
  const first = o.replay?.[0];
  const shown: TopDownBall[] = o.balls ? [...o.balls] : first ? Object.entries(first.balls).map(([id, [x, y]]) => ({ id, x, y })) : [];
  if (o.replay) {
    // Every ball that appears anywhere in the replay gets a circle (hidden while it is not on the table).
    const seen = new Set(shown.map((b) => b.id));
    for (const f of o.replay) for (const id of Object.keys(f.balls)) if (!seen.has(id)) (seen.add(id), shown.push({ id, x: NaN, y: NaN }));
  }
  for (const b of shown) {
    const { fill, stripe } = ballFill(o.game, b.id);
    const on = Number.isFinite(b.x) && Number.isFinite(b.y);
    const [cx, cy] = on ? P(b.x, b.y) : [0, 0];
    const ring = highlight.has(b.id) ? ` stroke="#ffd400" stroke-width="${n1(R / 3)}"` : ` stroke="#000" stroke-opacity="0.5" stroke-width="2"`;
    const r = o.game === 'snooker' && b.id === 'white' ? table.cueBallDiameter / 2 : b.id === 'cue' || b.id === 'striker' ? table.cueBallDiameter / 2 : R;
    parts.push(
      `<g class="ball" data-ball="${esc(b.id)}" transform="translate(${n1(cx)} ${n1(cy)})"${on ? '' : ' visibility="hidden"'}>` +
        `<circle r="${n1(r)}" fill="${stripe ? '#f4f1e6' : fill}"${ring}/>` +
        // A stripe: white ball with a coloured centre (a band does not read at this size).
        (stripe ? `<circle r="${n1(r * 0.6)}" fill="${fill}"/>` : '') +
        `<title>${esc(b.id)}${on ? ` (${Math.round(b.x)}, ${Math.round(b.y)}) mm` : ''}</title></g>`,
    );
  }
  const title = o.title ? `<title>${esc(o.title)}</title>` : '';
  const svg =
    `<svg class="topdown" xmlns="http://www.w3.org/2000/svg" viewBox="${-rail} ${-rail} ${L + 2 * rail} ${W + 2 * rail}" width="${widthPx}" height="${heightPx}" role="img"${o.title ? ` aria-label="${esc(o.title)}"` : ''}>` +
    title +
    parts.join('') +
    `</svg>`;
  if (!o.replay?.length) return svg;
  // The replay's data travels with the drawing (JSON in a script element the browser does not run),
  // in table mm rounded to 0.1 mm: REPLAY_SCRIPT maps it to SVG coordinates the same way as above.
  const data = JSON.stringify({ W, frames: o.replay.map((f) => ({ t: Math.round(f.t * 1000) / 1000, b: Object.fromEntries(Object.entries(f.balls).map(([id, [x, y]]) => [id, [Math.round(x * 10) / 10, Math.round(y * 10) / 10]])) })) });
  const t1 = o.replay.at(-1)!.t - o.replay[0]!.t;
  return (
    `<figure class="replay" data-topdown-replay>${svg}` +
    `<figcaption><button type="button" class="replay-play">▶ Play</button> ` +
    `<input class="replay-time" type="range" min="0" max="${o.replay.length - 1}" value="0" step="1" aria-label="replay time"> ` +
    `<span class="replay-clock">0.00 / ${t1.toFixed(2)} s</span></figcaption>` +
    `<script type="application/json" class="replay-data">${data.replace(/</g, '\\u003c')}</script></figure>`
  );
}

/**
 * Browser code that animates every `[data-topdown-replay]` figure on the page (call it again after
 * adding figures: it skips the ones already wired). Real time: the clock follows the recorded `t`.
 */
export const REPLAY_SCRIPT = `(() => {
  function wire(fig) {
    if (fig.dataset.wired) return; fig.dataset.wired = '1';
    const data = JSON.parse(fig.querySelector('.replay-data').textContent);
    const frames = data.frames, W = data.W, t0 = frames[0].t, t1 = frames[frames.length - 1].t;
    const balls = {}; fig.querySelectorAll('g.ball').forEach((g) => { balls[g.dataset.ball] = g; });
    const slider = fig.querySelector('.replay-time'), clock = fig.querySelector('.replay-clock'), btn = fig.querySelector('.replay-play');
    let k = 0, playing = false, startWall = 0, startT = 0;
    function show(i) {
      k = i; const f = frames[i];
      for (const id in balls) {
        const p = f.b[id];
        if (p) { balls[id].setAttribute('transform', 'translate(' + p[1] + ' ' + (W - p[0]) + ')'); balls[id].removeAttribute('visibility'); }
        else balls[id].setAttribute('visibility', 'hidden');
      }
      slider.value = String(i); clock.textContent = (f.t - t0).toFixed(2) + ' / ' + (t1 - t0).toFixed(2) + ' s';
      fig.dataset.frame = String(i);
    }
    function tick(now) {
      if (!playing) return;
      const t = startT + (now - startWall) / 1000;
      let i = k; while (i + 1 < frames.length && frames[i + 1].t <= t) i++;
      show(i);
      if (i >= frames.length - 1) { playing = false; btn.textContent = '▶ Play'; return; }
      requestAnimationFrame(tick);
    }
    btn.addEventListener('click', () => {
      playing = !playing; btn.textContent = playing ? '❚❚ Pause' : '▶ Play';
      if (playing) { if (k >= frames.length - 1) show(0); startWall = performance.now(); startT = frames[k].t; requestAnimationFrame(tick); }
    });
    slider.addEventListener('input', () => { playing = false; btn.textContent = '▶ Play'; show(Number(slider.value)); });
    show(0);
  }
  window.cuerefReplay = () => document.querySelectorAll('[data-topdown-replay]').forEach(wire);
  window.cuerefReplay();
})();`;
