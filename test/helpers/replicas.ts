// N sandbox processes behind nginx with deploy/compose/nginx.conf: the compose deployment on
// loopback ports, without Docker (the routing test and `npm run bench:sandboxes -- --replicas`).
import type { ChildProcess } from 'node:child_process';
import { exitOf, spawnCli, waitForReady } from './cli.js';
import { composeConfig, freePort, startNginx, type RunningNginx } from './nginx.js';

export interface Replica {
  child: ChildProcess;
  /** `http://127.0.0.1:PORT`, to call the replica directly. */
  url: string;
  /** `127.0.0.1:PORT`: what nginx names it in X-Sandbox-Replica. */
  address: string;
}

export interface Cluster {
  nginx: RunningNginx;
  replicas: Replica[];
  stop(): Promise<void>;
}

export interface ClusterOptions {
  flags?: string[];
  env?: NodeJS.ProcessEnv;
}

/** A replica is the CLI as it ships (`node dist/bin.js`), in memory, on a free loopback port. */
function spawnReplica(flags: string[], env: NodeJS.ProcessEnv): ChildProcess {
  return spawnCli(['--in-memory', '--port', '0', '--host', '127.0.0.1', ...flags], env);
}

/** Stops a replica (SIGTERM) unless it is already gone. */
export async function stopReplica(replica: Replica): Promise<void> {
  const { child } = replica;
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await exitOf(child);
}

/** Starts `count` replicas, then nginx in front of them with the compose file's routing. */
export async function startCluster(count: number, options: ClusterOptions = {}): Promise<Cluster> {
  const children = Array.from({ length: count }, () => spawnReplica(options.flags ?? [], options.env ?? {}));
  const replicas: Replica[] = [];
  try {
    for (const child of children) {
      const url = await waitForReady(child);
      replicas.push({ child, url, address: new URL(url).host });
    }
    const port = await freePort();
    const nginx = await startNginx(
      composeConfig(
        replicas.map((r) => r.address),
        port,
      ),
      port,
    );
    return {
      nginx,
      replicas,
      stop: async () => {
        await nginx.stop();
        await Promise.all(replicas.map(stopReplica));
      },
    };
  } catch (err) {
    for (const child of children) child.kill('SIGKILL');
    throw err;
  }
}
