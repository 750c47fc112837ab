#!/usr/bin/env node
import { helpText, parseCli, UsageError } from './cli/args.js';
import { createLogger } from './logger.js';
import { startServer } from './server.js';
import { StoreFileError } from './store/file-adapter.js';
import { VERSION } from './version.js';

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseCli(process.argv.slice(2), process.env);
  } catch (err) {
    if (err instanceof UsageError) {
      process.stderr.write(`marketplace-sandbox: ${err.message} (see --help)\n`);
      process.exit(2);
    }
    throw err;
  }
  if (parsed.help) return void process.stdout.write(helpText() + '\n');
  if (parsed.version) return void process.stdout.write(VERSION + '\n');
  const { config } = parsed;
  const log = createLogger(process.env.LOG_LEVEL ?? 'info');
  let running;
  try {
    running = await startServer(config, log);
  } catch (err) {
    if (err instanceof StoreFileError || (err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(`marketplace-sandbox: ${(err as Error).message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const db = running.deps.worlds.default.store.db;
  const store = config.inMemory
    ? 'memory'
    : `${config.dataFile} (${running.seeded ? 'new from seed' : 'existing'})`;
  process.stdout.write(
    `Marketplace Sandbox ${VERSION} ready at ${running.url} — seed ${config.seed}, store ${store}, ` +
      `${Object.keys(db.users).length} users, ${Object.keys(db.listings).length} listings\n`,
  );
  const stop = (signal: string) => {
    process.stdout.write(`${signal}: flushing the store and stopping\n`);
    running.close().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  process.stderr.write(`marketplace-sandbox: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
