import { createSecretKey, type KeyObject } from 'node:crypto';

const keys = new Map<string, KeyObject>();

/**
 * The HS256 secret as a `KeyObject`, made once per secret. Given a string, jsonwebtoken first
 * tries to read it as a PEM private key (sign) or public key (verify) on every call; the failed
 * parse, an OpenSSL error turned into a JavaScript exception, was 40% of a login's main-thread
 * time (`--cpu-prof` under login load). The key's bytes are the string's UTF-8, as jsonwebtoken
 * takes them, so the tokens are the same.
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
