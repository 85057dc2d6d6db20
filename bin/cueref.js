#!/usr/bin/env node
// Entry point for `npx cueref`: runs the TypeScript sources through tsx, so a fresh
// `npm ci` needs no build step.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/index.ts');
await main(process.argv);
