/**
 * The offline report as one self-contained HTML page (inline CSS, no scripts, no external assets:
 * it opens from a mail attachment or a USB stick). Pure: calls + strokes in, a string out.
 *
 * What it shows: the frame score, then one row per stroke — time, striker, ball on, the events the
 * cameras saw, the call, the score after it — with the strokes the referee should look at again
 * highlighted and their review reasons spelled out.
 */
import type { BaseCall, CallsDoc } from '../core/contracts/calls.js';
import type { StrokeEvent, StrokeLog } from '../core/contracts/strokes.js';

export interface ReportInput {
  calls: CallsDoc;
  strokes: StrokeLog;
  /** Page heading, e.g. the video's file name. */
  title?: string;
  /** Free lines shown under the heading (source, frames, calibration…), in this order. */
  meta?: { source?: string; frames?: number; durationS?: number; calibration?: string };
  /** Notes from the stages (things they could not decide). */
  notes?: readonly string[];
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
  const t = `${e.t.toFixed(2)}s`;
  const r = e as Record<string, unknown>;
  const conf = typeof r.conf === 'number' && r.conf < 1 ? ` (conf ${r.conf.toFixed(2)})` : '';
  let what: string;
  switch (e.type) {
    case 'strike':
      what = `strike ${r.ball}`;
      break;
    case 'contact':
      what = `${r.a} hits ${r.b}`;
      break;
    case 'cushion':
      what = `${r.ball} → ${r.side} cushion`;
      break;
    case 'pot':
      what = `${r.ball} potted ${r.pocket}`;
      break;
    default: {
      const rest = Object.entries(r)
        .filter(([k]) => k !== 't' && k !== 'type' && k !== 'conf')
        .map(([k, v]) => `${k}=${typeof v === 'object' ? JSON.stringify(v) : String(v)}`)
        .join(' ');
      what = rest ? `${e.type} ${rest}` : e.type;
    }
  }
  return `${t} ${what}${conf}`;
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
    return `<tr${cls ? ` class="${cls}"` : ''}><td>${c.stroke}</td><td>${s?.t !== undefined ? s.t.toFixed(2) : ''}</td><td>${esc(names[c.player] ?? String(c.player))}</td><td>${esc(ballOnText(c))}</td><td>${esc(c.summary)}${events ? `<ul>${events}</ul>` : ''}</td><td class="call">${esc(callText(c))}${flags ? `<ul>${flags}</ul>` : ''}</td><td>${c.scores[0]}–${c.scores[1]}</td><td>${c.break !== undefined ? esc(String(c.break)) : ''}</td><td>${review ? `<ul>${review}</ul>` : ''}</td></tr>`;
  });
  const notes = input.notes?.length ? `<div class="notes"><b>Notes</b><ul>${input.notes.map((n) => `<li>${esc(n)}</li>`).join('')}</ul></div>` : '';
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>cueref report — ${esc(input.title ?? doc.game)}</title>
<style>${CSS}</style></head>
<body>
<h1>cueref report — ${esc(input.title ?? doc.game)} (${esc(doc.game)}${doc.variant ? `, ${esc(doc.variant)}` : ''})</h1>
<p class="meta">${meta.join(' · ')}</p>
<p class="score">${esc(scoreLine(doc))}</p>
<p>${doc.calls.length} stroke(s), ${doc.calls.filter((c) => c.fouls.length).length} foul(s), ${flagged} flagged for review.</p>
<table>
<thead><tr><th>#</th><th>t (s)</th><th>player</th><th>on</th><th>what happened</th><th>call</th><th>score</th><th>break</th><th>review</th></tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
${notes}
</body></html>
`;
}
