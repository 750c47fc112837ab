import { newId } from '../src/world/ids.js';
import type { Db, ListingRecord } from '../src/store/types.js';

const WORDS =
  'vintage oak table lamp leather jacket camera lens bicycle guitar amp sofa desk chair phone case watch boots rug vase kettle drone'.split(
    ' ',
  );
const TYPES: ListingRecord['type'][] = ['mall', 'classifieds', 'auction', 'reverse_auction'];

/** Deterministic filler listings shaped like ListingRecord, for measuring before the catalog seeder exists. */
export function addSyntheticListings(db: Db, count: number): number {
  const sellers = Object.keys(db.users);
  const at = db.meta.clock.now;
  let added = 0;
  for (let i = 0; i < count; i++) {
    const id = newId(db);
    const w = (k: number) => WORDS[(i * 7 + k * 13) % WORDS.length];
    db.listings[id] = {
      id,
      seller_id: sellers[i % Math.max(sellers.length, 1)] ?? id,
      store_slug: null,
      type: TYPES[i % TYPES.length],
      title: `${w(1)} ${w(2)} ${w(3)} #${i}`,
      description: `A ${w(4)} ${w(5)} in good condition. ${w(6)} ${w(7)} ${w(8)}, barely used, pick-up or shipping. Item ${i}.`,
      category: `cat-${i % 40}`,
      price_cents: 100 + ((i * 7919) % 500_000),
      currency: 'USD',
      accepted_currencies: ['USD', 'EUR'],
      quantity_available: 1 + (i % 5),
      duration: '2weeks',
      location_city: 'Berlin',
      location_country: 'DE',
      lat: 52.5 + (i % 100) / 1000,
      lng: 13.4 + (i % 100) / 1000,
      images: [`/uploads/seed/${id}-1.jpg`, `/uploads/seed/${id}-2.jpg`],
      is_featured: i % 50 === 0,
      featured_payment_method: null,
      created_at: at,
    };
    added++;
  }
  db.meta.listings = Object.keys(db.listings).length;
  return added;
}
