/**
 * The live scoreboard page: players and scores, who is to play, the break, the ball on, the last
 * calls, review flags, the table from above with the balls moving, and a banner when the camera is
 * lost. Self-contained (no external files); everything dynamic arrives over the WebSocket, starting
 * with a `snapshot` of the current state, so a page opened late shows the same as one open from
 * the start.
 *
 * The table is report/topdown.ts's drawing, rendered here once with every ball of the game (hidden
 * until seen). The script only moves and hides those balls, mirroring topDownSvg's mapping
 * (SVG x = table y, SVG y = table width − table x): there is one table drawing in the project.
 */
import { allBallIds, POCKETS, type GameId } from '../core/games.js';
import type { TableProfile } from '../core/table.js';
import { topDownSvg } from '../report/topdown.js';


const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface LivePageInput {
  game: GameId;
  table: TableProfile;
  title: string;
  /** CSP nonce for the inline style and script. */
  nonce: string;
  /** Show the operator's form for the next stroke (the server accepts POST /next). */
  operator?: boolean;
}

/** Decisions offered per game (the contract's names; rules-*.md say when each applies). */
const DECISIONS_OF: Record<GameId, readonly string[]> = {
  snooker: ['play', 'playAgain', 'replace'],
  pool8: ['play', 'playAgain', 'kitchen', 'rerack', 'spot8', 'breakAgain'],
  novus: ['play', 'playAgain'],
};

function operatorForm(game: GameId): string {
  const opt = (v: string, label = v) => `<option value="${esc(v)}">${esc(label)}</option>`;
  const balls = allBallIds(game).map((id) => opt(id)).join('');
  const pockets = [...POCKETS, 'safety'].map((p) => opt(p)).join('');
  return `<form id="next-form" class="operator" autocomplete="off">
  <h2>Next stroke (operator)</h2>
  <label>Nominated <select name="nominated"><option value="">—</option>${balls}</select></label>
  ${game === 'pool8' ? `<label>Called ball <select name="calledBall"><option value="">—</option>${balls}</select></label>
  <label>Called pocket <select name="calledPocket"><option value="">—</option>${pockets}</select></label>` : ''}
  <label>Decision <select name="decision"><option value="">—</option>${DECISIONS_OF[game].map((d) => opt(d)).join('')}</select></label>
  <button type="submit">Set</button> <button type="button" id="next-clear">Clear</button>
  <div id="next-shown" class="next-shown">nothing entered</div>
  <div id="next-error" class="next-error" role="alert"></div>
</form>`;
}

export function renderLivePage(o: LivePageInput): string {
  // The drawing holds one circle per ball id of the game.
  const svg = topDownSvg({ game: o.game, table: o.table, balls: allBallIds(o.game).map((id) => ({ id, x: NaN, y: NaN })), widthPx: 900, title: 'The table from above' });
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(o.title)}</title>
<style nonce="${o.nonce}">
  body { font: 16px/1.4 system-ui, sans-serif; margin: 0; background: #10151a; color: #e8ecef; }
  main { max-width: 960px; margin: 0 auto; padding: 12px; }
  .banner { background: #b3261e; color: #fff; font-weight: 700; font-size: 1.4em; padding: 10px 14px; text-align: center; border-radius: 6px; margin-bottom: 10px; }
  .banner[hidden] { display: none; }
  .board { display: grid; grid-template-columns: 1fr 1fr; gap: 10px; margin-bottom: 8px; }
  .player { background: #1c252e; border-radius: 6px; padding: 8px 12px; border: 3px solid transparent; }
  .player.to-play { border-color: #f2c500; }
  .player .name { font-size: 1.1em; }
  .player .score { font-size: 2.6em; font-weight: 700; font-variant-numeric: tabular-nums; }
  .info { display: flex; gap: 18px; flex-wrap: wrap; margin: 6px 0 10px; color: #b8c2cc; }
  .info b { color: #e8ecef; }
  .status { font-size: .85em; color: #8a96a3; }
  .status[data-status="live"] .dot { color: #3ecf6e; }
  .status .dot { color: #d9534f; }
  svg.topdown { width: 100%; height: auto; display: block; }
  g.ball { transition: transform 180ms linear; }
  h2 { font-size: 1em; margin: 14px 0 4px; color: #b8c2cc; }
  ol.calls { list-style: none; padding: 0; margin: 0; }
  ol.calls li { padding: 6px 8px; border-bottom: 1px solid #26313b; }
  ol.calls li.foul { background: #2d1c1c; }
  .foul-codes { color: #ff8a80; font-weight: 600; }
  ul.flags { padding-left: 18px; color: #ffcc80; }
  form.operator { background: #1c252e; border-radius: 6px; padding: 6px 12px 10px; margin: 10px 0; }
  form.operator label { margin-right: 12px; }
  .next-shown { margin-top: 6px; color: #b8c2cc; }
  .next-error { color: #ff8a80; }
</style></head>
<body><main data-game="${esc(o.game)}" data-bed-width="${o.table.bed.width}">
<div id="banner" class="banner" role="alert" hidden>CAMERA LOST</div>
<div class="board">
  <div class="player" id="p0"><div class="name"></div><div class="score">0</div></div>
  <div class="player" id="p1"><div class="name"></div><div class="score">0</div></div>
</div>
<div class="info"><span>Break <b id="break">–</b></span><span>Ball on <b id="ballon">–</b></span><span id="detail"></span></div>
<div class="status" id="status" data-status="connecting"><span class="dot">●</span> <span id="status-text">connecting…</span></div>
${svg}
${o.operator ? operatorForm(o.game) : ''}
<h2>Calls</h2>
<ol class="calls" id="calls"></ol>
<h2>For review</h2>
<ul class="flags" id="flags"></ul>
</main>
<script nonce="${o.nonce}">${PAGE_SCRIPT}</script>
</body></html>
`;
}

/** The page's script: WebSocket client, state → DOM. Text goes in with textContent only. */
const PAGE_SCRIPT = `(() => {
  const main = document.querySelector('main');
  const W = Number(main.dataset.bedWidth);
  const balls = {}; document.querySelectorAll('svg.topdown g.ball').forEach((g) => { balls[g.dataset.ball] = g; });
  const $ = (id) => document.getElementById(id);
  const token = new URLSearchParams(location.search).get('token');
  let calls = [], flags = [];
  const STATUS_TEXT = { connecting: 'connecting to the camera…', live: 'live', lost: 'camera lost', reconnecting: 'camera lost: reconnecting…', ended: 'the source ended', offline: 'no connection to the cueref server' };

  function setStatus(status, detail) {
    const el = $('status'); el.dataset.status = status;
    $('status-text').textContent = (STATUS_TEXT[status] || status) + (detail ? ' (' + detail + ')' : '');
    const banner = $('banner');
    banner.hidden = !(status === 'lost' || status === 'reconnecting' || status === 'offline');
    banner.textContent = status === 'offline' ? 'NO CONNECTION TO THE REFEREE' : status === 'reconnecting' ? 'CAMERA LOST — reconnecting…' : 'CAMERA LOST';
    main.dataset.status = status;
  }
  function setBalls(list) {
    const on = new Set();
    for (const [id, x, y] of list) {
      const g = balls[id]; if (!g) continue;
      // topDownSvg's mapping: SVG x = table y, SVG y = bed width - table x.
      g.setAttribute('transform', 'translate(' + y.toFixed(1) + ' ' + (W - x).toFixed(1) + ')');
      g.removeAttribute('visibility'); on.add(id);
    }
    for (const id in balls) if (!on.has(id)) balls[id].setAttribute('visibility', 'hidden');
  }
  function setBoard(sb) {
    for (const p of [0, 1]) {
      const el = $('p' + p);
      el.querySelector('.name').textContent = sb.players[p];
      el.querySelector('.score').textContent = String(sb.scores[p]);
      el.classList.toggle('to-play', sb.toPlay === p && !sb.frameOver);
    }
    $('break').textContent = sb.break === null ? '–' : String(sb.break);
    $('ballon').textContent = sb.frameOver ? (sb.winner === null ? 'frame over' : sb.players[sb.winner] + ' wins') : (sb.ballOn.join(', ') || '–');
    $('detail').textContent = sb.detail;
    main.dataset.scores = sb.scores.join('-');
  }
  const nameOf = (p) => main.dataset['p' + p] || 'Player ' + (p + 1);
  function renderCalls() {
    const ol = $('calls'); ol.textContent = '';
    for (const c of calls.slice().reverse()) {
      const li = document.createElement('li');
      li.className = c.fouls.length ? 'foul' : 'legal';
      li.dataset.stroke = String(c.stroke);
      const head = document.createElement('div');
      head.textContent = '#' + (c.stroke + 1) + ' ' + nameOf(c.player) + ': ' + c.summary;
      li.appendChild(head);
      const tail = document.createElement('div');
      if (c.fouls.length) {
        const f = document.createElement('span'); f.className = 'foul-codes';
        f.textContent = 'FOUL ' + c.fouls.map((x) => x.code + ' (' + x.penalty + ')').join(', ') + ' ';
        tail.appendChild(f);
      }
      tail.appendChild(document.createTextNode((c.points ? '+' + c.points + ' · ' : '') + 'score ' + c.scores.join('–') + (c.break !== null ? ' · break ' + c.break : '') + ' · next: ' + nameOf(c.nextPlayer) + (c.review.length ? ' · review: ' + c.review.map((r) => r.code).join(', ') : '')));
      li.appendChild(tail);
      ol.appendChild(li);
    }
  }
  function renderFlags() {
    const ul = $('flags'); ul.textContent = '';
    for (const f of flags.slice().reverse()) {
      const li = document.createElement('li'); li.dataset.code = f.code;
      li.textContent = (f.t !== null ? f.t.toFixed(1) + ' s ' : '') + f.code + ': ' + f.reason;
      ul.appendChild(li);
    }
  }
  function names(sb) { main.dataset.p0 = sb.players[0]; main.dataset.p1 = sb.players[1]; }
  // The operator's form (only when the server takes POST /next).
  const form = $('next-form');
  function showNext(next) {
    if (!form) return;
    const parts = Object.entries(next || {}).map(([k, v]) => k + ' ' + (Array.isArray(v) ? v.join(', ') : v));
    $('next-shown').textContent = parts.length ? 'next stroke: ' + parts.join(' · ') : 'nothing entered';
    main.dataset.next = JSON.stringify(next || {});
  }
  async function postNext(body) {
    $('next-error').textContent = '';
    const headers = { 'Content-Type': 'application/json' };
    if (token) headers.Authorization = 'Bearer ' + token;
    try {
      const r = await fetch('next', { method: 'POST', headers, body: JSON.stringify(body) });
      const j = await r.json();
      if (!r.ok) $('next-error').textContent = (j.error && j.error.message) || ('refused (' + r.status + ')');
    } catch (err) { $('next-error').textContent = 'not sent: ' + err.message; }
  }
  if (form) {
    form.addEventListener('submit', (e) => {
      e.preventDefault();
      const body = {};
      for (const el of form.querySelectorAll('select')) if (el.value) body[el.name] = el.value;
      postNext(body);
    });
    $('next-clear').addEventListener('click', () => { form.reset(); postNext({}); });
  }
  function onMessage(m) {
    switch (m.type) {
      case 'snapshot':
        names(m.state.scoreboard); setBoard(m.state.scoreboard); setStatus(m.state.status.status, m.state.status.detail); setBalls(m.state.balls);
        calls = m.state.calls; flags = m.state.flags; renderCalls(); renderFlags(); showNext(m.state.next); break;
      case 'next': showNext(m.next); break;
      case 'status': setStatus(m.status, m.detail); break;
      case 'balls': setBalls(m.balls); break;
      case 'call': calls.push(m.call); if (calls.length > 20) calls.shift(); names(m.scoreboard); setBoard(m.scoreboard); renderCalls(); break;
      case 'flag': flags.push(m.flag); if (flags.length > 20) flags.shift(); renderFlags(); break;
    }
  }
  let retry = 500;
  function connect() {
    const url = new URL('ws', location.href); url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
    if (token) url.searchParams.set('token', token);
    const ws = new WebSocket(url);
    ws.onopen = () => { retry = 500; main.dataset.ws = 'open'; };
    ws.onmessage = (e) => { try { onMessage(JSON.parse(e.data)); } catch (err) { console.error(err); } };
    ws.onclose = () => {
      main.dataset.ws = 'closed';
      setStatus('offline', '');
      setTimeout(connect, retry); retry = Math.min(10000, retry * 2);
    };
  }
  connect();
})();`;
