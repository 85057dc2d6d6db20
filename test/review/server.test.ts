/** The review server through fastify's inject: API, persistence, exports, clips, access rules. */
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { checkAccess } from '../../src/cli/review.js';
import { parseCallsDoc } from '../../src/review/load.js';
import { buildReviewServer } from '../../src/review/server.js';
import { tokenMatches } from '../../src/web/access.js';
import { ReviewSession, type PageState } from '../../src/review/session.js';
import { parseStrokeLog } from '../../src/rules/registry.js';
import { makeFixtureDir } from './fixture.js';

const TOKEN = 'a3f9c2d4e5b6a7980123456789abcdef';
const json = { 'content-type': 'application/json' };

describe('review server (loopback, no token)', () => {
  let dir: string;
  let app: FastifyInstance;
  const state = async (): Promise<PageState> => (await app.inject({ url: '/api/state' })).json();

  beforeAll(async () => {
    ({ dir } = await makeFixtureDir({ clips: [5] }));
    app = await buildReviewServer({ session: ReviewSession.open(dir) });
  });
  afterAll(() => app.close());

  test('the page: HTML with a CSP nonce on every script, no referrer, no framing', async () => {
    const r = await app.inject({ url: '/' });
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/text\/html/);
    const nonce = /script-src 'nonce-([^']+)'/.exec(String(r.headers['content-security-policy']))![1]!;
    const scripts = [...r.body.matchAll(/<script nonce="([^"]+)">/g)].map((m) => m[1]);
    expect(scripts).toEqual([nonce, nonce]);
    expect(r.headers['referrer-policy']).toBe('no-referrer');
    expect(r.headers['x-frame-options']).toBe('DENY');
    const again = await app.inject({ url: '/' });
    expect(again.headers['content-security-policy']).not.toBe(r.headers['content-security-policy']);
  });

  test('state: queue with clip, replay from tracks, measurements, rule; calls and score', async () => {
    const s = await state();
    expect(s.score.line).toBe('Ann 68 – 72 Bob (frame in progress)');
    expect(s.queue.map((q) => q.stroke)).toEqual([1, 5, 7, 8, 9, 10, 11]);
    const q5 = s.queue.find((q) => q.stroke === 5)!;
    expect(q5.clip).toBe('clips/stroke-005.mp4');
    expect(s.queue.find((q) => q.stroke === 1)!.clip).toBeNull();
    expect(q5.replaySource).toBe('tracks');
    expect(q5.figure).toMatch(/data-topdown-replay/);
    expect(q5.proposal.callText).toBe('FOUL WRONG_BALL_FIRST (4) + MISS');
    expect(q5.proposal.fouls[0]).toMatchObject({ code: 'WRONG_BALL_FIRST', penalty: 4, ball: 'green' });
    expect(q5.measurements.contacts[0]).toMatchObject({ a: 'white', b: 'green', afterStrikeMs: 500, conf: 0.7 });
    expect(q5.events.map((e) => e.label)).toEqual(['strike white', 'white hits green', 'yellow potted BR']);
    expect(s.calls).toHaveLength(12);
    expect(s.calls[5]).toMatchObject({ flagged: true, decided: null, scores: [52, 58] });
    expect(s.calls[0]).toMatchObject({ flagged: false, callText: '+1' });
  });

  test('accept keeps the proposal, is saved, and is listed as decided', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/decisions', headers: json, payload: { stroke: 1, action: 'accept', note: 'pot seen on the clip' } });
    expect(r.statusCode).toBe(200);
    const s = r.json() as PageState;
    expect(s.score.scores).toEqual([68, 72]);
    expect(s.decided).toBe(1);
    expect(s.queue.find((q) => q.stroke === 1)!.decision).toMatchObject({ action: 'accept', corrections: [], note: 'pot seen on the clip' });
    const saved = JSON.parse(readFileSync(join(dir, 'decisions.json'), 'utf8'));
    expect(saved.format).toBe('cueref.decisions/1');
    expect(saved.decisions.map((d: { stroke: number }) => d.stroke)).toEqual([1]);
  });

  test('overrule re-judges the log: the score follows', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/decisions', headers: json, payload: { stroke: 5, action: 'overrule', corrections: [{ op: 'firstContact', ball: 'yellow' }] } });
    expect(r.statusCode).toBe(200);
    const s = r.json() as PageState;
    expect(s.score.line).toBe('Ann 70 – 67 Bob (frame over, Ann wins)');
    const q5 = s.queue.find((q) => q.stroke === 5)!;
    expect(q5.current.callText).toBe('+2');
    expect(q5.proposal.callText).toBe('FOUL WRONG_BALL_FIRST (4) + MISS');
    const r2 = await app.inject({ method: 'POST', url: '/api/decisions', headers: json, payload: { stroke: 11, action: 'overrule', corrections: [{ op: 'removeEvent', event: 1, type: 'push', t: 103.21 }] } });
    expect((r2.json() as PageState).score.scores).toEqual([77, 60]);
  });

  test('bad bodies are refused with the field named; the rules\' refusals are 422 and not saved', async () => {
    const before = readFileSync(join(dir, 'decisions.json'), 'utf8');
    const noCorr = await app.inject({ method: 'POST', url: '/api/decisions', headers: json, payload: { stroke: 2, action: 'overrule', corrections: [] } });
    expect(noCorr.statusCode).toBe(400);
    expect(noCorr.json().error.field).toBe('corrections');
    const extra = await app.inject({ method: 'POST', url: '/api/decisions', headers: json, payload: { stroke: 2, action: 'accept', path: '/etc/passwd' } });
    expect(extra.statusCode).toBe(400);
    const text = await app.inject({ method: 'POST', url: '/api/decisions', headers: { 'content-type': 'text/plain' }, payload: JSON.stringify({ stroke: 2, action: 'accept' }) });
    expect(text.statusCode).toBe(400);
    const notJson = await app.inject({ method: 'POST', url: '/api/decisions', headers: json, payload: '{"stroke":' });
    expect(notJson.statusCode).toBe(400);
    const beyond = await app.inject({ method: 'POST', url: '/api/decisions', headers: json, payload: { stroke: 12, action: 'accept' } });
    expect(beyond.statusCode).toBe(422);
    const refused = await app.inject({ method: 'POST', url: '/api/decisions', headers: json, payload: { stroke: 2, action: 'overrule', corrections: [{ op: 'firstContact', ball: 'purple' }] } });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error.message).toMatch(/purple/);
    const big = await app.inject({ method: 'POST', url: '/api/decisions', headers: json, payload: { stroke: 2, action: 'accept', note: 'x'.repeat(70_000) } });
    expect(big.statusCode).toBe(413);
    expect(readFileSync(join(dir, 'decisions.json'), 'utf8')).toBe(before);
  });

  test('undo returns a stroke to its proposal', async () => {
    const r = await app.inject({ method: 'DELETE', url: '/api/decisions/11' });
    expect(r.statusCode).toBe(200);
    expect((r.json() as PageState).score.scores).toEqual([70, 67]);
    expect((await app.inject({ method: 'DELETE', url: '/api/decisions/11' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'DELETE', url: '/api/decisions/1e3' })).statusCode).toBe(400);
  });

  test('a restart reloads the decisions and the score they give', async () => {
    const again = await buildReviewServer({ session: ReviewSession.open(dir) });
    const s = (await again.inject({ url: '/api/state' })).json() as PageState;
    await again.close();
    expect(s.score.line).toBe('Ann 70 – 67 Bob (frame over, Ann wins)');
    expect(s.queue.filter((q) => q.decision).map((q) => [q.stroke, q.decision!.action])).toEqual([[1, 'accept'], [5, 'overrule']]);
  });

  test('export writes the three files (valid contracts) and serves them as downloads', async () => {
    const r = await app.inject({ method: 'POST', url: '/api/export', headers: json, payload: {} });
    expect(r.statusCode).toBe(200);
    expect(r.json().downloads.map((d: { name: string }) => d.name)).toEqual(['decisions.json', 'strokes.reviewed.json', 'calls.reviewed.json']);
    const strokes = parseStrokeLog(JSON.parse(readFileSync(join(dir, 'strokes.reviewed.json'), 'utf8')));
    expect(strokes.ok && strokes.value.strokes[5]!.events.find((e) => e.type === 'contact')).toMatchObject({ b: 'yellow', t: 47.5 });
    const calls = parseCallsDoc(JSON.parse(readFileSync(join(dir, 'calls.reviewed.json'), 'utf8')), 'calls.reviewed.json');
    expect(calls.calls.at(-1)!.scores).toEqual([70, 67]);
    expect(calls.calls[5]!.reviewed).toMatchObject({ action: 'overrule' });
    const d = await app.inject({ url: '/export/calls.reviewed.json' });
    expect(d.headers['content-disposition']).toBe('attachment; filename="calls.reviewed.json"');
    expect(d.json().calls.at(-1).scores).toEqual([70, 67]);
    expect((await app.inject({ url: '/export/strokes.json' })).statusCode).toBe(404);
    expect((await app.inject({ method: 'POST', url: '/api/export', headers: { 'content-type': 'text/plain' }, payload: 'go' })).statusCode).toBe(400);
  });

  test('clips: range requests; nothing but clips/stroke-NNN.mp4 can be opened', async () => {
    const size = statSync(join(dir, 'clips', 'stroke-005.mp4')).size;
    const whole = await app.inject({ url: '/clips/stroke-005.mp4' });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['content-type']).toBe('video/mp4');
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const part = await app.inject({ url: '/clips/stroke-005.mp4', headers: { range: 'bytes=100-199' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${size}`);
    expect(part.rawPayload.length).toBe(100);
    expect(part.rawPayload).toEqual(readFileSync(join(dir, 'clips', 'stroke-005.mp4')).subarray(100, 200));
    for (const url of ['/clips/stroke-001.mp4', '/clips/..%2Fstrokes.json', '/clips/%2e%2e%2fcalls.json', '/clips/../strokes.json', '/clips/stroke-005.mp4.bak', '/clips/stroke-5.mp4', '/clips/.stroke-005.mp4', '/clips/stroke-005.mp4%00.json', '/strokes.json', '/decisions.json']) {
      const r = await app.inject({ url });
      expect([r.statusCode, url]).toEqual([404, url]);
      expect(r.body).not.toMatch(/cueref\.strokes|cueref\.calls|cueref\.decisions/);
    }
  });

  test('without a token only loopback Host names are served, and writes must be same-origin', async () => {
    expect((await app.inject({ url: '/api/state', headers: { host: 'evil.example:8642' } })).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/state', headers: { host: '127.0.0.1:8642' } })).statusCode).toBe(200);
    const cross = await app.inject({ method: 'POST', url: '/api/decisions', headers: { ...json, host: '127.0.0.1:8642', origin: 'http://evil.example' }, payload: { stroke: 7, action: 'accept' } });
    expect(cross.statusCode).toBe(403);
    const same = await app.inject({ method: 'POST', url: '/api/decisions', headers: { ...json, host: '127.0.0.1:8642', origin: 'http://127.0.0.1:8642' }, payload: { stroke: 7, action: 'accept' } });
    expect(same.statusCode).toBe(200);
    expect((same.json() as PageState).queue.find((q) => q.stroke === 7)!.decision!.action).toBe('accept');
  });
});

describe('review server with a token', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    const { dir } = await makeFixtureDir({ tracks: false });
    app = await buildReviewServer({ session: ReviewSession.open(dir), token: TOKEN });
  });
  afterAll(() => app.close());

  test.each([
    ['no token', { url: '/api/state' }, 401],
    ['a wrong bearer', { url: '/api/state', headers: { authorization: 'Bearer nope' } }, 401],
    ['a prefix of the token', { url: '/api/state', headers: { authorization: `Bearer ${TOKEN.slice(0, 20)}` } }, 401],
    ['the bearer', { url: '/api/state', headers: { authorization: `Bearer ${TOKEN}` } }, 200],
    ['?token= on the page', { url: `/?token=${TOKEN}` }, 200],
    ['?token= on a clip URL (no clip here: 404 after auth)', { url: `/clips/stroke-005.mp4?token=${TOKEN}` }, 404],
    ['a wrong ?token= on a clip', { url: '/clips/stroke-005.mp4?token=x' }, 401],
    ['?token= on a write', { method: 'POST' as const, url: `/api/decisions?token=${TOKEN}`, headers: json, payload: { stroke: 1, action: 'accept' } }, 401],
    ['the bearer on a write, any Host', { method: 'POST' as const, url: '/api/decisions', headers: { ...json, host: 'ref-laptop.local:8642', authorization: `Bearer ${TOKEN}` }, payload: { stroke: 1, action: 'accept' } }, 200],
  ])('%s → %i', async (_name, req, status) => {
    expect((await app.inject(req)).statusCode).toBe(status);
  });

  test('replay without tracks.jsonl comes from the log', async () => {
    const s = (await app.inject({ url: '/api/state', headers: { authorization: `Bearer ${TOKEN}` } })).json() as PageState;
    expect(s.queue.find((q) => q.stroke === 5)!.replaySource).toBe('positions');
  });
});

describe('access rules and loading', () => {
  test('tokenMatches: equal strings only, whatever the lengths', () => {
    expect(tokenMatches(TOKEN, TOKEN)).toBe(true);
    expect(tokenMatches(TOKEN.slice(0, -1), TOKEN)).toBe(false);
    expect(tokenMatches(TOKEN + 'x', TOKEN)).toBe(false);
    expect(tokenMatches('', TOKEN)).toBe(false);
  });

  test.each([
    [{ port: 8642 }, null],
    [{ port: 8642, host: '0.0.0.0' }, 'TOKEN_REQUIRED'],
    [{ port: 8642, host: '0.0.0.0', token: 'short' }, 'WEAK_TOKEN'],
    [{ port: 8642, host: '0.0.0.0', token: 'has spaces in the token!!' }, 'WEAK_TOKEN'],
    [{ port: 8642, host: '0.0.0.0', token: TOKEN }, null],
  ])('checkAccess(%j) → %s', (opts, code) => {
    let got: string | null = null;
    try {
      checkAccess(opts);
    } catch (e) {
      got = (e as InputError).code;
    }
    expect(got).toBe(code);
  });

  test('accepting a miss left to the referee writes the proposal ("no miss") into the log; the score stays', async () => {
    const { dir } = await makeFixtureDir({ tracks: false });
    const session = ReviewSession.open(dir, { now: () => new Date('2025-03-01T12:00:00Z') });
    const r = session.decide({ stroke: 7, action: 'accept', corrections: [] });
    expect(r.ok).toBe(true);
    expect(session.allDecisions).toEqual([{ stroke: 7, action: 'accept', corrections: [{ op: 'miss', called: false }], at: '2025-03-01T12:00:00.000Z' }]);
    expect(session.current.log.strokes[7]!.events.at(-1)).toEqual({ t: 71, type: 'miss', called: false });
    expect(session.current.calls.calls[7]!.review.map((x) => x.code)).not.toContain('MISS_JUDGEMENT');
    expect(session.pageState().score.scores).toEqual([68, 72]);
  });

  test('a corrupt decisions.json stops the review with the field named (decisions are not silently dropped)', async () => {
    const { dir } = await makeFixtureDir({ tracks: false });
    writeFileSync(join(dir, 'decisions.json'), JSON.stringify({ format: 'cueref.decisions/1', decisions: [{ stroke: 1, action: 'maybe', corrections: [], at: 'x' }] }));
    expect(() => ReviewSession.open(dir)).toThrow(/decisions\.json is not a valid cueref\.decisions\/1.*decisions\[0\]\.action|field decisions\[0\]\.action/);
    writeFileSync(join(dir, 'decisions.json'), JSON.stringify({ format: 'cueref.decisions/1', decisions: [{ stroke: 5, action: 'overrule', corrections: [{ op: 'removeEvent', event: 2, type: 'contact', t: 1 }], at: 'x' }] }));
    expect(() => ReviewSession.open(dir)).toThrow(/no longer applies to strokes\.json/);
    expect(existsSync(join(dir, 'decisions.json'))).toBe(true);
  });
});
