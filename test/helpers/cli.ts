import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

/**
 * The command that starts the CLI as it ships: `node dist/bin.js` (package.json `bin`, what
 * `npm start`, `npx marketplace-sandbox` and the Docker image run), built from this run's sources
 * by the tests' global setup (cli-bundle.ts).
 */
export const CLI = [process.execPath, 'dist/bin.js'] as const;

/** Starts the real CLI, as it ships, as a child process. */
export function spawnCli(args: string[], env: NodeJS.ProcessEnv = {}): ChildProcess {
  return spawn(CLI[0], [CLI[1], ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface Finished {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to completion (for --help, bad flags, start-up failures). */
export function runCli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Finished> {
  const child = spawnCli(args, env);
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('close', (code) => resolve({ code, stdout, stderr })));
}

/** Resolves with the URL of the ready line; rejects if the process ends first. */
export function waitForReady(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const match = /ready at (http:\/\/\S+)/.exec(out);
      if (match) resolve(match[1]);
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('close', (code) => reject(new Error(`exited ${code} before ready: ${out} ${err}`)));
  });
}

export function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.on('close', (code) => resolve(code));
  });
}
