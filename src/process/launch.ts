#!/usr/bin/env node
// The installed CLI, `dist/bin.js` (scripts/bundle.mjs): runs the CLI bundle (bin.ts and its
// dependencies in one CommonJS file) through a V8 code cache kept next to it (code-cache.ts), so
// a start does not compile the bundle again. `npm start` runs it too; `npm run dev` runs bin.ts
// through tsx, without a cache.
import { fileURLToPath } from 'node:url';
import { loadScript } from './code-cache.js';
import { withStartFlags } from './heap.js';

const cli = loadScript(fileURLToPath(new URL('./bin-bundle.cjs', import.meta.url)));
// Saved once a server is up, so the cache holds what a start compiles, not only the top level;
// by then the CLI has bounded the heap growth (bin.ts), a V8 flag the next start compiles
// without.
void (cli.exports as { started: Promise<boolean> }).started.then((serving) => {
  if (serving) withStartFlags(() => cli.save());
});
