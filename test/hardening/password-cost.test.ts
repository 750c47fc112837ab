import { randomBytes, randomUUID, scryptSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  accounts,
  expectDetailedError,
  expectError,
  makeSandbox,
  type TestSandbox,
} from '../helpers/sandbox.js';

// Issue 14, Resources: login and registration were held to the pace of scrypt at N=16384 on one
// thread. Sandbox passwords are test credentials: hashes cost at most 256 KB of scrypt work
// (N·r·128 bytes; docs/security.md T20 has the figures, and says why that gives over 500 logins a
// second on 2 cores), stay salted, and hashes made by earlier versions still verify.

/** The scrypt memory (and work) of a stored hash: 128·N·r·p bytes. */
function scryptBytes(stored: string): number {
  const [kind, N, r, p] = stored.split('$');
  expect(kind).toBe('scrypt');
  return 128 * Number(N) * Number(r) * Number(p);
}

const hashOf = (sb: TestSandbox, email: string) =>
  Object.values(sb.world.store.db.users).find((u) => u.email === email)?.password_hash ?? '';

/** A hash as earlier versions stored it (scrypt N=16384, r=8, p=1, 16-byte salt, 32-byte key). */
function earlierVersionHash(password: string): string {
  const salt = randomBytes(16);
  const key = scryptSync(password, salt, 32, { N: 16384, r: 8, p: 1, maxmem: 64 * 1024 * 1024 });
  return `scrypt$16384$8$1$${salt.toString('hex')}$${key.toString('hex')}`;
}

function addUser(sb: TestSandbox, email: string, passwordHash: string): void {
  const id = randomUUID();
  sb.world.store.mutate((db) => {
    db.users[id] = {
      id,
      email,
      password_hash: passwordHash,
      full_name: null,
      referral_code: `REF${email.length}X${email.charCodeAt(0)}`,
      referred_by: null,
      balance_cents: 0,
      created_at: '2026-01-01T00:00:00.000Z',
    };
  });
}

describe('password hashing', () => {
  it('stores registrations and the seeded accounts at a cost of at most 256 KB of scrypt work, salted per user', async () => {
    const sb = await makeSandbox();
    for (const email of ['one@example.com', 'two@example.com']) {
      const res = await sb.http.post('/api/auth/register').send({ email, password: 'same-password-1' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
    const one = hashOf(sb, 'one@example.com');
    const two = hashOf(sb, 'two@example.com');
    expect(scryptBytes(one)).toBeLessThanOrEqual(256 * 1024);
    expect(scryptBytes(hashOf(sb, accounts.buyer.email))).toBeLessThanOrEqual(256 * 1024);
    // Same password, different salt, different hash.
    expect(one.split('$')[4]).not.toBe(two.split('$')[4]);
    expect(one.split('$')[5]).not.toBe(two.split('$')[5]);
    expect(
      (await sb.http.post('/api/auth/login').send({ email: 'two@example.com', password: 'same-password-1' }))
        .status,
    ).toBe(200);
    expectError(
      await sb.http.post('/api/auth/login').send({ email: 'two@example.com', password: 'same-password-2' }),
      401,
    );
  });

  it('still verifies hashes made by earlier versions (N=16384) at their own cost, and makes them again at today’s on login', async () => {
    const sb = await makeSandbox();
    addUser(sb, 'old@example.com', earlierVersionHash('old-password-1'));
    expectDetailedError(
      await sb.http.post('/api/auth/login').send({ email: 'old@example.com', password: 'old-password-2' }),
      401,
      'Invalid or expired token',
      'Invalid email or password',
    );
    expect(scryptBytes(hashOf(sb, 'old@example.com'))).toBe(16 * 1024 * 1024);
    expect(
      (await sb.http.post('/api/auth/login').send({ email: 'old@example.com', password: 'old-password-1' }))
        .status,
    ).toBe(200);
    expect(scryptBytes(hashOf(sb, 'old@example.com'))).toBeLessThanOrEqual(256 * 1024);
    expect(
      (await sb.http.post('/api/auth/login').send({ email: 'old@example.com', password: 'old-password-1' }))
        .status,
    ).toBe(200);
    expectDetailedError(
      await sb.http.post('/api/auth/login').send({ email: 'old@example.com', password: 'old-password-2' }),
      401,
      'Invalid or expired token',
      'Invalid email or password',
    );
  });

  it('refuses, never runs, a stored hash whose cost is out of bounds or malformed (a damaged data file)', async () => {
    const sb = await makeSandbox();
    const salt = randomBytes(16).toString('hex');
    const key = randomBytes(32).toString('hex');
    const bad = [
      `scrypt$1073741824$8$1$${salt}$${key}`,
      `scrypt$16384$1024$1$${salt}$${key}`,
      `scrypt$1000$8$1$${salt}$${key}`,
      `scrypt$256$8$1$${salt}$${key.slice(0, 10)}`,
      `scrypt$-256$8$1$${salt}$${key}`,
      'not-a-hash',
    ];
    for (const [i, hash] of bad.entries()) {
      addUser(sb, `bad${i}@example.com`, hash);
      const res = await sb.http
        .post('/api/auth/login')
        .send({ email: `bad${i}@example.com`, password: 'whatever-1' });
      expectDetailedError(res, 401, 'Invalid or expired token', 'Invalid email or password');
    }
  });
});
