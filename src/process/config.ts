/** Everything the sandbox can be configured with; parsed once at start-up (see cli/args.ts). */
export interface Config {
  port: number;
  host: string;
  /** Path of the JSON database file; ignored when `inMemory`. */
  dataFile: string;
  inMemory: boolean;
  seed: number;
  reset: boolean;
  /** Number of seeded listings. */
  listings: number;
  /**
   * Sandbox time at which a freshly seeded world starts (ISO 8601), pinned for byte-identical
   * seeds; empty: the wall time when the world is seeded (a start, a reset, a new sandbox).
   */
  clockStart: string;
  /** HS256 secret; when empty, a random secret is kept beside the data file (or per process in memory). */
  jwtSecret: string;
  /** Cents credited to a referrer when someone registers with their code. */
  referralCreditCents: number;
  /** Platform fee in basis points of the item price (500 = 5%). */
  platformFeeBps: number;
  /** Requests per minute per client address without an API key; 0 disables. */
  rateLimit: number;
  /** Requests per minute per API key; 0 disables. */
  rateLimitApiKey: number;
  /** Take the client address from X-Forwarded-For (only behind a proxy you trust). */
  trustProxy: boolean;
  /** A scenario file name (scenarios/NAME.yaml) or scenario switches (`latency=300`) applied to every world at start-up and after reset. */
  scenario: string;
  /** Directory of scenario files; empty means the scenarios/ directory shipped with the package. */
  scenariosDir: string;
  /** Requests kept in each world's journal (ring buffer); 0 turns the journal off. */
  journalSize: number;
  /** When set, /__sandbox/* requires this value in X-Sandbox-Admin-Token. */
  adminToken: string;
  /** Log lines as `pretty` (human) or `json` (one object a line); empty: pretty on a terminal, else json. */
  logFormat: string;
  /** No ready line, no progress bar, warnings and errors only. */
  quiet: boolean;
  /** A second port serving the same app and state (the API's `{alt_base_url}`; README.md, What is emulated); unset: none. */
  altPort?: number;
  /** Browser origins allowed by CORS: `*` (any), `off`, or a comma-separated list of origins. */
  corsOrigins: string;
  /** Named sandboxes (`X-Sandbox-Id`) live at once, besides the default one. */
  maxSandboxes: number;
  /** Wall-clock minutes without a request after which a named sandbox is evicted (0 = never). */
  sandboxIdleMinutes: number;
  /** Megabytes (MiB) of uploaded images each sandbox may hold (`--upload-quota`). */
  uploadQuotaMb: number;
  /** Refuse, with the 400 or 401 it would have been, every request the sandbox would otherwise take with a warning. */
  strict: boolean;
}

export const defaultConfig: Config = {
  port: 3000,
  host: '0.0.0.0',
  dataFile: './.sandbox/db.json',
  inMemory: false,
  seed: 42,
  reset: false,
  listings: 500,
  clockStart: '',
  jwtSecret: '',
  referralCreditCents: 500,
  platformFeeBps: 500,
  rateLimit: 100,
  rateLimitApiKey: 1000,
  trustProxy: false,
  scenario: '',
  scenariosDir: '',
  journalSize: 1000,
  adminToken: '',
  logFormat: '',
  quiet: false,
  altPort: undefined,
  corsOrigins: '*',
  maxSandboxes: 100,
  sandboxIdleMinutes: 30,
  uploadQuotaMb: 100,
  strict: false,
};

export function makeConfig(overrides: Partial<Config> = {}): Config {
  return { ...defaultConfig, ...overrides };
}
