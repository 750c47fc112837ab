import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
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
    expect(Object.keys(JSON.parse(text) as object)).toEqual(Object.keys(db()));
    expect((await readFileStore(path))?.meta.next_id).toBe(99);
    const reopened = await openFileStore(path);
    expect(reopened?.db.meta.next_id).toBe(99);
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
    await expect(openFileStore(bad)).rejects.toThrow(/bad\.json cannot be parsed.*--reset/);
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

describe('untracked reads', () => {
  it('count over a collection without logging its records as changed', async () => {
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
    // The same count through the view reaches every record (what wrote 60 MB to the change log at 100k).
    void Object.values(view.listings).length;
    expect(tracker.take().records.get('listings')?.size).toBe(5);
  });
});
