import express, { type ErrorRequestHandler, type RequestHandler } from 'express';
import supertest from 'supertest';
import { describe, expect, it } from 'vitest';
import { series } from '../../src/http/series.js';

/** An app running `handlers` as one series, then answering with what ran; errors answered as 500 + message. */
function appOf(handlers: RequestHandler[], ran: string[]) {
  const app = express();
  app.use(series(handlers));
  app.use((_req, res) => {
    res.json({ ran });
  });
  const onError: ErrorRequestHandler = (err: Error, _req, res, _next) => {
    res.status(500).json({ error: err.message, ran });
  };
  app.use(onError);
  return supertest(app);
}

const step =
  (name: string, ran: string[]): RequestHandler =>
  (_req, _res, next) => {
    ran.push(name);
    next();
  };

// The stages of the full path run in series as one Express layer (app/app.ts): it must hand on
// errors as Express's layers do, and never run a handler after an error or twice.
describe('handlers in series', () => {
  it('runs each handler once, in order, then goes on', async () => {
    const ran: string[] = [];
    const later: RequestHandler = async (_req, _res, next) => {
      await new Promise((r) => setTimeout(r, 5));
      ran.push('async');
      next();
    };
    const res = await appOf([step('a', ran), later, step('b', ran)], ran).get('/');
    expect(res.body).toEqual({ ran: ['a', 'async', 'b'] });
  });

  it('hands on next(err), a throw and a rejection, and runs nothing after', async () => {
    for (const failing of [
      ((_req, _res, next) => next(new Error('passed'))) as RequestHandler,
      (() => {
        throw new Error('thrown');
      }) as RequestHandler,
      (async () => {
        await Promise.resolve();
        throw new Error('rejected');
      }) as RequestHandler,
    ]) {
      const ran: string[] = [];
      const res = await appOf([step('a', ran), failing, step('b', ran)], ran).get('/');
      expect(res.status).toBe(500);
      expect(res.body.ran).toEqual(['a']);
      expect(['passed', 'thrown', 'rejected']).toContain(res.body.error);
    }
  });

  it('a rejection without a reason is still an error', async () => {
    const ran: string[] = [];
    const res = await appOf([() => Promise.reject(undefined)], ran).get('/');
    expect(res.status).toBe(500);
    expect(res.body.error).toBe('Rejected promise');
  });

  it('drops a handler’s error once it went on: what comes after answers, once', async () => {
    const ran: string[] = [];
    const wentOn: RequestHandler = async (_req, _res, next) => {
      next();
      await Promise.resolve();
      throw new Error('too late');
    };
    const res = await appOf([wentOn, step('b', ran)], ran).get('/');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ran: ['b'] });
  });

  it('an empty series goes straight on', async () => {
    const ran: string[] = [];
    expect((await appOf([], ran).get('/')).body).toEqual({ ran: [] });
  });
});
