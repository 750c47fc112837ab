import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** A sandbox (or reference server) running as a child process. */
export interface Child {
  proc: ChildProcess;
  pid: number;
  url: string;
  /** Milliseconds from spawn to the ready line. */
  readyMs: number;
  /** Everything the child printed so far. */
  output(): string;
}

/**
 * Starts `node <args>` and waits until it prints a line matching `ready` (the first group is the
 * URL). Fails with the child's output when it exits or takes longer than `timeoutMs`.
 */
export function startChild(args: string[], ready: RegExp, timeoutMs = 600_000): Promise<Child> {
  const started = process.hrtime.bigint();
  const proc = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      proc.kill('SIGKILL');
      reject(new Error(`child did not get ready in ${timeoutMs} ms:\n${out}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = ready.exec(out);
      if (!match) return;
      clearTimeout(timer);
      proc.stdout?.off('data', onData);
      proc.stdout?.on('data', (c: Buffer) => (out += c.toString()));
      resolve({
        proc,
        pid: proc.pid as number,
        url: match[1],
        readyMs: Number(process.hrtime.bigint() - started) / 1e6,
        output: () => out,
      });
    };
    proc.stdout?.on('data', onData);
    proc.stderr?.on('data', (c: Buffer) => (out += c.toString()));
    proc.on('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`child exited (${code ?? signal}) before ready:\n${out}`));
    });
  });
}

/** Peak resident set size of a live process, in MB (VmHWM from /proc). */
export function peakRssMb(pid: number): number | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = /VmHWM:\s+(\d+) kB/.exec(status);
    return kb ? Number(kb[1]) / 1024 : null;
  } catch {
    return null;
  }
}

/** Stops a child (SIGTERM, then SIGKILL after 10 s) and waits for it to exit. */
export function stopChild(child: Child): Promise<void> {
  if (child.proc.exitCode !== null || child.proc.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.proc.kill('SIGKILL'), 10_000);
    child.proc.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.proc.kill('SIGTERM');
  });
}

/** Builds dist/ as `npm run build` does: tsc, then the CLI bundle (scripts/bundle.mjs). */
export function buildDist(log: (line: string) => void): void {
  log('building dist/ (tsc -p tsconfig.build.json, then the CLI bundle: scripts/bundle.mjs)');
  const run = (args: string[]) => execFileSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit' });
  run(['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json']);
  run(['scripts/bundle.mjs']);
}

/** The sandbox's ready line: `... ready at http://127.0.0.1:PORT — ...`. */
export const SANDBOX_READY = /ready at (http:\/\/\S+)/;

/** How to run the CLI: the compiled `dist/bin.js`, or the sources through tsx. */
export function sandboxArgs(runtime: 'dist' | 'tsx', flags: string[]): string[] {
  const entry = runtime === 'dist' ? ['dist/bin.js'] : ['--import', 'tsx', 'src/process/bin.ts'];
  return [...entry, '--host', '127.0.0.1', '--port', '0', ...flags];
}
