import { pino, type Logger } from 'pino';
import { makeConfig, type Config } from './config.js';
import { startServer, type RunningSandbox } from './server.js';
import { listenAlt, type AltListener } from './alt-port.js';

/** What `startSandbox` accepts: any config field (seed, listings, clockStart…) plus a logger. */
export interface StartSandboxOptions extends Partial<Config> {
  /** pino logger for server errors; silent by default. */
  log?: Logger;
}

/** The sandbox clock, through `GET/POST /__sandbox/clock`. */
export interface SandboxClock {
  get(): Promise<{ now: string; frozen: boolean }>;
  /** A duration such as `25h`, `30m`, `1d12h`, or milliseconds. */
  advance(duration: string | number): Promise<{ now: string; frozen: boolean }>;
  set(isoTime: string): Promise<{ now: string; frozen: boolean }>;
  freeze(): Promise<{ now: string; frozen: boolean }>;
  unfreeze(): Promise<{ now: string; frozen: boolean }>;
}

/**
 * Sticky scenarios, through `/__sandbox/scenarios` (the scenarios area of the control API).
 * The request body of `set` is passed as is; see `POST /__sandbox/scenarios` in openapi.yaml.
 */
export interface SandboxScenarios {
  list(): Promise<unknown>;
  set(body: Record<string, unknown>): Promise<unknown>;
  remove(id: string): Promise<void>;
  clear(): Promise<void>;
  activate(name: string): Promise<unknown>;
}

/** A running in-process sandbox. */
export interface Sandbox {
  /** Base URL, e.g. `http://127.0.0.1:53123` (no trailing slash). */
  url: string;
  port: number;
  /** The second base URL when `altPort` was given (the API's `{alt_base_url}`; README.md, What is emulated). */
  altUrl?: string;
  /** Back to the seed: data, clock, scenarios, journal. */
  reset(): Promise<void>;
  clock: SandboxClock;
  scenarios: SandboxScenarios;
  /** Credits a test account's wallet (`POST /__sandbox/wallets/{email}/fund`). */
  fund(email: string, amountCents: number): Promise<unknown>;
  /** Stops listening and releases the port. */
  close(): Promise<void>;
  /** The server underneath (deps, worlds), for tests that need to reach in. */
  server: RunningSandbox;
}

/** A control call that did not answer 2xx; `message` is the sandbox's `{"error"}` text. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function control(base: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const res = await fetch(base + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const data: unknown = text ? JSON.parse(text) : undefined;
  if (!res.ok) {
    const error = (data as { error?: string } | undefined)?.error ?? `answered ${res.status}`;
    const hint =
      res.status === 404 && /^Not found: /.test(error) ? ' (this sandbox build has no such call)' : '';
    throw new SandboxError(res.status, `${method} ${path}: ${error}${hint}`);
  }
  return data;
}

/**
 * Starts a whole sandbox in this process on an ephemeral loopback port with the memory store.
 * @example
 * const sandbox = await startSandbox({ seed: 7 });
 * await fetch(`${sandbox.url}/api/auth/login`, { method: 'POST', ... });
 * await sandbox.clock.advance('25h');
 * await sandbox.close();
 */
export async function startSandbox(options: StartSandboxOptions = {}): Promise<Sandbox> {
  const { log = pino({ level: 'silent' }), ...overrides } = options;
  const config = makeConfig({ port: 0, host: '127.0.0.1', inMemory: true, ...overrides });
  const running = await startServer(config, log);
  let alt: AltListener | undefined;
  if (config.altPort !== undefined) alt = await listenAlt(running.server, config.altPort, config.host);
  const call = (method: string, path: string, body?: unknown) => control(running.url, method, path, body);
  const clock = (body: object) => call('POST', '/__sandbox/clock', body) as ReturnType<SandboxClock['get']>;
  return {
    url: running.url,
    port: running.port,
    altUrl: alt?.url,
    server: running,
    reset: async () => void (await call('POST', '/__sandbox/reset')),
    clock: {
      get: () => call('GET', '/__sandbox/clock') as ReturnType<SandboxClock['get']>,
      advance: (duration) => clock({ advance: duration }),
      set: (isoTime) => clock({ set: isoTime }),
      freeze: () => clock({ freeze: true }),
      unfreeze: () => clock({ freeze: false }),
    },
    scenarios: {
      list: () => call('GET', '/__sandbox/scenarios'),
      set: (body) => call('POST', '/__sandbox/scenarios', body),
      remove: async (id) => void (await call('DELETE', `/__sandbox/scenarios/${encodeURIComponent(id)}`)),
      clear: async () => void (await call('DELETE', '/__sandbox/scenarios')),
      activate: (name) => call('POST', `/__sandbox/scenarios/${encodeURIComponent(name)}/activate`),
    },
    fund: (email, amountCents) =>
      call('POST', `/__sandbox/wallets/${encodeURIComponent(email)}/fund`, { amount_cents: amountCents }),
    async close() {
      await alt?.close();
      await running.close();
    },
  };
}
