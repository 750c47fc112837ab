import type { Schema } from '../../contract/types.js';
import { ApiError } from '../../contract/errors.js';
import type { CategoryRecord } from '../../store/types.js';
import type { World } from '../../world/world.js';
import { listingTable } from '../../search/listing-table.js';

type CategoryView = Schema<'Category'>;

/**
 * Live counts of listed listings (active and not sold out) per category; a parent's count
 * includes its subcategories'.
 */
export function categoryCounts(world: World): Map<string, number> {
  const now = world.clock.now();
  const table = listingTable(world);
  const counts = new Map<string, number>();
  for (let i = 0; i < table.recs.length; i += 1) {
    const { category } = table.recs[i];
    counts.set(category, (counts.get(category) ?? 0) + (table.listed(i, now) ? 1 : 0));
  }
  const parents = new Map(world.store.db.categories.map((c) => [c.slug, c.parent]));
  for (const [slug, n] of [...counts]) {
    const parent = parents.get(slug);
    if (parent) counts.set(parent, (counts.get(parent) ?? 0) + n);
  }
  return counts;
}

function view(
  c: CategoryRecord,
  lang: string,
  counts: Map<string, number>,
  all: CategoryRecord[],
): CategoryView {
  return {
    slug: c.slug,
    name: c.names[lang] ?? c.names.en ?? c.slug,
    icon: c.icon,
    count: counts.get(c.slug) ?? 0,
    subcategory_count: all.filter((s) => s.parent === c.slug).length,
    parent: c.parent,
  };
}

/** Top-level categories in fixture order. */
export function listCategories(world: World, lang: string): CategoryView[] {
  const all = world.store.db.categories;
  const counts = categoryCounts(world);
  return all.filter((c) => c.parent === null).map((c) => view(c, lang, counts, all));
}

/** A top-level category and its subcategories; 404 for an unknown or non-top-level slug. */
export function subcategoriesOf(world: World, slug: string, lang: string) {
  const all = world.store.db.categories;
  const parent = all.find((c) => c.slug === slug && c.parent === null);
  if (!parent) throw new ApiError(404, `Category not found: ${slug}`);
  const counts = categoryCounts(world);
  return {
    parent: view(parent, lang, counts, all),
    subcategories: all.filter((c) => c.parent === slug).map((c) => view(c, lang, counts, all)),
  };
}
