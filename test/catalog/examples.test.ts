import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { beforeAll, describe, expect, it } from 'vitest';
import { accounts, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

type Parameter = { name: string; in: string; example?: unknown };
type Operation = {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { example?: unknown }> };
};
const spec = parse(readFileSync('openapi.yaml', 'utf8')) as {
  paths: Record<string, Record<string, Operation>>;
};

/** The request `/docs` makes from an operation's examples (try-it-out fills every example in). */
function exampleRequest(operationId: string): { method: string; url: string; body?: unknown } {
  for (const [path, item] of Object.entries(spec.paths))
    for (const [method, op] of Object.entries(item)) {
      if (op.operationId !== operationId) continue;
      let url = path;
      const query: string[] = [];
      for (const p of op.parameters ?? []) {
        if (p.example === undefined) continue;
        if (p.in === 'path') url = url.replace(`{${p.name}}`, encodeURIComponent(String(p.example)));
        if (p.in === 'query') query.push(`${p.name}=${encodeURIComponent(String(p.example))}`);
      }
      const body = op.requestBody?.content['application/json']?.example;
      return { method, url: query.length ? `${url}?${query.join('&')}` : url, body };
    }
  throw new Error(`no operation ${operationId}`);
}

let sb: TestSandbox;
beforeAll(async () => {
  // The default seed, as `npm start` makes it.
  sb = await makeSandbox({ listings: 500, seed: 42 });
});

const send = (r: { method: string; url: string; body?: unknown }, auth?: string) => {
  const req = r.method === 'post' ? sb.http.post(r.url).send(r.body as object) : sb.http.get(r.url);
  return auth ? req.set('Authorization', auth) : req;
};

describe('the examples /docs fills in find something in the default seed', () => {
  it('searchListings: every example parameter at once', async () => {
    const request = exampleRequest('searchListings');
    expect(request.url).toMatch(/q=leather%20jacket.*currency=EUR.*lat=/);
    const res = await send(request);
    expect(res.status).toBe(200);
    expect(res.body.listings.length).toBeGreaterThan(0);
  });

  it('getListing, getUpload and the assistant', async () => {
    const listing = await send(exampleRequest('getListing'));
    expect(listing.status).toBe(200);
    expect(listing.body.title).toMatch(/Lederjacke/);
    const image = await send(exampleRequest('getUpload'));
    expect(image.status).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    const assistant = await send(exampleRequest('askAssistant'));
    expect(assistant.body.listings.length).toBeGreaterThan(0);
  });

  it('the cart and checkout bodies name a listing the funded buyer can buy', async () => {
    const buyer = `Bearer ${accounts.buyer.apiKey}`;
    const cart = await send(exampleRequest('setCartItem'), buyer);
    expect(cart.status, JSON.stringify(cart.body)).toBe(200);
    const checkout = await send(exampleRequest('checkout'), buyer);
    expect(checkout.status, JSON.stringify(checkout.body)).toBe(200);
    expect(checkout.body.paymentMethod).toBe('credit_wallet');
  });

  it("the README's first session: q=lamp&lang=de and q=leather jacket", async () => {
    const lamp = await sb.http.get('/api/shop/listings?q=lamp&lang=de&limit=3');
    expect(lamp.body.listings.length).toBeGreaterThan(0);
    const jacket = await sb.http.get('/api/shop/listings?q=leather%20jacket');
    expect(jacket.body.listings.length).toBeGreaterThan(0);
  });
});
