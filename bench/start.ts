/**
 * How the sandbox starts, each timed from spawn to the first answer of `GET /__sandbox/health`,
 * with its whole process group's RSS summed at that moment (npm and tsx each run node in a child
 * process). The two starts of a checkout (issue 17): `npm start`, which runs the built bundle,
 * against the TypeScript sources through tsx (`npm run dev` without its watcher); `node
 * dist/bin.js` alone shows what npm itself adds. These three restart from an existing data file of
 * the default catalogue. `node dist/bin.js --in-memory` seeds the default catalogue in memory at
 * every start: the start issue 23 judges (a CI job's), next to `startSandbox()` (in-process-start.ts).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './child.js';
import { freePort } from '../test/helpers/nginx.js';

export type StartId = 'npm' | 'dist' | 'tsx' | 'in-memory' | 'in-process' | 'in-process-call';

export interface StartMeasure {
  id: StartId;
  name: string;
  /** Median of the starts, and their range (ms from spawn to the first answer). */
  firstAnswerMs: number;
  rangeMs: [number, number];
  /** Median RSS of the process group at the first answer, MB. */
  groupRssMb: number;
}

interface StartCommand {
  id: StartId;
  name: string;
  /** Whether it reads the data file (`--data`) or keeps everything in memory. */
  fromFile: boolean;
  argv: (flags: string[]) => [string, string[]];
}

const COMMANDS: StartCommand[] = [
  {
    id: 'npm',
    name: '`npm start` (node dist/bin.js through npm)',
    fromFile: true,
    argv: (f) => ['npm', ['start', '--silent', '--', ...f]],
  },
  {
    id: 'dist',
    name: '`node dist/bin.js`',
    fromFile: true,
    argv: (f) => [process.execPath, ['dist/bin.js', ...f]],
  },
  {
    id: 'tsx',
    name: '`tsx src/process/bin.ts` (npm run dev, unwatched)',
    fromFile: true,
    argv: (f) => ['node_modules/.bin/tsx', ['src/process/bin.ts', ...f]],
  },
  {
    id: 'in-memory',
    name: '`node dist/bin.js --in-memory` (default seed, in memory)',
    fromFile: false,
    argv: (f) => [process.execPath, ['dist/bin.js', '--in-memory', ...f]],
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

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

async function measureCommand(command: StartCommand, flags: string[], port: number, restarts: number) {
  const runs = [];
  for (let i = 0; i < restarts; i++) runs.push(await startOnce(command.argv(flags), port));
  const ms = runs.map((r) => r.ms);
  return {
    id: command.id,
    name: command.name,
    firstAnswerMs: median(ms),
    rangeMs: [Math.min(...ms), Math.max(...ms)] as [number, number],
    groupRssMb: median(runs.map((r) => r.rssMb)),
  };
}

/**
 * `restarts` starts of each command (`ids`: all by default); those from a file all read one
 * existing data file, made by a first, unmeasured start, which also leaves whatever else a first
 * start writes (so every measured start is a restart).
 */
export async function measureStarts(
  restarts: number,
  log: (line: string) => void,
  ids?: ReadonlySet<StartId>,
): Promise<StartMeasure[]> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-start-'));
  try {
    const port = await freePort();
    const base = ['--host', '127.0.0.1', '--port', String(port)];
    const fileFlags = [...base, '--data', join(dir, 'db.json')];
    await startOnce(COMMANDS[1].argv(fileFlags), port);
    const results: StartMeasure[] = [];
    for (const command of COMMANDS.filter((c) => !ids || ids.has(c.id))) {
      log(`start: ${command.name}, ${restarts} times`);
      results.push(await measureCommand(command, command.fromFile ? fileFlags : base, port, restarts));
    }
    return results;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
