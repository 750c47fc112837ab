import { describe, expect, it } from 'vitest';
import { accounts, expectDetailedError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

// docs/errors.md, "Warnings": a refused credential (a user's or a guest token) sent to a public
// operation (interface 5.5: listings, categories, stores, exchange rates, locale files, plans) is
// answered as anonymous with a warning; --strict makes it the 401 it would otherwise be.
const PUBLIC = [
  '/api/shop/listings',
  '/api/shop/categories',
  '/api/shop/categories/subcategories/electronics',
  '/api/shop/stores/sandbox-seller',
  '/api/wallet/exchange-rates',
  '/api/shop/subscriptions/plans',
  '/locales/shop-de.json',
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

  it('is answered as anonymous when sent as api_key, and the warning names the API key', async () => {
    const sb = await makeSandbox();
    for (const key of ['mk_test_unknown', 'not-a-key']) {
      for (const path of ['/api/shop/categories', '/locales/shop-de.json']) {
        const res = await sb.http.get(`${path}?api_key=${key}`);
        expect([path, key, res.status]).toEqual([path, key, 200]);
        expect(res.headers['x-sandbox-warning']).toBe(
          'the API key in api_key is unknown or revoked: answered as anonymous (the operation is public)',
        );
      }
    }
  });

  it('is a refused X-Guest-Token too: answered as anonymous with a warning', async () => {
    const sb = await makeSandbox();
    for (const path of PUBLIC) {
      const res = await sb.http.get(path).set('X-Guest-Token', 'nope');
      expect([path, res.status]).toEqual([path, 200]);
      expect(hostless(res.body)).toEqual(hostless((await sb.http.get(path)).body));
      expect(res.headers['x-sandbox-warning']).toBe(
        'X-Guest-Token is refused: it is not a token this sandbox signed: answered as anonymous (the operation is public)',
      );
    }
    const guest = (await sb.http.post('/api/auth/guest')).body.guestToken as string;
    const good = await sb.http.get('/api/shop/categories').set('X-Guest-Token', guest);
    expect([good.status, good.headers['x-sandbox-warning']]).toEqual([200, undefined]);
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
    for (const path of PUBLIC) {
      const guest = await sb.http.get(path).set('X-Guest-Token', 'nope');
      expectDetailedError(guest, 401, 'Invalid or expired token', /^X-Guest-Token is refused: /);
      const key = await sb.http.get(`${path}?api_key=not-a-key`);
      expectDetailedError(
        key,
        401,
        'Invalid or expired token',
        'the API key in api_key is unknown or revoked',
      );
    }
    expect((await sb.http.get('/api/shop/categories')).status).toBe(200);
    expect((await sb.http.get('/locales/shop-de.json')).status).toBe(200);
  });

  it('is ignored where the operation takes no credential (login), and api_key is never unknown', async () => {
    for (const strict of [false, true]) {
      const sb = await makeSandbox({ strict });
      const res = await sb.http
        .post('/api/auth/login?api_key=K')
        .set('Authorization', 'Bearer not-a-token')
        .send({ email: accounts.buyer.email, password: accounts.buyer.password });
      expect([strict, res.status, res.headers['x-sandbox-warning']]).toEqual([strict, 200, undefined]);
      const health = await sb.http.get(`/__sandbox/health?api_key=${accounts.buyer.apiKey}`);
      expect([strict, health.status]).toEqual([strict, 200]);
    }
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
