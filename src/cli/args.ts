import { parseArgs } from 'node:util';
import { defaultConfig, type Config } from '../process/config.js';

/** A bad flag or environment value: the CLI prints the message on one line and exits 2. */
export class UsageError extends Error {}

type Kind = 'int' | 'string' | 'bool' | 'date';

interface OptionSpec {
  key: keyof Config;
  flag: string;
  env: string;
  kind: Kind;
  min?: number;
  max?: number;
  help: string;
}

/** Every flag, its environment variable, and its bounds; `--help` is generated from this table. */
export const OPTIONS: OptionSpec[] = [
  {
    key: 'port',
    flag: 'port',
    env: 'PORT',
    kind: 'int',
    min: 0,
    max: 65535,
    help: 'port to listen on (default 3000; 0 = any free port)',
  },
  { key: 'host', flag: 'host', env: 'HOST', kind: 'string', help: 'address to bind (default 0.0.0.0)' },
  {
    key: 'dataFile',
    flag: 'data',
    env: 'SANDBOX_DATA',
    kind: 'string',
    help: 'database file (default ./.sandbox/db.json)',
  },
  {
    key: 'inMemory',
    flag: 'in-memory',
    env: 'SANDBOX_IN_MEMORY',
    kind: 'bool',
    help: 'keep everything in memory, nothing on disk',
  },
  {
    key: 'seed',
    flag: 'seed',
    env: 'SANDBOX_SEED',
    kind: 'int',
    min: 0,
    max: 2 ** 31 - 1,
    help: 'seed of the generated data (default 42)',
  },
  {
    key: 'reset',
    flag: 'reset',
    env: 'SANDBOX_RESET',
    kind: 'bool',
    help: 'rebuild the database file from the seed',
  },
  {
    key: 'listings',
    flag: 'listings',
    env: 'SANDBOX_LISTINGS',
    kind: 'int',
    min: 0,
    max: 100_000,
    help: 'number of seeded listings (default 500, up to 100000)',
  },
  {
    key: 'clockStart',
    flag: 'clock-start',
    env: 'SANDBOX_CLOCK_START',
    kind: 'date',
    help: `sandbox time of a fresh seed, ISO 8601 or "now" (default ${defaultConfig.clockStart})`,
  },
  {
    key: 'jwtSecret',
    flag: 'jwt-secret',
    env: 'SANDBOX_JWT_SECRET',
    kind: 'string',
    help: 'HS256 secret, at least 32 bytes (default: random, kept beside the data file)',
  },
  {
    key: 'referralCreditCents',
    flag: 'referral-credit',
    env: 'SANDBOX_REFERRAL_CREDIT',
    kind: 'int',
    min: 0,
    max: 10_000_000,
    help: 'cents credited to a referrer (default 500)',
  },
  {
    key: 'platformFeeBps',
    flag: 'platform-fee-bps',
    env: 'SANDBOX_PLATFORM_FEE_BPS',
    kind: 'int',
    min: 0,
    max: 10_000,
    help: 'platform fee in basis points of the item price (default 500 = 5%)',
  },
  // >>> catalog options
  // <<< catalog options
  // >>> money options
  // <<< money options
  // >>> scenarios options
  {
    key: 'rateLimit',
    flag: 'rate-limit',
    env: 'SANDBOX_RATE_LIMIT',
    kind: 'int',
    min: 0,
    max: 10_000_000,
    help: 'requests per minute per client address without an API key (default 100; 0 = off)',
  },
  {
    key: 'rateLimitApiKey',
    flag: 'rate-limit-api-key',
    env: 'SANDBOX_RATE_LIMIT_API_KEY',
    kind: 'int',
    min: 0,
    max: 10_000_000,
    help: 'requests per minute per API key (default 1000; 0 = off)',
  },
  {
    key: 'trustProxy',
    flag: 'trust-proxy',
    env: 'SANDBOX_TRUST_PROXY',
    kind: 'bool',
    help: 'take the client address from X-Forwarded-For (only behind your own proxy)',
  },
  {
    key: 'scenario',
    flag: 'scenario',
    env: 'SANDBOX_SCENARIO',
    kind: 'string',
    help: 'scenario file (scenarios/NAME.yaml) or switch such as latency=300, applied at start and after reset',
  },
  {
    key: 'scenariosDir',
    flag: 'scenarios-dir',
    env: 'SANDBOX_SCENARIOS_DIR',
    kind: 'string',
    help: 'directory of scenario files (default: the shipped scenarios/)',
  },
  {
    key: 'journalSize',
    flag: 'journal-size',
    env: 'SANDBOX_JOURNAL_SIZE',
    kind: 'int',
    min: 0,
    max: 100_000,
    help: 'requests kept in the request journal per sandbox (default 1000; 0 = off)',
  },
  {
    key: 'adminToken',
    flag: 'admin-token',
    env: 'SANDBOX_ADMIN_TOKEN',
    kind: 'string',
    help: 'require this value in X-Sandbox-Admin-Token on /__sandbox/* (prefer the env variable)',
  },
  // <<< scenarios options
  // >>> integrator options
  {
    key: 'logFormat',
    flag: 'log-format',
    env: 'SANDBOX_LOG_FORMAT',
    kind: 'string',
    help: 'log lines as "pretty" or "json" (default: pretty on a terminal, json otherwise)',
  },
  {
    key: 'quiet',
    flag: 'quiet',
    env: 'SANDBOX_QUIET',
    kind: 'bool',
    help: 'no ready line and no progress bar; log warnings and errors only',
  },
  {
    key: 'altPort',
    flag: 'alt-port',
    env: 'SANDBOX_ALT_PORT',
    kind: 'int',
    min: 0,
    max: 65535,
    help: 'also serve the same app and state on this port ({alt_base_url}; 0 = any free port)',
  },
  {
    key: 'corsOrigins',
    flag: 'cors-origins',
    env: 'SANDBOX_CORS_ORIGINS',
    kind: 'string',
    help: 'CORS: "*" (default, any origin), "off", or a comma-separated list of origins',
  },
  // <<< integrator options
  // >>> isolation options
  {
    key: 'maxSandboxes',
    flag: 'max-sandboxes',
    env: 'SANDBOX_MAX_SANDBOXES',
    kind: 'int',
    min: 0,
    max: 10_000,
    help: 'named sandboxes (X-Sandbox-Id) live at once, besides the default (default 100)',
  },
  {
    key: 'sandboxIdleMinutes',
    flag: 'sandbox-idle-minutes',
    env: 'SANDBOX_IDLE_MINUTES',
    kind: 'int',
    min: 0,
    max: 10_080,
    help: 'evict a named sandbox after this many wall-clock minutes without a request (default 30; 0 = never)',
  },
  // <<< isolation options
  // >>> hardening options
  {
    key: 'uploadQuotaMb',
    flag: 'upload-quota',
    env: 'SANDBOX_UPLOAD_QUOTA',
    kind: 'int',
    min: 1,
    max: 1_048_576,
    help: 'megabytes of uploaded images each sandbox may hold (default 100)',
  },
  // <<< hardening options
];

function convert(spec: OptionSpec, raw: string | boolean, source: string): Config[keyof Config] {
  if (spec.kind === 'bool') {
    if (typeof raw === 'boolean') return raw;
    if (/^(1|true|yes)$/i.test(raw)) return true;
    if (/^(0|false|no|)$/i.test(raw)) return false;
    throw new UsageError(`${source} must be true or false, got "${raw}"`);
  }
  const text = String(raw);
  if (spec.kind === 'int') {
    if (!/^\d+$/.test(text)) throw new UsageError(`${source} must be a whole number, got "${text}"`);
    const n = Number(text);
    if (n < (spec.min ?? 0) || n > (spec.max ?? Number.MAX_SAFE_INTEGER)) {
      throw new UsageError(`${source} must be between ${spec.min ?? 0} and ${spec.max}, got ${text}`);
    }
    return n;
  }
  if (spec.kind === 'date') {
    if (text === 'now') return new Date().toISOString();
    const ms = Date.parse(text);
    if (Number.isNaN(ms))
      throw new UsageError(`${source} must be an ISO 8601 date-time or "now", got "${text}"`);
    return new Date(ms).toISOString();
  }
  if (text.length === 0) throw new UsageError(`${source} must not be empty`);
  return text;
}

export interface ParsedArgs {
  config: Config;
  help: boolean;
  version: boolean;
}

/** Flags win over environment variables, which win over defaults. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv): ParsedArgs {
  const options = Object.fromEntries(
    OPTIONS.map((o) => [o.flag, { type: o.kind === 'bool' ? ('boolean' as const) : ('string' as const) }]),
  );
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      options: {
        ...options,
        help: { type: 'boolean', short: 'h' },
        version: { type: 'boolean', short: 'v' },
      },
      strict: true,
      allowPositionals: false,
    });
  } catch (err) {
    throw new UsageError((err as Error).message.split('\n')[0]);
  }
  const config: Config = { ...defaultConfig };
  const values = parsed.values as Record<string, string | boolean | undefined>;
  for (const spec of OPTIONS) {
    const envValue = env[spec.env];
    const flagValue = values[spec.flag];
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

export function helpText(): string {
  const lines = OPTIONS.map((o) => {
    const flag = o.kind === 'bool' ? `--${o.flag}` : `--${o.flag} ${o.kind === 'int' ? 'N' : 'VALUE'}`;
    return `  ${flag.padEnd(26)} ${o.help} [env ${o.env}]`;
  });
  return [
    'Usage: marketplace-sandbox [options]',
    '',
    'Runs a local sandbox of the marketplace HTTP/JSON API.',
    '',
    'Options:',
    ...lines,
    `  ${'--help, -h'.padEnd(26)} show this help`,
    `  ${'--version, -v'.padEnd(26)} print the version`,
  ].join('\n');
}
