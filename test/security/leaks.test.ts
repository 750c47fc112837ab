import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../../src/process/logger.js';
import { accounts, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

/** Threats T8–T9 of docs/security.md: secrets in logs and the journal; probing e-mails by timing. */
function capture(): { stream: Writable; text: () => string } {
  let out = '';
  const stream = new Writable({
    write(chunk, _enc, done) {
      out += String(chunk);
      done();
    },
  });
  return { stream, text: () => out };
}

const SECRETS = {
  password: 'hunter2-very-secret',
  jwt: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl',
  key: accounts.buyer.apiKey,
  guest: 'guest-token-secret-value',
};

describe('T8 secrets are redacted in logs and the journal', () => {
  it('the logger redacts credentials wherever a request or body carries them', () => {
    const out = capture();
    const log = createLogger('info', out.stream);
    log.info({
      req: {
        headers: { authorization: `Bearer ${SECRETS.jwt}`, 'x-guest-token': SECRETS.guest },
        query: { api_key: SECRETS.key },
      },
      body: { email: 'a@b.test', password: SECRETS.password },
    });
    log.error({ err: { message: 'boom', token: SECRETS.jwt, details: { key: SECRETS.key } } }, 'failed');
    log.info({ password: SECRETS.password, config: { jwtSecret: SECRETS.guest } });
    const text = out.text();
    for (const secret of Object.values(SECRETS)) expect(text).not.toContain(secret);
    expect(text).toContain('[redacted]');
    expect(text).toContain('a@b.test');
  });

  it('a crash logged by the app holds no credential of the request', async () => {
    const sb = await makeSandbox();
    const out = capture();
    sb.deps.log = createLogger('info', out.stream);
    sb.world.store.db.users = null as never;
    const res = await sb.http
      .post('/api/auth/login')
      .set('authorization', `Bearer ${SECRETS.key}`)
      .send({ email: 'a@b.test', password: SECRETS.password });
    expect(res.status).toBe(500);
    expect(out.text()).toContain('unhandled error');
    for (const secret of Object.values(SECRETS)) expect(out.text()).not.toContain(secret);
  });

  it('the request journal keeps no password, token or API key', async () => {
    const sb = await makeSandbox();
    const login = await sb.http
      .post('/api/auth/login')
      .send({ email: accounts.buyer.email, password: accounts.buyer.password });
    await sb.http.get('/api/auth/me').set('authorization', `Bearer ${login.body.token}`);
    await sb.http.get(`/api/wallet/balance?api_key=${accounts.buyer.apiKey}`);
    await sb.http
      .post('/api/settings/api-keys')
      .set('authorization', `Bearer ${accounts.buyer.apiKey}`)
      .send({});
    const text = JSON.stringify((await sb.http.get('/__sandbox/requests')).body);
    expect(text).toContain('/api/auth/login');
    for (const secret of [accounts.buyer.password, login.body.token, accounts.buyer.apiKey])
      expect(text).not.toContain(secret);
    expect(text).not.toMatch(/mk_test_[0-9a-f]{48}/);
  });
});

/** Counts the store work of a block: commits, mutations, and the version moved. */
async function storeWork(sb: TestSandbox, run: () => Promise<unknown>) {
  const store = sb.world.store;
  const counts = { mutate: 0, commit: 0 };
  const mutate = store.mutate.bind(store);
  const commit = store.commit.bind(store);
  Object.assign(store, {
    mutate: (f: never) => (counts.mutate++, mutate(f)),
    commit: (f: never) => (counts.commit++, commit(f)),
  });
  const version = store.version;
  const mails = store.db.mailbox.length;
  try {
    const res = await run();
    return { ...counts, versions: store.version - version, mails: store.db.mailbox.length - mails, res };
  } finally {
    Object.assign(store, { mutate, commit });
  }
}

describe('T9 forgot-password cannot tell known from unknown e-mails', () => {
  it('answers the same bytes and does the same store work for both', async () => {
    const sb = await makeSandbox();
    const ask = (email: string) => sb.http.post('/api/auth/forgot-password').send({ email });
    const known = await storeWork(sb, () => ask(accounts.buyer.email));
    const unknown = await storeWork(sb, () => ask('nobody-here@sandbox.test'));
    const k = known.res as { status: number; text: string };
    const u = unknown.res as { status: number; text: string };
    expect(u.status).toBe(k.status);
    expect(u.text).toBe(k.text);
    expect({ ...unknown, res: null }).toEqual({ ...known, res: null });
    expect(known.commit).toBe(1);
    expect(known.mails).toBe(1);
  });

  it('takes about as long for both (medians of interleaved calls, generous bound)', async () => {
    const sb = await makeSandbox();
    const time = async (email: string) => {
      const t = performance.now();
      await sb.http.post('/api/auth/forgot-password').send({ email });
      return performance.now() - t;
    };
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 5; i++) await time(accounts.buyer.email); // warm-up
    for (let i = 0; i < 40; i++) {
      known.push(await time(accounts.buyer.email));
      unknown.push(await time(`nobody-${i}@sandbox.test`));
    }
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
    const ratio = median(known) / median(unknown);
    expect(ratio).toBeGreaterThan(1 / 3);
    expect(ratio).toBeLessThan(3);
  });
});
