import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

// docs/errors.md, "Warnings" (issue 13): what a live service would most likely take is answered
// as it would be, with X-Sandbox-Warning; --strict makes each the 400 it would have been.
const WARNING = 'x-sandbox-warning';
const ids = (res: { body: { listings: { id: string }[] } }) => res.body.listings.map((l) => l.id);

async function newListing(sb: TestSandbox, extra: Record<string, unknown>) {
  const auth = await sb.login(accounts.seller.email, accounts.seller.password);
  const body = { type: 'mall', title: 'Lamp', category: 'fashion', price_cents: 1500, ...extra };
  return sb.http.post('/api/shop/listings').set('Authorization', auth).send(body);
}

describe('a query a live service would most likely take', () => {
  it('ignores unknown parameters (cache-busters, a global lang) with a warning', async () => {
    const sb = await makeSandbox();
    const plain = await sb.http.get('/api/shop/listings?limit=5');
    const busted = await sb.http.get('/api/shop/listings?limit=5&_=1700000000');
    expect(ids(busted)).toEqual(ids(plain));
    expect(busted.headers[WARNING]).toBe('unknown query parameter "_" ignored');
    const plans = await sb.http.get('/api/shop/subscriptions/plans?lang=de');
    expect([plans.status, plans.headers[WARNING]]).toEqual([200, 'unknown query parameter "lang" ignored']);
    const locale = await sb.http.get('/locales/shop-en.json?v=2');
    expect([locale.status, locale.headers[WARNING]]).toEqual([200, 'unknown query parameter "v" ignored']);
    expect(plain.headers[WARNING]).toBeUndefined();
  });

  it('takes empty values as absent, without a warning', async () => {
    const sb = await makeSandbox();
    const empty = await sb.http.get('/api/shop/listings?q=&category=&type=&limit=5');
    expect([empty.status, empty.headers[WARNING]]).toEqual([200, undefined]);
    expect(ids(empty)).toEqual(ids(await sb.http.get('/api/shop/listings?limit=5')));
  });

  it('reads reserved characters in free text as sent, a + as a space, without a warning', async () => {
    const sb = await makeSandbox();
    const spaced = await sb.http.get('/api/shop/listings?q=leather%20jacket');
    const plus = await sb.http.get('/api/shop/listings?q=leather+jacket');
    expect([plus.status, plus.headers[WARNING]]).toEqual([200, undefined]);
    expect(ids(plus)).toEqual(ids(spaced));
    for (const q of ['lamp%20(new)', 'a,b', "kid's", 'a;b', 'x@y']) {
      const res = await sb.http.get(`/api/shop/listings?q=${q}`);
      expect([q, res.status, res.headers[WARNING]]).toEqual([q, 200, undefined]);
    }
    const mails = await sb.http.get('/__sandbox/mailbox?to=buyer@sandbox.test');
    expect(mails.status).toBe(200);
  });

  it('answers a page size above the maximum with the maximum, with a warning', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.get('/api/shop/listings?limit=100');
    expect([res.status, res.body.pagination.limit, res.body.listings.length]).toEqual([200, 50, 50]);
    expect(res.headers[WARNING]).toBe('limit=100 is above the maximum 50: answered with 50');
    const huge = await sb.http.get('/api/shop/listings?limit=99999999999999999999');
    expect([huge.status, huge.body.pagination.limit]).toEqual([200, 50]);
  });

  it('reads a language in capitals or with a region as its base, and an unknown one as English', async () => {
    const sb = await makeSandbox();
    const titles = async (lang: string) => {
      const res = await sb.http.get(`/api/shop/listings?limit=10&lang=${lang}`);
      expect(res.status).toBe(200);
      return {
        titles: res.body.listings.map((l: { title: string }) => l.title),
        warning: res.headers[WARNING],
      };
    };
    const de = await titles('de');
    expect(await titles('DE')).toEqual(de);
    expect(await titles('de-DE')).toEqual({
      ...de,
      warning: 'lang "de-DE" answered in de (no regional variants)',
    });
    expect((await titles('pt-BR')).titles).toEqual((await titles('pt')).titles);
    const en = await titles('en');
    expect(await titles('xx')).toEqual({
      ...en,
      warning: 'lang "xx" is not a supported language: answered in en',
    });
  });

  it('joins several warnings with "; " and keeps them on a repeat', async () => {
    const sb = await makeSandbox();
    const url = '/api/shop/listings?limit=60&lang=de-AT&_=1';
    const expected =
      'limit=60 is above the maximum 50: answered with 50; lang "de-AT" answered in de (no regional variants); ' +
      'unknown query parameter "_" ignored';
    // supertest listens on a new port per request: a fixed Host keeps the images' base URL the same.
    const first = await sb.http.get(url).set('host', 'sandbox.test');
    const again = await sb.http.get(url).set('host', 'sandbox.test');
    expect([first.headers[WARNING], again.headers[WARNING]]).toEqual([expected, expected]);
    expect(again.text).toBe(first.text);
  });

  it('refuses each with the 400 it would have been under --strict', async () => {
    const sb = await makeSandbox({ strict: true });
    expectError(await sb.http.get('/api/shop/listings?_=1'), 400, "Unknown query parameter '_'");
    expectError(await sb.http.get('/api/shop/listings?limit=51'), 400, 'query.limit must be <= 50');
    expectError(await sb.http.get('/api/shop/listings?lang=de-DE'), 400, /query.lang/);
    expectError(await sb.http.get('/api/shop/listings?lang=xx'), 400, /query.lang/);
    // What a live service takes without a second thought stays taken: no warning, no 400.
    expectError(
      await sb.http.get('/api/shop/listings?__proto__=a&__proto__=b'),
      400,
      "Unknown query parameter '__proto__'",
    );
    const normal = await sb.http.get('/api/shop/listings?lang=DE&q=leather+jacket&category=');
    expect([normal.status, normal.headers[WARNING]]).toEqual([200, undefined]);
  });
});

describe('null sent back in a field a listing shows as nullable', () => {
  it('is taken as absent on create, with a warning per field', async () => {
    const sb = await makeSandbox();
    const res = await newListing(sb, {
      description: null,
      featured_payment_method: null,
      location_city: null,
    });
    expect(res.status, res.text).toBe(201);
    expect(res.body.description).toBeNull();
    expect(res.headers[WARNING]).toBe(
      'body.description null taken as absent; body.location_city null taken as absent; ' +
        'body.featured_payment_method null taken as absent',
    );
  });

  it('is a 400 under --strict, and nothing is created', async () => {
    const sb = await makeSandbox({ strict: true });
    const before = Object.keys(sb.world.store.db.listings).length;
    expectError(await newListing(sb, { description: null }), 400, 'body.description must be string');
    expect(Object.keys(sb.world.store.db.listings).length).toBe(before);
  });

  it('stays a 400 in a field that is never null', async () => {
    const sb = await makeSandbox();
    expectError(await newListing(sb, { title: null }), 400, /body.title/);
  });
});

describe('the credential before the body', () => {
  it('answers a bad or missing credential with a bad body 401, not 400', async () => {
    const sb = await makeSandbox();
    for (const auth of [undefined, 'Bearer not-a-token']) {
      const req = sb.http.post('/api/shop/checkout').set('Content-Type', 'application/json');
      if (auth) req.set('Authorization', auth);
      expectError(await req.send('{"listingId": '), 401, 'Invalid or expired token');
      const post = sb.http.post('/api/shop/listings');
      if (auth) post.set('Authorization', auth);
      expectError(await post.send({ title: 5 }), 401, 'Invalid or expired token');
    }
  });

  it('still answers a good credential with a bad body 400', async () => {
    const sb = await makeSandbox();
    const auth = await sb.login(accounts.buyer.email, accounts.buyer.password);
    const res = await sb.http
      .post('/api/shop/checkout')
      .set({ Authorization: auth, 'Content-Type': 'application/json' })
      .send('{"listingId": ');
    expectError(res, 400);
  });
});

describe('the request journal', () => {
  it('shows the warnings and the error detail of each request', async () => {
    const sb = await makeSandbox();
    await sb.http.get('/api/shop/listings?limit=70');
    await sb.http.get('/api/wallet/balance');
    const [refused, warned] = (await sb.http.get('/__sandbox/requests?limit=2')).body.requests;
    expect(warned).toMatchObject({
      warnings: ['limit=70 is above the maximum 50: answered with 50'],
      error_detail: null,
    });
    expect(refused).toMatchObject({ status: 401, warnings: [] });
    expect(refused.error_detail).toMatch(/Authorization/);
  });
});
