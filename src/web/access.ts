/**
 * Who may use a cueref page (review, live): the rules both servers apply on every request.
 *
 * - Without a token the server listens on loopback only, and a request must also be *addressed*
 *   to a loopback name (Host header): a page on another site that rebinds its DNS name to
 *   127.0.0.1 would otherwise reach the server from the user's browser.
 * - With a token (required to listen elsewhere) every request carries it: `Authorization: Bearer`,
 *   or `?token=` on GET/HEAD (page, video and download URLs a browser opens, the WebSocket upgrade).
 *   Compared in constant time.
 * - Requests that change something (and WebSocket upgrades, which browsers send cross-site without
 *   CORS) must come from the server's own origin when the browser says where they come from.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function isLoopback(host: string): boolean {
  return LOOPBACK_HOSTS.has(host.toLowerCase());
}

/** Host name of a Host header (without the port). */
export function hostName(host: string | undefined): string {
  if (!host) return '';
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1).toLowerCase();
  return host.replace(/:\d+$/, '').toLowerCase();
}

/** Constant-time comparison (hashes first, so neither the length nor a prefix leaks through timing). */
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
  if (req.method === 'GET' || req.method === 'HEAD') {
    const q = (req.query as Record<string, unknown> | undefined)?.token;
    if (typeof q === 'string') return q;
  }
  return null;
}

export interface Refusal {
  status: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
}

/**
 * Why this request may not be served, or null. `what` names the page in messages ("this review");
 * `realm` goes into WWW-Authenticate.
 */
export function refuse(req: FastifyRequest, token: string | undefined, what: { name: string; realm: string }): Refusal | null {
  if (token !== undefined) {
    const given = givenToken(req);
    if (given === null || !tokenMatches(given, token)) {
      return {
        status: 401,
        code: 'UNAUTHORIZED',
        message: `${what.name} needs its token: open the URL the command printed (…?token=…) or send Authorization: Bearer TOKEN`,
        headers: { 'WWW-Authenticate': `Bearer realm="${what.realm}"` },
      };
    }
  } else if (!LOOPBACK_HOSTS.has(hostName(req.headers.host))) {
    return { status: 403, code: 'FORBIDDEN_HOST', message: `requests must be addressed to 127.0.0.1 or localhost (got Host '${req.headers.host ?? ''}'); to serve other hosts use --host with --token` };
  }
  const upgrade = req.headers.upgrade?.toLowerCase() === 'websocket';
  if (upgrade || (req.method !== 'GET' && req.method !== 'HEAD')) {
    const origin = req.headers.origin;
    if (typeof origin === 'string' && origin !== 'null') {
      let originHost = '';
      try {
        originHost = new URL(origin).host.toLowerCase();
      } catch {
        originHost = '';
      }
      if (originHost !== (req.headers.host ?? '').toLowerCase()) return { status: 403, code: 'FORBIDDEN_ORIGIN', message: `cross-origin ${upgrade ? 'WebSocket' : 'request'} from ${origin} refused` };
    }
  }
  return null;
}

/**
 * Install the access rules on a server: `refuse` on every request (and 405 for anything but
 * GET/HEAD when `readOnly`), and the headers every answer carries (no sniffing, no referrer, no
 * framing, no caching unless a route set its own).
 */
export function guard(app: FastifyInstance, token: string | undefined, what: { name: string; realm: string; readOnly?: boolean }): void {
  const problem = (reply: FastifyReply, status: number, code: string, message: string) => reply.code(status).type('application/json; charset=utf-8').send({ error: { code, message } });
  app.addHook('onRequest', async (req, reply) => {
    if (what.readOnly && req.method !== 'GET' && req.method !== 'HEAD') return problem(reply, 405, 'METHOD_NOT_ALLOWED', `${what.name} is read-only`);
    const no = refuse(req, token, what);
    if (no) return problem(reply.headers(no.headers ?? {}), no.status, no.code, no.message);
    return undefined;
  });
  app.addHook('onSend', async (_req, reply, payload) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    reply.header('X-Frame-Options', 'DENY');
    if (!reply.hasHeader('Cache-Control')) reply.header('Cache-Control', 'no-store');
    return payload;
  });
}
