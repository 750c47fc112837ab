import { around } from 'geokdbush';
import KDBush from 'kdbush';
import MiniSearch from 'minisearch';
import { categoryFamily } from '../api/categories/family.js';
import {
  DURATION_MS,
  firstTerm,
  relists,
  seedStartOf,
  termAt,
  type Term,
} from '../api/listings/listing-state.js';
import { toUsdCents } from '../api/wallet/convert.js';
import { ratesNow, type RateTable } from '../api/wallet/rates.js';
import { listingDescription, listingTitle, resolveTextRef } from '../i18n/listing-text.js';
import { wordsIn } from '../i18n/text.js';
import type { Db, ListingRecord } from '../store/types.js';
import { extra, type World } from '../world/world.js';
import { distanceKm } from './geo.js';
import { docsOf, indexTerm, LANGUAGES, vocabulary } from './catalog-text.js';

/** A field of the users' listings index: `title_de`, `description_ja`. */
const fieldLang = (field: string) => field.slice(field.indexOf('_') + 1);

/**
 * The users' listings (those without a template) in a search library index of their own, their
 * title and description as shown in each language (translated where the phrase dictionary
 * reaches), one field per language and part. Few and small next to the catalogue.
 */
function usersIndex(): MiniSearch<{ id: number }> {
  const fields = LANGUAGES.flatMap((l) => [`title_${l}`, `description_${l}`]);
  return new MiniSearch<{ id: number }>({
    fields,
    tokenize: (text, field) => wordsIn(text, fieldLang(field ?? '_en')),
    processTerm: (word, field) => indexTerm(word, fieldLang(field ?? '_en')),
  });
}

/**
 * A world's listings as a search reads them: each record with its first term, the length of its
 * duration and whether it relists (listing-state.ts: a search finds each one's term at its own
 * time from these), its price in USD at the rates the table was made at, and the catalogue
 * documents (catalog-text.ts) and kinds it is found through. Made again when the database or its
 * listings are swapped (reset, snapshot restore); extended when listings are added; repriced when
 * the rate window changes. Quantity and featured flag are read from the records, which writes
 * change in place.
 */
export class ListingTable {
  recs: ListingRecord[] = [];
  /** The first term of each (the term most are in at any time), and the length of its duration. */
  first: Term[] = [];
  length: number[] = [];
  relisting: boolean[] = [];
  usd: number[] = [];
  /**
   * Quantity and featured flag as of the store's last version, beside the record: every search
   * reads them for each match, and reading them from 100k scattered records cost as much as the
   * rest of the search (docs/catalog.md). Writes change the records in place; the next search
   * reads them again.
   */
  qty: number[] = [];
  featured: boolean[] = [];
  /** Catalogue document id → positions of the listings found through it, ascending. */
  docs = new Map<string, number[]>();
  /** Positions of the listings without a template, and the index of their texts (built on first use). */
  users: number[] = [];
  private usersText: MiniSearch<{ id: number }> | undefined;
  private usersTextHolds = 0;
  private rates: RateTable = { updatedAt: '', rates: new Map() };
  private db: Db | null = null;
  private listingsRef: Db['listings'] | null = null;
  private version = -1;
  private seedStart = -Infinity;
  /** Template id and category slug → the kinds they are (`k:` documents). */
  private kindsOf = new Map<string, string[]>();
  /** The listings with coordinates in a k-d tree (kdbush), made again after listings are added. */
  private points: { tree: KDBush; positions: number[] } | undefined;

  sync(db: Db, version: number, rates: RateTable): void {
    const repriced = rates.updatedAt !== this.rates.updatedAt;
    this.rates = rates;
    if (db !== this.db || db.listings !== this.listingsRef) this.rebuild(db);
    else {
      if (repriced) this.usd = this.recs.map((r) => toUsdCents(r.price_cents, r.currency, rates));
      if (version !== this.version) {
        this.syncRecords(db);
        this.qty = this.recs.map((r) => r.quantity_available);
        this.featured = this.recs.map((r) => r.is_featured);
      }
    }
    this.version = version;
  }

  /**
   * The listings added since (after the others in the listings' key order), or a rebuild when
   * one was removed or replaced under its id (a scenario's overlay).
   */
  private syncRecords(db: Db): void {
    const ids = Object.keys(db.listings);
    const kept =
      ids.length >= this.recs.length && this.recs.every((r, k) => ids[k] === r.id && db.listings[r.id] === r);
    if (!kept) this.rebuild(db);
    else for (const id of ids.slice(this.recs.length)) this.place(db.listings[id]);
  }

  private rebuild(db: Db): void {
    this.db = db;
    this.listingsRef = db.listings;
    this.seedStart = seedStartOf(db.meta);
    this.recs = [];
    this.qty = [];
    this.featured = [];
    this.first = [];
    this.length = [];
    this.relisting = [];
    this.usd = [];
    this.docs.clear();
    this.users = [];
    this.usersText = undefined;
    this.usersTextHolds = 0;
    this.kindsOf.clear();
    this.points = undefined;
    for (const kind of vocabulary().kinds) {
      const keys = [
        ...kind.templates.map((t) => `t:${t}`),
        ...(kind.categories ?? []).flatMap((c) => [...categoryFamily(db.categories, c)].map((s) => `c:${s}`)),
      ];
      for (const key of keys) this.kindsOf.set(key, [...(this.kindsOf.get(key) ?? []), `k:${kind.id}`]);
    }
    for (const rec of Object.values(db.listings)) this.place(rec);
  }

  private place(rec: ListingRecord): void {
    const i = this.recs.length;
    this.recs.push(rec);
    this.first.push(firstTerm(rec));
    this.qty.push(rec.quantity_available);
    this.featured.push(rec.is_featured);
    this.points = undefined;
    this.length.push(DURATION_MS[rec.duration]);
    this.relisting.push(relists(rec, this.seedStart));
    this.usd.push(toUsdCents(rec.price_cents, rec.currency, this.rates));
    const template = resolveTextRef(rec.text_ref)?.template.id;
    const docs = docsOf(rec);
    if (docs.length === 0) this.users.push(i);
    const kinds = [
      ...(template ? (this.kindsOf.get(`t:${template}`) ?? []) : []),
      ...(this.kindsOf.get(`c:${rec.category}`) ?? []),
    ];
    for (const doc of new Set([...docs, ...kinds])) {
      const list = this.docs.get(doc);
      if (list) list.push(i);
      else this.docs.set(doc, [i]);
    }
  }

  /** The term listing `i` is in at `now` (listing-state.ts `termAt`). */
  termAt(i: number, now: number): Term {
    return termAt(this.first[i], this.length[i], this.relisting[i], now);
  }

  /**
   * The listings within `radiusKm` of a point, by great-circle distance (geo.ts `distanceKm`, the
   * documented rule): the k-d tree's `around` (geokdbush) finds those within the radius on its own
   * sphere, a hair smaller than ours, so it misses none; each is then measured by the rule.
   */
  within(lat: number, lng: number, radiusKm: number): number[] {
    if (!this.points) {
      const positions = this.recs.flatMap((r, i) => (r.lat === null || r.lng === null ? [] : [i]));
      const tree = new KDBush(Math.max(1, positions.length));
      for (const i of positions) tree.add(this.recs[i].lng as number, this.recs[i].lat as number);
      if (positions.length === 0) tree.add(0, 0);
      tree.finish();
      this.points = { tree, positions };
    }
    const { tree, positions } = this.points;
    const found = around(tree, lng, lat, Infinity, radiusKm).filter((k) => k < positions.length);
    return found
      .map((k) => positions[k])
      .filter(
        (i) => distanceKm(lat, lng, this.recs[i].lat as number, this.recs[i].lng as number) <= radiusKm,
      );
  }

  /** Whether listing `i` is shown at all at `now`: within its term and not sold out. */
  listed(i: number, now: number): boolean {
    return this.qty[i] > 0 && this.termAt(i, now).expires > now;
  }

  /** The index of the users' listings' texts, brought up to date with the listings added since. */
  usersIndex(): MiniSearch<{ id: number }> {
    this.usersText ??= usersIndex();
    for (const i of this.users.slice(this.usersTextHolds)) {
      const rec = this.recs[i];
      // Each language's text where it is not the English one (most of a user's text stays English):
      // the English fields are searched in every language.
      const doc: Record<string, string | number> = { id: i };
      for (const l of LANGUAGES) {
        const title = listingTitle(rec, l);
        const description = listingDescription(rec, l) ?? '';
        if (l === 'en' || title !== rec.title) doc[`title_${l}`] = title;
        if (l === 'en' || description !== (rec.description ?? '')) doc[`description_${l}`] = description;
      }
      this.usersText.add(doc as { id: number });
    }
    this.usersTextHolds = this.users.length;
    return this.usersText;
  }
}

/** The world's listing table, up to date with its database and the current rates. */
export function listingTable(world: World): ListingTable {
  const table = extra(world, 'catalog.listingTable', () => new ListingTable());
  table.sync(world.store.db, world.store.version, ratesNow(world));
  return table;
}
