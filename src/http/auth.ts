import type { Request, RequestHandler } from 'express';
import { API_KEY_PREFIX, checkToken, findApiKey } from '../api/auth/tokens.js';
import type { World } from '../world/world.js';
import { ApiError, Messages } from './errors.js';
import type { AnyRequest } from './handler.js';
import { lenient } from './warnings.js';

declare module 'express-serve-static-core' {
  interface Request {
    /** Who is calling (the principal stage). */
    principal: Principal;
  }
}

/** Who is calling. A request may carry both a user credential and a guest token (cart merge). */
export interface Principal {
  user?: { id: string; via: 'jwt' | 'api_key'; apiKeyId?: string };
  guest?: { id: string };
  /** Why the user credential sent (Authorization or `api_key`) is not valid; unset when none was sent or it is. */
  invalidUser?: string;
  /** Why the `X-Guest-Token` sent is not valid; unset when none was sent or it is. */
  invalidGuest?: string;
}

/** The credentials a request carries, as sent, before anything checks them. */
export interface Credentials {
  /**
   * The user credential: a bearer token or API key from `Authorization: Bearer …`, else the
   * `api_key` query parameter (under any name the router decodes to it, `api%5Fkey` too);
   * `malformed` when an Authorization header is not of the Bearer form (its value as sent).
   */
  user?: { value: string; from: 'authorization' | 'api_key' | 'malformed' };
  /** The `X-Guest-Token` header. */
  guest?: string;
}

/**
 * What credentials the request carries: the one place this is decided. The principal, and through
 * it the rate limit and the answer cache, the scenario effects and the scenarios' scopes read it.
 */
export function credentialsOf(req: Pick<Request, 'headers' | 'query'>): Credentials {
  const found: Credentials = {};
  const header = req.headers.authorization;
  if (typeof header === 'string' && header.length > 0) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    found.user = match ? { value: match[1], from: 'authorization' } : { value: header, from: 'malformed' };
  } else if (typeof req.query.api_key === 'string') {
    found.user = { value: req.query.api_key, from: 'api_key' };
  }
  const guest = req.headers['x-guest-token'];
  if (typeof guest === 'string' && guest.length > 0) found.guest = guest;
  return found;
}

/** The user the request's credential names, or why it names none (a string). */
function resolveUser(
  world: World,
  secret: string,
  sent: Credentials['user'],
): Principal['user'] | string | undefined {
  if (sent === undefined) return undefined;
  if (sent.from === 'malformed') return 'the Authorization header is not "Bearer <token or API key>"';
  // A credential in the query is the `api_key` parameter: its refusal names the API key.
  const inQuery = sent.from === 'api_key';
  const unknownKey = inQuery
    ? 'the API key in api_key is unknown or revoked'
    : 'the API key is unknown or revoked';
  if (sent.value.startsWith(API_KEY_PREFIX)) {
    const found = findApiKey(world, sent.value);
    return found ? { id: found.userId, via: 'api_key', apiKeyId: found.keyId } : unknownKey;
  }
  const claims = checkToken(world, secret, sent.value, 'user');
  if (typeof claims === 'string') return inQuery ? unknownKey : `the bearer token is refused: ${claims}`;
  return world.store.db.users[claims.sub]
    ? { id: claims.sub, via: 'jwt' }
    : "the token's user no longer exists";
}

/**
 * Resolves every credential to a principal and never refuses: enforcement comes later, per
 * operation, so rate limiting can key on a verified API key rather than on whatever was sent.
 */
export function resolvePrincipal(secret: string): RequestHandler {
  return (req, _res, next) => {
    const principal: Principal = {};
    const sent = credentialsOf(req);
    const user = resolveUser(req.world, secret, sent.user);
    if (typeof user === 'string') principal.invalidUser = user;
    else if (user) principal.user = user;
    if (sent.guest !== undefined) {
      const claims = checkToken(req.world, secret, sent.guest, 'guest');
      if (typeof claims === 'string') principal.invalidGuest = `X-Guest-Token is refused: ${claims}`;
      else principal.guest = { id: claims.sub };
    }
    req.principal = principal;
    next();
  };
}

const NO_CREDENTIAL = `${Messages.authRequired}: send Authorization: Bearer <token or API key>`;
const NO_CREDENTIAL_OR_GUEST = `${Messages.authRequired}: send a bearer token, an API key or X-Guest-Token`;

/**
 * The enforcement for one operation, from its `security` in openapi.yaml. A credential refused
 * where the operation does not need it is a leniency (docs/errors.md, "Warnings"): a public read
 * is answered as anonymous, and a bad X-Guest-Token beside a valid user credential is set aside;
 * with `strict`, both are the 401 they would otherwise be.
 */
export function enforceSecurity(security: string[], optional: boolean, strict: boolean): RequestHandler {
  const acceptsGuest = security.includes('guestToken');
  const acceptsUser = security.some((s) => s !== 'guestToken');
  const refused = (detail: string) => new ApiError(401, Messages.invalidToken, {}, detail);
  return (req, res, next) => {
    const p = req.principal;
    // An operation that takes no credential at all ignores whatever was sent (its spec lists no 401).
    if (security.length === 0) return next();
    if (optional) {
      // A public operation answers any refused credential, a guest token too, as anonymous.
      const invalid = p.invalidUser ?? p.invalidGuest;
      if (invalid !== undefined)
        lenient(res, strict, `${invalid}: answered as anonymous (the operation is public)`, () =>
          refused(invalid),
        );
      return next();
    }
    // Where a user is needed, a guest token the operation takes no guest for is an unknown header.
    const invalidGuest = acceptsGuest ? p.invalidGuest : undefined;
    if (p.invalidUser !== undefined) throw refused(p.invalidUser);
    if (acceptsUser && p.user) {
      if (invalidGuest !== undefined)
        lenient(res, strict, `${invalidGuest}: ignored, the request acts as the user`, () =>
          refused(invalidGuest),
        );
      return next();
    }
    if (invalidGuest !== undefined) throw refused(invalidGuest);
    if (acceptsGuest && p.guest) return next();
    throw refused(acceptsGuest ? NO_CREDENTIAL_OR_GUEST : NO_CREDENTIAL);
  };
}

/** The calling user's id; only for operations whose security requires a user. */
export function userId(req: Pick<AnyRequest, 'principal'>): string {
  const id = req.principal.user?.id;
  if (!id) throw new ApiError(401, Messages.invalidToken, {}, NO_CREDENTIAL);
  return id;
}
