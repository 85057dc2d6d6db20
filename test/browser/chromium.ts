/**
 * Browser tests drive Debian's chromium through playwright-core (no downloaded browsers).
 * `.ci/run` installs chromium when it is missing; elsewhere, without it, the browser tests skip with
 * a message instead of failing.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = [process.env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].filter((p): p is string => !!p);

/** The chromium executable, or null (tests then skip: `describe.skipIf(!chromiumPath)`). */
export const chromiumPath: string | null = CANDIDATES.find((p) => existsSync(p)) ?? null;

if (!chromiumPath) console.warn('browser tests skipped: no chromium (apt-get install chromium, or set CHROMIUM_PATH)');

/** Launch headless chromium; the caller closes it (afterAll). */
export async function launchBrowser(): Promise<Browser> {
  if (!chromiumPath) throw new Error('no chromium');
  // --no-sandbox: CI runs as root in a container, where chromium's sandbox cannot start.
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--autoplay-policy=no-user-gesture-required'] });
}
