import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

const GENERIC = {
  success: true,
  message: 'If an account exists for this email, a reset link has been sent.',
};

async function latestToken(sb: TestSandbox, to: string): Promise<string | null> {
  const res = await sb.http.get('/__sandbox/mailbox').query({ to });
  expect(res.status).toBe(200);
  return res.body.messages[0]?.token ?? null;
}

describe('forgot and reset password', () => {
  it('answers identically for known and unknown e-mails', async () => {
    const sb = await makeSandbox();
    const known = await sb.http.post('/api/auth/forgot-password').send({ email: accounts.buyer.email });
    const unknown = await sb.http.post('/api/auth/forgot-password').send({ email: 'nobody@example.com' });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual(GENERIC);
    expect(unknown.body).toEqual(GENERIC);
    expect(await latestToken(sb, 'nobody@example.com')).toBeNull();
  });

  it('delivers a single-use token to the mailbox that sets a new password', async () => {
    const sb = await makeSandbox();
    // Logged in with it before: a password's match is remembered (src/api/auth/passwords.ts), and
    // must not outlive the password.
    const before = await sb.http
      .post('/api/auth/login')
      .send({ email: accounts.buyer.email, password: accounts.buyer.password });
    expect(before.status).toBe(200);
    await sb.http.post('/api/auth/forgot-password').send({ email: accounts.buyer.email });
    const token = await latestToken(sb, accounts.buyer.email);
    expect(token).toMatch(/^[0-9a-f]{48}$/);
    const ok = await sb.http.post('/api/auth/reset-password').send({ token, password: 'brand-new-pass' });
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ success: true, message: expect.any(String) });
    expectError(
      await sb.http
        .post('/api/auth/login')
        .send({ email: accounts.buyer.email, password: accounts.buyer.password }),
      401,
    );
    expect(
      (
        await sb.http
          .post('/api/auth/login')
          .send({ email: accounts.buyer.email, password: 'brand-new-pass' })
      ).status,
    ).toBe(200);
    expectError(
      await sb.http.post('/api/auth/reset-password').send({ token, password: 'another-pass' }),
      400,
      'Invalid or expired reset token',
    );
  });

  it('expires the token after one hour of sandbox time', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/api/auth/forgot-password').send({ email: accounts.seller.email });
    const token = await latestToken(sb, accounts.seller.email);
    await sb.http.post('/__sandbox/clock').send({ advance: '61m' });
    expectError(
      await sb.http.post('/api/auth/reset-password').send({ token, password: 'brand-new-pass' }),
      400,
      'Invalid or expired reset token',
    );
  });

  it('refuses unknown tokens and short passwords without changing anything', async () => {
    const sb = await makeSandbox();
    expectError(
      await sb.http.post('/api/auth/reset-password').send({ token: 'deadbeef', password: 'brand-new-pass' }),
      400,
      'Invalid or expired reset token',
    );
    await sb.http.post('/api/auth/forgot-password').send({ email: accounts.buyer.email });
    const token = await latestToken(sb, accounts.buyer.email);
    expectError(
      await sb.http.post('/api/auth/reset-password').send({ token, password: 'short' }),
      400,
      /body\.password/,
    );
    expect(
      (await sb.http.post('/api/auth/reset-password').send({ token, password: 'long-enough-now' })).status,
    ).toBe(200);
  });

  it('lists the whole mailbox newest first without a filter', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/api/auth/forgot-password').send({ email: accounts.buyer.email });
    await sb.http.post('/api/auth/forgot-password').send({ email: accounts.seller.email });
    const res = await sb.http.get('/__sandbox/mailbox');
    expect(res.body.messages.map((m: { to: string }) => m.to)).toEqual([
      accounts.seller.email,
      accounts.buyer.email,
    ]);
  });
});
