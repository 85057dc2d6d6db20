/**
 * review/: the referee's review of an `analyze` output folder — a local web page with the queue of
 * flagged calls, their clips, replays, rules and measurements, accept/overrule, and exports.
 * `startReview` opens the folder, builds the server and listens.
 */
import type { FastifyInstance } from 'fastify';
import { buildReviewServer } from './server.js';
import { ReviewSession } from './session.js';

export { ReviewSession, type PageState, type QueueItemView } from './session.js';
export { buildReviewServer } from './server.js';
export { tokenMatches } from '../web/access.js';
export { applyDecisions, impliedByAccept, type Correction, type Decision } from './decisions.js';
export { buildQueue, flagReasons, type QueueEntry, type FlagReason } from './queue.js';
export { measureStroke, type Measurements } from './measure.js';
export { loadReviewDir } from './load.js';

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 8642;

export interface StartReviewOptions {
  dir: string;
  host?: string;
  /** 0 picks a free port. */
  port?: number;
  token?: string;
  minConf?: number;
}

export interface RunningReview {
  app: FastifyInstance;
  session: ReviewSession;
  /** The URL to open (with `?token=` when a token is set). */
  url: string;
  close(): Promise<void>;
}

export async function startReview(o: StartReviewOptions): Promise<RunningReview> {
  const session = ReviewSession.open(o.dir, o.minConf !== undefined ? { minConf: o.minConf } : {});
  const app = await buildReviewServer({ session, ...(o.token !== undefined ? { token: o.token } : {}) });
  const host = o.host ?? DEFAULT_HOST;
  await app.listen({ host, port: o.port ?? DEFAULT_PORT });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : (o.port ?? DEFAULT_PORT);
  // An address to type into a browser: a wildcard bind is reached through any local name.
  const shown = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shown}:${port}/${o.token !== undefined ? `?token=${encodeURIComponent(o.token)}` : ''}`;
  return { app, session, url, close: () => app.close() };
}
