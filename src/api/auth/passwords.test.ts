import { randomBytes, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { dummyHash, HASH_COST, hashPassword, hashPasswordSync, verifyPassword } from './passwords.js';

describe('passwords', () => {
  it('stores scrypt at today’s cost with a 16-byte salt, the key as scrypt computes it', async () => {
    const stored = await hashPassword('secret-1');
    const [kind, N, r, p, salt, key] = stored.split('$');
    expect([kind, Number(N), Number(r), Number(p)]).toEqual([
      'scrypt',
      HASH_COST.N,
      HASH_COST.r,
      HASH_COST.p,
    ]);
    expect(salt).toMatch(/^[0-9a-f]{32}$/);
    const expected = scryptSync('secret-1', Buffer.from(salt, 'hex'), 32, { ...HASH_COST });
    expect(key).toBe(expected.toString('hex'));
  });

  it('verifies its own hashes and the seed’s synchronous ones, and refuses any other password', async () => {
    const seeded = hashPasswordSync('secret-2', randomBytes(16));
    await expect(verifyPassword('secret-2', seeded)).resolves.toBe(true);
    await expect(verifyPassword('secret-3', seeded)).resolves.toBe(false);
    const stored = await hashPassword('secret-2');
    await expect(verifyPassword('secret-2', stored)).resolves.toBe(true);
    await expect(verifyPassword('secret-2 ', stored)).resolves.toBe(false);
    await expect(verifyPassword('', dummyHash())).resolves.toBe(false);
    // The same salt and cost with another key: the password no longer matches.
    const parts = stored.split('$');
    parts[5] = (parseInt(parts[5].slice(0, 2), 16) ^ 0xff).toString(16).padStart(2, '0') + parts[5].slice(2);
    await expect(verifyPassword('secret-2', parts.join('$'))).resolves.toBe(false);
  });
});
