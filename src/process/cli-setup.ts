import { createRequire } from 'node:module';
import { createLogger } from './logger.js';
import type { Logger } from 'pino';
import type Pretty from 'pino-pretty';
import { UsageError } from '../cli/args.js';
import type { Config } from './config.js';
import { reportSeedProgress } from '../seed/progress.js';
import type { RunningSandbox } from './server.js';
import { listenAlt, type AltListener } from './alt-port.js';
import { parseOrigins } from '../web/cors.js';
import { PROGRESS_THRESHOLD, progressBar } from './progress-bar.js';

/** `--log-format`: what was asked, or the default for where the output goes. */
export function logFormatOf(config: Config, stdoutIsTTY: boolean): 'pretty' | 'json' {
  if (config.logFormat === '') return stdoutIsTTY ? 'pretty' : 'json';
  if (config.logFormat === 'pretty' || config.logFormat === 'json') return config.logFormat;
  throw new UsageError(`--log-format must be "pretty" or "json", got "${config.logFormat}"`);
}

/** Checks the flags whose values are words, `--log-format` and `--cors-origins` (bad ones exit 2 like every usage error). */
export function checkWordFlags(config: Config): void {
  logFormatOf(config, false);
  const origins = parseOrigins(config.corsOrigins);
  if (typeof origins === 'string') throw new UsageError(origins);
}

/** The CLI's logger: pretty or JSON lines on stdout; `--quiet` keeps warnings and errors only. */
export function makeLogger(config: Config, stdoutIsTTY = Boolean(process.stdout.isTTY)): Logger {
  const level = config.quiet ? 'warn' : (process.env.LOG_LEVEL ?? 'info');
  // Both formats go through createLogger, so credentials are redacted whatever the format.
  if (logFormatOf(config, stdoutIsTTY) === 'json') return createLogger(level);
  // pino-pretty as a stream in this thread (not a worker transport): lines come out in order
  // with the ready line, and nothing is lost when the process exits right after logging.
  // Loaded only here: JSON logs (the default off a terminal) skip its ~80 modules at start-up.
  const pretty = createRequire(import.meta.url)('pino-pretty') as typeof Pretty;
  return createLogger(level, pretty({ colorize: stdoutIsTTY, sync: true, translateTime: 'SYS:HH:MM:ss.l' }));
}

/** Draws the seeding bar on stderr when more than 5000 listings are seeded, unless quiet. */
export function watchSeeding(config: Config, stream: NodeJS.WriteStream = process.stderr): void {
  if (config.quiet || config.listings <= PROGRESS_THRESHOLD) return reportSeedProgress(undefined);
  reportSeedProgress(progressBar(stream, 'Seeding listings'));
}

/** Opens `--alt-port` on the running server, if asked for. */
export async function openAltPort(config: Config, running: RunningSandbox): Promise<AltListener | undefined> {
  if (config.altPort === undefined) return undefined;
  return listenAlt(running.server, config.altPort, config.host);
}
