import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fastReads } from '../../src/http/fast-read.js';
import type { TestSandbox } from './sandbox.js';

export type Answer = { status: number; headers: Record<string, string>; text: string };

/**
 * The sandbox app behind a real server that records, per request, whether the fast read path
 * answered it ('fast') or left it to Express ('full'). `get` uses node:http rather than fetch,
 * which does not let a test set Host; `host` is sent on every request unless a test sets its own.
 * Call `close` when done.
 */
export async function behindFastPath(sb: TestSandbox, host?: string) {
  const fast = fastReads(sb.deps);
  const paths: ('fast' | 'full')[] = [];
  const server: Server = createServer((req, res) => {
    if (fast(req, res)) paths.push('fast');
    else {
      paths.push('full');
      sb.app(req, res);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const get = (path: string, headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      const sent = host === undefined ? headers : { host, ...headers };
      request({ host: '127.0.0.1', port, path, headers: sent }, (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          const h: Record<string, string> = {};
          for (const [name, value] of Object.entries(res.headers)) h[name] = String(value);
          resolve({ status: res.statusCode ?? 0, headers: h, text });
        });
      })
        .on('error', reject)
        .end();
    });
  const last = () => paths[paths.length - 1];
  const close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return { get, paths, last, close };
}
