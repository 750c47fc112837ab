import type { CategoryRecord } from '../store/types.js';
import { categoryFixture } from './catalog-data.js';
import { generateListings } from './catalog-listings.js';
import { makePools } from './pools.js';
import type { SeedContext } from './context.js';
import { seedSellers } from './sellers.js';
import { seedTestListings } from './test-listings.js';

function seedCategories(ctx: SeedContext): void {
  const records: CategoryRecord[] = [];
  categoryFixture().forEach((cat, i) => {
    records.push({ slug: cat.slug, parent: null, icon: cat.icon, names: cat.name, position: i });
    cat.subcategories.forEach((sub, j) => {
      records.push({ slug: sub.slug, parent: cat.slug, icon: sub.icon, names: sub.name, position: j });
    });
  });
  ctx.db.categories = records;
}

/**
 * The catalog: categories from the fixture, the test accounts' listings (first, so their ids
 * depend on nothing else), the curated shops and private sellers, then listings drawn from the
 * item templates up to `--listings` in total (the test accounts' listings are always there, even
 * when `--listings` is smaller).
 */
export function seedCatalog(ctx: SeedContext): void {
  seedCategories(ctx);
  const fixed = seedTestListings(ctx);
  const { stores, people } = seedSellers(ctx);
  generateListings(ctx, makePools(ctx, stores, people), Math.max(0, ctx.listings - fixed));
}
