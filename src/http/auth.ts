import type { Request, RequestHandler } from 'express';
import jwt from 'jsonwebtoken';
import { sha256 } from '../api/auth/sha256.js';
import type { World } from '../world/world.js';
import { ApiError, Messages } from './errors.js';
import { hmacKey } from './hmac-key.js';
import type { AnyRequest } from './handler.js';
import { lenient } from './warnings.js';

export const USER_TOKEN_SECONDS = 24 * 3600;
export const GUEST_TOKEN_SECONDS = 7 * 24 * 3600;
export const API_KEY_PREFIX = 'mk_test_';

/** Who is calling. A request may carry both a user credential and a guest token (cart merge). */
export interface Principal {
  user?: { id: string; via: 'jwt' | 'api_key'; apiKeyId?: string };
  guest?: { id: string };
  /** Why the user credential sent (Authorization or `api_key`) is not valid; unset when none was sent or it is. */
  invalidUser?: string;
  /** Why the `X-Guest-Token` sent is not valid; unset when none was sent or it is. */
  invalidGuest?: string;
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
  const checked = checkToken(world, secret, token, typ);
  return typeof checked === 'string' ? null : checked;
}

/** The claims, or why the token is refused (for X-Sandbox-Error-Detail). */
function checkToken(
  world: World,
  secret: string,
  token: string,
  typ: 'user' | 'guest',
): TokenClaims | string {
  try {
    const claims = jwt.verify(token, hmacKey(secret), {
      algorithms: ['HS256'],
      clockTimestamp: Math.floor(world.clock.now() / 1000),
    }) as TokenClaims;
    if (claims.typ === typ && claims.sbx === world.id && typeof claims.sub === 'string') return claims;
    return claims.typ !== typ ? `it is a ${String(claims.typ)} token` : 'it was issued by another sandbox';
  } catch (err) {
    if (err instanceof jwt.TokenExpiredError)
      return `it expired at ${err.expiredAt.toISOString()} (sandbox time)`;
    return 'it is not a token this sandbox signed';
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

/** The user the request's credential names, or why it names none (a string). */
function resolveUser(world: World, secret: string, req: Request): Principal['user'] | string | undefined {
  const header = req.headers.authorization;
  const credential = rawCredential(req);
  if (credential === undefined) return undefined;
  if (typeof header === 'string' && header.length > 0 && !/^Bearer\s+\S+\s*$/i.test(header))
    return 'the Authorization header is not "Bearer <token or API key>"';
  // A credential in the query is the `api_key` parameter: its refusal names the API key.
  const inQuery = !(typeof header === 'string' && header.length > 0);
  const unknownKey = inQuery
    ? 'the API key in api_key is unknown or revoked'
    : 'the API key is unknown or revoked';
  if (credential.startsWith(API_KEY_PREFIX)) {
    const found = findApiKey(world, credential);
    return found ? { id: found.userId, via: 'api_key', apiKeyId: found.keyId } : unknownKey;
  }
  const claims = checkToken(world, secret, credential, 'user');
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
    const user = resolveUser(req.world, secret, req);
    if (typeof user === 'string') principal.invalidUser = user;
    else if (user) principal.user = user;
    const guestToken = req.headers['x-guest-token'];
    if (typeof guestToken === 'string' && guestToken.length > 0) {
      const claims = checkToken(req.world, secret, guestToken, 'guest');
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
