import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSpec, operations } from '../../src/contract/spec.js';
import { addListing, keyOf } from '../money/helpers.js';
import { assertContract } from '../helpers/contract-check.js';
import { accounts, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

// Issue 14, Access: "The admin token is bypassed by changing the path's case." Express matched
// routes without case while the admin-token check compared the path as written, so with
// SANDBOX_ADMIN_TOKEN set `GET /__SANDBOX/accounts` gave every password and key, and reset, fund and
// DELETE /__sandbox worked without the token. Every control operation of openapi.yaml (iterated,
// so new ones are covered) is tried with case, `//`, `/./`, `%2F`, `%5F` and trailing-slash
// variants, sent as raw paths (a client library would normalise some of them away).

const TOKEN = 'admin-token-for-path-variants';
const SANDBOX = 'kept-sandbox';

type Answer = { status: number; text: string };
let sb: TestSandbox;
let server: Server;
let port: number;

/** Sends the path exactly as given. */
function raw(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string> } = {},
) {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (body !== undefined)
    Object.assign(headers, {
      'content-type': 'application/json',
      'content-length': `${Buffer.byteLength(body)}`,
    });
  return new Promise<Answer>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () => {
        const answer = { status: res.statusCode ?? 0, text };
        // Checked against openapi.yaml as every HTTP test's answers are (node:http sends the path
        // exactly as written, which fetch would normalise).
        assertContract({ method, url: path, status: answer.status, headers: res.headers, text }).then(
          () => resolve(answer),
          reject,
        );
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}
const admin = { 'x-sandbox-admin-token': TOKEN };

/** Every way of writing `path` that a router, a proxy or a decoder might read as it. */
function variants(path: string): string[] {
  const rest = path.slice('/__sandbox'.length);
  const all = [
    `/__SANDBOX${rest}`,
    `/__Sandbox${rest}`,
    path.toUpperCase(),
    `/${path}`,
    `/__sandbox/${rest}`,
    `/.${path}`,
    `/__sandbox/.${rest || '/'}`,
    `/x/..${path}`,
    `/%2F${path.slice(1)}`,
    `/%5F%5Fsandbox${rest}`,
    `/_%5fsandbox${rest}`,
    `${path}/`,
    `${path}//`,
  ];
  if (rest) all.push(`/__sandbox%2F${rest.slice(1)}`, `/__sandbox%2f${rest.slice(1)}`);
  return [...new Set(all)].filter((v) => v !== path);
}

/** A body the operation would act on (its example in openapi.yaml), so a bypass would show. */
function exampleBody(path: string, method: string): unknown {
  const op = (loadSpec().paths[path] as Record<string, { requestBody?: unknown }>)[method];
  const content = (
    op.requestBody as
      | { content?: Record<string, { example?: unknown; examples?: Record<string, { value: unknown }> }> }
      | undefined
  )?.content?.['application/json'];
  if (!content) return method === 'post' ? {} : undefined;
  return content.example ?? Object.values(content.examples ?? {})[0]?.value ?? {};
}

/** What the control API shows, read with the token: nothing of it may change without the token. */
async function observable() {
  const read = async (path: string) =>
    JSON.parse((await raw('GET', path, { headers: admin })).text) as unknown;
  return {
    accounts: await read('/__sandbox/accounts'),
    clock: await read('/__sandbox/clock'),
    scenarios: await read('/__sandbox/scenarios'),
    snapshots: await read('/__sandbox/snapshots'),
    payments: await read('/__sandbox/payments'),
    orders: await read('/__sandbox/orders'),
    sandboxes: ((await read('/__sandbox/sandboxes')) as { sandboxes: { id: string }[] }).sandboxes
      .map((s) => s.id)
      .sort(),
    login: (
      await raw('POST', '/api/auth/login', { body: { email: 'made@example.com', password: 'password-1' } })
    ).status,
  };
}

let params: Record<string, string>;

beforeAll(async () => {
  sb = await makeSandbox({ adminToken: TOKEN, rateLimit: 0 });
  server = createServer(sb.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  // State every variant could change: a user, a sandbox, a switch, a snapshot, a pending payment.
  await raw('POST', '/api/auth/register', { body: { email: 'made@example.com', password: 'password-1' } });
  await raw('GET', '/api/shop/categories', { headers: { 'x-sandbox-id': SANDBOX } });
  const sw = JSON.parse(
    (
      await raw('POST', '/__sandbox/scenarios', {
        headers: admin,
        body: { name: 'server.error', scope: { path: '/never' } },
      })
    ).text,
  ) as { id: string };
  await raw('POST', '/__sandbox/snapshots', { headers: admin, body: { name: 'kept' } });
  await raw('POST', '/__sandbox/clock', { headers: admin, body: { freeze: true } });
  const listing = addListing(sb, { quantity_available: 5 });
  const address = { street: '1 Main St', city: 'Berlin', zip: '10115' };
  const checkout = await raw('POST', '/api/shop/checkout', {
    headers: { authorization: keyOf('broke') },
    body: { cartItems: [{ listing_id: listing.id, quantity: 1 }], shippingAddress: address },
  });
  const paymentId = (JSON.parse(checkout.text) as { approvalUrl: string }).approvalUrl
    .split('/')
    .pop() as string;
  params = { email: accounts.buyer.email, paymentId, id: sw.id, name: 'kept' };
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const fill = (path: string, values: Record<string, string>) =>
  path.replace(/\{(\w+)\}/g, (_m, name: string) =>
    name === 'name' && path.includes('activate') ? 'rate-limited' : values[name],
  );

describe('control paths with the admin token set', () => {
  const control = operations().filter((op) => op.path.startsWith('/__sandbox'));

  it('covers every control operation of the contract', () => {
    expect(control.length).toBeGreaterThan(20);
  });

  it('no variant of a control path gets past the admin token, and nothing changes', async () => {
    const before = await observable();
    for (const op of control) {
      const path = fill(op.path, params);
      const body = exampleBody(op.path, op.method);
      for (const variant of variants(path)) {
        const headers: Record<string, string> =
          op.operationId === 'deleteSandbox' ? { 'x-sandbox-id': SANDBOX } : {};
        const res = await raw(op.method.toUpperCase(), variant, { body, headers });
        // The health check is open; the router takes it with one trailing slash too.
        const open = op.operationId === 'getHealth' && variant === `${path}/`;
        expect(
          open ? [200] : [401, 404],
          `${op.method.toUpperCase()} ${variant} -> ${res.status} ${res.text.slice(0, 120)}`,
        ).toContain(res.status);
      }
    }
    expect(await observable()).toEqual(before);
  });

  it('with the token, a path in another case is no control path either: routing is case-sensitive', async () => {
    for (const op of control) {
      const path = fill(op.path, params);
      for (const variant of [`/__SANDBOX${path.slice(10)}`, path.toUpperCase()].filter((v) => v !== path)) {
        const res = await raw(op.method.toUpperCase(), variant, {
          headers: admin,
          body: op.method === 'post' ? {} : undefined,
        });
        expect(res.status, `${op.method.toUpperCase()} ${variant} -> ${res.text.slice(0, 120)}`).toBe(404);
      }
    }
    expect((await raw('GET', '/__sandbox/accounts', { headers: admin })).status).toBe(200);
  });

  it('pages outside the contract and the fast read path match paths as written too', async () => {
    for (const path of [
      '/__SANDBOX/ui',
      '/DOCS',
      '/Docs/',
      '/SANDBOX/payprovider/' + params.paymentId,
      '/OPENAPI.yaml',
    ])
      expect((await raw('GET', path)).status, path).toBe(404);
    expect([401, 404]).toContain((await raw('GET', '/__sandbox/UI')).status);
    expect((await raw('GET', '/__sandbox/ui')).status).toBe(200);
    expect((await raw('GET', '/docs')).status).toBe(200);
    // A cached public answer is not served for another spelling of its path.
    expect((await raw('GET', '/api/shop/listings?limit=1')).status).toBe(200);
    expect((await raw('GET', '/api/shop/listings?limit=1')).status).toBe(200);
    for (const path of [
      '/API/shop/listings?limit=1',
      '/api/SHOP/listings?limit=1',
      '/api/shop/Listings?limit=1',
    ])
      expect((await raw('GET', path)).status, path).toBe(404);
  });
});
