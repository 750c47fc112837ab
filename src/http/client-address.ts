import type { IncomingMessage } from 'node:http';
import proxyAddr from 'proxy-addr';

/**
 * With `--trust-proxy`, the one proxy in front of the sandbox (nginx, an ingress) is trusted and
 * nothing beyond it: the client address is the last `X-Forwarded-For` entry, the one that proxy
 * appended. Trusting every hop (Express's `true`) would take the left-most entry, which a client
 * writes itself, so a forged header would buy a fresh rate-limit budget per request.
 */
export const TRUSTED_PROXY_HOPS = 1;

const trustOneHop = (_address: string, hop: number) => hop < TRUSTED_PROXY_HOPS;

/** The client address as Express gives it with `trust proxy` set to TRUSTED_PROXY_HOPS. */
export function forwardedAddress(req: IncomingMessage): string {
  return proxyAddr(req, trustOneHop);
}

/** The scheme as Express gives it behind a trusted proxy: the first `X-Forwarded-Proto` value. */
export function forwardedProtocol(req: IncomingMessage): string {
  const own = 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
  const header = req.headers['x-forwarded-proto'];
  const value = (Array.isArray(header) ? header[0] : header) || own;
  const comma = value.indexOf(',');
  return (comma === -1 ? value : value.slice(0, comma)).trim();
}
