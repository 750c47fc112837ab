import jwt from 'jsonwebtoken';
import type { World } from '../../world/world.js';
import { sha256 } from './sha256.js';
import { createSecretKey, type KeyObject } from 'node:crypto';

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

const keys = new Map<string, KeyObject>();

/**
 * The HS256 secret as a `KeyObject`, made once per secret: given a string, jsonwebtoken tries to
 * read it as a PEM key on every sign and verify, most of a login's main-thread time (docs/security.md
 * T20). Its bytes are the string's UTF-8, as jsonwebtoken takes them, so the tokens are the same.
 * @example jwt.sign(claims, hmacKey(secret), { algorithm: 'HS256' })
 */
export function hmacKey(secret: string): KeyObject {
  let key = keys.get(secret);
  if (!key) {
    // A process has one secret, tests a few: the cap only keeps a stray caller from growing it.
    if (keys.size >= 16) keys.clear();
    key = createSecretKey(Buffer.from(secret));
    keys.set(secret, key);
  }
  return key;
}
