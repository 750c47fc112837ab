import type { Config } from '../process/config.js';

/** How a flag's text becomes a value: a whole number within bounds, a word, a switch, a date-time. */
export type Kind = { type: 'int'; min: number; max: number } | { type: 'string' | 'bool' | 'date' };

export interface OptionSpec {
  key: keyof Config;
  flag: string;
  env: string;
  kind: Kind;
  help: string;
}

const int = (min: number, max: number): Kind => ({ type: 'int', min, max });
const string: Kind = { type: 'string' };
const bool: Kind = { type: 'bool' };
const date: Kind = { type: 'date' };

const option = (key: keyof Config, flag: string, env: string, kind: Kind, help: string): OptionSpec => ({
  key,
  flag,
  env,
  kind,
  help,
});

/**
 * Every flag of `serve`, its environment variable, its bounds and its help line; the parser
 * (args.ts) and `--help` are made from this table, and the README's Flags table lists the same.
 */
export const OPTIONS: OptionSpec[] = [
  option('port', 'port', 'PORT', int(0, 65535), 'port to listen on (default 3000; 0 = any free port)'),
  option('host', 'host', 'HOST', string, 'address to bind (default 0.0.0.0)'),
  option('dataFile', 'data', 'SANDBOX_DATA', string, 'database file (default ./.sandbox/db.json)'),
  option('inMemory', 'in-memory', 'SANDBOX_IN_MEMORY', bool, 'keep everything in memory, nothing on disk'),
  option('seed', 'seed', 'SANDBOX_SEED', int(0, 2 ** 31 - 1), 'seed of the generated data (default 42)'),
  option('reset', 'reset', 'SANDBOX_RESET', bool, 'rebuild the database file from the seed'),
  option(
    'listings',
    'listings',
    'SANDBOX_LISTINGS',
    int(0, 100_000),
    'number of seeded listings (default 500, up to 100000)',
  ),
  option(
    'clockStart',
    'clock-start',
    'SANDBOX_CLOCK_START',
    date,
    'sandbox time a fresh seed starts at, ISO 8601 (default "now": the wall time when it is seeded)',
  ),
  option(
    'jwtSecret',
    'jwt-secret',
    'SANDBOX_JWT_SECRET',
    string,
    'HS256 secret, at least 32 bytes (default: random, kept beside the data file)',
  ),
  option(
    'referralCreditCents',
    'referral-credit',
    'SANDBOX_REFERRAL_CREDIT',
    int(0, 10_000_000),
    'cents credited to a referrer (default 500)',
  ),
  option(
    'platformFeeBps',
    'platform-fee-bps',
    'SANDBOX_PLATFORM_FEE_BPS',
    int(0, 10_000),
    'platform fee in basis points of the item price (default 500 = 5%)',
  ),
  option(
    'rateLimit',
    'rate-limit',
    'SANDBOX_RATE_LIMIT',
    int(0, 10_000_000),
    'requests per minute per client address without an API key (default 100; 0 = off)',
  ),
  option(
    'rateLimitApiKey',
    'rate-limit-api-key',
    'SANDBOX_RATE_LIMIT_API_KEY',
    int(0, 10_000_000),
    'requests per minute per API key (default 1000; 0 = off)',
  ),
  option(
    'trustProxy',
    'trust-proxy',
    'SANDBOX_TRUST_PROXY',
    bool,
    'take the client address from X-Forwarded-For (only behind your own proxy)',
  ),
  option(
    'scenario',
    'scenario',
    'SANDBOX_SCENARIO',
    string,
    'scenario file (scenarios/NAME.yaml) or switch such as latency=300, applied at start and after reset',
  ),
  option(
    'scenariosDir',
    'scenarios-dir',
    'SANDBOX_SCENARIOS_DIR',
    string,
    'directory of scenario files (default: the shipped scenarios/)',
  ),
  option(
    'journalSize',
    'journal-size',
    'SANDBOX_JOURNAL_SIZE',
    int(0, 100_000),
    'requests kept in the request journal per sandbox (default 1000; 0 = off)',
  ),
  option(
    'adminToken',
    'admin-token',
    'SANDBOX_ADMIN_TOKEN',
    string,
    'require this value in X-Sandbox-Admin-Token on /__sandbox/* (prefer the env variable)',
  ),
  option(
    'logFormat',
    'log-format',
    'SANDBOX_LOG_FORMAT',
    string,
    'log lines as "pretty" or "json" (default: pretty on a terminal, json otherwise)',
  ),
  option(
    'quiet',
    'quiet',
    'SANDBOX_QUIET',
    bool,
    'no ready line and no progress bar; log warnings and errors only',
  ),
  option(
    'altPort',
    'alt-port',
    'SANDBOX_ALT_PORT',
    int(0, 65535),
    'also serve the same app and state on this port ({alt_base_url}; 0 = any free port)',
  ),
  option(
    'corsOrigins',
    'cors-origins',
    'SANDBOX_CORS_ORIGINS',
    string,
    'CORS: "*" (default, any origin), "off", or a comma-separated list of origins',
  ),
  option(
    'maxSandboxes',
    'max-sandboxes',
    'SANDBOX_MAX_SANDBOXES',
    int(0, 10_000),
    'named sandboxes (X-Sandbox-Id) live at once, besides the default (default 100)',
  ),
  option(
    'sandboxIdleMinutes',
    'sandbox-idle-minutes',
    'SANDBOX_IDLE_MINUTES',
    int(0, 10_080),
    'evict a named sandbox after this many wall-clock minutes without a request (default 30; 0 = never)',
  ),
  option(
    'uploadQuotaMb',
    'upload-quota',
    'SANDBOX_UPLOAD_QUOTA',
    int(1, 1_048_576),
    'megabytes of uploaded images each sandbox may hold (default 100)',
  ),
  option(
    'strict',
    'strict',
    'SANDBOX_STRICT',
    bool,
    'refuse what the sandbox would take with an X-Sandbox-Warning, with the 400 or 401 it would have been',
  ),
];
