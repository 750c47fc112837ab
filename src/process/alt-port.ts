import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serverLike } from './http-server.js';

export interface AltListener {
  url: string;
  port: number;
  close(): Promise<void>;
}

/**
 * Listens on a second port and hands every request to the main server's handlers: the same app,
 * the same worlds, the same state. Stands in for the API's `{alt_base_url}` (README.md, What is emulated).
 */
export async function listenAlt(main: Server, port: number, host: string): Promise<AltListener> {
  const alt = serverLike(main, (req, res) => main.emit('request', req, res));
  await new Promise<void>((resolve, reject) => {
    alt.once('error', reject);
    alt.listen(port, host, () => resolve());
  });
  const actual = (alt.address() as AddressInfo).port;
  return {
    url: `http://${shownHost(host)}:${actual}`,
    port: actual,
    close: () =>
      new Promise<void>((resolve) => {
        alt.close(() => resolve());
        alt.closeIdleConnections();
      }),
  };
}

/** The address to print for a bind address: a wildcard bind is reachable on loopback. */
export function shownHost(host: string): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return shown.includes(':') ? `[${shown}]` : shown;
}
