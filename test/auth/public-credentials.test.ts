import { describe, expect, it } from 'vitest';
import { accounts, expectDetailedError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

// docs/errors.md, "Warnings": a refused credential sent to a public operation that takes one (for
// the API key's rate limit) is answered as anonymous with a warning; --strict makes it the 401 it
// would otherwise be. The locale files take no credential at all: one sent is ignored like any header.
const PUBLIC = [
  '/api/shop/listings',
  '/api/shop/categories',
  '/api/shop/categories/subcategories/electronics',
  '/api/shop/stores/sandbox-seller',
  '/api/wallet/exchange-rates',
  '/api/shop/subscriptions/plans',
];

/** A body without the origin of its URLs (supertest listens on a new port for each request). */
const hostless = (body: unknown) => JSON.stringify(body).replace(/http:\/\/127\.0\.0\.1:\d+/g, '');

async function refusedCredentials(sb: TestSandbox): Promise<[string, string][]> {
  const expired = await sb.login(accounts.buyer.email, accounts.buyer.password);
  await sb.http.post('/__sandbox/clock').send({ advance: '25h' });
  return [
    [expired, /^the bearer token is refused: it expired at \d{4}-\d\d-\d\dT[\d:.]+Z \(sandbox time\)/.source],
    ['Bearer not-a-token', /^the bearer token is refused: it is not a token this sandbox signed/.source],
    ['Bearer mk_test_unknown', /^the API key is unknown or revoked/.source],
    ['Basic abc', /^the Authorization header is not "Bearer <token or API key>"/.source],
  ];
}

describe('a refused credential on a public operation', () => {
  it('is answered as anonymous, with a warning saying why', async () => {
    const sb = await makeSandbox();
    for (const [authorization, why] of await refusedCredentials(sb)) {
      for (const path of PUBLIC) {
        const res = await sb.http.get(path).set('Authorization', authorization);
        const anonymous = await sb.http.get(path);
        expect([path, res.status]).toEqual([path, 200]);
        expect(hostless(res.body)).toEqual(hostless(anonymous.body));
        expect(res.headers['x-sandbox-warning']).toMatch(new RegExp(why));
        expect(res.headers['x-sandbox-warning']).toMatch(
          /: answered as anonymous \(the operation is public\)$/,
        );
        expect(anonymous.headers['x-sandbox-warning']).toBeUndefined();
      }
    }
  });

  it('is answered as anonymous when sent as api_key', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/api/shop/categories?api_key=mk_test_unknown');
    expect(res.status).toBe(200);
    expect(res.headers['x-sandbox-warning']).toMatch(
      /^the API key is unknown or revoked: answered as anonymous/,
    );
  });

  it('is a 401 with --strict, the reason in X-Sandbox-Error-Detail', async () => {
    const sb = await makeSandbox({ strict: true });
    for (const [authorization, why] of await refusedCredentials(sb)) {
      for (const path of PUBLIC) {
        const res = await sb.http.get(path).set('Authorization', authorization);
        expectDetailedError(res, 401, 'Invalid or expired token', new RegExp(why));
        expect(res.headers['x-sandbox-warning']).toBeUndefined();
      }
    }
    expect((await sb.http.get('/api/shop/categories')).status).toBe(200);
  });

  it('is ignored, even with --strict, by the locale files, which take no credential', async () => {
    const sb = await makeSandbox({ strict: true });
    const res = await sb.http.get('/locales/shop-en.json').set('Authorization', 'Bearer not-a-token');
    expect(res.status).toBe(200);
    expect(res.headers['x-sandbox-warning']).toBeUndefined();
  });

  it('is still a 401 on an operation that needs a credential', async () => {
    const sb = await makeSandbox();
    expectDetailedError(
      await sb.http.get('/api/wallet/balance').set('Authorization', 'Bearer not-a-token'),
      401,
      'Invalid or expired token',
      'the bearer token is refused: it is not a token this sandbox signed',
    );
  });
});
