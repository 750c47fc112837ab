import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, SandboxError, VERSION, type Sandbox } from '../../src/index.js';
import { skipReason } from '../contract/contract.js';
import { checkedFetch } from '../helpers/checked-clients.js';

describe('startSandbox: an in-process sandbox for test suites', () => {
  let sandbox: Sandbox;
  beforeAll(async () => {
    // Pinned: the reset test checks the clock goes back to this start.
    sandbox = await startSandbox({
      seed: 9,
      listings: 20,
      altPort: 0,
      clockStart: '2026-01-01T00:00:00.000Z',
    });
  });
  afterAll(() => sandbox.close());

  it('listens on an ephemeral loopback port with the memory store', async () => {
    expect(sandbox.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.port).toBeGreaterThan(0);
    const health = await (await checkedFetch(`${sandbox.url}/__sandbox/health`)).json();
    expect(health).toEqual({ status: 'ok', version: VERSION, seed: 9 });
    expect(sandbox.server.deps.config.inMemory).toBe(true);
  });

  it('serves the same state on the alt URL', async () => {
    expect(sandbox.altUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(sandbox.altUrl).not.toBe(sandbox.url);
    await sandbox.clock.freeze();
    await sandbox.clock.set('2026-05-05T00:00:00.000Z');
    const clock = await (await checkedFetch(`${sandbox.altUrl}/__sandbox/clock`)).json();
    expect(clock).toEqual({ now: '2026-05-05T00:00:00.000Z', frozen: true });
    await sandbox.reset();
  });

  it('drives the clock: advance, set, freeze, unfreeze', async () => {
    await sandbox.clock.freeze();
    const start = await sandbox.clock.get();
    expect(start.frozen).toBe(true);
    const later = await sandbox.clock.advance('25h');
    expect(Date.parse(later.now) - Date.parse(start.now)).toBe(25 * 3600_000);
    expect(await sandbox.clock.set('2026-06-01T12:00:00.000Z')).toEqual({
      now: '2026-06-01T12:00:00.000Z',
      frozen: true,
    });
    expect((await sandbox.clock.unfreeze()).frozen).toBe(false);
  });

  it('resets to the seed: the clock is back at the seed start, unfrozen', async () => {
    await sandbox.clock.set('2030-01-01T00:00:00.000Z');
    await sandbox.clock.freeze();
    await sandbox.reset();
    const clock = await sandbox.clock.get();
    expect(clock.frozen).toBe(false);
    expect(clock.now.startsWith('2026-01-01T00:00')).toBe(true);
  });

  it('turns a refused control call into a SandboxError with the sandbox message', async () => {
    const err = await sandbox.clock.advance('soon').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SandboxError);
    expect((err as SandboxError).status).toBe(400);
    expect((err as Error).message).toMatch(
      /^POST \/__sandbox\/clock: body.advance must be a positive duration/,
    );
  });

  it.skipIf(
    skipReason('scenarios through startSandbox', 'GET /__sandbox/scenarios', 'DELETE /__sandbox/scenarios'),
  )('lists and clears sticky scenarios', async () => {
    await sandbox.scenarios.clear();
    expect(JSON.stringify(await sandbox.scenarios.list())).not.toContain('"id"');
  });

  it.skipIf(skipReason('fund through startSandbox', 'POST /__sandbox/wallets/{email}/fund'))(
    'funds a test wallet',
    async () => {
      await sandbox.fund('broke@sandbox.test', 2500);
      const login = await checkedFetch(`${sandbox.url}/api/wallet/balance`, {
        headers: { authorization: 'Bearer mk_test_broke_3a9d7c1e5b2f4a6c8d0e1f2a3b4c5d6e' },
      });
      expect(((await login.json()) as { balance_cents: number }).balance_cents).toBe(2500);
      await sandbox.reset();
    },
  );

  it('gives each sandbox its own port and state, and releases the port on close', async () => {
    const other = await startSandbox({ seed: 10 });
    expect(other.port).not.toBe(sandbox.port);
    await other.clock.set('2031-01-01T00:00:00.000Z');
    expect((await sandbox.clock.get()).now.startsWith('2031')).toBe(false);
    await other.close();
    await expect(checkedFetch(`${other.url}/__sandbox/health`)).rejects.toThrow();
  });
});
