// Scale-out on this machine without Docker: three sandbox processes behind Debian's nginx running
// deploy/compose/nginx.conf (test/helpers/replicas.ts), and the isolation tests through it.
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReplay } from '../../src/cli/replay.js';
import { accounts } from '../helpers/sandbox.js';
import { nginxMissing } from '../helpers/nginx.js';
import { startCluster, type Cluster } from '../helpers/replicas.js';

const TOKEN = 'routing-test-token';
const SEED_BALANCE = 100_000; // the funded buyer's wallet in every fresh sandbox
const IDS = Array.from({ length: 30 }, (_, i) => `job-${i}`);

let cluster: Cluster;

async function call(base: string, method: string, path: string, id?: string, body?: unknown) {
  const headers: Record<string, string> = { 'X-Sandbox-Admin-Token': TOKEN };
  if (id !== undefined) headers['X-Sandbox-Id'] = id;
  if (path.startsWith('/api/')) headers.Authorization = `Bearer ${accounts.buyer.apiKey}`;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await fetch(base + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json()) as Record<string, unknown>;
  return { status: res.status, body: json, replica: res.headers.get('x-sandbox-replica') };
}

const via = (method: string, path: string, id?: string, body?: unknown) =>
  call(cluster.nginx.url, method, path, id, body);

async function balance(id: string) {
  const res = await via('GET', '/api/wallet/balance', id);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { cents: res.body.balance_cents as number, replica: res.replica };
}

/** Which replica holds each id, from the replicas themselves (GET /__sandbox/sandboxes). */
async function placement(): Promise<Map<string, string[]>> {
  const held = new Map<string, string[]>();
  for (const r of cluster.replicas) {
    if (r.child.exitCode !== null || r.child.signalCode !== null) continue;
    const { body } = await call(r.url, 'GET', '/__sandbox/sandboxes');
    for (const s of body.sandboxes as { id: string; live: boolean }[])
      if (s.live && s.id !== 'default') held.set(s.id, [...(held.get(s.id) ?? []), r.address]);
  }
  return held;
}

const home = new Map<string, string>();

describe.skipIf(nginxMissing())('nginx in front of 3 replicas (deploy/compose/nginx.conf)', () => {
  beforeAll(async () => {
    // The environment of deploy/compose/docker-compose.yml that matters here.
    cluster = await startCluster(3, {
      flags: ['--listings', '60'],
      env: { SANDBOX_ADMIN_TOKEN: TOKEN, SANDBOX_TRUST_PROXY: 'true' },
    });
  }, 120_000);
  afterAll(async () => cluster?.stop());

  it("keeps each sandbox's data on one replica, and every request of it goes there", async () => {
    for (const [i, id] of IDS.entries()) {
      const funded = await via('POST', `/__sandbox/wallets/${accounts.buyer.email}/fund`, id, {
        amount_cents: 100 * (i + 1),
      });
      expect(funded.status, JSON.stringify(funded.body)).toBe(200);
      home.set(id, funded.replica!);
    }
    for (const [i, id] of IDS.entries()) {
      for (let k = 0; k < 3; k++)
        expect(await balance(id)).toEqual({ cents: SEED_BALANCE + 100 * (i + 1), replica: home.get(id) });
    }
    const held = await placement();
    for (const id of IDS) expect(held.get(id), id).toEqual([home.get(id)]);
    // 30 ids over 3 replicas: each replica holds some (consistent hashing spreads them).
    expect(new Set(home.values()).size).toBe(3);
  });

  it('routes the default sandbox by a fixed key, and an approval URL by its sandbox_id', async () => {
    const plain = await Promise.all([1, 2, 3, 4].map(() => via('GET', '/__sandbox/clock')));
    const named = await via('GET', '/__sandbox/clock', 'default');
    expect(new Set([...plain, named].map((r) => r.replica)).size).toBe(1);

    const id = IDS.find((i) => home.get(i) !== named.replica)!; // a sandbox off the default's replica
    const listings = await via('GET', '/api/shop/listings?limit=1', id);
    const listing = (listings.body.listings as { id: string }[])[0];
    const res = await fetch(`${cluster.nginx.url}/api/shop/checkout`, {
      method: 'POST',
      headers: {
        'X-Sandbox-Id': id,
        Authorization: `Bearer ${accounts.broke.apiKey}`,
        'Content-Type': 'application/json',
      },
      body: JSON.stringify({
        cartItems: [{ listing_id: listing.id, quantity: 1 }],
        deliveryMethod: 'pickup',
      }),
    });
    const { approvalUrl, paymentId } = (await res.json()) as { approvalUrl: string; paymentId: string };
    expect(approvalUrl).toBe(`${cluster.nginx.url}/sandbox/payprovider/${paymentId}?sandbox_id=${id}`);
    // What a browser does: no X-Sandbox-Id, no admin token.
    const page = await fetch(approvalUrl);
    expect(page.status).toBe(200);
    expect(page.headers.get('x-sandbox-replica')).toBe(home.get(id));
    const approved = await fetch(approvalUrl.replace('?', '/approve?'), { method: 'POST' });
    expect(approved.status).toBe(200);
    expect((await via('GET', `/__sandbox/payprovider/${paymentId}`, id)).body.payment).toMatchObject({
      status: 'approved',
    });
  });

  it('runs parallel jobs as if each were alone', async () => {
    const job = async (id: string, n: number) => {
      const at = `2027-0${1 + (n % 9)}-0${1 + (n % 7)}T0${n % 10}:00:00.000Z`;
      await via('POST', '/__sandbox/reset', id);
      for (let round = 1; round <= 3; round++) {
        expect((await via('POST', '/__sandbox/clock', id, { set: at, freeze: true })).status).toBe(200);
        await via('POST', `/__sandbox/wallets/${accounts.buyer.email}/fund`, id, { amount_cents: n + 1 });
        expect((await balance(id)).cents).toBe(SEED_BALANCE + round * (n + 1));
        expect((await via('GET', '/__sandbox/clock', id)).body.now).toBe(at);
      }
    };
    await Promise.all(IDS.slice(0, 12).map((id, n) => job(id, n)));
    // The shipped scenario files, each in its own sandbox (replay-<name>), through the proxy.
    const lines: string[] = [];
    const code = await runReplay(['scenarios/', '--url', cluster.nginx.url], (l) => lines.push(l), {
      SANDBOX_ADMIN_TOKEN: TOKEN,
    });
    expect(lines.at(-1), lines.join('\n')).toMatch(/^\d+ passed, 0 failed$/);
    expect(code).toBe(0);
  });

  it('gives every client address its own rate-limit budget, which a forged X-Forwarded-For cannot renew', async () => {
    const { hostname, port } = new URL(cluster.nginx.url);
    // An anonymous GET from a loopback address of its own, as a client elsewhere would come in.
    const from = (localAddress: string, forged: string) =>
      new Promise<number>((resolve, reject) => {
        const headers = { 'X-Sandbox-Id': 'rate-job', 'X-Forwarded-For': forged };
        request({ host: hostname, port, path: '/api/shop/categories', localAddress, headers }, (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        })
          .on('error', reject)
          .end();
      });
    const statuses: number[] = [];
    for (let i = 0; i < 101; i++) statuses.push(await from('127.0.0.2', `198.51.100.${i % 250}`));
    expect(statuses.slice(0, 100).every((s) => s === 200)).toBe(true);
    expect(statuses[100]).toBe(429);
    expect(await from('127.0.0.3', '198.51.100.1')).toBe(200);
  });

  it('loses only the sandboxes of a replica that dies', async () => {
    const victim = cluster.replicas[0];
    const before = new Map<string, number>();
    for (const id of IDS.slice(12)) before.set(id, (await balance(id)).cents);
    victim.child.kill('SIGKILL');
    await new Promise((resolve) => victim.child.once('exit', resolve));
    const lost = IDS.slice(12).filter((id) => home.get(id) === victim.address);
    expect(lost.length).toBeGreaterThan(0);
    for (const id of IDS.slice(12)) {
      if (lost.includes(id)) {
        // Its sandboxes never move to another replica: their clients see a dropped connection.
        await expect(via('GET', '/api/wallet/balance', id)).rejects.toThrow(/fetch failed/);
      } else {
        expect(await balance(id)).toEqual({ cents: before.get(id), replica: home.get(id) });
      }
    }
  });
});
