import { describe, expect, it } from 'vitest';
import { accounts, expectDetailedError, expectError, makeSandbox } from '../helpers/sandbox.js';

describe('API keys', () => {
  it('creates a key shown once, lists it without the secret, and revokes it', async () => {
    const sb = await makeSandbox();
    const token = await sb.login(accounts.buyer.email, accounts.buyer.password);
    const created = await sb.http
      .post('/api/settings/api-keys')
      .set('Authorization', token)
      .send({ name: 'CI' });
    expect(created.status).toBe(201);
    expect(created.body.key).toMatch(/^mk_test_[0-9a-f]{48}$/);
    expect(created.body.prefix).toBe(created.body.key.slice(0, 16));
    const key = created.body.key as string;
    const me = await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${key}`);
    expect(me.body.email).toBe(accounts.buyer.email);

    const list = await sb.http.get('/api/settings/api-keys').set('Authorization', token);
    expect(list.status).toBe(200);
    expect(list.body.api_keys).toHaveLength(2);
    expect(JSON.stringify(list.body)).not.toContain(key);
    expect(sb.world.store.db.api_keys[created.body.id].hash).not.toContain(key);

    const revoked = await sb.http
      .delete(`/api/settings/api-keys/${created.body.id}`)
      .set('Authorization', token);
    expect(revoked.body).toEqual({ success: true, id: created.body.id });
    expectError(
      await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${key}`),
      401,
      'Invalid or expired token',
    );
    expectError(
      await sb.http.delete(`/api/settings/api-keys/${created.body.id}`).set('Authorization', token),
      404,
      'API key not found',
    );
  });

  it('creates a key without a body', async () => {
    const sb = await makeSandbox();
    const res = await sb.http
      .post('/api/settings/api-keys')
      .set('Authorization', `Bearer ${accounts.seller.apiKey}`);
    expect(res.status).toBe(201);
    expect(res.body.name).toBeNull();
  });

  it("never shows or revokes another user's key", async () => {
    const sb = await makeSandbox();
    const buyer = await sb.login(accounts.buyer.email, accounts.buyer.password);
    const seller = await sb.login(accounts.seller.email, accounts.seller.password);
    const created = await sb.http
      .post('/api/settings/api-keys')
      .set('Authorization', buyer)
      .send({ name: 'mine' });
    const sellerList = await sb.http.get('/api/settings/api-keys').set('Authorization', seller);
    expect(sellerList.body.api_keys.map((k: { id: string }) => k.id)).not.toContain(created.body.id);
    expectError(
      await sb.http.delete(`/api/settings/api-keys/${created.body.id}`).set('Authorization', seller),
      404,
      'API key not found',
    );
    expect(
      (await sb.http.get('/api/auth/me').set('Authorization', `Bearer ${created.body.key}`)).status,
    ).toBe(200);
  });

  it('validates the id and the body, and needs a credential', async () => {
    const sb = await makeSandbox();
    const auth = `Bearer ${accounts.buyer.apiKey}`;
    expectError(
      await sb.http.delete('/api/settings/api-keys/not-a-uuid').set('Authorization', auth),
      400,
      /params\.id must match format "uuid"/,
    );
    expectError(
      await sb.http.post('/api/settings/api-keys').set('Authorization', auth).send({ name: 5 }),
      400,
      /body\.name must be string/,
    );
    expectDetailedError(
      await sb.http.get('/api/settings/api-keys'),
      401,
      'Invalid or expired token',
      /^Authentication required: send Authorization: Bearer/,
    );
  });
});
