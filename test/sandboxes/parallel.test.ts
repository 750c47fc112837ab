import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** A request builder bound to one sandbox id (none = the default sandbox). */
function client(sb: TestSandbox, id?: string) {
  const withId = <T extends { set(name: string, value: string): T }>(r: T) =>
    id === undefined ? r : r.set('X-Sandbox-Id', id);
  return {
    get: (path: string) => withId(sb.http.get(path)),
    post: (path: string, body?: object) => withId(sb.http.post(path)).send(body ?? {}),
    delete: (path: string) => withId(sb.http.delete(path)),
  };
}

/**
 * Money and scenarios inside one job: funding, a wallet checkout of a listing every world shares
 * by id (same seed), and a counted sticky scenario. A shared world would show other jobs' stock,
 * balances and switches.
 */
async function moneyAndScenarios(c: ReturnType<typeof client>): Promise<void> {
  const buyer = `Bearer ${accounts.buyer.apiKey}`;
  const broke = `Bearer ${accounts.broke.apiKey}`;
  const fund = await c.post(`/__sandbox/wallets/${accounts.broke.email}/fund`, { amount_cents: 1234 });
  expect(fund.status, JSON.stringify(fund.body)).toBe(200);
  expect((await c.get('/api/wallet/balance').set('Authorization', broke)).body.balance_cents).toBe(1234);

  const store = await c.get('/api/shop/stores/sandbox-seller?limit=50');
  const listing = (store.body.listings as { id: string; quantity_available: number; price_cents: number }[])
    .filter((l) => l.quantity_available >= 2 && l.price_cents > 0)
    .sort((x, y) => x.id.localeCompare(y.id))[0];
  const paid = await c
    .post('/api/shop/checkout', {
      cartItems: [{ listing_id: listing.id, quantity: 1 }],
      deliveryMethod: 'pickup',
      paymentMethod: 'credit_wallet',
      shippingCostCents: 0,
    })
    .set('Authorization', buyer);
  expect(paid.status, JSON.stringify(paid.body)).toBe(200);
  expect(paid.body.paymentMethod).toBe('credit_wallet');
  const after = await c.get(`/api/shop/listings/${listing.id}`);
  expect(after.body.quantity_available).toBe(listing.quantity_available - 1);
  const balance = await c.get('/api/wallet/balance').set('Authorization', buyer);
  expect(balance.body.balance_cents).toBe(100000 - (paid.body.deducted as number));

  const sw = await c.post('/__sandbox/scenarios', {
    name: 'server.error',
    scope: { method: 'GET', path: '/api/shop/categories' },
    count: 1,
  });
  expect(sw.status, JSON.stringify(sw.body)).toBe(201);
  expectError(await c.get('/api/shop/categories'), 500, 'Internal server error');
  expect((await c.get('/api/shop/categories')).status).toBe(200);
  expect((await c.get('/__sandbox/scenarios')).body.scenarios).toHaveLength(0);
}

/**
 * One CI job, black-box: everything it asserts holds only if no other job shares its state.
 * The same e-mail in every job: a shared world would answer 409 to all but the first.
 */
async function job(sb: TestSandbox, id?: string): Promise<void> {
  const c = client(sb, id);
  const email = 'ci.user@example.com';
  const reg = await c.post('/api/auth/register', { email, password: 'first-pass-1', fullName: 'CI' });
  expect(reg.status, `${id}: ${JSON.stringify(reg.body)}`).toBe(201);
  const bearer = `Bearer ${reg.body.token as string}`;

  const key = await c.post('/api/settings/api-keys', { name: `key of ${id}` }).set('Authorization', bearer);
  expect(key.status).toBe(201);
  const keys = await c.get('/api/settings/api-keys').set('Authorization', bearer);
  expect(keys.body.api_keys).toHaveLength(1);
  const me = await c.get('/api/auth/me').set('Authorization', `Bearer ${key.body.key as string}`);
  expect(me.body.email).toBe(email);

  expect((await c.post('/api/auth/forgot-password', { email })).status).toBe(200);
  const mail = await c.get(`/__sandbox/mailbox?to=${encodeURIComponent(email)}`);
  expect(mail.body.messages, JSON.stringify(mail.body)).toHaveLength(1);
  const reset = await c.post('/api/auth/reset-password', {
    token: mail.body.messages[0].token,
    password: 'second-pass-2',
  });
  expect(reset.status).toBe(200);
  expect((await c.post('/api/auth/login', { email, password: 'second-pass-2' })).status).toBe(200);

  await moneyAndScenarios(c);

  const before = Date.parse((await c.get('/__sandbox/clock')).body.now);
  await c.post('/__sandbox/clock', { advance: '25h', freeze: true });
  const after = Date.parse((await c.get('/__sandbox/clock')).body.now);
  expect(after - before).toBeGreaterThanOrEqual(25 * 3600_000);
  expect(after - before).toBeLessThan(26 * 3600_000);
  expectError(await c.get('/api/auth/me').set('Authorization', bearer), 401, 'Invalid or expired token');

  expect((await c.post('/__sandbox/reset')).status).toBe(200);
  expectError(await c.post('/api/auth/login', { email, password: 'second-pass-2' }), 401);
  const clock = (await c.get('/__sandbox/clock')).body as { now: string; frozen: boolean };
  expect(clock.frozen).toBe(false);
  // Back to the seed's start: well before the 25 hours the job moved on.
  expect(Date.parse(clock.now)).toBeLessThan(before + 3600_000);
}

describe('isolated sandboxes driven in parallel', () => {
  it('lets jobs under different ids, and the default, each pass as if alone', async () => {
    const sb = await makeSandbox();
    await Promise.all([job(sb, 'job-1'), job(sb, 'job-2'), job(sb, 'Job_3'), job(sb), job(sb, 'job-5')]);
    expect(sb.worlds.liveIds().sort()).toEqual(['Job_3', 'job-1', 'job-2', 'job-5']);
  });

  it('keeps users, tokens, API keys, mail and the clock of one sandbox out of the others', async () => {
    const sb = await makeSandbox();
    const a = client(sb, 'a');
    const b = client(sb, 'b');
    const d = client(sb);
    const email = 'only.in.a@example.com';
    const reg = await a.post('/api/auth/register', { email, password: 'password-a' });
    expect(reg.status).toBe(201);
    const bearer = `Bearer ${reg.body.token as string}`;

    expectError(await b.post('/api/auth/login', { email, password: 'password-a' }), 401);
    expectError(await d.post('/api/auth/login', { email, password: 'password-a' }), 401);
    // The token names its world (sbx): even a seeded user's token is refused elsewhere.
    expectError(await b.get('/api/auth/me').set('Authorization', bearer), 401, 'Invalid or expired token');
    const buyerInA = await sb.http
      .post('/api/auth/login')
      .set('X-Sandbox-Id', 'a')
      .send({ email: accounts.buyer.email, password: accounts.buyer.password });
    const buyerToken = `Bearer ${buyerInA.body.token as string}`;
    expect((await a.get('/api/auth/me').set('Authorization', buyerToken)).status).toBe(200);
    expectError(await b.get('/api/auth/me').set('Authorization', buyerToken), 401);
    expectError(await d.get('/api/auth/me').set('Authorization', buyerToken), 401);
    const defaultToken = await sb.login(accounts.buyer.email, accounts.buyer.password);
    expectError(await a.get('/api/auth/me').set('Authorization', defaultToken), 401);

    const key = await a.post('/api/settings/api-keys').set('Authorization', bearer);
    expectError(await b.get('/api/auth/me').set('Authorization', `Bearer ${key.body.key as string}`), 401);

    await a.post('/api/auth/forgot-password', { email: accounts.buyer.email });
    expect((await a.get('/__sandbox/mailbox')).body.messages).toHaveLength(1);
    expect((await b.get('/__sandbox/mailbox')).body.messages).toHaveLength(0);
    expect((await d.get('/__sandbox/mailbox')).body.messages).toHaveLength(0);

    await a.post('/__sandbox/clock', { set: '2030-01-01T00:00:00.000Z', freeze: true });
    expect((await a.get('/__sandbox/clock')).body).toEqual({ now: '2030-01-01T00:00:00.000Z', frozen: true });
    expect(Date.parse((await b.get('/__sandbox/clock')).body.now)).toBeLessThan(Date.parse('2027-01-01'));
    expect(Date.parse((await d.get('/__sandbox/clock')).body.now)).toBeLessThan(Date.parse('2027-01-01'));
  });

  it('keeps balances apart: a direct change in one world shows only there', async () => {
    const sb = await makeSandbox();
    const worldA = await sb.worlds.open('a');
    const buyerId = Object.values(worldA.store.db.users).find((u) => u.email === accounts.buyer.email)!.id;
    const seeded = worldA.store.db.users[buyerId].balance_cents;
    await worldA.store.commit((db) => {
      db.users[buyerId].balance_cents = 1;
    });
    const balance = (id?: string) =>
      client(sb, id).get('/api/wallet/balance').set('Authorization', `Bearer ${accounts.buyer.apiKey}`);
    expect((await balance('a')).body.balance_cents).toBe(1);
    expect((await balance('b')).body.balance_cents).toBe(seeded);
    expect((await balance()).body.balance_cents).toBe(seeded);
  });

  it('shows each sandbox its own listing on a search page, at the same store version in both', async () => {
    const sb = await makeSandbox();
    const worlds = { a: await sb.worlds.open('a'), b: await sb.worlds.open('b') };
    const page = async (id: 'a' | 'b', query: string) => {
      // One Host for every request: the image URLs, and so the texts, are then the same in both.
      const res = await client(sb, id).get(`/api/shop/listings?${query}`).set('Host', 'shop.test');
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return res.body.listings as { id: string; quantity_available: number }[];
    };
    const [first] = await page('a', 'sort=newest&limit=1');
    // Both pages are made (and their listing texts kept) before the change.
    expect((await page('b', 'sort=newest&limit=1'))[0].id).toBe(first.id);
    const quantities = { a: 7, b: 9 };
    for (const id of ['a', 'b'] as const)
      await worlds[id].store.commit((db) => {
        db.listings[first.id].quantity_available = quantities[id];
      });
    // The same listing id, term and store version in both worlds: only the world tells the texts apart.
    expect(worlds.a.store.version).toBe(worlds.b.store.version);
    for (const id of ['a', 'b'] as const) {
      const [shown] = await page(id, 'sort=newest&limit=1&minPrice=0');
      expect(shown.id).toBe(first.id);
      expect(shown.quantity_available, id).toBe(quantities[id]);
    }
  });

  it('resets only the caller: a reset in one sandbox leaves the others and the default alone', async () => {
    const sb = await makeSandbox();
    for (const id of ['a', 'b', undefined]) {
      const res = await client(sb, id).post('/api/auth/register', {
        email: 'kept@example.com',
        password: 'password-1',
      });
      expect(res.status).toBe(201);
    }
    await client(sb, 'a').post('/__sandbox/reset');
    expectError(
      await client(sb, 'a').post('/api/auth/login', { email: 'kept@example.com', password: 'password-1' }),
      401,
    );
    for (const id of ['b', undefined]) {
      const res = await client(sb, id).post('/api/auth/login', {
        email: 'kept@example.com',
        password: 'password-1',
      });
      expect(res.status).toBe(200);
    }
  });

  it('starts every new sandbox from the same seed as the default', async () => {
    // Pinned: a fresh world starts at the wall time it is made at, so two made a moment apart
    // differ in their dates (a second apart, the test failed now and then).
    const sb = await makeSandbox({ seed: 7, clockStart: '2026-01-01T00:00:00.000Z' });
    const a = await sb.worlds.open('fresh');
    expect(JSON.stringify(a.store.db.users)).toBe(JSON.stringify(sb.world.store.db.users));
    expect((await client(sb, 'fresh').get('/__sandbox/health')).body.seed).toBe(7);
  });

  it('creates one world when many first requests for a new id arrive at once', async () => {
    const sb = await makeSandbox();
    const seededUsers = Object.keys(sb.world.store.db.users).length;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        client(sb, 'burst').post('/api/auth/register', {
          email: `u${i}@example.com`,
          password: 'password-1',
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(201));
    const world = await sb.worlds.open('burst');
    expect(Object.keys(world.store.db.users)).toHaveLength(seededUsers + 8);
    expect(sb.worlds.liveIds()).toEqual(['burst']);
  });
});
