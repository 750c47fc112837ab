import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SORTS, searchIndex, type SearchIndex } from '../../src/api/listings/search-index.js';
import { runSearch, type SearchQuery } from '../../src/api/listings/search.js';
import { makeConfig } from '../../src/process/config.js';
import { openDefaultWorld } from '../../src/world/open.js';

/**
 * The search as its definition says, with no index tricks: every listing checked, matches sorted
 * with the order's comparator, featured first, then the page cut.
 */
function reference(index: SearchIndex, q: SearchQuery, text?: Set<number>, near?: Set<number>) {
  const c = index.cols;
  const matches: number[] = [];
  for (let i = 0; i < index.recs.length; i += 1) {
    if ((text && !text.has(i)) || (near && !near.has(i))) continue;
    if (c.expires[i] <= q.now || c.qty[i] <= 0) continue;
    const rec = index.recs[i];
    if (q.type && rec.type !== q.type) continue;
    if (q.minCents !== undefined && rec.price_cents < q.minCents) continue;
    if (q.maxCents !== undefined && rec.price_cents > q.maxCents) continue;
    if (q.categories && !q.categories.has(rec.category)) continue;
    matches.push(i);
  }
  matches.sort(index.comparator(q.sort));
  const split = q.featuredFirst !== false;
  const first = split ? matches.filter((i) => c.featured[i] === 1) : [];
  const rest = split ? matches.filter((i) => c.featured[i] !== 1) : matches;
  const from = (q.page - 1) * q.limit;
  return {
    ids: [...first, ...rest].slice(from, from + q.limit).map((i) => index.recs[i].id),
    total: matches.length,
  };
}

/**
 * The positions a query's text or location alone matches (word and distance matching are tested
 * elsewhere; this test is about filtering, ordering, counting and paging).
 */
function positions(index: SearchIndex, q: Partial<SearchQuery>): Set<number> {
  const all = runSearch(index, {
    ...q,
    sort: 'newest',
    page: 1,
    limit: 1e6,
    now: -Infinity,
    featuredFirst: false,
  });
  return new Set(all.items.map((r) => index.pos.get(r.id) as number));
}

describe('runSearch against a plain reference', () => {
  it('gives the same page and total for random filters, sorts, pages and featured-first', async () => {
    const config = makeConfig({ inMemory: true, listings: 3000, seed: 7 });
    const { world } = await openDefaultWorld(config);
    const index = searchIndex(world);
    const categories = [...index.codes.category.keys()];
    const now = world.clock.now();
    const words = ['chair', 'cozy', 'silk', 'wooden', 'lamp', 'zzzz'];
    fc.assert(
      fc.property(
        fc.record({
          sort: fc.constantFrom(...SORTS),
          page: fc.integer({ min: 1, max: 40 }),
          limit: fc.integer({ min: 1, max: 50 }),
          type: fc.option(fc.constantFrom('mall', 'classifieds', 'auction', 'reverse_auction' as const), {
            nil: undefined,
          }),
          category: fc.option(fc.constantFrom(...categories), { nil: undefined }),
          minCents: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
          maxCents: fc.option(fc.integer({ min: 0, max: 500_000 }), { nil: undefined }),
          q: fc.option(fc.constantFrom(...words), { nil: undefined }),
          geo: fc.option(
            fc.constantFrom({ lat: 52.52, lng: 13.4, radiusKm: 300 }, { lat: 40.7, lng: -74, radiusKm: 50 }),
            {
              nil: undefined,
            },
          ),
          featuredFirst: fc.boolean(),
          later: fc.integer({ min: 0, max: 3 * 24 * 3600_000 }),
        }),
        (r) => {
          const q: SearchQuery = {
            sort: r.sort,
            page: r.page,
            limit: r.limit,
            type: r.type,
            categories: r.category === undefined ? undefined : new Set([r.category]),
            minCents: r.minCents,
            maxCents: r.maxCents,
            q: r.q,
            geo: r.geo,
            featuredFirst: r.featuredFirst,
            now: now + r.later,
          };
          const text = r.q === undefined ? undefined : positions(index, { q: r.q });
          const near = r.geo === undefined ? undefined : positions(index, { geo: r.geo });
          const got = runSearch(index, q);
          const want = reference(index, q, text, near);
          expect({ ids: got.items.map((x) => x.id), total: got.total }).toEqual(want);
        },
      ),
      { numRuns: 300, seed: 42 },
    );
  });
});
