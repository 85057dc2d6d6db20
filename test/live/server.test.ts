/** The scoreboard server's operator input (POST /next): on only with `operator`, checked, same-origin. */
import { afterEach, describe, expect, test } from 'vitest';
import { InputError } from '../../src/core/errors.js';
import { startLiveServer, type LiveServer } from '../../src/live/server.js';
import type { LiveState, OperatorInput } from '../../src/live/session.js';
import { table } from './scenario.js';

function fakeSession() {
  const got: OperatorInput[] = [];
  return {
    got,
    subscribe: () => () => undefined,
    snapshot: () => ({ game: 'snooker' }) as unknown as LiveState,
    referee: { callsDoc: () => ({ format: 'cueref.calls/1' as const, game: 'snooker' as const, calls: [] }) },
    setNext(raw: unknown): OperatorInput {
      const r = raw as OperatorInput;
      if (r.nominated === 'purple') throw new InputError({ code: 'BAD_OPERATOR_INPUT', field: 'nominated', message: "'purple' is not a snooker ball" });
      got.push(r);
      return r;
    },
  };
}

let server: LiveServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('POST /next', () => {
  test('with --operator: the input reaches the session; a bad one is a 400 naming the field; another origin is refused', async () => {
    const session = fakeSession();
    server = await startLiveServer({ session, table, port: 0, operator: true });
    const host = `127.0.0.1:${server.port}`;
    const ok = await server.app.inject({ method: 'POST', url: '/next', headers: { host, 'content-type': 'application/json' }, payload: { nominated: 'blue', decision: 'play' } });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ next: { nominated: 'blue', decision: 'play' } });
    expect(session.got).toEqual([{ nominated: 'blue', decision: 'play' }]);
    const bad = await server.app.inject({ method: 'POST', url: '/next', headers: { host, 'content-type': 'application/json' }, payload: { nominated: 'purple' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({ code: 'BAD_OPERATOR_INPUT' });
    expect(bad.json().error.message).toMatch(/nominated.*purple/);
    const cross = await server.app.inject({ method: 'POST', url: '/next', headers: { host, origin: 'http://evil.example', 'content-type': 'application/json' }, payload: { nominated: 'blue' } });
    expect(cross.statusCode).toBe(403);
    expect(session.got).toHaveLength(1);
    const page = await server.app.inject({ method: 'GET', url: '/', headers: { host } });
    expect(page.body).toContain('id="next-form"');
  });

  test('without it the scoreboard is read-only and shows no form', async () => {
    const session = fakeSession();
    server = await startLiveServer({ session, table, port: 0 });
    const host = `127.0.0.1:${server.port}`;
    const res = await server.app.inject({ method: 'POST', url: '/next', headers: { host, 'content-type': 'application/json' }, payload: { nominated: 'blue' } });
    expect(res.statusCode).toBe(405);
    expect(session.got).toEqual([]);
    const page = await server.app.inject({ method: 'GET', url: '/', headers: { host } });
    expect(page.body).not.toContain('id="next-form"');
  });
});
