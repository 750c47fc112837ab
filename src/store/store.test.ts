import { mkdtemp, readFile, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreFileError } from './file-adapter.js';
import { createFileStore, createMemoryStore, openFileStore, readFileStore } from './store.js';
import { emptyDb } from './types.js';

const user = {
  id: '',
  email: '',
  password_hash: 'x',
  full_name: null,
  referral_code: 'R',
  referred_by: null,
  balance_cents: 0,
  created_at: '2026-01-01T00:00:00.000Z',
};
const db = () => emptyDb(1, { now: '2026-01-01T00:00:00.000Z', frozen: false });

describe('file store', () => {
  it('writes one JSON document, a record per line, that reopens to the same data', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'store-')), 'db.json');
    const store = await createFileStore(path, db());
    await store.commit((d) => {
      d.meta.next_id = 99;
    });
    // The snapshot parses as a whole; the change itself may sit in the change log beside it.
    const text = await readFile(path, 'utf8');
    expect(text.split('\n').slice(0, 2)).toEqual(['{', expect.stringMatching(/^"meta":\{/)]);
    expect(Object.keys(JSON.parse(text) as object)).toEqual([...Object.keys(db()), '$checksum']);
    expect((await readFileStore(path))?.meta.next_id).toBe(99);
    const reopened = await openFileStore(path);
    expect(reopened?.db.meta.next_id).toBe(99);
  });

  it('folds a long change log into a new snapshot at close, and leaves a short one', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'store-')), 'db.json');
    const changesOf = async () => (await stat(`${path}.changes`)).size;
    const store = await createFileStore(path, db());
    await store.commit((d) => {
      d.meta.next_id = 7;
    });
    await store.close();
    // One short line: replaying it costs nothing worth a snapshot.
    const short = await changesOf();
    expect(short).toBeGreaterThan(100);
    const reopened = (await openFileStore(path))!;
    expect(await changesOf()).toBe(short);
    // Over 64 KB of changes (each commit one line) beside a small snapshot: folded at close.
    for (let n = 0; n < 400; n += 1)
      await reopened.commit((d) => {
        d.users[`u${n}`] = { ...user, id: `u${n}`, email: `u${n}@example.com`, full_name: 'x'.repeat(200) };
      });
    expect(await changesOf()).toBeGreaterThan(64 * 1024);
    await reopened.close();
    expect(await changesOf()).toBeLessThan(100); // the fresh change log's header alone
    const again = (await openFileStore(path))!;
    expect(Object.keys(again.db.users)).toHaveLength(400);
    expect(again.db.meta.next_id).toBe(7);
  });

  it('shares one flush among concurrent commits and acknowledges each after it is on disk', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'store-')), 'db.json');
    const store = await createFileStore(path, db());
    const start = store.version;
    const commits = Array.from({ length: 200 }, (_, i) =>
      store
        .commit((d) => {
          const id = `u${i}`;
          d.users[id] = { ...user, id, email: `${id}@example.com` };
        })
        // Snapshot + change log as a restart would read them (small records: no compaction mid-test).
        .then(async () => Object.keys((await readFileStore(path))!.users).length),
    );
    const seenOnDisk = await Promise.all(commits);
    seenOnDisk.forEach((count, i) => expect(count).toBeGreaterThanOrEqual(i + 1));
    expect(store.version).toBe(start + 200);
  });

  it('returns null for a missing file and refuses an unparsable one, leaving it untouched', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'store-'));
    expect(await openFileStore(join(dir, 'missing.json'))).toBeNull();
    const bad = join(dir, 'bad.json');
    await writeFile(bad, '{"meta": tru');
    await expect(openFileStore(bad)).rejects.toThrow(StoreFileError);
    await expect(openFileStore(bad)).rejects.toThrow(/bad\.json is damaged.*--reset/);
    expect(await readFile(bad, 'utf8')).toBe('{"meta": tru');
  });

  it('runs hooks before each write', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'store-')), 'db.json');
    const store = await createFileStore(path, db());
    store.onBeforeWrite((d) => {
      d.meta.clock = { now: '2030-01-01T00:00:00.000Z', frozen: true };
    });
    await store.commit(() => undefined);
    expect((await readFileStore(path))?.meta.clock).toEqual({
      now: '2030-01-01T00:00:00.000Z',
      frozen: true,
    });
  });
});

describe('memory store', () => {
  it('applies mutations synchronously and resolves commits at once', async () => {
    const store = createMemoryStore(db());
    const result = store.mutate((d) => {
      d.meta.next_id = 3;
      return 'done';
    });
    expect(result).toBe('done');
    expect(store.db.meta.next_id).toBe(3);
    await expect(store.commit(() => 1)).resolves.toBe(1);
    expect(store.kind).toBe('memory');
  });
});

describe('tracked writes', () => {
  it('log what was written, never what was only read', async () => {
    const { DirtyTracker, untracked } = await import('./dirty-tracker.js');
    const { currentFeatured } = await import('../api/subscriptions/plans.js');
    const data = db();
    for (let i = 0; i < 5; i++)
      data.listings[`l${i}`] = {
        id: `l${i}`,
        seller_id: i < 2 ? 'u1' : 'u2',
        is_featured: true,
        created_at: '2026-01-01T00:00:00.000Z',
        duration: '2weeks',
        quantity_available: 1,
      } as never;
    const tracker = new DirtyTracker(data);
    tracker.take();
    const view = tracker.view();
    expect(untracked(view)).toBe(data);
    expect(untracked(data)).toBe(data);
    expect(currentFeatured(view, 'u1', Date.parse('2026-01-02T00:00:00.000Z'))).toBe(2);
    expect(tracker.take().records.get('listings')).toBeUndefined();
    // Reading every record through the view marks none; a write inside one marks that one.
    for (const listing of Object.values(view.listings)) void listing.seller_id;
    expect(tracker.take().records.get('listings')).toBeUndefined();
    Object.values(view.listings)[3].quantity_available -= 1;
    view.ledger.push({ id: 'e' } as never);
    const taken = tracker.take();
    expect([...(taken.records.get('listings') ?? [])]).toEqual(['l3']);
    expect([...(taken.records.get('ledger') ?? [])].sort()).toEqual(['0', 'length']);
    expect([...taken.whole]).toEqual([]);
  });
});

describe('all or nothing', () => {
  const filled = () => {
    const data = db();
    for (const id of ['u0', 'u1', 'u2']) data.users[id] = { ...user, id, email: `${id}@example.com` };
    data.carts['user:u0'] = { owner: 'user:u0', items: [{ listing_id: 'l1', quantity: 1 }], updated_at: 'x' };
    data.mailbox.push({ id: 'm0', to: 'a', subject: 's', text: 't', token: null, created_at: 'x' });
    data.reset_tokens.push({ hash: 'h', user_id: 'u0', expires_at: 'x', used_at: null });
    return data;
  };

  it('takes back every write of a mutation that throws half-way, at any depth, keeping record identity', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'store-')), 'db.json');
    for (const store of [createMemoryStore(filled()), await createFileStore(path, filled())]) {
      const before = JSON.stringify(store.db);
      const [version, u0, cart] = [store.version, store.db.users.u0, store.db.carts['user:u0']];
      expect(() =>
        store.mutate((d) => {
          d.meta.next_id = 42;
          d.users.u0.balance_cents = 5;
          d.users.u3 = { ...user, id: 'u3' };
          delete d.users.u2;
          d.users.u1 = { ...user, id: 'u1', full_name: 'replaced' };
          d.carts['user:u0'].items.push({ listing_id: 'l2', quantity: 2 });
          d.carts['user:u0'].items = d.carts['user:u0'].items.filter((i) => i.quantity > 1);
          d.ledger.push({ id: 'e' } as never);
          d.mailbox.length = 0;
          d.reset_tokens.splice(0, 1, { hash: 'other', user_id: 'u1', expires_at: 'y', used_at: null });
          d.reset_tokens[3] = { hash: 'far', user_id: 'u1', expires_at: 'y', used_at: null };
          throw new Error('half-way');
        }),
      ).toThrow('half-way');
      expect(JSON.stringify(store.db)).toBe(before);
      expect(store.version).toBe(version);
      expect(store.db.users.u0).toBe(u0);
      expect(store.db.carts['user:u0']).toBe(cart);
      // A later mutation works on the restored data as usual.
      store.mutate((d) => void (d.users.u0.balance_cents = 7));
      expect(store.db.users.u0.balance_cents).toBe(7);
    }
  });

  it('never stores a proxy: values read through the view and stored again are plain data', () => {
    const store = createMemoryStore(filled());
    store.mutate((d) => {
      d.carts['user:u1'] = { owner: 'user:u1', items: [...d.carts['user:u0'].items], updated_at: 'y' };
    });
    expect(structuredClone(store.db.carts['user:u1'])).toEqual(store.db.carts['user:u1']);
  });
});
