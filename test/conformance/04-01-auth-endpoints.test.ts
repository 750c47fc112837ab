import { describe, expect, it } from 'vitest';
import { accounts, expectError, logIn, newUser, useSandbox, type Reply } from './support/client.js';
import { isUuid } from './support/document.js';

// Interface document, 4.1 to 4.4: login, register, forgot-password, reset-password.
const ctx = useSandbox();

type Login = { success: boolean; token: string; user: { id: string; email: string } };

const b64url = (part: string) =>
  JSON.parse(Buffer.from(part, 'base64url').toString('utf8')) as Record<string, unknown>;

describe('4.1 POST /api/auth/login', () => {
  it('"Response 200: success (boolean), token (string, JWT), user (object with id and email)."', async () => {
    const res = await ctx.api.post<Login>('/api/auth/login', {
      email: accounts.buyer.email,
      password: accounts.buyer.password,
    });
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
    const [header, payload, signature] = res.body.token.split('.');
    expect(b64url(header)).toMatchObject({ alg: expect.any(String) });
    expect(b64url(payload)).toMatchObject({ exp: expect.any(Number) });
    expect(signature.length).toBeGreaterThan(0);
    expect(res.body.user).toMatchObject({ email: accounts.buyer.email });
    expect(isUuid(res.body.user.id)).toBe(true);
  });

  it('"Response 200: success (boolean), token (string, JWT), user (object with id and email)." only for the right password: a wrong one is a 401 ("401 | Unauthorized") and gives no token', async () => {
    const res = await ctx.api.post('/api/auth/login', {
      email: accounts.buyer.email,
      password: 'not-the-password',
    });
    expectError(res, 401);
  });
});

describe('4.2 POST /api/auth/register', () => {
  const register = (body: Record<string, unknown>) => ctx.api.post('/api/auth/register', body);

  it('"email (string, required)": without it the registration is refused', async () => {
    expectError(await register({ password: 'long-enough-1', fullName: 'No Mail' }), 400);
  });

  it('"password (string, minimum 8 characters)": 7 characters are refused, 8 accepted', async () => {
    expectError(await register({ email: 'seven@example.com', password: '1234567' }), 400);
    const ok = await register({ email: 'eight@example.com', password: '12345678' });
    expect(ok.status, ok.text).toBe(201);
    await logIn(ctx.api, 'eight@example.com', '12345678');
  });

  it('"Response body and the credited amount: not shown." (sandbox choice: 201 {success, token, user})', async () => {
    const res = await register({ email: 'shape@example.com', password: 'long-enough-1', fullName: 'Shape' });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      token: expect.any(String),
      user: { email: 'shape@example.com' },
    });
  });

  it('"referralCode (string, optional; a valid code credits the referrer)"', async () => {
    const referrer = await newUser(ctx.api);
    const me = await ctx.api.get<{ referralCode: string }>('/api/auth/me', { token: referrer.token });
    const balance = async () =>
      (await ctx.api.get<{ balance_cents: number }>('/api/wallet/balance', { token: referrer.token })).body
        .balance_cents;
    const before = await balance();
    const res = await register({
      email: 'referred@example.com',
      password: 'long-enough-1',
      referralCode: me.body.referralCode,
    });
    expect(res.status).toBe(201);
    // The credited amount is not shown; the sandbox's choice is 500 cents (openapi.yaml `register`; `--referral-credit` in README.md, "Flags").
    expect((await balance()) - before).toBe(500);
  });

  it('"referralCode (string, optional; …)": an unknown code does not stop the registration', async () => {
    const res = await register({
      email: 'unknown-ref@example.com',
      password: 'long-enough-1',
      referralCode: 'NOT-A-CODE',
    });
    expect(res.status, res.text).toBe(201);
    await logIn(ctx.api, 'unknown-ref@example.com', 'long-enough-1');
  });
});

describe('4.3 POST /api/auth/forgot-password', () => {
  const comparable = (res: Reply) => ({
    status: res.status,
    body: res.body,
    contentType: res.headers.get('content-type'),
    length: res.headers.get('content-length'),
  });

  it('"Response 200: success (boolean true), message (string)."', async () => {
    const res = await ctx.api.post('/api/auth/forgot-password', { email: accounts.buyer.email });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
  });

  it('"The response is the same whether or not the e-mail exists, so existence cannot be discovered."', async () => {
    const known = await ctx.api.post('/api/auth/forgot-password', { email: accounts.buyer.email });
    const unknown = await ctx.api.post('/api/auth/forgot-password', { email: 'nobody-here@example.com' });
    expect(comparable(unknown)).toEqual(comparable(known));
  });
});

describe('4.4 POST /api/auth/reset-password', () => {
  async function resetToken(email: string): Promise<string> {
    await ctx.api.post('/api/auth/forgot-password', { email });
    // The sandbox keeps the mail it would have sent (openapi.yaml `forgotPassword` and `getMailbox`; README.md, "Control API").
    const mail = await ctx.api.get<{ messages: { token: string }[] }>('/__sandbox/mailbox', {
      query: { to: email },
    });
    return mail.body.messages[0].token;
  }

  it('"Request: token (string, the reset token), password (string). Response 200: success (boolean), message (string)."', async () => {
    const user = await newUser(ctx.api);
    const res = await ctx.api.post('/api/auth/reset-password', {
      token: await resetToken(user.email),
      password: 'fresh-password-1',
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, message: expect.any(String) });
    await logIn(ctx.api, user.email, 'fresh-password-1');
    expectError(await ctx.api.post('/api/auth/login', { email: user.email, password: user.password }), 401);
  });

  it('"Request: token (string, the reset token), password (string).": a reset token works once (sandbox choice: single-use, one hour)', async () => {
    const user = await newUser(ctx.api);
    const token = await resetToken(user.email);
    expect(
      (await ctx.api.post('/api/auth/reset-password', { token, password: 'fresh-password-1' })).status,
    ).toBe(200);
    expectError(await ctx.api.post('/api/auth/reset-password', { token, password: 'fresh-password-2' }), 400);
  });
});
