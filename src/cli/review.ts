/**
 * `cueref review DIR [--port P] [--host H --token T]` — the referee's review page for an
 * `analyze` output folder (src/review/). Listens on 127.0.0.1 unless --host is given; --host needs
 * --token, which every request must then carry.
 */
import { Command } from 'commander';
import { z } from 'zod';
import { InputError } from '../core/errors.js';
import { DEFAULT_PORT, startReview } from '../review/index.js';
import { handleError } from './handleError.js';

/** Shortest token accepted: 16 characters of `openssl rand -hex 16` is 64 bits. */
export const MIN_TOKEN_CHARS = 16;

export const reviewOptionsSchema = z
  .object({
    port: z.coerce.number().int().min(0).max(65535).default(DEFAULT_PORT),
    host: z.string().min(1).optional(),
    token: z.string().optional(),
    minConf: z.coerce.number().min(0).max(1).optional(),
  })
  .strict();

export type ReviewOptions = z.infer<typeof reviewOptionsSchema>;

/** The security rule of the command, on its own so it is tested without a server. */
export function checkAccess(o: ReviewOptions): void {
  if (o.host !== undefined && o.token === undefined) {
    throw new InputError({
      code: 'TOKEN_REQUIRED',
      field: 'token',
      message: `--host ${o.host} makes the review reachable from other machines: give --token T as well (e.g. --token $(openssl rand -hex 16)); without --host it listens on 127.0.0.1 only`,
    });
  }
  if (o.token !== undefined && (o.token.length < MIN_TOKEN_CHARS || !/^[\x21-\x7e]+$/.test(o.token))) {
    throw new InputError({ code: 'WEAK_TOKEN', field: 'token', message: `--token must be at least ${MIN_TOKEN_CHARS} printable characters without spaces (e.g. $(openssl rand -hex 16))` });
  }
}

export function reviewCommand(): Command {
  return new Command('review')
    .description('Review the flagged calls of an analyze output folder in the browser: clips, replays, rules, measurements; accept or overrule, the score follows.')
    .argument('<dir>', 'output folder of `cueref analyze` (strokes.json, calls.json; tracks.jsonl and clips/ when there)')
    .option('--port <port>', `port to listen on (0: any free port; default ${DEFAULT_PORT})`)
    .option('--host <host>', 'interface to listen on (default 127.0.0.1); needs --token')
    .option('--token <token>', 'secret every request must carry (Authorization: Bearer, or ?token= in the URL)')
    .option('--min-conf <conf>', 'events below this confidence are flagged (default 0.8)')
    .addHelpText(
      'after',
      '\nExamples:\n  cueref review runs/match\n  cueref review runs/match --port 9000\n  cueref review runs/match --host 0.0.0.0 --token $(openssl rand -hex 16)\n\nDecisions are saved to DIR/decisions.json as they are made; "Export" also writes\nDIR/strokes.reviewed.json and DIR/calls.reviewed.json.\nExit codes: 0 stopped, 2 bad input (missing folder or files, --host without --token), 1 internal error.',
    )
    .action(async (dir: string, raw: unknown) => {
      try {
        const opts = reviewOptionsSchema.parse(raw);
        checkAccess(opts);
        const running = await startReview({
          dir,
          port: opts.port,
          ...(opts.host !== undefined ? { host: opts.host } : {}),
          ...(opts.token !== undefined ? { token: opts.token } : {}),
          ...(opts.minConf !== undefined ? { minConf: opts.minConf } : {}),
        });
        const st = running.session.pageState();
        process.stdout.write(`cueref review: ${st.queue.length} flagged call(s) in ${dir}; ${st.score.line}\nOpen ${running.url}\n(Ctrl-C to stop; decisions are saved as you make them)\n`);
        const stop = (): void => {
          void running.close().then(() => process.exit(0));
        };
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
      } catch (e) {
        if ((e as NodeJS.ErrnoException)?.code === 'EADDRINUSE') {
          handleError(new InputError({ code: 'PORT_IN_USE', field: 'port', message: `port ${(raw as { port?: string }).port ?? DEFAULT_PORT} is in use: choose another with --port (0 picks a free one)` }));
        }
        if ((e as NodeJS.ErrnoException)?.code === 'EADDRNOTAVAIL') {
          handleError(new InputError({ code: 'BAD_HOST', field: 'host', message: `cannot listen on ${(raw as { host?: string }).host}: not an address of this machine` }));
        }
        handleError(e);
      }
    });
}
