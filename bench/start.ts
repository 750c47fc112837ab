/**
 * The two ways a checkout starts the sandbox (issue 17): `npm start`, which runs the built bundle,
 * against the TypeScript sources through tsx (`npm run dev` without its watcher, and what `npm
 * start` used to run); `node dist/bin.js` alone shows what npm itself adds. Each is timed from
 * spawn to the first HTTP answer, and its whole process group's RSS is summed at that moment (npm
 * and tsx each run node in a child process).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './child.js';
import { freePort } from '../test/helpers/nginx.js';

export interface StartMeasure {
  name: string;
  /** Median of the starts, and their range (ms from spawn to the first answer). */
  firstAnswerMs: number;
  rangeMs: [number, number];
  /** Median RSS of the process group at the first answer, MB. */
  groupRssMb: number;
}

const COMMANDS: { name: string; argv: (flags: string[]) => [string, string[]] }[] = [
  {
    name: '`npm start` (node dist/bin.js through npm)',
    argv: (f) => ['npm', ['start', '--silent', '--', ...f]],
  },
  { name: '`node dist/bin.js`', argv: (f) => [process.execPath, ['dist/bin.js', ...f]] },
  {
    name: '`tsx src/process/bin.ts` (npm run dev, unwatched)',
    argv: (f) => ['node_modules/.bin/tsx', ['src/process/bin.ts', ...f]],
  },
];

/** The pids of every live process whose process group is `pgid`. */
function groupPids(pgid: number): string[] {
  const pids: string[] = [];
  for (const pid of readdirSync('/proc').filter((p) => /^\d+$/.test(p))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // A zombie (state Z) has exited; only its parent's wait is missing.
      if (Number(fields[2]) === pgid && fields[0] !== 'Z') pids.push(pid);
    } catch {
      // the process ended meanwhile
    }
  }
  return pids;
}

/** Sum of VmRSS over every process whose process group is `pgid`, in MB. */
function groupRssMb(pgid: number): number {
  let kb = 0;
  for (const pid of groupPids(pgid)) {
    try {
      const rss = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      kb += rss ? Number(rss[1]) : 0;
    } catch {
      // the process ended meanwhile
    }
  }
  return kb / 1024;
}

async function startOnce(argv: [string, string[]], port: number): Promise<{ ms: number; rssMb: number }> {
  const started = performance.now();
  const child = spawn(argv[0], argv[1], {
    cwd: ROOT,
    detached: true, // its own process group, so npm's or tsx's child node is measured and stopped too
    stdio: 'ignore',
    env: { ...process.env, LOG_LEVEL: 'warn' },
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`${argv.join(' ')} exited ${child.exitCode}`);
      const ok = await fetch(`http://127.0.0.1:${port}/__sandbox/health`).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
      if (performance.now() - started > 60_000) throw new Error(`${argv.join(' ')}: no answer in 60 s`);
      await new Promise((r) => setTimeout(r, 10));
    }
    return { ms: performance.now() - started, rssMb: groupRssMb(child.pid!) };
  } finally {
    process.kill(-child.pid!, 'SIGTERM');
    await exited;
    // npm can exit before the node it started has flushed its store and closed the port: the next
    // start would then be answered by this one (a 17 ms "start" in one run). Wait for the group.
    const until = performance.now() + 10_000;
    while (groupPids(child.pid!).length > 0 && performance.now() < until)
      await new Promise((r) => setTimeout(r, 10));
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** `restarts` starts of each command from one existing data file (made by a first, unmeasured start). */
export async function measureStarts(restarts: number, log: (line: string) => void): Promise<StartMeasure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-start-'));
  try {
    const port = await freePort();
    const flags = ['--host', '127.0.0.1', '--port', String(port), '--data', join(dir, 'db.json')];
    await startOnce(COMMANDS[1].argv(flags), port); // seeds the file and the bundle's code cache
    const results: StartMeasure[] = [];
    for (const command of COMMANDS) {
      log(`start: ${command.name}, ${restarts} times`);
      const runs = [];
      for (let i = 0; i < restarts; i++) runs.push(await startOnce(command.argv(flags), port));
      const ms = runs.map((r) => r.ms);
      results.push({
        name: command.name,
        firstAnswerMs: median(ms),
        rangeMs: [Math.min(...ms), Math.max(...ms)],
        groupRssMb: median(runs.map((r) => r.rssMb)),
      });
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
