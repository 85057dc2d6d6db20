/**
 * The live scoreboard server (fastify + @fastify/websocket):
 *
 *   GET /            the scoreboard page
 *   GET /ws          WebSocket: a `snapshot` on connect, then `status`, `balls` (≤ 5 Hz), `call`, `flag`
 *   GET /state       the snapshot as JSON
 *   GET /calls.json  cueref.calls/1 so far
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
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import websocket from '@fastify/websocket';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { WebSocket } from 'ws';
import type { TableProfile } from '../core/table.js';
import { renderLivePage } from './page.js';
import type { LiveMessage, LiveSession } from './session.js';

export interface LiveServerOptions {
  session: Pick<LiveSession, 'subscribe' | 'snapshot'> & { referee: Pick<LiveSession['referee'], 'callsDoc'> };
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

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase());
}

/** Host name of a Host header (without the port). */
function hostName(host: string | undefined): string {
  if (!host) return '';
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

/** Constant-time comparison (hashes first: neither the length nor a prefix leaks through timing). */
export function tokenMatches(given: string, expected: string): boolean {
  const a = createHash('sha256').update(given, 'utf8').digest();
  const b = createHash('sha256').update(expected, 'utf8').digest();
  return timingSafeEqual(a, b);
}

function givenToken(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (typeof h === 'string') {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(h);
    return m ? m[1]! : null;
  }
  const q = (req.query as Record<string, unknown> | undefined)?.token;
  return typeof q === 'string' ? q : null;
}

const problem = (reply: FastifyReply, status: number, code: string, message: string) => reply.code(status).type('application/json; charset=utf-8').send({ error: { code, message } });

export async function startLiveServer(o: LiveServerOptions): Promise<LiveServer> {
  const host = o.host ?? '127.0.0.1';
  const { token } = o;
  if (!isLoopback(host) && !token) throw new Error(`listening on ${host} needs a token`);
  const maxBuffered = o.maxBufferedBytes ?? 1 << 20;
  const app = Fastify({ logger: false });
  await app.register(websocket, { options: { maxPayload: 4096 } });

  app.addHook('onRequest', async (req, reply) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return problem(reply, 405, 'METHOD_NOT_ALLOWED', 'the live scoreboard is read-only');
    if (token !== undefined) {
      const given = givenToken(req);
      if (given === null || !tokenMatches(given, token)) {
        reply.header('WWW-Authenticate', 'Bearer realm="cueref live"');
        return problem(reply, 401, 'UNAUTHORIZED', 'this scoreboard needs its token: open the URL the command printed (…?token=…)');
      }
    } else if (!LOOPBACK_HOSTS.has(hostName(req.headers.host))) {
      return problem(reply, 403, 'FORBIDDEN_HOST', `requests must be addressed to 127.0.0.1 or localhost (got Host '${req.headers.host ?? ''}'); to serve other hosts use --host with --token`);
    }
    if (req.headers.upgrade?.toLowerCase() === 'websocket') {
      const origin = req.headers.origin;
      if (typeof origin === 'string') {
        let originHost = '';
        try {
          originHost = new URL(origin).host.toLowerCase();
        } catch {
          originHost = '';
        }
        if (originHost !== (req.headers.host ?? '').toLowerCase()) return problem(reply, 403, 'FORBIDDEN_ORIGIN', `WebSocket from ${origin} refused`);
      }
    }
    return undefined;
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Frame-Options', 'DENY');
    reply.header('Cache-Control', 'no-store');
    return payload;
  });
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
    return reply.type('text/html; charset=utf-8').send(renderLivePage({ game: state.game, table: o.table, title: o.title ?? `cueref live — ${state.game}`, nonce }));
  });
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
