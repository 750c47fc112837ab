import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

describe('snapshots', () => {
  it('save the database and the clock, and restore both', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/clock').send({ set: '2026-03-01T00:00:00.000Z', freeze: true });
    const saved = await sb.http.post('/__sandbox/snapshots').send({ name: 'before' });
    expect(saved.status).toBe(201);
    expect(saved.body).toMatchObject({
      name: 'before',
      created_at: '2026-03-01T00:00:00.000Z',
      clock: { now: '2026-03-01T00:00:00.000Z', frozen: true },
    });
    expect(saved.body.bytes).toBeGreaterThan(1000);
    const key = await sb.http
      .post('/api/settings/api-keys')
      .set('Authorization', `Bearer ${accounts.buyer.apiKey}`)
      .send({ name: 'later' });
    expect(key.status).toBe(201);
    await sb.http.post('/__sandbox/clock').send({ advance: '3d', freeze: false });
    const restored = await sb.http.post('/__sandbox/snapshots/before/restore');
    expect(restored.status).toBe(200);
    expect((await sb.http.get('/__sandbox/clock')).body).toEqual({
      now: '2026-03-01T00:00:00.000Z',
      frozen: true,
    });
    const keys = await sb.http
      .get('/api/settings/api-keys')
      .set('Authorization', `Bearer ${accounts.buyer.apiKey}`);
    expect(keys.body.api_keys.map((k: { name: string }) => k.name)).not.toContain('later');
  });

  it('are listed, replaced by name, kept across a reset and deleted', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/snapshots').send({ name: 'a' });
    await sb.http.post('/__sandbox/snapshots').send({ name: 'b' });
    await sb.http.post('/__sandbox/snapshots').send({ name: 'a' });
    await sb.http.post('/__sandbox/reset');
    expect(
      (await sb.http.get('/__sandbox/snapshots')).body.snapshots.map((s: { name: string }) => s.name),
    ).toEqual(['a', 'b']);
    expect((await sb.http.delete('/__sandbox/snapshots/a')).body).toEqual({ success: true, name: 'a' });
    expectError(await sb.http.delete('/__sandbox/snapshots/a'), 404, 'Snapshot not found: a');
    expectError(await sb.http.post('/__sandbox/snapshots/a/restore'), 404, 'Snapshot not found: a');
  });

  it('refuse bad names and more than 20', async () => {
    const sb = await makeSandbox();
    expectError(await sb.http.post('/__sandbox/snapshots').send({ name: 'no spaces' }), 400, /body.name/);
    expectError(await sb.http.post('/__sandbox/snapshots').send({}), 400, 'body.name is required');
    for (let i = 0; i < 20; i++)
      expect((await sb.http.post('/__sandbox/snapshots').send({ name: `s${i}` })).status).toBe(201);
    expectError(
      await sb.http.post('/__sandbox/snapshots').send({ name: 'one-more' }),
      409,
      'A sandbox keeps at most 20 snapshots; delete one first',
    );
    expect((await sb.http.post('/__sandbox/snapshots').send({ name: 's0' })).status).toBe(201);
  });
});
