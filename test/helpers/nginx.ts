// Debian's nginx as a plain process of the test (or bench): its own prefix, config and temp
// directories under a temp dir, loopback ports, no system service. As root it runs as `nobody`.
import { spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './cli.js';

export const NGINX = process.env.NGINX_PATH ?? '/usr/sbin/nginx';

/** The config deploy/compose/docker-compose.yml mounts, and the replica addresses it names. */
export const COMPOSE_NGINX_CONF = join(ROOT, 'deploy/compose/nginx.conf');
const COMPOSE_SERVERS = /^(\s*server )sandbox-\d+:3000( [^;]*)?;$/gm;
const COMPOSE_LISTEN = /^(\s*listen )8080;$/m;

/** Why nginx cannot run here, or undefined when it can (printed once, like the Chromium skip). */
export function nginxMissing(): string | undefined {
  if (existsSync(NGINX)) return undefined;
  const reason = `SKIPPED scale-out routing: ${NGINX} is missing (apt-get install -y nginx; .ci/run does it)`;
  console.log(reason);
  return reason;
}

/**
 * The compose file's nginx.conf with its three `server sandbox-N:3000;` lines replaced by the
 * given replica addresses and its `listen 8080;` by a loopback port; throws when the file no
 * longer has that shape, so the test cannot silently run another config than compose does.
 */
export function composeConfig(replicas: string[], port: number): string {
  const text = readFileSync(COMPOSE_NGINX_CONF, 'utf8');
  const servers = text.match(COMPOSE_SERVERS) ?? [];
  if (servers.length !== 3 || !COMPOSE_LISTEN.test(text))
    throw new Error(
      `${COMPOSE_NGINX_CONF}: expected three "server sandbox-N:3000 …;" lines and "listen 8080;"`,
    );
  // The first server line becomes the replicas (each with its parameters), the others go.
  const [first] = servers;
  const [, head, params = ''] = /^(\s*server )sandbox-\d+:3000( [^;]*)?;$/.exec(first)!;
  return text
    .replace(first, replicas.map((r) => `${head}${r}${params};`).join('\n'))
    .replace(COMPOSE_SERVERS, '')
    .replace(COMPOSE_LISTEN, `$1127.0.0.1:${port};`);
}

/** A free loopback port (nginx cannot listen on port 0 and report which port it got). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface RunningNginx {
  url: string;
  stop(): Promise<void>;
}

function mainConfig(dir: string): string {
  return `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/client_body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  include ${dir}/routing.conf;
}
`;
}

async function waitUntilUp(url: string, child: ChildProcess, log: () => string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) throw new Error(`nginx exited ${child.exitCode}: ${log()}`);
    try {
      await fetch(`${url}/__nginx-probe`, { signal: AbortSignal.timeout(1000) });
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`nginx did not listen on ${url}: ${log()}`);
}

/** Starts nginx with `routing` (a config for the http block, e.g. composeConfig's) on `port`. */
export async function startNginx(routing: string, port: number): Promise<RunningNginx> {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-nginx-'));
  writeFileSync(join(dir, 'routing.conf'), routing);
  writeFileSync(join(dir, 'nginx.conf'), mainConfig(dir));
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chownSync(dir, 65534, 65534); // nobody: the process needs to write its temp files
  const child = spawn(NGINX, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', join(dir, 'error.log')], {
    stdio: ['ignore', 'ignore', 'pipe'],
    ...(asRoot ? { uid: 65534, gid: 65534 } : {}),
  });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const log = () =>
    stderr + (existsSync(join(dir, 'error.log')) ? readFileSync(join(dir, 'error.log'), 'utf8') : '');
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitUntilUp(url, child, log);
  } catch (err) {
    child.kill('SIGKILL');
    throw err;
  }
  return {
    url,
    stop: () =>
      new Promise<void>((resolve) => {
        const done = () => {
          rmSync(dir, { recursive: true, force: true });
          resolve();
        };
        if (child.exitCode !== null || child.signalCode !== null) return done();
        child.once('exit', done);
        child.kill('SIGQUIT'); // graceful: nginx finishes what it serves, then exits
      }),
  };
}
