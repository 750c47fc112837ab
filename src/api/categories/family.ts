import type { CategoryRecord } from '../../store/types.js';

/** The slug itself and, for a top-level category, its subcategories: what `category=` matches. */
export function categoryFamily(categories: CategoryRecord[], slug: string): Set<string> {
  const family = new Set([slug]);
  for (const c of categories) if (c.parent === slug) family.add(c.slug);
  return family;
}
