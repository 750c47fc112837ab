import { parseArgs, type ParseArgsConfig } from 'node:util';
import { defaultConfig, type Config } from '../process/config.js';
import { COMMANDS } from './commands.js';
import { OPTIONS, type OptionSpec } from './options.js';
import { UsageError } from './usage-error.js';

export { UsageError } from './usage-error.js';

function convert(spec: OptionSpec, raw: string | boolean, source: string): Config[keyof Config] {
  const { kind } = spec;
  if (kind.type === 'bool') {
    if (typeof raw === 'boolean') return raw;
    if (/^(1|true|yes)$/i.test(raw)) return true;
    if (/^(0|false|no|)$/i.test(raw)) return false;
    throw new UsageError(`${source} must be true or false, got "${raw}"`);
  }
  const text = String(raw);
  if (kind.type === 'int') {
    if (!/^\d+$/.test(text)) throw new UsageError(`${source} must be a whole number, got "${text}"`);
    const n = Number(text);
    if (n < kind.min || n > kind.max)
      throw new UsageError(`${source} must be between ${kind.min} and ${kind.max}, got ${text}`);
    return n;
  }
  if (kind.type === 'date') {
    // "now" is the default said out loud: the wall time whenever a world is seeded.
    if (text === 'now') return '';
    const ms = Date.parse(text);
    if (Number.isNaN(ms))
      throw new UsageError(`${source} must be an ISO 8601 date-time or "now", got "${text}"`);
    return new Date(ms).toISOString();
  }
  if (text.length === 0) throw new UsageError(`${source} must not be empty`);
  return text;
}

/** The parseArgs options of `serve`: every flag of the table, plus --help and --version. */
function parseArgsOptions(): NonNullable<ParseArgsConfig['options']> {
  const options: NonNullable<ParseArgsConfig['options']> = {
    help: { type: 'boolean', short: 'h' },
    version: { type: 'boolean', short: 'v' },
  };
  for (const o of OPTIONS) options[o.flag] = { type: o.kind.type === 'bool' ? 'boolean' : 'string' };
  return options;
}

export interface ParsedArgs {
  config: Config;
  help: boolean;
  version: boolean;
}

/** Flags win over environment variables, which win over defaults. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): ParsedArgs {
  let values: Record<string, string | boolean | undefined>;
  try {
    const parsed = parseArgs({
      args: argv,
      options: parseArgsOptions(),
      strict: true,
      allowPositionals: false,
    });
    // No option is `multiple`, so no value is an array.
    values = parsed.values as Record<string, string | boolean | undefined>;
  } catch (err) {
    // parseArgs adds a hint on a second line (e.g. "To specify a positional argument…"); one line is enough.
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  const config: Config = { ...defaultConfig };
  for (const spec of OPTIONS) {
    const flagValue = values[spec.flag];
    const envValue = env[spec.env];
    let value: Config[keyof Config] | undefined;
    if (flagValue !== undefined) value = convert(spec, flagValue, `--${spec.flag}`);
    else if (envValue !== undefined && envValue !== '') value = convert(spec, envValue, spec.env);
    if (value !== undefined) (config as unknown as Record<string, unknown>)[spec.key] = value;
  }
  if (config.jwtSecret && Buffer.byteLength(config.jwtSecret) < 32) {
    throw new UsageError('--jwt-secret must be at least 32 bytes');
  }
  return { config, help: values.help === true, version: values.version === true };
}

const line = (left: string, text: string) => `  ${left.padEnd(28)} ${text}`;

/** `marketplace-sandbox --help`: the commands, then every option of `serve` with its environment variable. */
export function helpText(): string {
  const options = OPTIONS.map((o) => {
    const value = o.kind.type === 'bool' ? '' : o.kind.type === 'int' ? ' N' : ' VALUE';
    return line(`--${o.flag}${value}`, `${o.help} [env ${o.env}]`);
  });
  return [
    'Usage: marketplace-sandbox [command] [options]',
    '',
    'Runs a local sandbox of the marketplace HTTP/JSON API.',
    'In a checkout: npm run sandbox -- [command] [options]; in the Docker image: docker run IMAGE [command] [options].',
    '',
    'Commands:',
    ...COMMANDS.map((c) => line(`${c.name} ${c.args}`, c.summary)),
    '',
    'Options of serve:',
    ...options,
    line('--help, -h', 'show this help'),
    line('--version, -v', 'print the version'),
    '',
    'Exit codes: 0 stopped by SIGTERM or SIGINT; 1 could not start (scenario file, port in use);',
    '2 a bad command, flag or environment value, or a data file it cannot read (left as it was).',
  ].join('\n');
}
