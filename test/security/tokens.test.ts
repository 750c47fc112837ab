import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import jwt from 'jsonwebtoken';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCli, UsageError } from '../../src/cli/args.js';
import { makeConfig } from '../../src/process/config.js';
import { startServer } from '../../src/process/server.js';
import { accounts, expectError, makeSandbox, TEST_JWT_SECRET } from '../helpers/sandbox.js';
import { checkedFetch } from '../helpers/checked-clients.js';

/** Threats T1–T2 of docs/security.md: forged tokens and a guessable signing secret. */
const creds = ({ email, password }: { email: string; password: string }) => ({ email, password });
const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');

async function buyerToken() {
  const sb = await makeSandbox();
  const res = await sb.http.post('/api/auth/login').send(creds(accounts.buyer));
  return { sb, token: res.body.token as string, userId: res.body.user.id as string };
}

describe('T1 forged JWTs are refused', () => {
  it('refuses alg "none" tokens, whatever their claims', async () => {
    const { sb, userId } = await buyerToken();
    const now = Math.floor(sb.world.clock.now() / 1000);
    const claims = { sub: userId, typ: 'user', sbx: 'default', iat: now, exp: now + 3600 };
    for (const header of [{ alg: 'none', typ: 'JWT' }, { alg: 'None' }, { alg: 'NONE' }]) {
      const forged = `${b64(header)}.${b64(claims)}.`;
      expectError(
        await sb.http.get('/api/auth/me').set('authorization', `Bearer ${forged}`),
        401,
        'Invalid or expired token',
      );
    }
  });

  it('refuses a token whose payload was changed after signing', async () => {
    const { sb, token } = await buyerToken();
    const [header, , signature] = token.split('.');
    const seller = await sb.http.post('/api/auth/login').send(creds(accounts.seller));
    const claims = jwt.decode(seller.body.token as string) as Record<string, unknown>;
    const tampered = `${header}.${b64(claims)}.${signature}`;
    expectError(await sb.http.get('/api/auth/me').set('authorization', `Bearer ${tampered}`), 401);
    const flipped = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
    expectError(await sb.http.get('/api/auth/me').set('authorization', `Bearer ${flipped}`), 401);
  });

  it('refuses tokens signed with another secret, another algorithm or for another type', async () => {
    const { sb, userId } = await buyerToken();
    const now = Math.floor(sb.world.clock.now() / 1000);
    const claims = { sub: userId, typ: 'user', sbx: 'default', iat: now, exp: now + 3600 };
    const wrong = jwt.sign(claims, 'another-secret-0123456789abcdef0123456789');
    const hs512 = jwt.sign(claims, TEST_JWT_SECRET, { algorithm: 'HS512' });
    const guest = jwt.sign({ ...claims, typ: 'guest' }, TEST_JWT_SECRET);
    for (const t of [wrong, hs512, guest]) {
      expectError(await sb.http.get('/api/auth/me').set('authorization', `Bearer ${t}`), 401);
    }
    // The genuine token with the same claims works: the refusals above are about the signature.
    const good = jwt.sign(claims, TEST_JWT_SECRET);
    expect((await sb.http.get('/api/auth/me').set('authorization', `Bearer ${good}`)).status).toBe(200);
  });

  it('refuses an expired token (24 h of sandbox time)', async () => {
    const { sb, token } = await buyerToken();
    await sb.http.post('/__sandbox/clock').send({ advance: '25h' });
    expectError(await sb.http.get('/api/auth/me').set('authorization', `Bearer ${token}`), 401);
  });
});

describe('T2 the signing secret is random per data directory unless given', () => {
  const dirs: string[] = [];
  const dir = () => {
    const d = mkdtempSync(join(tmpdir(), 'sandbox-secret-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  const start = (dataDir: string, jwtSecret = '') =>
    startServer(
      makeConfig({ dataFile: join(dataDir, 'db.json'), port: 0, host: '127.0.0.1', listings: 5, jwtSecret }),
    );

  async function login(url: string): Promise<string> {
    const res = await checkedFetch(`${url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(creds(accounts.buyer)),
    });
    return ((await res.json()) as { token: string }).token;
  }
  const me = async (url: string, token: string) =>
    (await checkedFetch(`${url}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;

  it('keeps a 32-byte random secret beside the database (mode 0600), different per directory', async () => {
    const a = dir();
    const b = dir();
    const first = await start(a);
    const token = await login(first.url);
    await first.close();
    const secretA = readFileSync(join(a, 'jwt-secret'), 'utf8').trim();
    expect(secretA).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(join(a, 'jwt-secret')).mode & 0o777).toBe(0o600);
    // A restart on the same directory keeps the secret, so tokens survive.
    const again = await start(a);
    expect(await me(again.url, token)).toBe(200);
    await again.close();
    // Another directory has another secret: the token is refused there.
    const other = await start(b);
    expect(readFileSync(join(b, 'jwt-secret'), 'utf8').trim()).not.toBe(secretA);
    expect(await me(other.url, token)).toBe(401);
    await other.close();
  });

  it('uses --jwt-secret when given and refuses one shorter than 32 bytes', async () => {
    const secret = 'given-secret-0123456789abcdef-0123456789';
    const running = await start(dir(), secret);
    const token = await login(running.url);
    expect(() => jwt.verify(token, secret, { ignoreExpiration: true })).not.toThrow();
    await running.close();
    expect(() => parseCli(['--jwt-secret', 'short'], {})).toThrow(UsageError);
    expect(() => parseCli([], { SANDBOX_JWT_SECRET: 'x'.repeat(31) })).toThrow(/at least 32 bytes/);
    expect(parseCli(['--jwt-secret', secret], {}).config.jwtSecret).toBe(secret);
  });
});
