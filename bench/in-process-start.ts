/**
 * `startSandbox()`, the library entry (docs/in-process.md), started in a fresh `node` each time, as
 * a test suite's global setup does: loading the library's modules and compiling them is part of
 * what a suite waits for, so the figure runs from `import()` of the package's `main` to the
 * sandbox resolved and answering `GET /__sandbox/health`; the call alone is reported beside it.
 * Plain `node`, not tsx: tsx's loader hooks would slow every import the library makes.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from './child.js';
import { median, type StartMeasure } from './start.js';

const CHILD = `
const t0 = performance.now();
const { startSandbox } = await import(process.argv[1]);
const t1 = performance.now();
const sandbox = await startSandbox();
const res = await fetch(sandbox.url + '/__sandbox/health');
await res.arrayBuffer();
const t2 = performance.now();
const rssMb = process.memoryUsage().rss / 1048576;
process.stdout.write(JSON.stringify({ ok: res.ok, importMs: t1 - t0, callMs: t2 - t1, rssMb }) + '\\n');
await sandbox.close();
process.exit(0);
`;

interface InProcessRun {
  ok: boolean;
  importMs: number;
  callMs: number;
  rssMb: number;
}

/** The package's `main` (dist/index.js once built), as `import 'marketplace-sandbox'` finds it. */
function libraryUrl(): string {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { main: string };
  return pathToFileURL(join(ROOT, pkg.main)).href;
}

function startOnce(url: string): Promise<InProcessRun> {
  return new Promise((resolve, reject) => {
    const args = ['--input-type=module', '-e', CHILD, url];
    execFile(process.execPath, args, { cwd: ROOT, timeout: 60_000 }, (err, stdout, stderr) => {
      if (err) return reject(new Error(`in-process start failed: ${err.message}\n${stderr}`));
      const run = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as InProcessRun;
      if (!run.ok) return reject(new Error(`in-process start: health did not answer 2xx\n${stdout}`));
      resolve(run);
    });
  });
}

function measure(id: StartMeasure['id'], name: string, ms: number[], rss: number[]): StartMeasure {
  const rangeMs: [number, number] = [Math.min(...ms), Math.max(...ms)];
  return { id, name, firstAnswerMs: median(ms), rangeMs, groupRssMb: median(rss) };
}

/** `restarts` measured starts, after one that is not (it brings the library's files into the page cache). */
export async function measureInProcessStarts(
  restarts: number,
  log: (line: string) => void,
): Promise<StartMeasure[]> {
  const url = libraryUrl();
  log(`start: startSandbox() in a fresh node, ${restarts} times`);
  await startOnce(url);
  const runs: InProcessRun[] = [];
  for (let i = 0; i < restarts; i++) runs.push(await startOnce(url));
  const rss = runs.map((r) => r.rssMb);
  return [
    measure(
      'in-process',
      '`import()` of the package + `startSandbox()` in a fresh `node` (default seed, in memory)',
      runs.map((r) => r.importMs + r.callMs),
      rss,
    ),
    measure(
      'in-process-call',
      '`startSandbox()` alone, the same starts (after the import)',
      runs.map((r) => r.callMs),
      rss,
    ),
  ];
}
