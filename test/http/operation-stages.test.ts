import { connect, type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { serverFor } from '../../src/process/http-server.js';
import { operations, templatePattern } from '../../src/contract/spec.js';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

// The operation stages (security, unread body, leniencies) find a request's operation as the
// handlers' router does: the path as written, case included, a trailing slash, a HEAD as its GET,
// a parameter percent-decoded.
describe('the operation stages', () => {
  it('find at most one operation of a method for any path of the contract', () => {
    const ops = operations();
    for (const a of ops)
      for (const b of ops)
        if (a !== b && a.method === b.method)
          expect(new RegExp(`^${templatePattern(a.path)}/?$`).test(b.path), `${a.path} takes ${b.path}`).toBe(
            false,
          );
  });

  it('check credentials as the handlers route: trailing slash, HEAD as GET, the case as written', async () => {
    const sb = await makeSandbox();
    expectError(await sb.http.delete('/api/settings/api-keys/abc/'), 401, 'Invalid or expired token');
    expect((await sb.http.head('/api/settings/api-keys')).status).toBe(401);
    const key = `Bearer ${accounts.buyer.apiKey}`;
    expect((await sb.http.get('/api/settings/api-keys/').set('Authorization', key)).status).toBe(200);
    // Another case is no operation: no credential is asked for, and it is not found.
    expectError(await sb.http.get('/API/settings/api-keys'), 404);
  });

  it('refuse a parameter that does not percent-decode with 400, before the credential is checked', async () => {
    const sb = await makeSandbox();
    expectError(
      await sb.http.delete('/api/settings/api-keys/%E0%A4%A'),
      400,
      "Failed to decode param '%E0%A4%A'",
    );
    expectError(await sb.http.get('/api/shop/listings/%E0%A4%A'), 400, "Failed to decode param '%E0%A4%A'");
    // A parameter that decodes goes on to the credential check.
    expectError(await sb.http.delete('/api/settings/api-keys/%41bc'), 401, 'Invalid or expired token');
  });

  it('read an absolute-form request target (as a proxy sends it) as the router does: the credential is asked for', async () => {
    const sb = await makeSandbox();
    const server = serverFor(sb.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    try {
      for (const target of [`http://127.0.0.1:${port}/api/shop/orders`, '/api/shop/orders']) {
        const answer = await new Promise<string>((resolve, reject) => {
          let text = '';
          const socket = connect(port, '127.0.0.1', () =>
            socket.write(`GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`),
          );
          socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
          socket.on('end', () => resolve(text));
          socket.on('error', reject);
        });
        expect(answer.split('\r\n')[0], target).toBe('HTTP/1.1 401 Unauthorized');
        expect(answer).toContain('{"error":"Invalid or expired token"}');
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
