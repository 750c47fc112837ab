import jwt from 'jsonwebtoken';
import { describe, expect, it } from 'vitest';
import {
  accounts,
  expectDetailedError,
  expectError,
  makeSandbox,
  TEST_JWT_SECRET,
} from '../helpers/sandbox.js';

describe('register', () => {
  it('creates a user, logs them in and rejects the same e-mail twice', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .post('/api/auth/register')
      .send({ email: 'New.User@Example.com', password: 'longenough', fullName: 'New User' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      success: true,
      token: expect.any(String),
      user: { id: expect.any(String), email: 'new.user@example.com' },
    });
    const me = await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${res.body.token}`);
    expect(me.body).toEqual({
      id: res.body.user.id,
      email: 'new.user@example.com',
      fullName: 'New User',
      referralCode: expect.stringMatching(/^REF-/),
    });
    const again = await sb.http
      .post('/api/auth/register')
      .send({ email: 'new.user@example.com', password: 'longenough' });
    expectError(again, 409, 'An account with this email already exists');
  });

  it('validates e-mail, password length and unknown fields', async () => {
    const sb = await makeSandbox();
    expectError(
      await sb.http.post('/api/auth/register').send({ email: 'not-an-email', password: 'longenough' }),
      400,
      /body\.email must match format "email"/,
    );
    expectError(
      await sb.http.post('/api/auth/register').send({ email: 'a@b.co', password: 'short' }),
      400,
      /body\.password must NOT have fewer than 8 characters/,
    );
    expectError(
      await sb.http.post('/api/auth/register').send({ password: 'longenough' }),
      400,
      'body.email is required',
    );
    expectError(
      await sb.http
        .post('/api/auth/register')
        .send({ email: 'a@b.co', password: 'longenough', balance_cents: 1 }),
      400,
      'body.balance_cents is not allowed',
    );
    expectError(
      await sb.http.post('/api/auth/register').send({ email: 'a@b.co', password: 12345678 }),
      400,
      /body\.password must be string/,
    );
  });

  it('credits the referrer 500 cents through the wallet', async () => {
    const sb = await makeSandbox();
    const seller = await sb.login(accounts.seller.email, accounts.seller.password);
    const before = (await sb.http.get('/api/wallet/balance').set('Authorization', seller)).body
      .balance_cents as number;
    const code = (await sb.http.get('/api/auth/me').set('Authorization', seller)).body.referralCode as string;
    const res = await sb.http
      .post('/api/auth/register')
      .send({ email: 'friend@example.com', password: 'longenough', referralCode: code });
    expect(res.status).toBe(201);
    const after = await sb.http.get('/api/wallet/balance').set('Authorization', seller);
    expect(after.body.balance_cents).toBe(before + 500);
    const newcomer = `Bearer ${res.body.token}`;
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', newcomer)).body).toEqual({
      balance_cents: 0,
      balance_usd: '0.00',
    });
  });

  it('creates the account for an unknown referral code, credits nobody, and says so in a warning', async () => {
    const sb = await makeSandbox();
    const total = () => Object.values(sb.world.store.db.users).reduce((sum, u) => sum + u.balance_cents, 0);
    const before = total();
    const res = await sb.http
      .post('/api/auth/register')
      .send({ email: 'x@example.com', password: 'longenough', referralCode: 'REF-NOPE' });
    expect(res.status).toBe(201);
    expect(res.headers['x-sandbox-warning']).toBe(
      'referralCode "REF-NOPE" is no user\'s code: the account is created, nobody is credited',
    );
    expect(total()).toBe(before);
    const login = await sb.http
      .post('/api/auth/login')
      .send({ email: 'x@example.com', password: 'longenough' });
    expect(login.status).toBe(200);
  });

  it('refuses an unknown referral code with --strict, creating nothing', async () => {
    const sb = await makeSandbox({ strict: true });
    const res = await sb.http
      .post('/api/auth/register')
      .send({ email: 'x@example.com', password: 'longenough', referralCode: 'REF-NOPE' });
    expectError(res, 400, 'body.referralCode is not a known referral code');
    expect(res.headers['x-sandbox-warning']).toBeUndefined();
    expect(
      (await sb.http.post('/api/auth/login').send({ email: 'x@example.com', password: 'longenough' })).status,
    ).toBe(401);
  });

  it('uses the configured referral credit', async () => {
    const sb = await makeSandbox({ referralCreditCents: 1234 });
    const buyer = await sb.login(accounts.buyer.email, accounts.buyer.password);
    const code = (await sb.http.get('/api/auth/me').set('Authorization', buyer)).body.referralCode as string;
    await sb.http
      .post('/api/auth/register')
      .send({ email: 'y@example.com', password: 'longenough', referralCode: code.toLowerCase() });
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', buyer)).body.balance_cents).toBe(
      100000 + 1234,
    );
  });
});

describe('login', () => {
  it('returns an HS256 JWT valid 24 hours of sandbox time', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .post('/api/auth/login')
      .send({ email: accounts.buyer.email, password: accounts.buyer.password });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      success: true,
      token: expect.any(String),
      user: { id: expect.any(String), email: accounts.buyer.email },
    });
    const decoded = jwt.decode(res.body.token, { complete: true }) as jwt.Jwt;
    expect(decoded.header.alg).toBe('HS256');
    const claims = decoded.payload as jwt.JwtPayload;
    expect(claims.exp! - claims.iat!).toBe(24 * 3600);
    expect(claims.iat! * 1000).toBeLessThanOrEqual(sb.world.clock.now());
  });

  it('accepts the e-mail in any case and refuses wrong credentials with 401', async () => {
    const sb = await makeSandbox();
    expect(
      (
        await sb.http
          .post('/api/auth/login')
          .send({ email: 'BUYER@sandbox.test', password: accounts.buyer.password })
      ).status,
    ).toBe(200);
    expectDetailedError(
      await sb.http.post('/api/auth/login').send({ email: accounts.buyer.email, password: 'wrong-password' }),
      401,
      'Invalid or expired token',
      'Invalid email or password',
    );
    expectDetailedError(
      await sb.http.post('/api/auth/login').send({ email: 'nobody@sandbox.test', password: 'whatever1' }),
      401,
      'Invalid or expired token',
      'Invalid email or password',
    );
    expectError(
      await sb.http.post('/api/auth/login').send({ email: accounts.buyer.email }),
      400,
      'body.password is required',
    );
  });

  it('expires the token after 24 hours on the sandbox clock', async () => {
    const sb = await makeSandbox();
    const token = await sb.login(accounts.buyer.email, accounts.buyer.password);
    await sb.http.post('/__sandbox/clock').send({ advance: '23h59m' });
    expect((await sb.http.get('/api/auth/me').set('Authorization', token)).status).toBe(200);
    await sb.http.post('/__sandbox/clock').send({ advance: '2m' });
    expectError(
      await sb.http.get('/api/auth/me').set('Authorization', token),
      401,
      'Invalid or expired token',
    );
  });
});

describe('credentials', () => {
  const forge = (payload: object, secret: string, alg: jwt.Algorithm = 'HS256') =>
    jwt.sign(payload, secret, { algorithm: alg });

  it('refuses alg none, tampered, wrong-secret and foreign-world tokens with 401', async () => {
    const sb = await makeSandbox();
    const good = (
      await sb.http
        .post('/api/auth/login')
        .send({ email: accounts.buyer.email, password: accounts.buyer.password })
    ).body;
    const [h, p] = (good.token as string).split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${p}.`;
    const claims = jwt.decode(good.token) as jwt.JwtPayload;
    const tamperedPayload = Buffer.from(JSON.stringify({ ...claims, sub: 'someone-else' })).toString(
      'base64url',
    );
    const tampered = `${h}.${tamperedPayload}.${(good.token as string).split('.')[2]}`;
    const wrongSecret = forge(claims, 'another-secret-another-secret-another-secret');
    const otherWorld = forge({ ...claims, sbx: 'elsewhere' }, TEST_JWT_SECRET);
    for (const token of [none, tampered, wrongSecret, otherWorld, 'garbage', `${good.token}x`]) {
      expectError(
        await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${token}`),
        401,
        'Invalid or expired token',
      );
    }
    expectError(
      await sb.http.get('/api/auth/me').set('Authorization', `Basic abc`),
      401,
      'Invalid or expired token',
    );
  });

  it('asks for a credential when none is sent', async () => {
    const sb = await makeSandbox();
    for (const path of ['/api/auth/me', '/api/wallet/balance'])
      expectDetailedError(
        await sb.http.get(path),
        401,
        'Invalid or expired token',
        /^Authentication required: send Authorization: Bearer/,
      );
  });

  it('accepts a pre-made API key as a bearer header and as api_key', async () => {
    const sb = await makeSandbox();
    const viaHeader = await sb.http
      .get('/api/auth/me')
      .set('Authorization', `Bearer ${accounts.buyer.apiKey}`);
    expect(viaHeader.body.email).toBe(accounts.buyer.email);
    const viaQuery = await sb.http.get(`/api/auth/me?api_key=${accounts.seller.apiKey}`);
    expect(viaQuery.body.email).toBe(accounts.seller.email);
    expectError(await sb.http.get('/api/auth/me?api_key=mk_test_unknown'), 401, 'Invalid or expired token');
  });

  it('ignores credentials on operations that take none', async () => {
    const sb = await makeSandbox();
    expect((await sb.http.post('/api/auth/guest').set('Authorization', 'Bearer nope')).status).toBe(201);
    expect((await sb.http.get('/__sandbox/health').set('Authorization', 'Bearer nope')).status).toBe(200);
  });

  it('issues guest tokens that are not user credentials', async () => {
    const sb = await makeSandbox();
    const res = await sb.http.post('/api/auth/guest');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ guestToken: expect.any(String), expires_in: 604800 });
    expectError(
      await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${res.body.guestToken}`),
      401,
      'Invalid or expired token',
    );
    expectError(
      await sb.http.get('/api/auth/me').set('X-Guest-Token', 'forged'),
      401,
      'Invalid or expired token',
    );
    expectDetailedError(
      await sb.http.get('/api/auth/me').set('X-Guest-Token', res.body.guestToken),
      401,
      'Invalid or expired token',
      /^Authentication required: send Authorization: Bearer/,
    );
  });
});
