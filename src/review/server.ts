/**
 * The review server (fastify): the page, its JSON API, the clips (with range requests, for
 * seeking) and the exports. Everything a request carries is checked with zod; nothing from a
 * request becomes a path except a clip name matching `stroke-NNN.mp4` exactly.
 *
 * Access: on the loopback interface without a token, only requests addressed to a loopback host
 * name are served (a web page elsewhere cannot rebind its DNS name onto this server). With a token
 * (required to listen elsewhere), every request must carry it — `Authorization: Bearer T`, or
 * `?token=T` on GET (the page and video URLs a browser opens itself) — compared in constant time.
 * Requests that change something must be JSON and, when a browser sends an Origin, same-origin.
 *
 *   GET    /                     the page
 *   GET    /api/state            queue, calls, score (PageState)
 *   POST   /api/decisions        {stroke, action: accept|overrule, corrections?, note?} → PageState
 *   DELETE /api/decisions/:stroke                                                       → PageState
 *   POST   /api/export           {} → writes decisions.json, strokes.reviewed.json, calls.reviewed.json
 *   GET    /export/:name         one of those three, as a download (current, in memory)
 *   GET    /clips/:name          clips/stroke-NNN.mp4
 */
import { randomBytes } from 'node:crypto';
import { guard } from '../web/access.js';
import { join } from 'node:path';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { z } from 'zod';
import type { InputErrorInfo } from '../core/errors.js';
import { decisionInputSchema } from './decisions.js';
import { CLIP_NAME, FILES } from './load.js';
import { renderPage } from './page.js';
import type { ReviewSession } from './session.js';

export interface ReviewServerOptions {
  session: ReviewSession;
  /** When set, every request must carry it (see the module comment). */
  token?: string;
  /** Largest request body, bytes: decisions are small; a larger body is a mistake or an attack. */
  bodyLimitBytes?: number;
  logger?: boolean;
}

const EXPORTS = [FILES.decisions, FILES.strokesReviewed, FILES.callsReviewed] as const;
const exportParams = z.strictObject({ name: z.enum(EXPORTS) });
const strokeParams = z.strictObject({ stroke: z.string().regex(/^\d{1,6}$/).transform(Number) });
const clipParams = z.strictObject({ name: z.string().regex(CLIP_NAME) });
const emptyBody = z.strictObject({});

const problem = (reply: FastifyReply, status: number, code: string, message: string, extra: Partial<InputErrorInfo> = {}) =>
  reply.code(status).type('application/json; charset=utf-8').send({ error: { code, message, ...extra } });

function zodProblem(reply: FastifyReply, e: z.ZodError, where: string) {
  const issue = e.issues[0]!;
  const field = issue.path.map(String).join('.');
  return problem(reply, 400, 'BAD_REQUEST', `${where}${field ? ` field ${field}` : ''}: ${issue.message}`, field ? { field } : {});
}

export async function buildReviewServer(o: ReviewServerOptions): Promise<FastifyInstance> {
  const { session, token } = o;
  const app = Fastify({ logger: o.logger ?? false, bodyLimit: o.bodyLimitBytes ?? 64 * 1024 });
  // Only for reply.sendFile on clips (range requests, ETag); nothing is served from a URL path directly.
  await app.register(fastifyStatic, { root: session.rd.dir, serve: false, dotfiles: 'deny', index: false });

  guard(app, token, { name: 'this review', realm: 'cueref review' });

  app.setErrorHandler((e: Error & { statusCode?: number; code?: string }, _req, reply) => {
    const status = e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? e.statusCode : 500;
    return problem(reply, status, status === 500 ? 'INTERNAL' : (e.code ?? 'BAD_REQUEST'), status === 500 ? 'internal error (see the server log)' : e.message);
  });
  app.setNotFoundHandler((_req, reply) => problem(reply, 404, 'NOT_FOUND', 'no such page'));

  app.get('/', async (_req, reply) => {
    const nonce = randomBytes(16).toString('base64');
    reply.header(
      'Content-Security-Policy',
      `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'; img-src 'self' data:; media-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`,
    );
    return reply.type('text/html; charset=utf-8').send(renderPage({ nonce, title: session.title }));
  });

  app.get('/api/state', async () => session.pageState());

  app.post('/api/decisions', async (req, reply) => {
    const body = decisionInputSchema.safeParse(req.body);
    if (!body.success) return zodProblem(reply, body.error, 'decision');
    const r = session.decide(body.data);
    if (!r.ok) return problem(reply, 422, r.error.code, r.error.message, { ...(r.error.stroke !== undefined ? { stroke: r.error.stroke } : {}), ...(r.error.field ? { field: r.error.field } : {}) });
    return session.pageState();
  });

  app.delete('/api/decisions/:stroke', async (req, reply) => {
    const p = strokeParams.safeParse(req.params);
    if (!p.success) return zodProblem(reply, p.error, 'stroke');
    const r = session.undo(p.data.stroke);
    if (!r.ok) return problem(reply, 404, r.error.code, r.error.message);
    return session.pageState();
  });

  app.post('/api/export', async (req, reply) => {
    const body = emptyBody.safeParse(req.body ?? {});
    if (!body.success) return zodProblem(reply, body.error, 'export');
    const files = session.exportFiles();
    return { dir: session.rd.dir, files, downloads: EXPORTS.map((name) => ({ name, url: `export/${name}` })) };
  });

  app.get('/export/:name', async (req, reply) => {
    const p = exportParams.safeParse(req.params);
    if (!p.success) return problem(reply, 404, 'NOT_FOUND', `exports are ${EXPORTS.join(', ')}`);
    const j = session.current;
    const doc =
      p.data.name === FILES.decisions ? { format: 'cueref.decisions/1', decisions: session.allDecisions } : p.data.name === FILES.strokesReviewed ? j.log : j.calls;
    return reply
      .type('application/json; charset=utf-8')
      .header('Content-Disposition', `attachment; filename="${p.data.name}"`)
      .send(JSON.stringify(doc, null, 1) + '\n');
  });

  app.get('/clips/:name', async (req, reply) => {
    const p = clipParams.safeParse(req.params);
    if (!p.success) return problem(reply, 404, 'NOT_FOUND', 'clips are named stroke-NNN.mp4');
    reply.header('Cache-Control', 'private, max-age=60');
    return reply.sendFile(p.data.name, join(session.rd.dir, FILES.clips));
  });

  return app;
}
