import type { Request, RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { sha256 } from '../api/auth/sha256.js';
import type { World } from '../world/world.js';
import { ApiError, Messages } from './errors.js';
import { hmacKey } from './hmac-key.js';
import type { AnyRequest } from './handler.js';

export const USER_TOKEN_SECONDS = 24 * 3600;
export const GUEST_TOKEN_SECONDS = 7 * 24 * 3600;
export const API_KEY_PREFIX = 'mk_test_';

/** Who is calling. A request may carry both a user credential and a guest token (cart merge). */
export interface Principal {
  user?: { id: string; via: 'jwt' | 'api_key'; apiKeyId?: string };
  guest?: { id: string };
  /** A credential was sent but is not valid: the request is refused where a credential counts. */
  invalid?: boolean;
}

interface TokenClaims {
  sub: string;
  typ: 'user' | 'guest';
  sbx: string;
  iat: number;
  exp: number;
}

/** Signs an HS256 token on the sandbox clock, bound to the world that issued it. */
export function signToken(world: World, secret: string, sub: string, typ: 'user' | 'guest'): string {
  const iat = Math.floor(world.clock.now() / 1000);
  const ttl = typ === 'user' ? USER_TOKEN_SECONDS : GUEST_TOKEN_SECONDS;
  const claims: TokenClaims = { sub, typ, sbx: world.id, iat, exp: iat + ttl };
  return jwt.sign(claims, hmacKey(secret), { algorithm: 'HS256' });
}

/** The claims when the token is ours, unexpired on the sandbox clock and of the right type. */
export function verifyToken(
  world: World,
  secret: string,
  token: string,
  typ: 'user' | 'guest',
): TokenClaims | null {
  try {
    const claims = jwt.verify(token, hmacKey(secret), {
      algorithms: ['HS256'],
      clockTimestamp: Math.floor(world.clock.now() / 1000),
    }) as TokenClaims;
    return claims.typ === typ && claims.sbx === world.id && typeof claims.sub === 'string' ? claims : null;
  } catch {
    return null;
  }
}

function findApiKey(world: World, key: string): { userId: string; keyId: string } | null {
  const hash = sha256(key);
  for (const record of Object.values(world.store.db.api_keys)) {
    if (record.hash === hash && record.revoked_at === null && world.store.db.users[record.user_id]) {
      return { userId: record.user_id, keyId: record.id };
    }
  }
  return null;
}

/** The raw credential the request carries, if any (header first, then `api_key`). */
export function rawCredential(req: Request): string | undefined {
  const header = req.headers.authorization;
  if (typeof header === 'string' && header.length > 0) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    return match ? match[1] : header;
  }
  const query = req.query.api_key;
  return typeof query === 'string' ? query : undefined;
}

function resolveUser(world: World, secret: string, req: Request): Principal['user'] | 'invalid' | undefined {
  const header = req.headers.authorization;
  const credential = rawCredential(req);
  if (credential === undefined) return undefined;
  if (typeof header === 'string' && header.length > 0 && !/^Bearer\s+\S+\s*$/i.test(header)) return 'invalid';
  if (credential.startsWith(API_KEY_PREFIX)) {
    const found = findApiKey(world, credential);
    return found ? { id: found.userId, via: 'api_key', apiKeyId: found.keyId } : 'invalid';
  }
  const claims = verifyToken(world, secret, credential, 'user');
  return claims && world.store.db.users[claims.sub] ? { id: claims.sub, via: 'jwt' } : 'invalid';
}

/**
 * Resolves every credential to a principal and never refuses: enforcement comes later, per
 * operation, so rate limiting can key on a verified API key rather than on whatever was sent.
 */
export function resolvePrincipal(secret: string): RequestHandler {
  return (req, _res, next) => {
    const principal: Principal = {};
    const user = resolveUser(req.world, secret, req);
    if (user === 'invalid') principal.invalid = true;
    else if (user) principal.user = user;
    const guestToken = req.headers['x-guest-token'];
    if (typeof guestToken === 'string' && guestToken.length > 0) {
      const claims = verifyToken(req.world, secret, guestToken, 'guest');
      if (claims) principal.guest = { id: claims.sub };
      else principal.invalid = true;
    }
    req.principal = principal;
    next();
  };
}

/** The enforcement for one operation, from its `security` in openapi.yaml. */
export function enforceSecurity(security: string[], optional: boolean): RequestHandler {
  const acceptsGuest = security.includes('guestToken');
  const acceptsUser = security.some((s) => s !== 'guestToken');
  return (req, _res, next) => {
    const p = req.principal;
    // An operation that takes no credential at all ignores whatever was sent (its spec lists no 401).
    if (security.length === 0) return next();
    if (p.invalid) throw new ApiError(401, Messages.invalidToken);
    if (optional) return next();
    if ((acceptsUser && p.user) || (acceptsGuest && p.guest)) return next();
    throw new ApiError(
      401,
      acceptsGuest
        ? 'Authentication required: send a bearer token, an API key or X-Guest-Token'
        : `${Messages.authRequired}: send Authorization: Bearer <token or API key>`,
    );
  };
}

/** The calling user's id; only for operations whose security requires a user. */
export function userId(req: Pick<AnyRequest, 'principal'>): string {
  const id = req.principal.user?.id;
  if (!id) throw new ApiError(401, Messages.authRequired);
  return id;
}
