import { pino } from 'pino';
import supertest from 'supertest';
import { expect } from 'vitest';
import { checked } from './checked-clients.js';
import { createApp } from '../../src/app/app.js';
import { prepareApp } from '../../src/app/prepare.js';
import { makeConfig, type Config } from '../../src/process/config.js';
import type { AppDeps } from '../../src/app/deps.js';
import { VERSION } from '../../src/process/version.js';
import { openDefaultWorld } from '../../src/world/open.js';
import { createWorldRegistry, type RegistryOptions } from '../../src/world/registry.js';
import { checkStoresOf, testStoreConfig } from './file-store-check.js';
import { serverFor } from '../../src/process/http-server.js';

export const TEST_JWT_SECRET = 'test-secret-0123456789abcdef0123456789abcdef';

/** The seeded test accounts (fixtures/test-accounts.json). */
export const accounts = {
  buyer: {
    email: 'buyer@sandbox.test',
    password: 'buyer-pass-123',
    apiKey: 'mk_test_buyer_5f0c2b7e9a1d4c3b8e6f7a2d1c0b9e8f',
  },
  broke: {
    email: 'broke@sandbox.test',
    password: 'broke-pass-123',
    apiKey: 'mk_test_broke_3a9d7c1e5b2f4a6c8d0e1f2a3b4c5d6e',
  },
  seller: {
    email: 'seller@sandbox.test',
    password: 'seller-pass-123',
    apiKey: 'mk_test_seller_8b1e4d7a0c3f6b9e2d5a8c1f4b7e0a3d',
  },
  subscriber: {
    email: 'subscriber@sandbox.test',
    password: 'subscriber-pass-123',
    apiKey: 'mk_test_subscriber_2c5f8a1d4b7e0c3f6a9d2b5e8c1f4a7d',
  },
  maxed: {
    email: 'maxed@sandbox.test',
    password: 'maxed-pass-123',
    apiKey: 'mk_test_maxed_9e2b5d8a1c4f7e0b3d6a9c2e5b8d1f4a',
  },
} as const;

export type TestSandbox = Awaited<ReturnType<typeof makeSandbox>>;

/**
 * A fresh sandbox (in memory, or on a file store in the file-store run), configured and prepared
 * as it ships (`prepareApp`, as the CLI's server), behind supertest; every response is checked
 * against openapi.yaml by the client (checked-clients.ts), so a response that breaks the contract
 * fails the test that received it, whichever path (fast or full) answered it.
 * Requests with `X-Sandbox-Id` get their own world, as in the real server; `worlds` is the registry
 * (`await sb.worlds.open('a')` gives a named world to inspect or change directly).
 * `registry.wallClock` injects the wall clock that idle eviction reads.
 */
export async function makeSandbox(
  overrides: Partial<Config> = {},
  registry: Pick<RegistryOptions, 'wallClock'> = {},
) {
  const config = makeConfig({ inMemory: true, listings: 60, ...testStoreConfig(), ...overrides });
  const { world } = await openDefaultWorld(config);
  const worlds = await createWorldRegistry({ config, defaultWorld: world, ...registry });
  checkStoresOf(worlds);
  const deps: AppDeps = {
    config,
    worlds,
    jwtSecret: TEST_JWT_SECRET,
    log: pino({ level: 'silent' }),
    version: VERSION,
  };
  const app = createApp(deps);
  // As the CLI's server does before it listens (process/server.ts): the validator ready.
  await prepareApp(deps);
  const http = checked(supertest(serverFor(app)));
  return {
    app,
    deps,
    world,
    worlds,
    http,
    /** Logs in and returns the bearer header value. */
    async login(email: string, password: string): Promise<string> {
      const res = await http.post('/api/auth/login').send({ email, password });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return `Bearer ${res.body.token as string}`;
    },
  };
}

/** Asserts the one error shape: the status, and a body that is exactly `{error: <non-empty string>}`. */
export function expectError(
  res: { status: number; body: unknown },
  status: number,
  message?: string | RegExp,
): void {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(Object.keys(res.body as object)).toEqual(['error']);
  const error = (res.body as { error: unknown }).error;
  expect(typeof error).toBe('string');
  expect((error as string).length).toBeGreaterThan(0);
  if (message instanceof RegExp) expect(error).toMatch(message);
  else if (message !== undefined) expect(error).toBe(message);
}

/**
 * Asserts an error in the interface document's words (`error`) with the sandbox's own reason in
 * `X-Sandbox-Error-Detail` (docs/errors.md).
 */
export function expectDetailedError(
  res: { status: number; body: unknown; headers: Record<string, string | string[] | undefined> },
  status: number,
  message: string,
  detail: string | RegExp,
): void {
  expectError(res, status, message);
  const header = res.headers['x-sandbox-error-detail'];
  if (detail instanceof RegExp) expect(header).toMatch(detail);
  else expect(header).toBe(detail);
}
