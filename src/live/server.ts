/**
 * The live scoreboard server (fastify + @fastify/websocket):
 *
 *   GET /            the scoreboard page
 *   GET /ws          WebSocket: a `snapshot` on connect, then `status`, `balls` (≤ 5 Hz), `call`, `flag`
 *   GET /state       the snapshot as JSON
 *   GET /calls.json  cueref.calls/1 so far
 *   POST /next       (only with `operator`) the next stroke's nomination / called pocket / decision /
 *                    touching ball, as JSON with the contract's field names; 400 names what is wrong
 *
 * Access (as the review server): on loopback without a token, only requests addressed to a loopback
 * host name are served (a page elsewhere cannot rebind its DNS name onto this port). With a token
 * (required to listen on another interface) every request, the WebSocket upgrade included, carries
 * it — `?token=T` or `Authorization: Bearer T` — compared in constant time. A WebSocket upgrade that
 * sends an Origin must come from this server's own origin (browsers do not apply CORS to
 * WebSockets: without this any site could read the scoreboard from a visitor's machine).
 *
 * A slow page is not waited for: a client with more than `maxBufferedBytes` unsent skips ball
 * updates (the next one replaces them anyway); calls and statuses are always sent.
 */
import { randomBytes } from 'node:crypto';
import { guard, isLoopback } from '../web/access.js';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import type { WebSocket } from 'ws';
import { InputError } from '../core/errors.js';
import type { TableProfile } from '../core/table.js';
import { renderLivePage } from './page.js';
import type { LiveMessage, LiveSession } from './session.js';

export interface LiveServerOptions {
  session: Pick<LiveSession, 'subscribe' | 'snapshot' | 'setNext'> & { referee: Pick<LiveSession['referee'], 'callsDoc'> };
  /**
   * Accept the operator's input for the next stroke (POST /next) and show the form on the page.
   * Off: the server is read-only (a scoreboard for the players).
   */
  operator?: boolean;
  table: TableProfile;
  title?: string;
  host?: string;
  port?: number;
  token?: string;
  maxBufferedBytes?: number;
}

export interface LiveServer {
  app: FastifyInstance;
  /** The page's address (with `?token=` when there is one). */
  url: string;
  port: number;
  close(): Promise<void>;
}

export { isLoopback };

const problem = (reply: FastifyReply, status: number, code: string, message: string) => reply.code(status).type('application/json; charset=utf-8').send({ error: { code, message } });

export async function startLiveServer(o: LiveServerOptions): Promise<LiveServer> {
  const host = o.host ?? '127.0.0.1';
  const { token } = o;
  if (!isLoopback(host) && !token) throw new Error(`listening on ${host} needs a token`);
  const maxBuffered = o.maxBufferedBytes ?? 1 << 20;
  const app = Fastify({ logger: false });
  await app.register(websocket, { options: { maxPayload: 4096 } });

  guard(app, token, { name: 'the live scoreboard', realm: 'cueref live', readOnly: !o.operator });
  app.setNotFoundHandler((_req, reply) => problem(reply, 404, 'NOT_FOUND', 'no such page'));

  const clients = new Set<WebSocket>();
  const send = (ws: WebSocket, m: LiveMessage, text = JSON.stringify(m)): void => {
    if (ws.readyState !== ws.OPEN) return;
    if (m.type === 'balls' && ws.bufferedAmount > maxBuffered) return;
    ws.send(text);
  };
  const unsubscribe = o.session.subscribe((m) => {
    const text = JSON.stringify(m);
    for (const ws of clients) send(ws, m, text);
  });

  app.register(async (scope) => {
    scope.get('/ws', { websocket: true }, (socket) => {
      clients.add(socket);
      socket.on('close', () => clients.delete(socket));
      socket.on('error', () => clients.delete(socket));
      // Messages from the page are not expected; the connection is one-way.
      send(socket, { type: 'snapshot', state: o.session.snapshot() });
    });
  });

  app.get('/', async (_req, reply) => {
    const nonce = randomBytes(16).toString('base64');
    reply.header(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    const state = o.session.snapshot();
    return reply.type('text/html; charset=utf-8').send(renderLivePage({ game: state.game, table: o.table, title: o.title ?? `cueref live — ${state.game}`, nonce, operator: o.operator === true }));
  });
  if (o.operator) {
    app.post('/next', async (req, reply) => {
      try {
        return { next: o.session.setNext(req.body ?? {}) };
      } catch (e) {
        if (e instanceof InputError) return problem(reply, 400, e.code, e.message);
        throw e;
      }
    });
  }
  app.get('/state', async () => o.session.snapshot());
  app.get('/calls.json', async () => o.session.referee.callsDoc());

  await app.listen({ host, port: o.port ?? 0 });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (o.port ?? 0);
  const shownHost = host.includes(':') ? `[${host}]` : host === '0.0.0.0' ? '127.0.0.1' : host;
  const url = `http://${shownHost}:${port}/${token ? `?token=${encodeURIComponent(token)}` : ''}`;
  return {
    app,
    url,
    port,
    async close() {
      unsubscribe();
      for (const ws of clients) ws.close(1001, 'server closing');
      await app.close();
    },
  };
}
