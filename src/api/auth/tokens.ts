import jwt from 'jsonwebtoken';
import type { World } from '../../world/world.js';
import { hmacKey } from './hmac-key.js';
import { sha256 } from './sha256.js';

export const USER_TOKEN_SECONDS = 24 * 3600;
export const GUEST_TOKEN_SECONDS = 7 * 24 * 3600;
export const API_KEY_PREFIX = 'mk_test_';

export interface TokenClaims {
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

/**
 * The claims when the token is ours (signed with `secret`, issued by this world), unexpired on
 * the sandbox clock and of type `typ`; else why it is refused (for X-Sandbox-Error-Detail).
 */
export function checkToken(
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

/** The user and key id of an API key that is not revoked and whose user exists; null otherwise. */
export function findApiKey(world: World, key: string): { userId: string; keyId: string } | null {
  const hash = sha256(key);
  for (const record of Object.values(world.store.db.api_keys)) {
    if (record.hash === hash && record.revoked_at === null && world.store.db.users[record.user_id]) {
      return { userId: record.user_id, keyId: record.id };
    }
  }
  return null;
}
