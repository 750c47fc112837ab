import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { startSandbox, type Sandbox } from '../../../src/index.js';
import { checkedFetch } from '../../helpers/checked-clients.js';

/**
 * The conformance suite's whole client: plain `fetch`, as an integrator who has only the interface
 * document would write it. Query strings are built with URLSearchParams (what browsers and form
 * encoders send: a space becomes `+`), bodies are JSON, credentials go in `Authorization: Bearer`.
 * Like every HTTP test's, each answer is first checked against openapi.yaml (`checkedFetch`,
 * test/helpers/checked-clients.ts): what the tests check comes from the document, and the sandbox
 * must also keep the contract it publishes while answering them.
 */
export interface Reply<T = unknown> {
  status: number;
  headers: Headers;
  /** The parsed JSON body (undefined when the answer is not JSON). */
  body: T;
  text: string;
}

export interface Call {
  /** A JWT or an API key, sent as `Authorization: Bearer <credential>`. */
  token?: string;
  query?: Record<string, string | number | boolean> | URLSearchParams;
  headers?: Record<string, string>;
  body?: unknown;
}

export class Api {
  constructor(readonly base: string) {}

  async request<T>(method: string, path: string, call: Call = {}): Promise<Reply<T>> {
    const headers: Record<string, string> = { accept: 'application/json', ...call.headers };
    if (call.token !== undefined) headers.authorization = `Bearer ${call.token}`;
    if (call.body !== undefined) headers['content-type'] ??= 'application/json';
    const query = call.query ? new URLSearchParams(call.query as Record<string, string>).toString() : '';
    const res = await checkedFetch(`${this.base}${path}${query ? `?${query}` : ''}`, {
      method,
      headers,
      body: call.body === undefined ? undefined : JSON.stringify(call.body),
    });
    const text = await res.text();
    const json = (res.headers.get('content-type') ?? '').includes('application/json');
    return {
      status: res.status,
      headers: res.headers,
      body: (json && text ? JSON.parse(text) : undefined) as T,
      text,
    };
  }

  get<T>(path: string, call?: Call) {
    return this.request<T>('GET', path, call);
  }
  post<T>(path: string, body: unknown, call: Call = {}) {
    return this.request<T>('POST', path, { ...call, body });
  }
  delete<T>(path: string, call?: Call) {
    return this.request<T>('DELETE', path, call);
  }
}

/**
 * The seeded test accounts: the interface does not say how a wallet gets money, so the sandbox's
 * documented choice is used (README.md, "Test accounts"; `GET /__sandbox/accounts` in openapi.yaml).
 */
export const accounts = {
  buyer: {
    email: 'buyer@sandbox.test',
    password: 'buyer-pass-123',
    key: 'mk_test_buyer_5f0c2b7e9a1d4c3b8e6f7a2d1c0b9e8f',
  },
  broke: {
    email: 'broke@sandbox.test',
    password: 'broke-pass-123',
    key: 'mk_test_broke_3a9d7c1e5b2f4a6c8d0e1f2a3b4c5d6e',
  },
  seller: {
    email: 'seller@sandbox.test',
    password: 'seller-pass-123',
    key: 'mk_test_seller_8b1e4d7a0c3f6b9e2d5a8c1f4b7e0a3d',
  },
  subscriber: {
    email: 'subscriber@sandbox.test',
    password: 'subscriber-pass-123',
    key: 'mk_test_subscriber_2c5f8a1d4b7e0c3f6a9d2b5e8c1f4a7d',
  },
  maxed: {
    email: 'maxed@sandbox.test',
    password: 'maxed-pass-123',
    key: 'mk_test_maxed_9e2b5d8a1c4f7e0b3d6a9c2e5b8d1f4a',
  },
} as const;

export interface Conformance {
  api: Api;
  sandbox: Sandbox;
}

/**
 * One sandbox per test file, started the way users start it in-process (`startSandbox()` from the
 * package entry: an ephemeral port, every shipped default), and put back to its seed before each
 * test (`POST /__sandbox/reset`, which also clears the per-address rate-limit count), so tests do
 * not depend on each other.
 */
export function useSandbox(): Conformance {
  const ctx = {} as Conformance;
  beforeAll(async () => {
    ctx.sandbox = await startSandbox();
    ctx.api = new Api(ctx.sandbox.url);
  });
  beforeEach(async () => {
    await ctx.sandbox.reset();
  });
  afterAll(async () => {
    await ctx.sandbox?.close();
  });
  return ctx;
}

/** Asserts an error as section 7 gives it: the status and a JSON body with one field, `error`. */
export function expectError(reply: Reply, status: number, message?: string): void {
  expect({ status: reply.status, body: reply.body }, `answered ${reply.status} ${reply.text}`).toEqual({
    status,
    body: { error: message ?? expect.any(String) },
  });
}

/** Logs in (4.1) and returns the JWT. */
export async function logIn(api: Api, email: string, password: string): Promise<string> {
  const res = await api.post<{ token: string }>('/api/auth/login', { email, password });
  expect(res.status, res.text).toBe(200);
  return res.body.token;
}

let registered = 0;

/** Registers a new user (4.2) and logs in; returns the e-mail, password and JWT. */
export async function newUser(api: Api, fullName = 'Conformance User') {
  const email = `conformance-${process.pid}-${++registered}@example.com`;
  const password = 'long-enough-password';
  const res = await api.post('/api/auth/register', { email, password, fullName });
  expect(res.status, res.text).toBeLessThan(300);
  return { email, password, token: await logIn(api, email, password) };
}
