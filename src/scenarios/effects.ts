import type { Request, RequestHandler, Response } from 'express';
import { credentialsOf } from '../stages/principal.js';
import { ApiError, Messages } from '../contract/errors.js';
import type { Operation } from '../contract/spec.js';
import { isControlPath } from '../contract/control-paths.js';
import { recordNow } from '../stages/journal.js';
import { takeScenario } from './query.js';

/** Whether the operation checks a credential on this request: one it needs, or one sent to a public read. */
function takesCredential(op: Operation, req: Request): boolean {
  if (op.security.length === 0) return false;
  const sent = credentialsOf(req);
  return !op.optionalAuth || sent.user !== undefined || sent.guest !== undefined;
}

/** An operation that names one listing: a path id under /listings/ or /cart/, or a listing in the body. */
export function namesListing(op: Operation, body: unknown): boolean {
  if (/\/(listings|cart)\/\{[^}]+\}/.test(op.path)) return true;
  if (!body || typeof body !== 'object') return false;
  return ['listing_id', 'listingId', 'cartItems'].some((k) => k in (body as object));
}

/** Sends the 503 as raw JSON: the answer of an unavailable server, not of the operation. */
function sendUnavailable(res: Response, retryAfter: number): void {
  res
    .status(503)
    .set('Retry-After', String(retryAfter))
    .type('application/json')
    .send(JSON.stringify({ error: 'Service unavailable' }));
}

/** Sends half the body under the full Content-Length, then closes the connection: a cut-off response. */
function truncateResponse(res: Response): void {
  res.end = ((chunk?: unknown) => {
    const body = Buffer.isBuffer(chunk) ? chunk : Buffer.from(typeof chunk === 'string' ? chunk : '');
    res.setHeader('Content-Length', String(body.length));
    res.write(body.subarray(0, Math.floor(body.length / 2)));
    recordNow(res);
    const socket = res.socket;
    socket?.end(() => socket.destroy());
    return res;
  }) as Response['end'];
}

/** The detail of an error a scenario forced. */
const forcedBy = (name: string) => `forced by the scenario ${name}`;

/** The error a scenario forces on this operation, if any (first match wins, in definition order). */
function forcedError(req: Request, res: Response, op: Operation): ApiError | 'sent' | null {
  if (takesCredential(op, req) && takeScenario(req, 'auth.token-expired'))
    return new ApiError(401, Messages.invalidToken, {}, forcedBy('auth.token-expired'));
  const limited = takeScenario(req, 'ratelimit.exceeded');
  if (limited) {
    const seconds = limited.param ?? 60;
    res.set('RateLimit', `"scenario"; r=0; t=${seconds}`);
    return new ApiError(
      429,
      Messages.tooManyRequests,
      { 'Retry-After': String(seconds) },
      forcedBy('ratelimit.exceeded'),
    );
  }
  if (takeScenario(req, 'server.error'))
    return new ApiError(500, Messages.internal, {}, forcedBy('server.error'));
  const unavailable = takeScenario(req, 'server.unavailable');
  if (unavailable) {
    sendUnavailable(res, unavailable.param ?? 5);
    return 'sent';
  }
  if (namesListing(op, req.body) && takeScenario(req, 'listing.not-found'))
    return new ApiError(404, Messages.listingNotFound, {}, forcedBy('listing.not-found'));
  return null;
}

/**
 * The scenario effects stage of one operation, after request validation passed and before the
 * handler: a scenario never turns an invalid request into anything but its 400. Control
 * operations are never affected (undefined).
 */
export function scenarioEffects(op: Operation): RequestHandler | undefined {
  if (isControlPath(op.path)) return undefined;
  return async (req, res, next) => {
    const latency = takeScenario(req, 'latency');
    if (latency?.param) await new Promise((resolve) => setTimeout(resolve, latency.param as number));
    if (takeScenario(req, 'network.reset')) {
      recordNow(res);
      req.socket.destroy();
      return;
    }
    const forced = forcedError(req, res, op);
    if (forced === 'sent') return;
    if (forced) return next(forced);
    if (takeScenario(req, 'response.truncated')) truncateResponse(res);
    next();
  };
}
