import type { IncomingHttpHeaders } from 'node:http';
import type { Socket } from 'node:net';

/**
 * The request headers a base URL is made from: Host, and `X-Forwarded-Proto` that Express's
 * `req.protocol` reads behind a trusted proxy. The answer cache's key holds the base URL, so
 * these are inputs it covers.
 */
export const BASE_URL_HEADERS = ['host', 'x-forwarded-proto'] as const;

/** What the base URL is made from (an Express request). */
export interface BaseUrlSource {
  protocol: string;
  headers: IncomingHttpHeaders;
  socket: Pick<Socket, 'localAddress' | 'localPort'>;
}

/**
 * The absolute base of a request (`http://127.0.0.1:3000`): its Host header, else the address and
 * port the connection came in on (an HTTP/1.0 client may send no Host). Image paths stored as
 * `/uploads/<name>`, the provider's `approvalUrl` and the docs' server come back on it, so they
 * work from wherever the client reached the sandbox (either port with `--alt-port`).
 * @example baseUrl(req) // 'http://127.0.0.1:3000'
 */
export function baseUrl(req: BaseUrlSource): string {
  return `${req.protocol}://${req.headers.host ?? socketHost(req.socket)}`;
}

function socketHost(socket: BaseUrlSource['socket']): string {
  const address = socket.localAddress ?? 'localhost';
  const host = address.includes(':') ? `[${address}]` : address;
  return socket.localPort === undefined ? host : `${host}:${socket.localPort}`;
}
