import { IncomingMessage, ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { serverFor, serverLike } from '../../src/process/http-server.js';
import { makeSandbox } from '../helpers/sandbox.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
});

async function listening(server: Server): Promise<string> {
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** Whether each request and response had the app's prototypes when Node made them. */
function watchPrototypes(server: Server, app: express.Express): boolean[] {
  const seen: boolean[] = [];
  server.prependListener('request', (req, res) => {
    seen.push(Object.getPrototypeOf(req) === app.request && Object.getPrototypeOf(res) === app.response);
  });
  return seen;
}

// Express gives each request and response the app's prototypes (Object.setPrototypeOf), which
// sent V8 down its slowest property lookups; serverFor's server makes them with those prototypes.
describe('the server of an app', () => {
  it('makes requests and responses with the prototypes Express gives them, Node and Express alike', async () => {
    const app = express();
    app.get('/echo', (req, res) => {
      res.json({
        header: req.get('x-probe'),
        node: req instanceof IncomingMessage && res instanceof ServerResponse,
        app: req.app === app && res.app === app,
      });
    });
    const server = serverFor(app);
    const seen = watchPrototypes(server, app);
    const url = await listening(server);
    const answer = await fetch(`${url}/echo`, { headers: { 'x-probe': 'yes' } });
    expect(await answer.json()).toEqual({ header: 'yes', node: true, app: true });
    expect(seen).toEqual([true]);
  });

  it('makes them so on a second port that hands its requests to the first', async () => {
    const app = express();
    app.get('/', (_req, res) => {
      res.send('ok');
    });
    const main = serverFor(app);
    await listening(main);
    const seen = watchPrototypes(main, app);
    const alt = serverLike(main, (req, res) => main.emit('request', req, res));
    const url = await listening(alt);
    expect(await (await fetch(url)).text()).toBe('ok');
    expect(seen).toEqual([true]);
  });

  it('serves the sandbox as it ships, the request path (world, body, validation, handler) included', async () => {
    const sb = await makeSandbox();
    const server = serverFor(sb.app);
    const seen = watchPrototypes(server, sb.app);
    const url = await listening(server);
    const answer = await fetch(`${url}/__sandbox/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ advance: '1h' }),
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(await answer.json())).toEqual(['now', 'frozen']);
    expect(seen).toEqual([true]);
  });
});
