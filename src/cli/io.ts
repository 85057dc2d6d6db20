/** Reading JSON inputs for commands: a path or `-` for stdin, with errors that name the file. */
import { readFileSync } from 'node:fs';
import { InputError } from '../core/errors.js';

export async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function readJsonInput(path: string, what: string): Promise<unknown> {
  let text: string;
  if (path === '-') {
    text = await readStdin();
  } else {
    try {
      text = readFileSync(path, 'utf8');
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      throw new InputError({
        code: 'FILE_NOT_FOUND',
        message: code === 'ENOENT' ? `${what} '${path}' does not exist` : `cannot read ${what} '${path}' (${code ?? (e as Error).message})`,
      });
    }
  }
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new InputError({
      code: 'MALFORMED_JSON',
      message: `${what} '${path === '-' ? 'stdin' : path}' is not valid JSON: ${(e as Error).message}`,
    });
  }
}
