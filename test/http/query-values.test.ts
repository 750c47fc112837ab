import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { loadSpec } from '../../src/contract/spec.js';
import { MAX_WARNING_BYTES } from '../../src/contract/warnings.js';
import { checkedFetch } from '../helpers/checked-clients.js';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

// docs/errors.md, "Warnings" and "Taken as sent": a query value is judged by what it says, however
// it is encoded; --strict refuses what would be warned about, in the words of the value's problem.
const WARNING = 'x-sandbox-warning';
const ENCODED = /url encoded|reserved characters/;
const titles = (res: { body: { listings: { title: string }[] } }) => res.body.listings.map((l) => l.title);

describe('reserved characters in any query parameter', () => {
  it('are ordinary form encoding: a valid value is answered, an invalid one says what is wrong with it', async () => {
    for (const strict of [false, true]) {
      const sb = await makeSandbox({ strict });
      const spaced = await sb.http.get('/api/shop/listings?category=home%20garden');
      const plus = await sb.http.get('/api/shop/listings?category=home+garden');
      expect([strict, plus.status, plus.headers[WARNING]]).toEqual([strict, 200, undefined]);
      expect(plus.body).toEqual(spaced.body);
      for (const query of ["category=kid's", 'currency=USD,EUR', 'q=(new)!*']) {
        const res = await sb.http.get(`/api/shop/listings?${query}`);
        expect([strict, query, res.status]).toEqual([strict, query, 200]);
      }
      const five = await sb.http.get('/api/shop/listings?limit=+5');
      expect([strict, five.status, five.body.pagination.limit]).toEqual([strict, 200, 5]);
      expectError(
        await sb.http.get('/api/shop/listings?type=mall,auction'),
        400,
        'query.type must be equal to one of the allowed values: mall, classifieds, auction, reverse_auction',
      );
      expectError(
        await sb.http.get('/api/shop/listings?maxPrice=1,000'),
        400,
        'query.maxPrice must be number',
      );
    }
  });

  it('never get "must be url encoded", in any query parameter of any GET operation', async () => {
    const sb = await makeSandbox({ strict: true });
    const spec = loadSpec() as unknown as {
      paths: Record<string, { get?: { parameters?: { name: string; in: string }[] } }>;
    };
    let checked = 0;
    for (const [path, item] of Object.entries(spec.paths)) {
      if (!item.get || path.includes('{')) continue;
      for (const p of item.get.parameters ?? []) {
        if (p.in !== 'query') continue;
        for (const value of ['a,b', "a'b", 'a+b', 'a:b', '(a)']) {
          const res = await sb.http
            .get(`${path}?${p.name}=${value}`)
            .set('Authorization', `Bearer ${accounts.buyer.apiKey}`);
          expect([path, p.name, value, res.body.error ?? '']).not.toEqual([
            path,
            p.name,
            value,
            expect.stringMatching(ENCODED),
          ]);
          checked += 1;
        }
      }
    }
    expect(checked).toBeGreaterThan(80);
  });
});

describe('a lang with reserved characters', () => {
  it('is answered in English with a warning (de,en; de;q=1; (de))', async () => {
    const sb = await makeSandbox();
    const en = await sb.http.get('/api/shop/listings?limit=5');
    for (const lang of ['de,en', 'de;q=1', '(de)']) {
      const res = await sb.http.get(`/api/shop/listings?limit=5&lang=${lang}`);
      expect([lang, res.status, titles(res)]).toEqual([lang, 200, titles(en)]);
      expect(res.headers[WARNING]).toBe(
        `lang ${JSON.stringify(lang).replace(';', '%3B')} is not a supported language: answered in en`,
      );
    }
  });

  it('is the 400 that names the allowed languages under --strict', async () => {
    const sb = await makeSandbox({ strict: true });
    for (const lang of ['de,en', 'de;q=1', '(de)'])
      expectError(
        await sb.http.get(`/api/shop/listings?lang=${lang}`),
        400,
        /^query\.lang must be equal to one of the allowed values: en, ar, de/,
      );
  });
});

describe('a page size above 50, however it is written', () => {
  it('is answered with 50 and a warning; --strict refuses it', async () => {
    const sb = await makeSandbox();
    const strict = await makeSandbox({ strict: true });
    for (const limit of ['1e2', '60.0', '50.5', '0x40', '99999999999999999999999']) {
      const res = await sb.http.get(`/api/shop/listings?limit=${limit}`);
      expect([limit, res.status, res.body.pagination?.limit]).toEqual([limit, 200, 50]);
      expect(res.headers[WARNING]).toBe(`limit=${limit} is above the maximum 50: answered with 50`);
      // The 400 it would have been: above the maximum, or (50.5) not an integer.
      const refused = await strict.http.get(`/api/shop/listings?limit=${limit}`);
      expectError(refused, 400, /^query\.limit must be (<= 50|integer)$/);
    }
    const ten = await sb.http.get('/api/shop/listings?limit=1e1');
    expect([ten.status, ten.body.pagination.limit, ten.headers[WARNING]]).toEqual([200, 10, undefined]);
    expectError(await sb.http.get('/api/shop/listings?limit=lots'), 400, 'query.limit must be integer');
  });
});

describe('the warning header', () => {
  it('stays one bounded line with hundreds of unknown parameters, and a real client reads it', async () => {
    const sb = await makeSandbox();
    const names = Array.from({ length: 450 }, (_, i) => `p${i}`);
    const url = `/api/shop/listings?limit=1&${names.map((n) => `${n}=1`).join('&')}`;
    const server = sb.app.listen(0, '127.0.0.1');
    await once(server, 'listening');
    try {
      const { port } = server.address() as AddressInfo;
      // Node's fetch refuses response headers over 16 KB (UND_ERR_HEADERS_OVERFLOW).
      const res = await checkedFetch(`http://127.0.0.1:${port}${url}`);
      expect(res.status).toBe(200);
      const warning = res.headers.get(WARNING) ?? '';
      expect(warning).toBe('unknown query parameters "p0", "p1", "p2", "p3", "p4" and 445 more ignored');
      expect(warning.length).toBeLessThanOrEqual(MAX_WARNING_BYTES);
    } finally {
      server.close();
    }
    const two = await sb.http.get('/api/shop/listings?limit=1&_=1&v=2');
    expect(two.headers[WARNING]).toBe('unknown query parameters "_", "v" ignored');
    const [entry] = (await sb.http.get('/__sandbox/requests?limit=1&path=/api/shop/listings')).body.requests;
    expect(entry.warnings).toEqual(['unknown query parameters "_", "v" ignored']);
  });
});

describe('the request journal', () => {
  it('records the query as the client sent it; the warnings say what was done with it', async () => {
    const sb = await makeSandbox();
    await sb.http.get('/api/shop/listings?limit=70&_=1&q=leather+jacket&category=');
    const [entry] = (await sb.http.get('/__sandbox/requests?limit=1')).body.requests;
    expect(entry.query).toEqual({ limit: '70', _: '1', q: 'leather jacket', category: '' });
    expect(entry.warnings).toEqual([
      'limit=70 is above the maximum 50: answered with 50',
      'unknown query parameter "_" ignored',
    ]);
  });
});
