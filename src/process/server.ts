import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino, type Logger } from 'pino';
import { createApp } from '../app/app.js';
import { prepareApp } from '../app/prepare.js';
import { answerClientErrors } from './client-errors.js';
import { serverFor } from './http-server.js';
import { shownHost } from './alt-port.js';
import type { Config } from './config.js';
import type { AppDeps } from '../app/deps.js';
import { jwtSecretFor } from './secrets.js';
import { VERSION } from './version.js';
import { openDefaultWorld } from '../world/open.js';
import { createWorldRegistry } from '../world/registry.js';

export interface RunningSandbox {
  url: string;
  port: number;
  deps: AppDeps;
  server: Server;
  seeded: boolean;
  /** Stops accepting requests, flushes every world, closes connections. */
  close(): Promise<void>;
}

/** Builds the default world and the app from a config and listens. Used by the CLI and tests. */
export async function startServer(
  config: Config,
  log: Logger = pino({ level: 'silent' }),
): Promise<RunningSandbox> {
  // The secret first: a secret file it cannot use stops start-up before any file is touched.
  const jwtSecret = await jwtSecretFor(config);
  const { world, seeded } = await openDefaultWorld(config);
  const worlds = await createWorldRegistry({ config, defaultWorld: world, log });
  const stopSweeper = worlds.startSweeper();
  const deps: AppDeps = {
    config,
    worlds,
    jwtSecret,
    log,
    version: VERSION,
  };
  const app = createApp(deps);
  // Ready means ready: the request validator has loaded the spec before anyone is told to call.
  await prepareApp(deps);
  const server = await new Promise<Server>((resolve, reject) => {
    const s = answerClientErrors(serverFor(app), VERSION);
    s.once('error', reject);
    s.listen(config.port, config.host, () => resolve(s));
  });
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${shownHost(config.host)}:${port}`,
    port,
    deps,
    server,
    seeded,
    close() {
      closing ??= (async () => {
        stopSweeper();
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          server.closeIdleConnections();
        });
        await Promise.all(deps.worlds.all().map((w) => w.store.close()));
      })();
      return closing;
    },
  };
}
