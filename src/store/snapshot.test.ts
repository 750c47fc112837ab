import { isAscii } from 'node:buffer';
import { mkdtemp, open, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { crc32, sumText } from './checksum.js';
import { DirtyTracker } from './dirty-tracker.js';
import { readSnapshot, SnapshotParseError } from './snapshot-reader.js';
import { SnapshotWriter } from './snapshot.js';
import { emptyDb, type Db, type ListingRecord } from './types.js';
import { listingRecord } from '../../test/helpers/records.js';

const listing = (n: number): ListingRecord =>
  listingRecord(n, {
    title: `Title ${n % 7}`,
    description: `line one\nline two — ünïcödé ${'x'.repeat(400)}`,
  });

/** A database of several MB (the writer yields between 1 MB chunks). */
function big(): Db {
  const db = emptyDb(1, { now: '2026-01-01T00:00:00.000Z', frozen: false });
  for (let n = 0; n < 8000; n++) db.listings[`l${n}`] = listing(n);
  Object.defineProperty(db.carts, '__proto__', {
    value: { owner: '__proto__', items: [], updated_at: 'x' },
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return db;
}

async function write(db: Db, during?: (view: Db) => void): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'snapshot-')), 'db.json');
  const tracker = new DirtyTracker(db);
  const writer = new SnapshotWriter(db);
  tracker.watch((name, id) => writer.reach(name, id));
  const handle = await open(path, 'w');
  let ticking = true;
  const tick = () => {
    if (!ticking) return;
    during?.(tracker.view());
    setImmediate(tick);
  };
  setImmediate(tick);
  await writer.write(handle);
  ticking = false;
  await handle.close();
  return path;
}

describe('streamed snapshot', () => {
  it('is one JSON document that reads back (line by line) to the same database', async () => {
    const db = big();
    const path = await write(db);
    const text = await readFile(path, 'utf8');
    const { $checksum, ...parsed } = JSON.parse(text) as Record<string, unknown>;
    expect($checksum).toMatch(/^crc32:[0-9a-f]{8}$/);
    expect(JSON.stringify(parsed)).toBe(JSON.stringify(db));
    const read = await readSnapshot(path, 0);
    expect(JSON.stringify(read)).toBe(JSON.stringify(db));
    expect(Object.getPrototypeOf(read.carts)).toBe(Object.prototype);
    expect(Object.keys(read.carts)).toEqual(['__proto__']);
    // Repeated values of listings are shared once read.
    expect(Object.isFrozen(read.listings.l1.accepted_currencies)).toBe(true);
    expect(read.listings.l1.accepted_currencies).toBe(read.listings.l2.accepted_currencies);
  });

  it('holds the database as it was when the write began, whatever changes meanwhile', async () => {
    const db = big();
    const before = JSON.stringify(db);
    let changes = 0;
    const path = await write(db, (view) => {
      changes += 1;
      const last = `l${7999 - changes}`;
      if (view.listings[last]) view.listings[last].quantity_available += 100;
      delete view.listings[`l${7000 - changes}`];
      view.listings[`new${changes}`] = listing(100_000 + changes);
      view.mailbox.push({
        id: `m${changes}`,
        to: 'a',
        subject: 's',
        text: 't',
        token: null,
        created_at: 'x',
      });
      view.meta.next_id += 1;
      view.uploads[`u${changes}`] = {
        name: 'u',
        user_id: 'x',
        content_type: 'image/png',
        size: 1,
        created_at: 'x',
      };
    });
    expect(changes).toBeGreaterThan(1);
    expect(JSON.stringify(db)).not.toBe(before);
    expect(JSON.stringify(await readSnapshot(path, 0))).toBe(before);
  });

  it('writes only ASCII, every other character as its \\u escape, and reads each one back', async () => {
    const db = big();
    db.listings.l1.title = 'Zürich ° × — 😀 日本 \ud800 end';
    const path = await write(db);
    const bytes = await readFile(path);
    expect(isAscii(bytes)).toBe(true);
    expect(bytes.toString('latin1')).toContain(
      '"Z\\u00fcrich \\u00b0 \\u00d7 \\u2014 \\ud83d\\ude00 \\u65e5\\u672c \\ud800 end"',
    );
    // Line by line (0) and whole (the default at this size).
    for (const whole of [0, undefined])
      expect(JSON.stringify(await readSnapshot(path, whole))).toBe(JSON.stringify(db));

    // A file written before, its characters as UTF-8 and its checksum over those bytes, reads the same.
    const text = bytes.toString('latin1');
    const sumLine = text.lastIndexOf('\n,"$checksum"') + 1;
    const utf8 = Buffer.from(
      text.slice(0, sumLine).replace('Z\\u00fcrich \\u00b0 \\u00d7 \\u2014', 'Zürich ° × —'),
      'utf8',
    );
    expect(isAscii(utf8)).toBe(false);
    const old = join(await mkdtemp(join(tmpdir(), 'snapshot-')), 'db.json');
    await writeFile(
      old,
      Buffer.concat([utf8, Buffer.from(`,"$checksum":"crc32:${sumText(crc32(utf8))}"\n}\n`)]),
    );
    for (const whole of [0, undefined])
      expect(JSON.stringify(await readSnapshot(old, whole))).toBe(JSON.stringify(db));
  });

  it('reads a file of the older one-line layout, and rejects a cut-off file', async () => {
    const db = big();
    const dir = await mkdtemp(join(tmpdir(), 'snapshot-'));
    await writeFile(join(dir, 'old.json'), JSON.stringify(db));
    expect(JSON.stringify(await readSnapshot(join(dir, 'old.json'), 0))).toBe(JSON.stringify(db));
    const text = await readFile(await write(db), 'utf8');
    await writeFile(join(dir, 'cut.json'), text.slice(0, text.length - 3000));
    await expect(readSnapshot(join(dir, 'cut.json'), 0)).rejects.toThrow(SnapshotParseError);
  });
});
