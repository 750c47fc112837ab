import { createServer, request, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPipeline } from '../../src/app/app.js';
import { fastReads } from '../../src/http/fast-read.js';
import { assertContract } from './contract-check.js';
import type { TestSandbox } from './sandbox.js';

export type Answer = { status: number; headers: Record<string, string>; text: string };

async function listen(handler: RequestListener): Promise<{ server: Server; port: number }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port };
}

/**
 * A GET through node:http (fetch does not let a test set Host), the answer checked against
 * openapi.yaml like every other test request; `host` is sent unless the headers set their own.
 */
function getter(port: number, host: string | undefined) {
  return (path: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const sent = host === undefined ? headers : { host, ...headers };
      request({ host: '127.0.0.1', port, path, headers: sent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const h: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) h[name] = String(value);
          const answer = { status: res.statusCode ?? 0, headers: h, text };
          assertContract({ method: 'GET', url: path, ...answer }).then(() => resolve(answer), reject);
        });
      })
        .on('error', reject)
        .end();
    });
}

/**
 * The sandbox behind two real servers over the same state: `get` goes through the sandbox as it
 * ships (the fast paths in front of Express) and records, per request, whether the fast path
 * answered it ('fast') or left it to Express ('full'); `getFull` goes through the full path only
 * (`createPipeline`, every stage in Express), the reference a fast answer must equal.
 * Call `close` when done.
 */
export async function behindFastPath(sb: TestSandbox, host?: string) {
  const fast = fastReads(sb.deps);
  const full = createPipeline(sb.deps);
  const paths: ('fast' | 'full')[] = [];
  const shipped = await listen((req, res) => {
    if (fast(req, res)) paths.push('fast');
    else {
      paths.push('full');
      full(req, res);
    }
  });
  const reference = await listen((req, res) => {
    paths.push('full');
    full(req, res);
  });
  const last = () => paths[paths.length - 1];
  const close = async () => {
    for (const { server } of [shipped, reference])
      await new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { get: getter(shipped.port, host), getFull: getter(reference.port, host), paths, last, close };
}
