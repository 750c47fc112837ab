import { describe, expect, it } from 'vitest';
import { checksAddedBy } from '../helpers/validator-checks.js';
import { validatedContentType } from '../../src/contract/validator.js';
import { PNG_1X1 } from '../catalog/helpers.js';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

/**
 * express-openapi-validator builds one check per method, route and Content-Type as sent, and keeps
 * each: a client varying the parameters of its Content-Type (or a GET's Content-Type at all) made
 * it compile and keep a new one on every request. The validator sees the type as the operation
 * declares it (src/contract/validator.ts); everyone else sees what was sent.
 */

const key = `Bearer ${accounts.buyer.apiKey}`;
const cartBody = JSON.stringify({ listingId: 'not-a-uuid', quantity: 1 });
const postCart = (sb: TestSandbox, type: string) =>
  sb.http.post('/api/shop/cart').set('Authorization', key).set('Content-Type', type).send(cartBody);

describe('the Content-Type the request validator sees', () => {
  const matched = (content?: Record<string, unknown>) => ({
    openapi: { schema: content ? { requestBody: { content } } : {} },
  });
  const json = matched({ 'application/json': {} });
  const multipart = matched({ 'multipart/form-data': {} });

  it.each([
    ['application/json; charset=UTF-8', json, 'application/json'],
    ['Application/JSON ; v=1', json, 'application/json'],
    ['multipart/form-data; boundary=abc; x=1', multipart, 'multipart/form-data; boundary=abc'],
    ['MULTIPART/form-data;BOUNDARY="a b"', multipart, 'multipart/form-data; boundary="a b"'],
    ['text/plain; v=1', json, 'text/plain; v=1'],
    ['x/y', matched(), undefined],
  ])('%s, for an operation taking %j, is %s', (sent, req, seen) => {
    expect(validatedContentType({ headers: { 'content-type': sent }, ...req })).toBe(seen);
  });

  it('is what was sent before the route lookup, and absent when nothing was sent', () => {
    expect(validatedContentType({ headers: { 'content-type': 'x/y; v=1' } })).toBe('x/y; v=1');
    expect(validatedContentType({ headers: {}, ...json })).toBeUndefined();
  });
});

describe('a client varying its Content-Type', () => {
  it('makes the validator build nothing new: parameters of a declared type, and any type on a GET', async () => {
    const sb = await makeSandbox();
    // The first requests build the two operations' checks: the counter sees compiles.
    const first = await checksAddedBy(async () => {
      expectError(await postCart(sb, 'application/json'), 400, 'body.listingId must match format "uuid"');
      expect((await sb.http.get('/api/shop/cart').set('Authorization', key)).status).toBe(200);
    });
    expect(first).toBeGreaterThan(0);
    const varied = await checksAddedBy(async () => {
      for (let i = 0; i < 12; i++) {
        const types = [`application/json; v=${i}`, `application/json; charset=utf-8; q${i}=1`];
        for (const type of types)
          expectError(await postCart(sb, type), 400, 'body.listingId must match format "uuid"');
        const get = await sb.http
          .get('/api/shop/cart')
          .set('Authorization', key)
          .set('Content-Type', `x/y${i}`);
        expect(get.status).toBe(200);
      }
    });
    expect(varied).toBe(0);
  });

  it('is still told, and recorded, by the type it sent', async () => {
    const sb = await makeSandbox();
    expectError(
      await postCart(sb, 'text/plain; v=1'),
      415,
      'Unsupported media type text/plain; v=1: send application/json',
    );
    await postCart(sb, 'application/json; v=2');
    const [entry] = (await sb.http.get('/__sandbox/requests?limit=1')).body.requests;
    expect(entry.request_headers['content-type']).toBe('application/json; v=2');
  });

  it('uploads with parameters beside the boundary, in any case', async () => {
    const sb = await makeSandbox();
    const boundary = 'vary-0123456789';
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="images"; filename="a.png"\r\n` +
          'Content-Type: image/png\r\n\r\n',
      ),
      PNG_1X1,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const res = await sb.http
      .post('/api/shop/upload')
      .set('Authorization', `Bearer ${accounts.seller.apiKey}`)
      .set('Content-Type', `Multipart/Form-Data; x=1; boundary=${boundary}`)
      .send(body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.urls).toHaveLength(1);
  });
});
