import express from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { checked } from '../helpers/checked-clients.js';
import { contractProblems } from '../helpers/contract-check.js';
import { makeSandbox } from '../helpers/sandbox.js';

const JSON_TYPE = 'application/json; charset=utf-8';

/** An app that answers whatever a test plants, behind the checked client every test uses. */
function planted(answer: (req: express.Request, res: express.Response) => void) {
  const app = express();
  app.use(answer);
  return checked(supertest(app));
}

describe('the contract check of the test client', () => {
  it('fails a broken body from a handler', async () => {
    const sb = await makeSandbox();
    const id = Object.keys(sb.world.store.db.listings)[0];
    sb.world.store.mutate((db) => {
      db.listings[id].price_cents = 1.5;
    });
    await expect(sb.http.get(`/api/shop/listings/${id}`)).rejects.toThrow(
      /-> 200: .*price_cents must be integer/,
    );
  });

  it('fails a status the operation does not declare, a bad declared header, and an undeclared media type', async () => {
    const http = planted((req, res) => {
      if (req.path === '/api/auth/me') res.status(418).json({ error: 'teapot' });
      else if (req.path === '/api/shop/assistant')
        res.set('Content-Language', 'xx').json({ reply: 'hi', listings: [] });
      else res.type('text/html').send('<p>not an image</p>');
    });
    await expect(http.get('/api/auth/me')).rejects.toThrow(/-> 418: no schema defined for status code '418'/);
    await expect(http.post('/api/shop/assistant').send({ message: 'hi' })).rejects.toThrow(
      /-> 200: header Content-Language .*allowed values.*"xx"/,
    );
    await expect(http.get('/uploads/a.png')).rejects.toThrow(
      /content type text\/html is not one of image\/png/,
    );
  });

  it('requires the one error shape where no operation answers, and of every 5xx', async () => {
    const http = planted((req, res) => {
      if (req.path === '/nowhere') res.json({ ok: true });
      else if (req.path === '/gone') res.status(404).json({ error: 'Not found: GET /gone', hint: 'x' });
      else res.status(503).json({ message: 'down' });
    });
    await expect(http.get('/nowhere')).rejects.toThrow(/a path or method openapi\.yaml does not have/);
    await expect(http.get('/gone')).rejects.toThrow(/an error must be exactly \{"error": "<message>"\}/);
    await expect(http.get('/api/shop/categories')).rejects.toThrow(/-> 503: an error must be exactly/);
  });

  it('passes what the contract allows', async () => {
    const answer = { method: 'GET', headers: { 'content-type': JSON_TYPE } };
    expect(
      await contractProblems({ ...answer, url: '/nowhere', status: 404, text: '{"error":"Not found"}' }),
    ).toBeUndefined();
    expect(
      await contractProblems({ ...answer, url: '/docs/', status: 200, text: '<html>', headers: {} }),
    ).toBeUndefined();
    expect(
      await contractProblems({
        ...answer,
        url: '/api/shop/categories',
        status: 200,
        text: '{"categories":[]}',
      }),
    ).toBeUndefined();
    const sb = await makeSandbox();
    const page = await sb.http.get('/api/shop/listings?limit=2');
    expect(page.status).toBe(200);
  });
});
