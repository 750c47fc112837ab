import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeConfig } from '../../src/process/config.js';
import { startServer } from '../../src/process/server.js';
import { VERSION } from '../../src/process/version.js';

type Raw = { status: number; headers: Record<string, unknown>; text: string };

/** Requests Node's parser refuses: sent through node:http to the server as it ships. */
describe('requests refused before the app sees them', () => {
  let server: Awaited<ReturnType<typeof startServer>>;
  beforeAll(async () => {
    server = await startServer(makeConfig({ port: 0, host: '127.0.0.1', listings: 5 }));
  });
  afterAll(async () => server.close());

  const send = (path: string, headers: Record<string, string> = {}) =>
    new Promise<Raw>((resolve, reject) => {
      request({ host: '127.0.0.1', port: server.port, path, headers }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }));
      })
        .on('error', reject)
        .end();
    });

  it('answers a URL over 16 KB with 431 (Node counts the request line with the headers)', async () => {
    const res = await send(`/api/listings?q=${'a'.repeat(17_000)}`);
    expect(res.status).toBe(431);
    expect(JSON.parse(res.text)).toEqual({ error: 'Request line and headers exceed 16 KB' });
    expect(res.headers['x-sandbox-version']).toBe(VERSION);
  });

  it('answers headers over 16 KB with 431, the one error shape and the version', async () => {
    const res = await send('/api/listings', { 'x-padding': 'b'.repeat(17_000) });
    expect(res.status).toBe(431);
    expect(JSON.parse(res.text)).toEqual({ error: 'Request line and headers exceed 16 KB' });
    expect(res.headers['x-sandbox-version']).toBe(VERSION);
  });
});
