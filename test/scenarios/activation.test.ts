import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Request, Response } from 'express';
import { describe, expect, it } from 'vitest';
import { makeConfig } from '../../src/process/config.js';
import { ScenarioFileError } from '../../src/scenarios/file.js';
import {
  activeScenario,
  collectScenarios,
  providerOutcome,
  scenarioParam,
} from '../../src/scenarios/query.js';
import { resolveStartupScenario } from '../../src/scenarios/activate.js';
import { accounts, expectError, makeSandbox } from '../helpers/sandbox.js';

const buyerKey = `Bearer ${accounts.buyer.apiKey}`;

function scenarioDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'scenarios-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}

const RICH = `name: rich-buyer
description: A new user with money, a plan and a listing, two hours later.
overlay:
  clock: { advance: 2h }
  users:
    - { email: rich@sandbox.test, password: rich-pass-123, balance_cents: 777, api_key: mk_test_scenario_rich_0001 }
  wallets:
    - { email: buyer@sandbox.test, balance_cents: 1234 }
  plans:
    - { email: rich@sandbox.test, plan_id: pro }
  listings:
    - { id: 5ce0a000-0000-4000-8000-0000000000aa, seller: rich@sandbox.test, title: Rich lamp, price_cents: 100 }
switches:
  - latency=1
  - { name: server.error, scope: { path: /api/settings/** }, count: 1 }
`;

describe('activating a scenario file', () => {
  it('applies the overlay and the switches', async () => {
    // Pinned, so the file's `clock: advance 2h` lands on a known instant.
    const sb = await makeSandbox({
      clockStart: '2026-01-01T00:00:00.000Z',
      scenariosDir: scenarioDir({ 'rich-buyer.yaml': RICH }),
    });
    const res = await sb.http.post('/__sandbox/scenarios/rich-buyer/activate');
    expect(res.status).toBe(200);
    expect(res.body.overlay).toEqual({ users: 1, wallets: 1, plans: 1, listings: 1, clock: true });
    expect(res.body.switches.map((s: { source: string }) => s.source)).toEqual([
      'file:rich-buyer',
      'file:rich-buyer',
    ]);
    const me = await sb.http
      .get('/api/wallet/balance')
      .set('Authorization', 'Bearer mk_test_scenario_rich_0001');
    expect(me.body).toEqual({ balance_cents: 777, balance_usd: '7.77' });
    expect(me.headers['x-sandbox-scenario-applied']).toBe('latency=1');
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', buyerKey)).body.balance_cents).toBe(
      1234,
    );
    const login = await sb.http
      .post('/api/auth/login')
      .send({ email: 'rich@sandbox.test', password: 'rich-pass-123' });
    expect(login.status).toBe(200);
    const db = sb.world.store.db;
    expect(db.listings['5ce0a000-0000-4000-8000-0000000000aa']).toMatchObject({
      title: 'Rich lamp',
      quantity_available: 1,
    });
    expect(Object.values(db.subscriptions).map((s) => s.plan_id)).toContain('pro');
    expect((await sb.http.get('/__sandbox/clock')).body.now).toMatch(/^2026-01-01T02:/);
    expect((await sb.http.get('/api/settings/api-keys').set('Authorization', buyerKey)).status).toBe(500);
  });

  it('accepts the whole file in the body, and checks it against the schema', async () => {
    const sb = await makeSandbox();
    const document = {
      name: 'inline',
      description: 'x',
      overlay: { wallets: [{ email: accounts.buyer.email, balance_cents: 5 }] },
    };
    expect((await sb.http.post('/__sandbox/scenarios/inline/activate').send({ document })).status).toBe(200);
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', buyerKey)).body.balance_cents).toBe(
      5,
    );
    const bad = await sb.http
      .post('/__sandbox/scenarios/inline/activate')
      .send({ document: { name: 'inline', overlay: 3 } });
    expectError(bad, 400, /body.document: .*description/);
    const wrongName = await sb.http.post('/__sandbox/scenarios/other/activate').send({ document });
    expectError(wrongName, 400, 'body.document.name must be "other"');
  });

  it('refuses unknown files, users and switch names, changing nothing', async () => {
    const sb = await makeSandbox();
    expectError(
      await sb.http.post('/__sandbox/scenarios/no-such-file/activate'),
      404,
      'Scenario file not found: no-such-file',
    );
    const ghost = {
      name: 'ghost',
      description: 'x',
      overlay: { wallets: [{ email: 'ghost@x.y', balance_cents: 5 }] },
    };
    expectError(
      await sb.http.post('/__sandbox/scenarios/ghost/activate').send({ document: ghost }),
      400,
      /no user ghost@x.y/,
    );
    const badSwitch = {
      name: 'bad',
      description: 'x',
      switches: ['server.explode'],
      overlay: { wallets: [{ email: accounts.buyer.email, balance_cents: 1 }] },
    };
    expectError(
      await sb.http.post('/__sandbox/scenarios/bad/activate').send({ document: badSwitch }),
      400,
      /switches\[0\]: unknown scenario/,
    );
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', buyerKey)).body.balance_cents).toBe(
      100000,
    );
  });
});

describe('--scenario at start-up', () => {
  it('switches listed scenarios on for every request, again after a reset', async () => {
    const sb = await makeSandbox({ scenario: 'server.unavailable=3' });
    expect((await sb.http.get('/api/auth/me').set('Authorization', buyerKey)).status).toBe(503);
    expect((await sb.http.get('/__sandbox/scenarios')).body.scenarios[0]).toMatchObject({
      source: 'startup',
      param: 3,
    });
    await sb.http.post('/__sandbox/reset');
    expect((await sb.http.get('/api/auth/me').set('Authorization', buyerKey)).status).toBe(503);
  });

  it('applies a file overlay at start and after a reset', async () => {
    const sb = await makeSandbox({
      scenario: 'rich-buyer',
      scenariosDir: scenarioDir({ 'rich-buyer.yaml': RICH }),
    });
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', buyerKey)).body.balance_cents).toBe(
      1234,
    );
    await sb.http.post('/__sandbox/scenarios/x/activate').send({
      document: {
        name: 'x',
        description: 'x',
        overlay: { wallets: [{ email: accounts.buyer.email, balance_cents: 9 }] },
      },
    });
    await sb.http.post('/__sandbox/reset');
    expect((await sb.http.get('/api/wallet/balance').set('Authorization', buyerKey)).body.balance_cents).toBe(
      1234,
    );
  });

  it('stops start-up on an unknown name or a broken file', () => {
    expect(() => resolveStartupScenario(makeConfig({ scenario: 'nope' }))).toThrow(ScenarioFileError);
    expect(() => resolveStartupScenario(makeConfig({ scenario: 'latency=x' }))).toThrow(/whole number/);
    const dir = scenarioDir({
      'broken.yaml': 'name: broken\n',
      'named.yaml': 'name: other\ndescription: x\n',
    });
    expect(() => resolveStartupScenario(makeConfig({ scenario: 'broken', scenariosDir: dir }))).toThrow(
      /description/,
    );
    expect(() => resolveStartupScenario(makeConfig({ scenario: 'named', scenariosDir: dir }))).toThrow(
      /must equal the file name/,
    );
    expect(resolveStartupScenario(makeConfig({ scenario: 'expired-token' }))).toMatchObject({ kind: 'file' });
  });
});

describe('flag scenarios read by other modules', () => {
  function fakeResponse() {
    const headers: Record<string, string> = {};
    const res = {
      headersSent: false,
      set: (k: string, v: string) => (headers[k] = v),
    } as unknown as Response;
    return { headers, res };
  }

  it('activeScenario and scenarioParam apply the scenario and mark it', async () => {
    const sb = await makeSandbox();
    const { headers, res } = fakeResponse();
    const req = {
      headers: { 'x-sandbox-scenario': 'wallet.insufficient, rates.stale' },
      world: sb.world,
      path: '/api/x',
      method: 'GET',
      query: {},
      principal: {},
    } as unknown as Request;
    collectScenarios(req, res);
    expect(activeScenario(req, 'provider.cancel')).toBe(false);
    expect(activeScenario(req, 'wallet.insufficient')).toBe(true);
    expect(scenarioParam(req, 'rates.stale')).toBe(6);
    expect(headers['X-Sandbox-Scenario-Applied']).toBe('wallet.insufficient, rates.stale=6');
    expect(providerOutcome(req)).toBeNull();
  });

  it('providerOutcome reads provider.approve before provider.cancel, counting sticky switches', async () => {
    const sb = await makeSandbox();
    await sb.http.post('/__sandbox/scenarios').send({ name: 'provider.cancel', count: 1 });
    const { res } = fakeResponse();
    const req = {
      headers: {},
      world: sb.world,
      path: '/api/x',
      method: 'POST',
      query: {},
      principal: {},
    } as unknown as Request;
    collectScenarios(req, res);
    expect(providerOutcome(req)).toBe('cancel');
    expect((await sb.http.get('/__sandbox/scenarios')).body.scenarios).toEqual([]);
  });
});
