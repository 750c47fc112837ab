import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import { hmacKey } from './tokens.js';

const SECRET = 'a-secret-of-32-bytes-or-more-0123456789-ünïcode';

describe('hmacKey', () => {
  it('signs and verifies exactly as the secret string does', () => {
    const claims = { sub: 'u1', typ: 'user', iat: 1_767_225_600 };
    const viaKey = jwt.sign(claims, hmacKey(SECRET), { algorithm: 'HS256' });
    expect(viaKey).toBe(jwt.sign(claims, SECRET, { algorithm: 'HS256' }));
    expect(jwt.verify(viaKey, SECRET, { algorithms: ['HS256'] })).toMatchObject(claims);
    expect(() => jwt.verify(viaKey, hmacKey(`${SECRET}!`), { algorithms: ['HS256'] })).toThrow(
      /invalid signature/,
    );
  });

  it('makes one key per secret', () => {
    expect(hmacKey(SECRET)).toBe(hmacKey(SECRET));
    expect(hmacKey(SECRET)).not.toBe(hmacKey(`${SECRET}!`));
  });
});
