import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { readFileStore } from '../../src/store/store.js';
import { accounts, expectError } from '../helpers/sandbox.js';
import { fileSandbox } from './file-sandbox.js';

/**
 * Class: a write whose durable commit fails (disk full, a read-only or removed change log) must
 * not stay in memory: the client that got the error never sees its change, and no later write
 * persists it. The disk is simulated by a file system whose handles fail on demand (below), so
 * every failure is exact, never a matter of timing.
 */
const faults = vi.hoisted(() => ({
  /** The next call of `op` on a path matching `path` fails with `code` (until cleared, when `sticky`). */
  rule: null as null | { op: string; path: RegExp; code: string; sticky?: boolean },
  hits: 0,
}));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof import('node:fs/promises')>();
  const check = (op: string, path: string) => {
    const rule = faults.rule;
    if (!rule || rule.op !== op || !rule.path.test(path)) return;
    faults.hits += 1;
    if (!rule.sticky) faults.rule = null;
    throw Object.assign(new Error(`${rule.code}: injected failure of ${op} on ${path}`), { code: rule.code });
  };
  const wrap = (handle: import('node:fs/promises').FileHandle, path: string) =>
    new Proxy(handle, {
      get(target, key) {
        const value = Reflect.get(target, key, target) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          check(String(key), path);
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const open = async (path: string, ...rest: unknown[]) => {
    check('open', String(path));
    return wrap(await (real.open as (...a: unknown[]) => Promise<never>)(path, ...rest), String(path));
  };
  const rename = async (from: string, to: string) => {
    check('rename', String(from));
    return real.rename(from, to);
  };
  return { ...real, open, rename, default: { ...real, open, rename } };
});

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
afterEach(() => {
  faults.rule = null;
  faults.hits = 0;
});

async function sandbox() {
  const dir = mkdtempSync(join(tmpdir(), 'hardening-commit-'));
  dirs.push(dir);
  const dataFile = join(dir, 'db.json');
  return { dir, dataFile, sb: await fileSandbox(dataFile) };
}

const fund = (sb: Awaited<ReturnType<typeof fileSandbox>>, cents: number) =>
  sb.http.post(`/__sandbox/wallets/${accounts.buyer.email}/fund`).send({ amount_cents: cents });

async function balance(sb: Awaited<ReturnType<typeof fileSandbox>>) {
  const res = await sb.http
    .get('/api/wallet/transactions')
    .set('Authorization', `Bearer ${accounts.buyer.apiKey}`);
  expect(res.status).toBe(200);
  return {
    cents: res.body.balance_cents as number,
    amounts: (res.body.transactions as { amount_cents: number }[]).map((t) => t.amount_cents),
  };
}

/** The buyer's balance and fund amounts as a restart would read them from the files. */
async function onDisk(dataFile: string) {
  const db = await readFileStore(dataFile);
  const buyer = Object.values(db!.users).find((u) => u.email === accounts.buyer.email)!;
  const funds = db!.ledger
    .filter((e) => e.user_id === buyer.id && e.kind === 'fund')
    .map((e) => e.amount_cents);
  return { cents: buyer.balance_cents, funds };
}

describe('a write whose durable commit fails is taken back', () => {
  for (const [what, op, code] of [
    ['disk full when the change log is synced', 'datasync', 'ENOSPC'],
    ['a read-only change log', 'write', 'EROFS'],
  ] as const)
    it(`${what}: 503, never served, never persisted by a later write`, async () => {
      const { dataFile, sb } = await sandbox();
      const start = await balance(sb);
      faults.rule = { op, path: /db\.json\.changes$/, code };
      const refused = await fund(sb, 500);
      expect(faults.hits).toBe(1);
      expect(await balance(sb)).toEqual(start);
      expectError(refused, 503, new RegExp(`could not be saved.*${code}.*not applied`));
      // The next write succeeds (a whole snapshot): it carries its own change, not the failed one.
      expect((await fund(sb, 700)).status).toBe(200);
      expect((await balance(sb)).cents).toBe(start.cents + 700);
      await sb.close();
      expect(await onDisk(dataFile)).toEqual({ cents: start.cents + 700, funds: [700] });
    });

  it('fails every write that shared the failed flush, and keeps none of them', async () => {
    const { dataFile, sb } = await sandbox();
    const start = await balance(sb);
    faults.rule = { op: 'datasync', path: /db\.json\.changes$/, code: 'EIO' };
    const answers = await Promise.all([fund(sb, 1), fund(sb, 2), fund(sb, 3)]);
    expect(await balance(sb)).toEqual(start);
    for (const res of answers) expectError(res, 503, /could not be saved/);
    await sb.close();
    expect(await onDisk(dataFile)).toEqual({ cents: start.cents, funds: [] });
  });

  it('a reset that cannot be saved (disk full while writing the snapshot) leaves data and files as they were', async () => {
    const { dir, dataFile, sb } = await sandbox();
    expect((await fund(sb, 500)).status).toBe(200);
    const funded = await balance(sb);
    faults.rule = { op: 'write', path: /db\.json\.\d+\.tmp$/, code: 'ENOSPC', sticky: true };
    const refused = await sb.http.post('/__sandbox/reset');
    expect(await balance(sb)).toEqual(funded);
    expectError(refused, 503, /could not be saved.*ENOSPC/);
    expect(readdirSync(dir).filter((f) => f.endsWith('.tmp'))).toEqual([]);
    // Still full: every write is refused and taken back, none is half kept.
    expectError(await fund(sb, 9), 503, /ENOSPC/);
    expect(await balance(sb)).toEqual(funded);
    faults.rule = null;
    await sb.close();
    expect(await onDisk(dataFile)).toEqual({ cents: funded.cents, funds: [500] });
  });

  it('a change log removed while the sandbox runs: the write is saved anyway, as a new snapshot', async () => {
    const { dataFile, sb } = await sandbox();
    const start = await balance(sb);
    expect((await fund(sb, 100)).status).toBe(200);
    rmSync(`${dataFile}.changes`);
    expect((await fund(sb, 200)).status).toBe(200);
    await sb.close();
    expect(await onDisk(dataFile)).toEqual({ cents: start.cents + 300, funds: [100, 200] });
  });
});
