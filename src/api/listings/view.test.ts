import { describe, expect, it } from 'vitest';
import type { ListingRecord } from '../../store/types.js';
import type { World } from '../../world/world.js';
import { listingRecord } from '../../../test/helpers/records.js';
import { keptTexts, listingJson, listingView, VIEW_TEXTS_KEPT } from './view.js';

/** The parts of a world listingJson reads: its extras and its store's version and database. */
function world(): World & { store: { version: number; db: object } } {
  return { extras: new Map(), store: { version: 0, db: {} } } as unknown as World & {
    store: { version: number; db: object };
  };
}

const listing = (n: number): ListingRecord =>
  listingRecord(n, { title: `Lamp ${n}`, images: ['/uploads/a.png'] });

const term = {
  created: Date.parse('2026-01-01T00:00:00.000Z'),
  expires: Date.parse('2027-01-01T00:00:00.000Z'),
};
const base = 'http://127.0.0.1:4010';
const text = (rec: ListingRecord, lang = 'en', b = base, t = term) =>
  JSON.stringify(listingView(rec, lang, b, t));

describe('listingJson', () => {
  it('keeps one text a listing per world and store version, and makes it again for what changed', () => {
    const w = world();
    const rec = listing(1);
    const first = listingJson(w, rec, 'en', base, term);
    expect(first).toBe(text(rec));
    rec.quantity_available = 5;
    // Same version: the kept text (a write always bumps the version).
    expect(listingJson(w, rec, 'en', base, term)).toBe(first);
    w.store.version += 1;
    expect(listingJson(w, rec, 'en', base, term)).toBe(text(rec));
    expect(listingJson(w, rec, 'en', 'http://other:1', term)).toBe(text(rec, 'en', 'http://other:1'));
    const next = { created: term.expires, expires: term.expires + 1000 };
    expect(listingJson(w, rec, 'en', base, next)).toBe(text(rec, 'en', base, next));
    // Another world at the same version, the same id: its own text.
    const other = world();
    other.store.version = w.store.version;
    const changed = { ...rec, quantity_available: 9 };
    expect(listingJson(other, changed, 'en', base, term)).toBe(text(changed));
    expect(listingJson(w, rec, 'en', base, term)).toBe(text(rec));
  });

  it('drops the table of a store version once the next is made', () => {
    const w = world();
    const before = keptTexts();
    for (let n = 0; n < 50; n += 1) listingJson(w, listing(n), 'en', base, term);
    expect(keptTexts()).toBe(before + 50);
    w.store.version += 1;
    listingJson(w, listing(0), 'en', base, term);
    expect(keptTexts()).toBe(before + 1);
  });

  it(`keeps at most ${VIEW_TEXTS_KEPT} texts in the process, dropping the table made longest ago first`, () => {
    const [a, b] = [world(), world()];
    const many = Array.from({ length: VIEW_TEXTS_KEPT * 0.6 }, (_, n) => listing(n));
    for (const rec of many) listingJson(a, rec, 'en', base, term);
    for (const rec of many) {
      listingJson(b, rec, 'en', base, term);
      expect(keptTexts()).toBeLessThanOrEqual(VIEW_TEXTS_KEPT);
    }
    // a's table went first; b's texts are all kept.
    const kept = keptTexts();
    listingJson(b, many[0], 'en', base, term);
    expect(keptTexts()).toBe(kept);
    listingJson(a, many[0], 'en', base, term);
    expect(keptTexts()).toBe(kept + 1);
  });
});
