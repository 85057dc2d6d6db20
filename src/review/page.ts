/**
 * The review page: one HTML document with its CSS and scripts inline (served with a per-response
 * CSP nonce), no external assets. It loads `api/state`, shows the queue of flagged calls and the
 * selected one — clip, top-down replay (report/topdown.ts and its REPLAY_SCRIPT), the rule, the
 * measurements — and posts decisions; every answer is the new state, so the score follows without
 * a reload. URLs are relative, so the page works behind a path prefix; a `?token=` on the page's
 * URL is sent back as `Authorization: Bearer` on every call and appended to the clip URLs.
 *
 * Keys: a accept, o overrule (form), u undo, j/k next/previous, Esc close the form.
 */
import { REPLAY_SCRIPT } from '../report/topdown.js';

const CSS = `
:root{--bg:#f6f5f1;--panel:#fff;--ink:#1b1b1b;--muted:#666;--line:#ddd;--accent:#1f5fbf;--foul:#b00020;--ok:#0b7a3b;--warn:#8a5a00}
*{box-sizing:border-box}
body{font:14px/1.45 system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;color:var(--ink);background:var(--bg)}
header{display:flex;gap:1.5rem;align-items:baseline;flex-wrap:wrap;padding:.8rem 1.2rem;background:#14301f;color:#fff}
header h1{font-size:1.1rem;margin:0;font-weight:600}
#score{font-size:1.5rem;font-weight:700}
#progress{color:#cfe3d6}
header button{margin-left:auto}
button{font:inherit;padding:.35rem .8rem;border:1px solid #999;border-radius:4px;background:#fff;cursor:pointer}
button:disabled{opacity:.5;cursor:default}
button.accept{background:var(--ok);color:#fff;border-color:var(--ok)}
button.overrule{background:var(--foul);color:#fff;border-color:var(--foul)}
kbd{font:12px ui-monospace,monospace;border:1px solid #bbb;border-bottom-width:2px;border-radius:3px;padding:0 .25rem;background:#f3f3f3;color:#333}
main{display:grid;grid-template-columns:260px 1fr;gap:1rem;padding:1rem 1.2rem}
nav ol{list-style:none;margin:0;padding:0}
nav li{padding:.45rem .6rem;border:1px solid var(--line);border-radius:4px;margin-bottom:.35rem;background:var(--panel);cursor:pointer}
nav li.sel{outline:2px solid var(--accent)}
nav li .codes{display:block;color:var(--muted);font-size:12px;overflow-wrap:anywhere}
.badge{float:right;font-size:11px;padding:0 .35rem;border-radius:3px;background:#eee;color:#444}
.badge.accept{background:#d8f0df;color:var(--ok)}
.badge.overrule{background:#f8d9de;color:var(--foul)}
section.panel{background:var(--panel);border:1px solid var(--line);border-radius:6px;padding: .8rem 1rem;margin-bottom:1rem}
h2{font-size:1.15rem;margin:0 0 .4rem}
h3{font-size:.95rem;margin:.8rem 0 .3rem;color:#333}
.calls-line{font-size:1.05rem}
.calls-line .foul{color:var(--foul);font-weight:600}
.calls-line .changed{color:var(--accent);font-weight:600}
#media{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
#media video{max-width:100%;width:440px;background:#000;border-radius:4px}
#media .noclip{width:440px;max-width:100%;padding:2rem 1rem;text-align:center;border:1px dashed #bbb;color:var(--muted);border-radius:4px}
figure.replay{margin:0}
figure.replay figcaption{margin-top:.3rem}
.cols{display:grid;grid-template-columns:1fr 1fr;gap:1rem}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid var(--line);padding:.25rem .4rem;text-align:left;vertical-align:top}
th{font-weight:600;color:#444}
td.num{text-align:right;font-variant-numeric:tabular-nums}
.rule li{margin-bottom:.3rem}
.rule .code{font-family:ui-monospace,monospace;font-weight:600}
.ask{color:var(--warn);font-weight:600}
.lowconf{color:var(--warn)}
.decision{display:flex;gap:.6rem;align-items:center;flex-wrap:wrap}
#overrule-form{border-top:1px solid var(--line);margin-top:.8rem;padding-top:.6rem}
#overrule-form fieldset{border:1px solid var(--line);border-radius:4px;margin:0 0 .6rem;padding:.4rem .7rem}
#overrule-form legend{font-weight:600}
#overrule-form label{display:block}
.error{color:var(--foul);font-weight:600}
#calls tr.flagged td{background:#fff8e1}
#calls tr.foul td.call{color:var(--foul);font-weight:600}
#calls tr{cursor:default}
#calls tr.flagged{cursor:pointer}
.muted{color:var(--muted)}
#exported a{margin-right:1rem}
@media (max-width:900px){main{grid-template-columns:1fr}.cols{grid-template-columns:1fr}}
`;

/** Browser code of the page (plain ES2020, no dependencies). Everything shown is built with textContent, never parsed as HTML — except the figure, which report/topdown.ts escapes. */
export const CLIENT_SCRIPT = `(() => {
  const token = new URLSearchParams(location.search).get('token');
  const withToken = (u) => token ? u + (u.includes('?') ? '&' : '?') + 'token=' + encodeURIComponent(token) : u;
  const auth = token ? { Authorization: 'Bearer ' + token } : {};
  let state = null, sel = 0, shownStroke = null, formOpen = false, busy = false;
  const $ = (id) => document.getElementById(id);

  function h(tag, attrs, ...kids) {
    const el = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
      else if (k === 'class') el.className = v;
      else el.setAttribute(k, v === true ? '' : String(v));
    }
    for (const c of kids.flat()) if (c !== null && c !== undefined && c !== false) el.append(c instanceof Node ? c : String(c));
    return el;
  }
  // replaceChildren would print null as text: drop the parts a render leaves out.
  const fill = (el, ...kids) => el.replaceChildren(...kids.flat().filter((k) => k !== null && k !== undefined && k !== false));
  const fmt = (v, d) => (v === null || v === undefined ? '–' : Number(v).toFixed(d));

  async function api(method, path, body) {
    const init = { method, headers: { ...auth } };
    if (body !== undefined) { init.headers['Content-Type'] = 'application/json'; init.body = JSON.stringify(body); }
    const res = await fetch(path, init);
    const json = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error((json.error && json.error.message) || res.status + ' ' + res.statusText);
    return json;
  }

  function setState(s) {
    const keep = state && state.queue[sel] ? state.queue[sel].stroke : null;
    state = s;
    if (keep !== null) { const k = s.queue.findIndex((q) => q.stroke === keep); sel = k >= 0 ? k : Math.min(sel, s.queue.length - 1); }
    render();
  }

  function reasonCodes(q) { return [...new Set(q.reasons.map((r) => r.kind === 'lowConfidence' ? 'LOW_CONF ' + r.type : r.code))]; }

  function render() {
    if (!state) return;
    document.title = 'cueref review — ' + state.title;
    $('title').textContent = 'Review · ' + state.title + ' (' + state.game + (state.variant ? ', ' + state.variant : '') + ')';
    const sc = $('score');
    sc.textContent = state.score.line;
    sc.dataset.scores = state.score.scores.join('-');
    $('progress').textContent = state.decided + ' / ' + state.queue.length + ' decided';
    renderQueue(); renderItem(); renderCalls();
    fill($('notes'), ...state.notes.map((n) => h('li', {}, n)));
  }

  function renderQueue() {
    const ol = $('queue');
    if (!state.queue.length) { fill(ol, h('li', { class: 'muted' }, 'Nothing flagged: every call stands.')); return; }
    fill(ol, ...state.queue.map((q, k) => h('li', { class: k === sel ? 'sel' : '', 'data-stroke': q.stroke, onclick: () => select(k) },
      h('span', { class: 'badge' + (q.decision ? ' ' + q.decision.action : '') }, q.decision ? (q.decision.action === 'accept' ? 'accepted' : 'overruled') : 'open'),
      h('b', {}, '#' + q.stroke + ' '), q.current.playerName, ' · ', q.current.callText,
      h('span', { class: 'codes' }, reasonCodes(q).join(' · ')))));
  }

  function select(k) {
    if (!state || k < 0 || k >= state.queue.length) return;
    sel = k; formOpen = false; render();
    const li = $('queue').children[k]; if (li && li.scrollIntoView) li.scrollIntoView({ block: 'nearest' });
  }

  function callLine(q) {
    const p = q.proposal, c = q.current;
    const changed = p.callText !== c.callText || p.scores.join() !== c.scores.join();
    return h('p', { class: 'calls-line' },
      'Proposed: ', h('span', { class: p.foul ? 'foul' : '' }, p.callText), ' → ' + p.scores.join('–'),
      changed ? [' · now: ', h('span', { class: 'changed', id: 'current-call' }, c.callText + ' → ' + c.scores.join('–'))] : null,
      h('br'), h('span', { class: 'muted' }, c.summary));
  }

  function renderMedia(q) {
    const media = $('media');
    const video = q.clip
      ? h('video', { id: 'clip', controls: true, muted: true, playsinline: true, preload: 'auto', src: withToken(q.clip) })
      : h('div', { class: 'noclip' }, 'No clip for this stroke (clips/stroke-' + String(q.stroke).padStart(3, '0') + '.mp4).');
    if (video.tagName === 'VIDEO') video.muted = true;
    const fig = h('div', { class: 'topdown-wrap' });
    fig.innerHTML = q.figure;
    fig.append(h('div', { class: 'muted' }, 'Replay from ' + ({ tracks: 'tracks.jsonl', paths: 'the stroke\\'s paths', positions: 'positions before and at rest', none: 'nothing' })[q.replaySource]));
    fill(media, video, fig);
    if (window.cuerefReplay) window.cuerefReplay();
  }

  function rulePanel(q) {
    const c = q.current;
    const fouls = c.fouls.map((f) => h('li', {}, h('span', { class: 'code' }, f.code), ' (' + f.penalty + ')' + (f.ball ? ' · ball ' + f.ball : '') + ' — ' + f.detail));
    const reviews = q.reasons.filter((r) => r.kind === 'review').map((r) => h('li', {}, h('span', { class: 'code' }, r.code), ' — ' + r.reason + ' (conf ' + fmt(r.conf, 2) + ')', r.ask ? [h('br'), h('span', { class: 'ask' }, 'Ask: ' + r.ask)] : null));
    const other = q.reasons.filter((r) => r.kind !== 'review').map((r) => r.kind === 'lowConfidence'
      ? h('li', { class: 'lowconf' }, 'Low confidence: ' + r.label + ' (conf ' + fmt(r.conf, 2) + ')')
      : h('li', {}, 'Camera-inferred foul ', h('span', { class: 'code' }, r.code), ' — ' + r.detail));
    return h('div', { class: 'rule' },
      h('h3', {}, 'The rule'),
      fouls.length ? h('ul', {}, fouls) : h('p', {}, c.callText === 'legal' || c.callText.startsWith('+') ? 'No foul called (' + c.callText + ').' : c.callText),
      h('h3', {}, 'Why it is flagged'), h('ul', {}, reviews, other),
      c.miss ? h('p', { class: 'ask' }, 'A miss is called.') : null,
      c.touching.length ? h('p', {}, 'Cue ball touching at rest: ' + c.touching.join(', ')) : null);
  }

  function measurePanel(q) {
    const m = q.measurements;
    const rows = [];
    for (const c of m.contacts) rows.push(h('tr', {}, h('td', {}, c.a + ' → ' + c.b), h('td', { class: 'num' }, c.afterStrikeMs === null ? '–' : '+' + fmt(c.afterStrikeMs, 1) + ' ms'), h('td', { class: 'num' + (c.conf !== null && c.conf < 0.8 ? ' lowconf' : '') }, fmt(c.conf, 2))));
    for (const p of m.pots) rows.push(h('tr', {}, h('td', {}, p.ball + ' potted ' + p.pocket), h('td', { class: 'num' }, m.strikeT === null ? '–' : '+' + fmt((p.t - m.strikeT) * 1000, 0) + ' ms'), h('td', { class: 'num' + (p.conf !== null && p.conf < 0.8 ? ' lowconf' : '') }, fmt(p.conf, 2))));
    const gaps = (label, list) => list.length ? h('tr', {}, h('td', {}, label), h('td', { colspan: 2 }, list.map((g) => g.ball + ' ' + fmt(g.gapMm, 1) + ' mm').join(' · '))) : null;
    return h('div', {},
      h('h3', {}, 'Measurements'),
      h('table', { id: 'measurements' }, h('thead', {}, h('tr', {}, h('th', {}, 'event'), h('th', {}, 'time after strike'), h('th', {}, 'conf'))), h('tbody', {}, rows,
        m.firstContactGapMs !== null ? h('tr', {}, h('td', {}, 'first-contact margin'), h('td', { class: 'num', colspan: 2 }, fmt(m.firstContactGapMs, 1) + ' ms')) : null,
        gaps('cue-ball gap at rest', m.cueGapsAtRest), gaps('cue-ball gap before', m.cueGapsBefore))));
  }

  function eventsPanel(q) {
    return h('div', {}, h('h3', {}, 'Events (strokes.json)'), h('ol', { start: 0, class: 'events' }, q.events.map((e) => h('li', { class: e.conf !== null && e.conf < 0.8 ? 'lowconf' : '' }, fmt(e.t, 2) + ' s · ' + e.label + (e.conf !== null ? ' (conf ' + fmt(e.conf, 2) + ')' : '')))));
  }

  function describeDecision(d) {
    if (!d) return 'Not decided yet.';
    const what = d.action === 'accept' ? 'Accepted' : 'Overruled';
    const parts = d.corrections.map((c) => c.op === 'removeEvent' ? 'removed event ' + c.event + ' (' + c.type + ')' : c.op === 'firstContact' ? 'first contact ' + c.ball : c.op === 'addFoul' ? 'foul ' + c.code + (c.ball ? ' (' + c.ball + ')' : '') : c.op === 'miss' ? (c.called ? 'miss called' : 'no miss') : 'touching ' + (c.balls.join(', ') || 'none'));
    return what + (parts.length ? ': ' + parts.join('; ') : '') + (d.note ? ' — ' + d.note : '');
  }

  function overruleForm(q) {
    const evs = q.events.filter((e) => e.type !== 'strike').map((e) => h('label', {}, h('input', { type: 'checkbox', name: 'remove', value: e.index, 'data-type': e.type, 'data-t': e.t }), ' ' + fmt(e.t, 2) + ' s · ' + e.label + (e.conf !== null ? ' (conf ' + fmt(e.conf, 2) + ')' : '')));
    const ballOpts = (first) => [h('option', { value: '' }, first), ...q.balls.map((b) => h('option', { value: b }, b))];
    const near = q.measurements.cueGapsAtRest;
    return h('form', { id: 'overrule-form', onsubmit: (ev) => { ev.preventDefault(); submitOverrule(q); } },
      h('fieldset', {}, h('legend', {}, 'Events the cameras got wrong (remove)'), evs.length ? evs : h('p', { class: 'muted' }, 'none')),
      h('fieldset', {}, h('legend', {}, 'The cue ball hit first'), h('select', { name: 'first' }, ballOpts('— as seen —'))),
      h('fieldset', {}, h('legend', {}, 'Add a foul'), h('input', { name: 'foul', list: 'foul-codes', placeholder: 'CODE', pattern: '[A-Z][A-Z0-9_]*', autocomplete: 'off' }), ' ball ', h('select', { name: 'foulBall' }, ballOpts('—')),
        h('datalist', { id: 'foul-codes' }, state.foulCodes.map((c) => h('option', { value: c })))),
      state.game === 'snooker' ? h('fieldset', {}, h('legend', {}, 'Miss'), h('select', { name: 'miss' }, h('option', { value: '' }, '— as called —'), h('option', { value: 'true' }, 'miss'), h('option', { value: 'false' }, 'no miss'))) : null,
      q.hasNextStroke && near.length ? h('fieldset', {}, h('legend', {}, 'Touching ball after this stroke (declare)'), h('label', {}, h('input', { type: 'checkbox', name: 'touchingSet' }), ' change the declaration to:'), near.map((g) => h('label', {}, h('input', { type: 'checkbox', name: 'touching', value: g.ball }), ' ' + g.ball + ' (' + fmt(g.gapMm, 1) + ' mm)'))) : null,
      h('label', {}, 'Note ', h('input', { name: 'note', size: 40, maxlength: 2000 })),
      h('p', {}, h('button', { type: 'submit', class: 'overrule', id: 'apply-overrule' }, 'Apply overrule'), ' ', h('button', { type: 'button', onclick: () => { formOpen = false; render(); } }, 'Cancel')));
  }

  function renderItem() {
    const q = state.queue[sel];
    if (!q) { $('item').hidden = true; shownStroke = null; return; }
    $('item').hidden = false;
    if (shownStroke !== q.stroke) { renderMedia(q); shownStroke = q.stroke; }
    fill($('item-head'), h('h2', {}, 'Stroke ' + q.stroke + ' · ' + q.current.playerName + (q.t !== null ? ' · ' + fmt(q.t, 2) + ' s' : '')), callLine(q));
    const err = h('p', { class: 'error', id: 'error' });
    fill($('details'), h('div', { class: 'cols' }, rulePanel(q), measurePanel(q)), eventsPanel(q));
    fill($('decide'), 
      h('div', { class: 'decision' },
        h('button', { class: 'accept', id: 'accept', onclick: accept, disabled: busy }, 'Accept ', h('kbd', {}, 'a')),
        h('button', { class: 'overrule', id: 'overrule', onclick: toggleForm, disabled: busy }, 'Overrule… ', h('kbd', {}, 'o')),
        q.decision ? h('button', { id: 'undo', onclick: undo, disabled: busy }, 'Undo ', h('kbd', {}, 'u')) : null,
        h('span', { id: 'decision-text' }, describeDecision(q.decision)),
        h('span', { class: 'muted' }, h('kbd', {}, 'j'), '/', h('kbd', {}, 'k'), ' next/previous')),
      err, formOpen ? overruleForm(q) : null);
  }

  function renderCalls() {
    const tb = $('calls-body');
    fill(tb, ...state.calls.map((c) => h('tr', { class: [c.flagged ? 'flagged' : '', c.foul ? 'foul' : ''].join(' '), 'data-stroke': c.stroke, onclick: () => { const k = state.queue.findIndex((q) => q.stroke === c.stroke); if (k >= 0) select(k); } },
      h('td', { class: 'num' }, c.stroke), h('td', {}, c.playerName), h('td', {}, c.summary), h('td', { class: 'call' }, c.callText), h('td', { class: 'num' }, c.scores.join('–')), h('td', { class: 'num' }, c.break === null ? '' : c.break),
      h('td', {}, c.decided ? (c.decided === 'accept' ? 'accepted' : 'overruled') : c.flagged ? 'to review' : ''))));
  }

  function showError(e) { const el = $('error'); if (el) el.textContent = e.message || String(e); }

  async function send(method, path, body) {
    if (busy) return; busy = true;
    try { setState(await api(method, path, body)); busy = false; render(); } catch (e) { busy = false; render(); showError(e); }
  }

  function accept() { const q = state && state.queue[sel]; if (q) { formOpen = false; send('POST', 'api/decisions', { stroke: q.stroke, action: 'accept' }); } }
  function undo() { const q = state && state.queue[sel]; if (q && q.decision) send('DELETE', 'api/decisions/' + q.stroke); }
  function toggleForm() { formOpen = !formOpen; render(); if (formOpen) { const f = $('overrule-form'); const i = f && f.querySelector('input,select'); if (i) i.focus(); } }

  function submitOverrule(q) {
    const f = $('overrule-form');
    const corrections = [];
    f.querySelectorAll('input[name=remove]:checked').forEach((i) => corrections.push({ op: 'removeEvent', event: Number(i.value), type: i.dataset.type, t: Number(i.dataset.t) }));
    if (f.first.value) corrections.push({ op: 'firstContact', ball: f.first.value });
    const code = f.foul.value.trim().toUpperCase();
    if (code) corrections.push(f.foulBall.value ? { op: 'addFoul', code, ball: f.foulBall.value } : { op: 'addFoul', code });
    if (f.miss && f.miss.value) corrections.push({ op: 'miss', called: f.miss.value === 'true' });
    if (f.touchingSet && f.touchingSet.checked) corrections.push({ op: 'declareTouching', balls: [...f.querySelectorAll('input[name=touching]:checked')].map((i) => i.value) });
    if (!corrections.length) { showError(new Error('Choose at least one correction, or accept the call.')); return; }
    const body = { stroke: q.stroke, action: 'overrule', corrections };
    if (f.note.value.trim()) body.note = f.note.value.trim();
    formOpen = false;
    send('POST', 'api/decisions', body);
  }

  async function exportAll() {
    try {
      const r = await api('POST', 'api/export', {});
      fill($('exported'), 'Written to ' + r.dir + ': ', ...r.downloads.map((d) => h('a', { href: withToken(d.url), download: d.name }, d.name)));
    } catch (e) { $('exported').textContent = 'Export failed: ' + e.message; }
  }

  document.addEventListener('keydown', (ev) => {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) return;
    const t = ev.target;
    if (t && (t.tagName === 'INPUT' || t.tagName === 'SELECT' || t.tagName === 'TEXTAREA')) { if (ev.key === 'Escape') { formOpen = false; render(); } return; }
    if (ev.key === 'j') select(sel + 1);
    else if (ev.key === 'k') select(sel - 1);
    else if (ev.key === 'a') accept();
    else if (ev.key === 'o') toggleForm();
    else if (ev.key === 'u') undo();
    else if (ev.key === 'Escape' && formOpen) { formOpen = false; render(); }
    else return;
    ev.preventDefault();
  });

  $('export').addEventListener('click', exportAll);
  api('GET', 'api/state').then(setState, (e) => { $('load-error').textContent = 'Cannot load the review: ' + e.message; });
})();`;

const esc = (s: string): string => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** The page. `nonce` must be fresh per response and match the CSP header the server sends. */
export function renderPage(o: { nonce: string; title: string }): string {
  const n = esc(o.nonce);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="referrer" content="no-referrer">
<link rel="icon" href="data:,">
<title>cueref review — ${esc(o.title)}</title>
<style nonce="${n}">${CSS}</style></head>
<body>
<header><h1 id="title">Review · ${esc(o.title)}</h1><span id="score" aria-live="polite">…</span><span id="progress"></span><button type="button" id="export">Export decisions</button></header>
<p id="load-error" class="error"></p>
<main>
<nav aria-label="flagged calls"><h3>Flagged calls</h3><ol id="queue"></ol><p class="muted"><kbd>a</kbd> accept · <kbd>o</kbd> overrule · <kbd>u</kbd> undo · <kbd>j</kbd>/<kbd>k</kbd> next/prev</p></nav>
<div>
<section class="panel" id="item" hidden><div id="item-head"></div><div id="media"></div><div id="details"></div><div id="decide"></div></section>
<section class="panel"><p id="exported" class="muted"></p>
<h3>All strokes</h3>
<table id="calls"><thead><tr><th>#</th><th>player</th><th>what happened</th><th>call</th><th>score</th><th>break</th><th>review</th></tr></thead><tbody id="calls-body"></tbody></table>
<ul id="notes" class="muted"></ul></section>
</div>
</main>
<script nonce="${n}">${REPLAY_SCRIPT}</script>
<script nonce="${n}">${CLIENT_SCRIPT}</script>
</body></html>
`;
}
