/** The one error handler: bad input → message + exit 2; anything else is a bug → exit 1. */
import { InputError } from '../core/errors.js';
import { ZodError } from 'zod';

export const EXIT_BAD_INPUT = 2;
export const EXIT_INTERNAL = 1;

export function handleError(e: unknown, json = false): never {
  if (e instanceof InputError) {
    if (json) process.stderr.write(JSON.stringify({ error: e.toJSON() }) + '\n');
    else process.stderr.write(`cueref: ${e.message}\n`);
    process.exit(EXIT_BAD_INPUT);
  }
  if (e instanceof ZodError) {
    const issue = e.issues[0]!;
    const msg = `invalid option ${issue.path.join('.') || ''}: ${issue.message}`;
    process.stderr.write(json ? JSON.stringify({ error: { code: 'BAD_OPTION', message: msg } }) + '\n' : `cueref: ${msg}\n`);
    process.exit(EXIT_BAD_INPUT);
  }
  const err = e as Error;
  process.stderr.write(`cueref: internal error: ${err?.stack ?? String(e)}\nPlease report this with the input that caused it.\n`);
  process.exit(EXIT_INTERNAL);
}
