import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox } from './helpers/sandbox.js';

describe('sandbox health and the error shape', () => {
  it('answers health with status, version and seed', async () => {
    const sb = await makeSandbox({ seed: 7 });
    const res = await sb.http.get('/__sandbox/health');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok', version: expect.any(String), seed: 7 });
    expect(res.headers['x-sandbox-version']).toBe(res.body.version);
  });

  it('answers unknown paths with 404 {error}', async () => {
    const sb = await makeSandbox();
    expectError(await sb.http.get('/nope'), 404, 'Not found: GET /nope');
    expectError(await sb.http.get('/api/nope'), 404, 'Not found: GET /api/nope');
  });

  it('answers a wrong method with 405 and Allow', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.put('/api/auth/login');
    expectError(res, 405, /PUT not allowed/);
    expect(res.headers.allow).toBe('POST');
  });

  it('answers malformed JSON with 400, non-JSON with 415 and big bodies with 413', async () => {
    const sb = await makeSandbox();
    expectError(
      await sb.http.post('/api/auth/login').set('content-type', 'application/json').send('{bad'),
      400,
      'Malformed JSON in request body',
    );
    expectError(
      await sb.http.post('/api/auth/login').set('content-type', 'text/plain').send('hello'),
      415,
      /Unsupported media type text\/plain/,
    );
    const big = JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(1_100_000) });
    expectError(
      await sb.http.post('/api/auth/login').set('content-type', 'application/json').send(big),
      413,
      'Request body is larger than 1 MB',
    );
  });

  it("says in a 415 what to send instead: the operation's media type, an encoding or charset it reads", async () => {
    const sb = await makeSandbox();
    const key = `Bearer ${accounts.seller.apiKey}`;
    expectError(
      await sb.http.post('/api/shop/upload').set('Authorization', key).send({ images: [] }),
      415,
      'Unsupported media type application/json: send multipart/form-data',
    );
    expectError(
      await sb.http
        .post('/api/auth/login')
        .set({ 'content-type': 'application/json', 'content-encoding': 'zip' })
        .send('{}'),
      415,
      'Unsupported Content-Encoding "zip": send the body unencoded or as gzip, deflate or br',
    );
    expectError(
      await sb.http
        .post('/api/shop/upload')
        .set({ Authorization: key, 'content-type': 'application/json', 'content-encoding': 'zip' })
        .send('{}'),
      415,
      'Unsupported Content-Encoding "zip": send the body unencoded or as gzip, deflate or br',
    );
    for (const encoding of ['gzip', 'zstd']) {
      const encoded = await sb.http
        .post('/api/shop/upload')
        .set({ Authorization: key, 'content-encoding': encoding })
        .attach('images', Buffer.from('not read'), 'a.png');
      expectError(
        encoded,
        415,
        `Unsupported Content-Encoding "${encoding}": send the body unencoded (a multipart body is read as sent)`,
      );
    }
    expectError(
      await sb.http
        .post('/api/auth/login')
        .set('content-type', 'application/json; charset=latin1')
        .send('{}'),
      415,
      'Unsupported charset "latin1": send the body as UTF-8',
    );
  });

  it('turns a crash into 500 Internal server error without the stack', async () => {
    const sb = await makeSandbox();
    sb.world.store.db.users = null as never;
    const res = await sb.http.post('/api/auth/login').send({ email: 'a@b.c', password: 'whatever1' });
    expectError(res, 500, 'Internal server error');
  });
});
