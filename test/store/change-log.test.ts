import {
  appendFileSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildSeed } from '../../src/seed/seed.js';
import { decodeLine, encodeLine } from '../../src/store/change-log-lines.js';
import { StoreFileError } from '../../src/store/file-adapter.js';
import { createFileStore, openFileStore, readFileStore } from '../../src/store/store.js';

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));
function fresh() {
  const dir = mkdtempSync(join(tmpdir(), 'sandbox-changes-'));
  dirs.push(dir);
  return join(dir, 'db.json');
}
const seed = () => buildSeed({ seed: 1, listings: 3, clockStart: '2026-01-01T00:00:00.000Z' });

describe('file store change log', () => {
  it('appends only the changed elements and replays them on open', async () => {
    const path = fresh();
    const store = await createFileStore(path, seed());
    const snapshot = readFileSync(path, 'utf8');
    await store.commit((db) => {
      db.mailbox.push({ id: 'm1', to: 'a@b.test', subject: 's', text: 't', token: null, created_at: 'x' });
    });
    expect(readFileSync(path, 'utf8')).toBe(snapshot);
    const lines0 = readFileSync(`${path}.changes`, 'utf8').trim().split('\n');
    expect(lines0).toHaveLength(2);
    expect(decodeLine(lines0[1], true)).toEqual({
      $items: { mailbox: { length: 1, items: { 0: store.db.mailbox[0] } } },
    });
    const reopened = await openFileStore(path);
    expect(reopened?.db.mailbox.map((m) => m.id)).toEqual(['m1']);
    expect(JSON.stringify(reopened?.db)).toBe(JSON.stringify(store.db));
  });

  it('logs single records of keyed collections, deletions included', async () => {
    const path = fresh();
    const store = await createFileStore(path, seed());
    const [first, second] = Object.keys(store.db.users);
    await store.commit((db) => {
      db.users[first].full_name = 'Changed';
      delete db.users[second];
    });
    const lines = readFileSync(`${path}.changes`, 'utf8').trim().split('\n');
    const entry = decodeLine(lines[1], true) as { $records: { users: Record<string, unknown> } };
    expect(Object.keys(entry)).toEqual(['$records']);
    expect(Object.keys(entry.$records.users).sort()).toEqual([first, second].sort());
    const reopened = await readFileStore(path);
    expect(reopened?.users[first].full_name).toBe('Changed');
    expect(reopened?.users[second]).toBeUndefined();
    expect(JSON.stringify(reopened)).toBe(JSON.stringify(store.db));
  });

  it('ignores a torn last line (never acknowledged) and a change log of an older snapshot', async () => {
    const path = fresh();
    const store = await createFileStore(path, seed());
    await store.commit((db) => void (db.meta.next_id = 999));
    appendFileSync(`${path}.changes`, '{"meta":{"torn');
    expect((await readFileStore(path))?.meta.next_id).toBe(999);
    const lines = readFileSync(`${path}.changes`, 'utf8').split('\n');
    const id = (decodeLine(lines[0], true) as { snapshot: string }).snapshot;
    lines[0] = encodeLine({ snapshot: String(Number(id) - 1) })
      .toString()
      .trimEnd();
    writeFileSync(`${path}.changes`, lines.join('\n'));
    expect((await readFileStore(path))?.meta.next_id).not.toBe(999);
  });

  it('stops start-up on a damaged change log line or an unparsable file, naming the file and --reset', async () => {
    const path = fresh();
    const store = await createFileStore(path, seed());
    await store.commit((db) => void (db.meta.next_id = 5));
    const lines = readFileSync(`${path}.changes`, 'utf8').split('\n');
    writeFileSync(`${path}.changes`, [lines[0], '{bad', lines[1], ''].join('\n'));
    await expect(openFileStore(path)).rejects.toThrow(StoreFileError);
    await expect(openFileStore(path)).rejects.toThrow(/[Cc]hange log.*--reset/);
    writeFileSync(path, '{"meta":');
    await expect(openFileStore(path)).rejects.toThrow(new RegExp(`${path}.*--reset`));
  });

  it('opens a sandbox written before the rename, whose change log is `<file>.journal`', async () => {
    const path = fresh();
    const store = await createFileStore(path, seed());
    await store.commit((db) => void (db.meta.next_id = 777));
    await store.close();
    renameSync(`${path}.changes`, `${path}.journal`);
    expect((await readFileStore(path))?.meta.next_id).toBe(777);
    expect(existsSync(`${path}.journal`)).toBe(false);
    expect(existsSync(`${path}.changes`)).toBe(true);
  });

  it('writes a new snapshot once the change log outgrows it', async () => {
    const path = fresh();
    const store = await createFileStore(path, seed());
    const before = readFileSync(path, 'utf8');
    for (let i = 0; i < 40; i++)
      await store.commit((db) => {
        db.mailbox.push({
          id: `m${i}`,
          to: 'a',
          subject: 's',
          text: 'x'.repeat(200_000),
          token: null,
          created_at: 'x',
        });
      });
    expect(readFileSync(path, 'utf8')).not.toBe(before);
    expect((await readFileStore(path))?.mailbox).toHaveLength(40);
  });
});
