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
  /** Sandbox time at which a freshly seeded world starts (ISO 8601). */
  clockStart: string;
  /** HS256 secret; when empty, a random secret is kept beside the data file (or per process in memory). */
  jwtSecret: string;
  /** Cents credited to a referrer when someone registers with their code. */
  referralCreditCents: number;
  /** Platform fee in basis points of the item price (500 = 5%). */
  platformFeeBps: number;
  /** Validate every response against openapi.yaml (on in tests). */
  validateResponses: boolean;
  // >>> catalog config
  // <<< catalog config
  // >>> money config
  // <<< money config
  // >>> scenarios config
  // <<< scenarios config
  // >>> integrator config
  // <<< integrator config
  // >>> isolation config
  /** Named sandboxes (`X-Sandbox-Id`) live at once, besides the default one. */
  maxSandboxes: number;
  /** Wall-clock minutes without a request after which a named sandbox is evicted (0 = never). */
  sandboxIdleMinutes: number;
  // <<< isolation config
  // >>> hardening config
  // <<< hardening config
}

/** The start of sandbox time for a fresh seed: fixed, so the same seed gives the same bytes. */
export const DEFAULT_CLOCK_START = '2026-01-01T00:00:00.000Z';

export const defaultConfig: Config = {
  port: 3000,
  host: '0.0.0.0',
  dataFile: './.sandbox/db.json',
  inMemory: false,
  seed: 42,
  reset: false,
  listings: 500,
  clockStart: DEFAULT_CLOCK_START,
  jwtSecret: '',
  referralCreditCents: 500,
  platformFeeBps: 500,
  validateResponses: false,
  // >>> catalog defaults
  // <<< catalog defaults
  // >>> money defaults
  // <<< money defaults
  // >>> scenarios defaults
  // <<< scenarios defaults
  // >>> integrator defaults
  // <<< integrator defaults
  // >>> isolation defaults
  maxSandboxes: 100,
  sandboxIdleMinutes: 30,
  // <<< isolation defaults
  // >>> hardening defaults
  // <<< hardening defaults
};

export function makeConfig(overrides: Partial<Config> = {}): Config {
  return { ...defaultConfig, ...overrides };
}
