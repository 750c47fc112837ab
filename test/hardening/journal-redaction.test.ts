import { describe, expect, it } from 'vitest';
import { accounts, makeSandbox } from '../helpers/sandbox.js';

// Issue 14, Access: "The request journal shows a password or API key in clear when it arrives as an
// array or object". Every value under a secret-bearing name is redacted, at any depth and of any
// type, in bodies, queries and headers, whether the request was refused or not.

/** Secrets no journal entry may show, each sent in a shape that once slipped through. */
const SECRETS = {
  arrayPassword: 'secret-array-password-1',
  objectPassword: 'secret-object-password-2',
  numberPassword: 31415926535,
  deepPassword: 'secret-deep-password-3',
  repeatedKey: accounts.buyer.apiKey,
  headerKey: 'secret-header-key-4',
  scopedCredential: accounts.seller.apiKey,
  bracketKey: 'secret-bracket-key-5',
};

/** `{"a":[{"a":[… {"password": secret} …]}]}`, `levels` objects deep. */
function nested(levels: number, secret: string): unknown {
  let value: unknown = { password: secret };
  for (let i = 0; i < levels; i += 1) value = { a: [value] };
  return value;
}

describe('the request journal redacts secrets of any shape', () => {
  it('never shows a secret sent as an array, an object, a number, deep down, repeated or in a header', async () => {
    const sb = await makeSandbox();
    const login = (body: unknown) => sb.http.post('/api/auth/login').send(body as object);
    await login({ email: accounts.buyer.email, password: [SECRETS.arrayPassword] });
    await login({ email: accounts.buyer.email, password: { value: SECRETS.objectPassword, list: ['x'] } });
    await login({ email: accounts.buyer.email, password: SECRETS.numberPassword });
    await login(nested(40, SECRETS.deepPassword));
    await login(nested(5, SECRETS.deepPassword));
    const key = encodeURIComponent(SECRETS.repeatedKey);
    await sb.http.get(`/api/wallet/balance?api_key=${key}&api_key=${key}`);
    await sb.http.get(`/api/shop/listings?api_key[x]=${SECRETS.bracketKey}`);
    await sb.http.get('/api/shop/categories').set('X-Api-Key', SECRETS.headerKey);
    await sb.http
      .post('/__sandbox/scenarios')
      .send({ name: 'server.error', scope: { credential: SECRETS.scopedCredential, path: '/nowhere' } });

    const res = await sb.http.get('/__sandbox/requests');
    expect(res.status).toBe(200);
    expect(res.body.requests.length).toBe(9);
    const text = JSON.stringify(res.body);
    for (const [shape, secret] of Object.entries(SECRETS)) {
      expect(text, `${shape} shown in clear`).not.toContain(String(secret));
      expect(text, `${shape} shown in part`).not.toContain(String(secret).slice(0, 12));
    }
    expect(text).toContain('[REDACTED]');
    // What is not secret stays readable.
    expect(text).toContain(accounts.buyer.email);
    expect(text).toContain('/nowhere');
  });

  it('keeps a `__proto__` key of a body as a key, redacting what is under a secret name in it', async () => {
    const sb = await makeSandbox();
    await sb.http
      .post('/api/auth/login')
      .set('content-type', 'application/json')
      .send(`{"email":"a@b.c","__proto__":{"password":"${SECRETS.objectPassword}"}}`);
    const text = JSON.stringify((await sb.http.get('/__sandbox/requests')).body);
    expect(text).toContain('__proto__');
    expect(text).not.toContain(SECRETS.objectPassword);
  });
});

describe('a secret is redacted wherever its value appears in the entry, not only under its name', () => {
  it('a reset token in a mail text, a key in a query value, a token in a path: none in clear', async () => {
    const sb = await makeSandbox();
    expect(
      (await sb.http.post('/api/auth/forgot-password').send({ email: accounts.buyer.email })).status,
    ).toBe(200);
    const mail = await sb.http.get(`/__sandbox/mailbox?to=${accounts.buyer.email}`);
    const token = mail.body.messages[0].token as string;
    expect(mail.body.messages[0].text).toContain(token);
    // The same API key as the credential and as an ordinary query value; a login's token in a path.
    const key = accounts.seller.apiKey;
    await sb.http.get(`/api/shop/listings?note=${key}`).set('Authorization', `Bearer ${key}`);
    const login = await sb.http
      .post('/api/auth/login')
      .send({ email: accounts.buyer.email, password: accounts.buyer.password });
    const jwt = login.body.token as string;
    await sb.http.get(`/api/shop/listings/${jwt}`).set('Authorization', `Bearer ${jwt}`);

    const entries = (await sb.http.get('/__sandbox/requests')).body.requests as Record<string, unknown>[];
    const text = JSON.stringify(entries);
    for (const [what, secret] of Object.entries({ token, key, jwt, password: accounts.buyer.password }))
      expect(text, `${what} shown in clear`).not.toContain(secret);
    const mailbox = entries.find((e) => e.path === '/__sandbox/mailbox') as {
      response_body: { messages: { text: string; to: string }[] };
    };
    // The text stays readable around the secret; what is not secret stays as it was.
    expect(mailbox.response_body.messages[0].text).toMatch(
      /^Use this token with POST \/api\/auth\/reset-password within one hour: \[REDACTED\]$/,
    );
    expect(mailbox.response_body.messages[0].to).toBe(accounts.buyer.email);
    expect(text).toContain('/api/shop/listings/[REDACTED]');
    // The entry read alone is redacted the same way.
    const one = await sb.http.get(`/__sandbox/requests/${String((mailbox as { id?: string }).id)}`);
    expect(JSON.stringify(one.body)).not.toContain(token);
  });
});
