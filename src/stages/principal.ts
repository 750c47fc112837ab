import type { Request, RequestHandler } from 'express';
import { API_KEY_PREFIX, checkToken, findApiKey } from '../api/auth/tokens.js';
import type { World } from '../world/world.js';
import { ApiError, Messages } from '../contract/errors.js';
import type { AnyRequest } from '../contract/handler.js';

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

/** Why a request without a credential is refused where a user is needed. */
export const NO_CREDENTIAL = `${Messages.authRequired}: send Authorization: Bearer <token or API key>`;

/** The calling user's id; only for operations whose security requires a user. */
export function userId(req: Pick<AnyRequest, 'principal'>): string {
  const id = req.principal.user?.id;
  if (!id) throw new ApiError(401, Messages.invalidToken, {}, NO_CREDENTIAL);
  return id;
}
