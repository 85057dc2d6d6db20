/**
 * The offline report as one self-contained HTML page (inline CSS, one inline script for the
 * top-down replays, no external assets: it opens from a mail attachment or a USB stick; the only
 * files beside it are the clips it links, clips/stroke-NNN.mp4). Pure: data in, a string out.
 *
 * What it shows: the frame score and how it got there (a score-progression chart, the breaks),
 * then one row per stroke — time, striker, ball on, the events the cameras saw with their times
 * and confidences, the call, the score after it — with the strokes the referee should look at
 * again highlighted and their review reasons spelled out; then, for every flagged stroke, its
 * clip with the ball paths drawn and a top-down replay, and the replays of the other strokes.
 */
import type { BaseCall, CallsDoc } from '../core/contracts/calls.js';
import type { StrokeEvent, StrokeLog } from '../core/contracts/strokes.js';
import type { TableProfile } from '../core/table.js';
import { eventLabel } from './labels.js';
import { REPLAY_SCRIPT, topDownSvg, type ReplayFrame, type TopDownPath } from './topdown.js';

export interface ReportInput {
  calls: CallsDoc;
  strokes: StrokeLog;
  /** Page heading, e.g. the video's file name. */
  title?: string;
  /** Free lines shown under the heading (source, frames, calibration…), in this order. */
  meta?: {
    source?: string;
    frames?: number;
    durationS?: number;
    calibration?: string;
    /** How often the ball detector ran (motion and view gating). */
    detector?: { runs: number; frames: number; outOfView: number };
    /** A run that did not finish (e.g. interrupted): shown as a banner. */
    status?: string;
  };
  /** Notes from the stages (things they could not decide). */
  notes?: readonly string[];
  /** The table (needed for the top-down replays). */
  table?: TableProfile;
  /** Clip of a stroke, by stroke index: a path relative to the report (clips/stroke-003.mp4). */
  clips?: Readonly<Record<number, string>>;
  /** Top-down replay of a stroke, by stroke index. */
  replays?: Readonly<Record<number, { paths: readonly TopDownPath[]; replay: readonly ReplayFrame[] }>>;
}

export interface Break {
  player: 0 | 1;
  points: number;
  /** First and last stroke of the break. */
  from: number;
  to: number;
}

/**
 * The breaks of the frame: runs of scoring strokes by one player (a foul, a stroke that scores
 * nothing, or the other player at the table ends one). Penalty points are not part of a break.
 */
export function breaksOf(doc: CallsDoc): Break[] {
  const out: Break[] = [];
  let cur: Break | null = null;
  for (const c of doc.calls) {
    const scoring = c.fouls.length === 0 && c.points > 0;
    if (cur && (!scoring || c.player !== cur.player)) {
      out.push(cur);
      cur = null;
    }
    if (!scoring) continue;
    if (cur) {
      cur.points += c.points;
      cur.to = c.stroke;
    } else cur = { player: c.player, points: c.points, from: c.stroke, to: c.stroke };
  }
  if (cur) out.push(cur);
  return out;
}

/**
 * The score after each stroke as an inline SVG line chart (player A solid, player B dashed), x the
 * stroke number, y the points; a foul's penalty shows as a step for the other player.
 */
export function scoreChartSvg(doc: CallsDoc, widthPx = 640, heightPx = 220): string {
  const names = playerNames(doc);
  const n = doc.calls.length;
  const pad = { l: 40, r: 110, t: 12, b: 28 };
  const maxScore = Math.max(1, ...doc.calls.flatMap((c) => c.scores));
  const X = (k: number) => pad.l + ((widthPx - pad.l - pad.r) * k) / Math.max(1, n);
  const Y = (v: number) => heightPx - pad.b - ((heightPx - pad.t - pad.b) * v) / maxScore;
  const series = [0, 1].map((p) => [[X(0), Y(0)], ...doc.calls.map((c, k) => [X(k + 1), Y(c.scores[p as 0 | 1])])]);
  const colours = ['#1f4fbf', '#c8102e'];
  const lines = series
    .map((pts, p) => `<polyline class="score-line" data-player="${p}" fill="none" stroke="${colours[p]}" stroke-width="2"${p ? ' stroke-dasharray="6 4"' : ''} points="${pts.map(([x, y]) => `${x!.toFixed(1)},${y!.toFixed(1)}`).join(' ')}"/>`)
    .join('');
  const ticks: string[] = [];
  const step = Math.max(1, Math.ceil(maxScore / 5));
  for (let v = 0; v <= maxScore; v += step) ticks.push(`<line x1="${pad.l}" x2="${widthPx - pad.r}" y1="${Y(v).toFixed(1)}" y2="${Y(v).toFixed(1)}" stroke="#ddd"/><text x="${pad.l - 6}" y="${(Y(v) + 4).toFixed(1)}" text-anchor="end">${v}</text>`);
  const xStep = Math.max(1, Math.ceil(n / 10));
  for (let k = 0; k <= n; k += xStep) ticks.push(`<text x="${X(k).toFixed(1)}" y="${heightPx - 8}" text-anchor="middle">${k}</text>`);
  const last = doc.calls.at(-1)?.scores ?? [0, 0];
  const legend = [0, 1].map((p) => `<text x="${widthPx - pad.r + 8}" y="${(Y(last[p]!) + 4).toFixed(1)}" fill="${colours[p]}">${esc(names[p]!)} ${last[p]}</text>`).join('');
  return `<svg class="score-chart" xmlns="http://www.w3.org/2000/svg" width="${widthPx}" height="${heightPx}" viewBox="0 0 ${widthPx} ${heightPx}" role="img" aria-label="score after each stroke" font-size="11" font-family="system-ui,sans-serif">${ticks.join('')}${lines}${legend}<text x="${(pad.l + widthPx - pad.r) / 2}" y="${heightPx}" text-anchor="middle" fill="#555">stroke</text></svg>`;
}

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const playerNames = (doc: CallsDoc): readonly [string, string] => doc.players ?? ['Player A', 'Player B'];

/** The frame score as one line: "Player A 0 – 4 Player B (frame in progress)". */
export function scoreLine(doc: CallsDoc): string {
  const names = playerNames(doc);
  const last = doc.calls.at(-1);
  const s = last ? last.scores : [0, 0];
  const state = last?.frameOver ? (last.winner === null ? 'frame drawn' : `frame over, ${names[last.winner]} wins`) : 'frame in progress';
  return `${names[0]} ${s[0]} – ${s[1]} ${names[1]} (${state})`;
}

export function describeEvent(e: StrokeEvent): string {
  const conf = e.conf !== undefined && e.conf < 1 ? ` (conf ${e.conf.toFixed(2)})` : '';
  return `${e.t.toFixed(2)}s ${eventLabel(e)}${conf}`;
}

function callText(c: BaseCall): string {
  if (c.fouls.length) return `FOUL ${c.fouls.map((f) => f.code).join(' + ')} (${c.penalty})${c.miss ? ' + MISS' : ''}`;
  if (c.legal) return c.points > 0 ? `+${c.points}` : 'legal';
  return 'no foul';
}

function ballOnText(c: BaseCall): string {
  const on = c.ballOn;
  if (Array.isArray(on)) {
    const colours = ['yellow', 'green', 'brown', 'blue', 'pink', 'black'];
    if (on.length === 6 && on.every((b) => colours.includes(String(b)))) return 'colour';
    return on.join(', ');
  }
  return typeof on === 'string' ? on : '';
}

const CSS = `
body{font:14px/1.4 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2rem;color:#1b1b1b;background:#fafafa}
h1{font-size:1.3rem;margin:0 0 .3rem}
.meta{color:#555;margin:0 0 1rem}
.score{font-size:1.6rem;font-weight:600;margin:.5rem 0 1rem}
table{border-collapse:collapse;width:100%;background:#fff}
th,td{border:1px solid #ddd;padding:.35rem .5rem;vertical-align:top;text-align:left}
th{background:#eee}
tr.foul td.call{color:#a00;font-weight:600}
tr.review{background:#fff6d6}
ul{margin:0;padding-left:1.1rem}
.flag{color:#8a5a00}
.notes{color:#555;margin-top:1rem}
.status{background:#fde2e2;border:1px solid #e0a0a0;padding:.5rem .8rem}
section{margin-top:1.5rem}
h2{font-size:1.1rem;margin:1.2rem 0 .5rem}
.flagged article{background:#fff;border:1px solid #ddd;padding:.6rem .8rem;margin:.8rem 0}
.flagged h3{font-size:1rem;margin:0 0 .4rem}
.media{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
video{max-width:100%;width:560px;background:#000}
table.breaks{width:auto}
figure.replay{margin:0}
.replay figcaption{margin-top:.3rem}
details{margin:.3rem 0}
`;

/** The whole page. */
export function renderReport(input: ReportInput): string {
  const { calls: doc, strokes: log } = input;
  const names = playerNames(doc);
  const meta: string[] = [];
  if (input.meta?.source !== undefined) meta.push(`source ${esc(input.meta.source)}`);
  if (input.meta?.frames !== undefined) meta.push(`${input.meta.frames} frames`);
  if (input.meta?.durationS !== undefined) meta.push(`${input.meta.durationS.toFixed(1)} s`);
  if (input.meta?.calibration !== undefined) meta.push(`calibration: ${esc(input.meta.calibration)}`);
  if (input.meta?.detector) {
    const d = input.meta.detector;
    meta.push(`detector ran on ${d.runs} of ${d.frames} frames (${d.frames ? ((100 * d.runs) / d.frames).toFixed(1) : '0.0'} %)${d.outOfView ? `, ${d.outOfView} out of view skipped` : ''}`);
  }
  const flagged = doc.calls.filter((c) => c.review.length > 0).length;
  const rows = doc.calls.map((c) => {
    const s = log.strokes[c.stroke];
    const events = s ? s.events.map((e) => `<li>${esc(describeEvent(e))}</li>`).join('') : '';
    const review = c.review.map((r) => `<li class="flag">${esc(r.code)}: ${esc(r.reason)} (conf ${r.conf.toFixed(2)})</li>`).join('');
    const flags = [c.freeBall === true ? 'free ball' : '', c.snookered === true && c.freeBall !== true ? 'snookered' : '', c.frameOver ? `frame over: ${c.winner === null ? 'draw' : names[c.winner]} wins` : '']
      .filter(Boolean)
      .map((f) => `<li>${esc(f)}</li>`)
      .join('');
    const cls = [c.fouls.length ? 'foul' : '', c.review.length ? 'review' : ''].filter(Boolean).join(' ');
    const clip = input.clips?.[c.stroke];
    const link = clip ? ` <a href="#stroke-${c.stroke}">clip</a>` : '';
    return `<tr${cls ? ` class="${cls}"` : ''} data-stroke="${c.stroke}"><td>${c.stroke}${link}</td><td>${s?.t !== undefined ? s.t.toFixed(2) : ''}</td><td>${esc(names[c.player] ?? String(c.player))}</td><td>${esc(ballOnText(c))}</td><td>${esc(c.summary)}${events ? `<ul>${events}</ul>` : ''}</td><td class="call">${esc(callText(c))}${flags ? `<ul>${flags}</ul>` : ''}</td><td>${c.scores[0]}–${c.scores[1]}</td><td>${c.break !== undefined ? esc(String(c.break)) : ''}</td><td>${review ? `<ul>${review}</ul>` : ''}</td></tr>`;
  });
  const notes = input.notes?.length ? `<div class="notes"><b>Notes</b><ul>${input.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></div>` : '';
  const breaks = breaksOf(doc);
  const breaksHtml = breaks.length
    ? `<table class="breaks"><thead><tr><th>player</th><th>break</th><th>strokes</th></tr></thead><tbody>${breaks
        .map((b) => `<tr><td>${esc(names[b.player])}</td><td>${b.points}</td><td>${b.from === b.to ? b.from : `${b.from}–${b.to}`}</td></tr>`)
        .join('')}</tbody></table>`
    : '<p>No breaks yet.</p>';
  const replayOf = (k: number, title: string): string => {
    const r = input.replays?.[k];
    if (!r || !input.table || !r.replay.length) return '';
    return topDownSvg({ game: doc.game, table: input.table, paths: r.paths, replay: r.replay, title, widthPx: 520 });
  };
  const flaggedCalls = doc.calls.filter((c) => c.fouls.length > 0 || c.review.length > 0);
  const flaggedHtml = flaggedCalls
    .map((c) => {
      const clip = input.clips?.[c.stroke];
      const review = c.review.map((r) => `<li class="flag">${esc(r.code)}: ${esc(r.reason)} (conf ${r.conf.toFixed(2)})</li>`).join('');
      const fouls = c.fouls.map((f) => `<li>${esc(f.code)} (${f.penalty})${f.detail ? `: ${esc(String(f.detail))}` : ''}</li>`).join('');
      const video = clip ? `<video controls preload="metadata" muted playsinline src="${esc(clip)}"></video>` : '<p class="meta">no clip</p>';
      return `<article id="stroke-${c.stroke}" data-stroke="${c.stroke}"><h3>Stroke ${c.stroke}: ${esc(callText(c))}</h3>${fouls ? `<ul>${fouls}</ul>` : ''}${review ? `<ul>${review}</ul>` : ''}<div class="media">${video}${replayOf(c.stroke, `Stroke ${c.stroke}, top-down replay`)}</div></article>`;
    })
    .join('\n');
  const otherReplays = doc.calls
    .filter((c) => !flaggedCalls.includes(c))
    .map((c) => {
      const svg = replayOf(c.stroke, `Stroke ${c.stroke}, top-down replay`);
      return svg ? `<details data-stroke="${c.stroke}"><summary>Stroke ${c.stroke}: ${esc(c.summary)}</summary>${svg}</details>` : '';
    })
    .filter(Boolean)
    .join('\n');
  const hasReplay = /data-topdown-replay/.test(flaggedHtml + otherReplays);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>cueref report — ${esc(input.title ?? doc.game)}</title>
<style>${CSS}</style></head>
<body>
<h1>cueref report — ${esc(input.title ?? doc.game)} (${esc(doc.game)}${doc.variant ? `, ${esc(doc.variant)}` : ''})</h1>
<p class="meta">${meta.join(' · ')}</p>
${input.meta?.status ? `<p class="status">${esc(input.meta.status)}</p>` : ''}
<p class="score">${esc(scoreLine(doc))}</p>
<p>${doc.calls.length} stroke(s), ${doc.calls.filter((c) => c.fouls.length).length} foul(s), ${flagged} flagged for review.</p>
<section class="progress"><h2>Score progression</h2>
${scoreChartSvg(doc)}
<h2>Breaks</h2>
${breaksHtml}
</section>
<h2>Strokes</h2>
<table class="strokes">
<thead><tr><th>#</th><th>t (s)</th><th>player</th><th>on</th><th>what happened</th><th>call</th><th>score</th><th>break</th><th>review</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
${flaggedHtml ? `<section class="flagged"><h2>Flagged strokes</h2>\n${flaggedHtml}\n</section>` : ''}
${otherReplays ? `<section class="replays"><h2>Other strokes, top-down</h2>\n${otherReplays}\n</section>` : ''}
${notes}
${hasReplay ? `<script>${REPLAY_SCRIPT}</script>` : ''}
</body></html>
`;
}
