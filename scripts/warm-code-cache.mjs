// Fills the CLI's V8 code cache (src/process/code-cache.ts) while the Docker image is built: in the
// image dist/ is read-only to the user the container runs as, so a start could not save one.
// The cache holds what the start that saved it compiled. A container's usual start opens the
// data file on its volume, so that is the start used: a first run seeds a small file, the cache
// it saved is dropped, and a second run opens the file and saves the cache the image keeps.
// Usage: node scripts/warm-code-cache.mjs  (after `npm run build`, with the Node of the image)
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
const caches = () => readdirSync(DIST).filter((f) => f.endsWith('.v8-cache'));

/** Starts the CLI on `data`, waits for its ready line, stops it (SIGTERM) and checks it exited cleanly. */
function start(data) {
  const args = ['--data', data, '--listings', '50', '--port', '0', '--host', '127.0.0.1'];
  const child = spawn(process.execPath, [join(DIST, 'bin.js'), ...args], {
    env: { ...process.env, LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      const ready = out.includes(' ready at ');
      out += d;
      if (!ready && out.includes(' ready at ')) child.kill('SIGTERM');
    });
    child.on('exit', (code) =>
      code === 0 && out.includes(' ready at ') ? resolve() : reject(new Error(`CLI exited ${code}: ${out}`)),
    );
  });
}

const dir = mkdtempSync(join(tmpdir(), 'sandbox-warm-'));
try {
  const data = join(dir, 'db.json');
  await start(data);
  for (const f of caches()) rmSync(join(DIST, f));
  await start(data);
  if (caches().length !== 1)
    throw new Error(`expected one code cache in dist/, found: ${caches().join(', ')}`);
  console.log(`code cache: dist/${caches()[0]}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
