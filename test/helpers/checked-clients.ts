import type { IncomingHttpHeaders } from 'node:http';
import type supertest from 'supertest';
import { assertContract } from './contract-check.js';

type Agent = ReturnType<typeof supertest>;
type Test = ReturnType<Agent['get']>;

/** The real fetch, kept before any test stubs the global with `checkedFetch`. */
const realFetch = globalThis.fetch;

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete', 'head', 'options']);

/** A supertest response as the contract check reads it. */
interface SupertestResponse {
  status: number;
  headers: IncomingHttpHeaders;
  text?: string;
  req: { method: string; path: string };
}

/** Every response of this request is checked against openapi.yaml before the test sees it. */
function withContractCheck(test: Test): Test {
  const then = test.then.bind(test);
  test.then = ((onFulfilled, onRejected) =>
    then(async (res) => {
      const r = res as unknown as SupertestResponse;
      await assertContract({
        method: r.req.method,
        url: r.req.path,
        status: r.status,
        headers: r.headers,
        text: typeof r.text === 'string' ? r.text : undefined,
      });
      return res;
    }).then(onFulfilled, onRejected)) as Test['then'];
  return test;
}

/**
 * A supertest agent whose every response is checked against openapi.yaml (contract-check.ts): a
 * response that breaks the contract rejects the request's promise, so the test that received it
 * fails with what broke.
 * @example const http = checked(supertest(app)); await http.get('/api/shop/listings');
 */
export function checked(agent: Agent): Agent {
  return new Proxy(agent, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof prop !== 'string' || !METHODS.has(prop) || typeof value !== 'function') return value;
      return (...args: unknown[]) =>
        withContractCheck((value as (...a: unknown[]) => Test).apply(target, args));
    },
  });
}

/**
 * `fetch`, with every response checked against openapi.yaml before the caller sees it; a broken
 * one rejects, saying what broke. The body stays readable.
 */
export async function checkedFetch(input: string | URL, init?: RequestInit): Promise<Response> {
  const res = await realFetch(input, init);
  const url = new URL(typeof input === 'string' ? input : input.href);
  const type = res.headers.get('content-type') ?? '';
  const binary = /^(image|application\/octet-stream)/.test(type);
  await assertContract({
    method: (init?.method ?? 'GET').toUpperCase(),
    url: url.pathname + url.search,
    status: res.status,
    headers: Object.fromEntries(res.headers),
    text: binary ? undefined : await res.clone().text(),
  });
  return res;
}
