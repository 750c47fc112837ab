#!/usr/bin/env node
import { setFlagsFromString } from 'node:v8';
import { helpText, parseCli, UsageError } from '../cli/args.js';
import { commandOf } from '../cli/commands.js';
import { REPLAY_HELP, runReplay } from '../cli/replay.js';
import { checkWordFlags, makeLogger, openAltPort, watchSeeding } from './cli-setup.js';
import { startServer } from './server.js';
import { ScenarioFileError } from '../scenarios/file.js';
import { ContractError } from '../contract/spec.js';
import { StoreFileError } from '../store/file-adapter.js';
import { VERSION } from './version.js';

/** `help [command]`: the help of a command, or the general one. */
function help(args: string[]): void {
  process.stdout.write((args[0] === 'replay' ? REPLAY_HELP : helpText()) + '\n');
}

/** Runs the command. */
async function main(): Promise<void> {
  const command = commandOf(process.argv.slice(2));
  if (command.name === 'replay') return process.exit(await runReplay(command.args));
  if (command.name === 'help') return help(command.args);
  return serve(command.args);
}

/** `serve` (the default command): starts the sandbox and prints its ready line. */
async function serve(args: string[]): Promise<void> {
  const parsed = parseCli(args, process.env);
  if (parsed.help || parsed.version) {
    process.stdout.write((parsed.help ? helpText() : VERSION) + '\n');
    return;
  }
  const { config } = parsed;
  checkWordFlags(config);
  const log = makeLogger(config);
  watchSeeding(config);
  let running;
  let alt;
  // Peak RSS at 100k listings within 300 MB (docs/architecture.md, Folder layout): by default V8
  // lets the old generation grow to up to 4x what is live between full GCs. Only the CLI sets
  // this flag, never an app or test that embeds the sandbox; and only once the modules have
  // loaded, since Node's code cache of its built-in modules does not fit a process whose V8 flags
  // changed.
  setFlagsFromString('--heap-growing-percent=30');
  try {
    running = await startServer(config, log);
    alt = await openAltPort(config, running);
  } catch (err) {
    // Files it cannot read: nothing was changed, and only the user can choose the way out.
    if (err instanceof StoreFileError) {
      process.stderr.write(`marketplace-sandbox: ${err.message}\n`);
      process.exit(2);
    }
    if (
      err instanceof ScenarioFileError ||
      err instanceof ContractError ||
      (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
    ) {
      process.stderr.write(`marketplace-sandbox: ${(err as Error).message}\n`);
      process.exit(1);
    }
    throw err;
  }
  const stop = (signal: string) => {
    if (!config.quiet) process.stdout.write(`${signal}: flushing the store and stopping\n`);
    // A stuck connection must not keep a container from stopping: give up after 8 s (before Docker's 10 s SIGKILL).
    setTimeout(() => process.exit(1), 8_000).unref();
    Promise.all([alt?.close(), running.close()]).then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  // Before the ready line: a supervisor may stop the sandbox as soon as it reads it, and a signal
  // that comes before its handler kills the process instead of stopping it.
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
  const db = running.deps.worlds.default.store.db;
  const store = config.inMemory
    ? 'memory'
    : `${config.dataFile} (${running.seeded ? 'new from seed' : 'existing'})`;
  if (!config.quiet)
    process.stdout.write(
      `Marketplace Sandbox ${VERSION} ready at ${running.url}${alt ? ` (also ${alt.url})` : ''} — seed ${config.seed}, store ${store}, ` +
        `${Object.keys(db.users).length} users, ${Object.keys(db.listings).length} listings\n`,
    );
}

main().catch((err: unknown) => {
  if (err instanceof UsageError) {
    process.stderr.write(`marketplace-sandbox: ${err.message} (see --help)\n`);
    process.exit(2);
  }
  process.stderr.write(`marketplace-sandbox: ${(err as Error).stack ?? String(err)}\n`);
  process.exit(1);
});
