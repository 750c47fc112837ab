import type { IncomingMessage } from 'node:http';
import type { Express } from 'express';
import proxyAddr from 'proxy-addr';

/**
 * With `--trust-proxy`, the one proxy in front of the sandbox (nginx, an ingress) is trusted and
 * nothing beyond it: the client address is the last `X-Forwarded-For` entry, the one that proxy
 * appended. Trusting every hop (Express's `true`) would take the left-most entry, which a client
 * writes itself, so a forged header would buy a fresh rate-limit budget per request.
 */
export const TRUSTED_PROXY_HOPS = 1;

const trustOneHop = (_address: string, hop: number) => hop < TRUSTED_PROXY_HOPS;

function ownProtocol(req: IncomingMessage): string {
  return 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
}

/**
 * The client stage: the address a request came from, as the rate limit and the journal count it.
 * Behind a trusted proxy the `X-Forwarded-For` entry that proxy appended, else the socket's peer.
 * The one implementation: the fast paths call it, and `useClientStage` makes Express's `req.ip`
 * call it too.
 */
export function clientAddress(req: IncomingMessage, trustProxy: boolean): string {
  return trustProxy ? proxyAddr(req, trustOneHop) : (req.socket.remoteAddress ?? '');
}

/**
 * The scheme a request came in on, as absolute URLs are built with it: behind a trusted proxy
 * the first `X-Forwarded-Proto` value, else the socket's own.
 */
export function clientProtocol(req: IncomingMessage, trustProxy: boolean): string {
  const own = ownProtocol(req);
  if (!trustProxy) return own;
  const header = req.headers['x-forwarded-proto'];
  const value = (Array.isArray(header) ? header[0] : header) || own;
  const comma = value.indexOf(',');
  return (comma === -1 ? value : value.slice(0, comma)).trim();
}

/**
 * Makes Express's `req.ip` and `req.protocol` the client stage's, so the full path (its context,
 * `baseUrl(req)` in handlers) and the fast paths read a request's address and scheme through one
 * function. Express's other proxy-aware getters follow the same one trusted hop.
 */
export function useClientStage(app: Express, trustProxy: boolean): void {
  app.set('trust proxy', trustProxy ? TRUSTED_PROXY_HOPS : false);
  Object.defineProperties(app.request, {
    ip: {
      configurable: true,
      get(this: IncomingMessage) {
        return clientAddress(this, trustProxy);
      },
    },
    protocol: {
      configurable: true,
      get(this: IncomingMessage) {
        return clientProtocol(this, trustProxy);
      },
    },
  });
}
