import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { freeze, listed } from '../catalog/helpers.js';

/** One shopper's query and the templates whose listings a person expects (shopper-queries.json). */
interface ShopperQuery {
  q: string;
  lang?: string | null;
  expect: string[];
  why: string;
}

const set = JSON.parse(readFileSync(new URL('./shopper-queries.json', import.meta.url), 'utf8')) as {
  tuning: ShopperQuery[];
  held_out: ShopperQuery[];
};

let sb: TestSandbox;
let now: number;
beforeAll(async () => {
  // The shipped default catalogue (500 listings, the default seed), at a fixed time.
  sb = await makeSandbox({ listings: 500, rateLimit: 0 });
  now = await freeze(sb);
});

const templateOf = (id: string) => (sb.world.store.db.listings[id]?.text_ref ?? '').split('|')[0];

/**
 * A query's two figures: of the first min(5, expected) results, the share that is expected
 * (precision of the top 5: a query expecting two listings is judged on its first two), and of the
 * expected listings (at most ten), the share in the top 10.
 */
async function judge(query: ShopperQuery) {
  const lang = query.lang ? `&lang=${query.lang}` : '';
  const res = await sb.http.get(`/api/shop/listings?q=${encodeURIComponent(query.q)}${lang}&limit=10`);
  expect(res.status, `${query.q}: ${JSON.stringify(res.body)}`).toBe(200);
  const ids: string[] = res.body.listings.map((l: { id: string }) => l.id);
  const wanted = new Set(query.expect);
  // The listings a person would expect among those the search shows at all (listed now).
  const expected = listed(sb, now).filter((l) => wanted.has(templateOf(l.id)));
  const top = Math.min(5, expected.length);
  const precision = ids.slice(0, top).filter((id) => wanted.has(templateOf(id))).length / top;
  const recall = ids.filter((id) => wanted.has(templateOf(id))).length / Math.min(10, expected.length);
  return { precision, recall, shown: ids.map(templateOf) };
}

async function figures(queries: ShopperQuery[]) {
  let precision = 0;
  let recall = 0;
  const misses: string[] = [];
  for (const query of queries) {
    const got = await judge(query);
    precision += got.precision;
    recall += got.recall;
    if (got.precision < 1 || got.recall < 1)
      misses.push(
        `${query.q} (${query.lang ?? 'no lang'}): p=${got.precision.toFixed(2)} r=${got.recall.toFixed(2)} → ${got.shown.join(', ')}`,
      );
  }
  return { precision: precision / queries.length, recall: recall / queries.length, misses };
}

describe('a shopper query set (test/search/shopper-queries.json) on the default catalogue', () => {
  it('has at least 60 queries in at least 8 languages, each expecting listings the seed shows', () => {
    const all = [...set.tuning, ...set.held_out];
    expect(all.length).toBeGreaterThanOrEqual(60);
    expect(new Set(all.map((q) => q.lang ?? 'none')).size).toBeGreaterThanOrEqual(8);
    const shown = new Set(listed(sb, now).map((l) => templateOf(l.id)));
    for (const q of all)
      expect(
        q.expect.some((t) => shown.has(t)),
        q.q,
      ).toBe(true);
  });

  it('finds what a shopper means: precision of the top 5 and recall in the top 10 at least 0.9 over the set', async () => {
    const tuning = await figures(set.tuning);
    const heldOut = await figures(set.held_out);
    const all = set.tuning.length + set.held_out.length;
    const mean = (k: 'precision' | 'recall') =>
      (tuning[k] * set.tuning.length + heldOut[k] * set.held_out.length) / all;
    const say = (name: string, f: typeof tuning) =>
      `${name}: precision@5 ${f.precision.toFixed(3)}, recall@10 ${f.recall.toFixed(3)}\n  ${f.misses.join('\n  ')}`;
    const report = `${say('tuning', tuning)}\n${say('held_out', heldOut)}`;
    console.log(
      `all ${all}: precision@5 ${mean('precision').toFixed(3)}, recall@10 ${mean('recall').toFixed(3)}\n${report}`,
    );
    expect(mean('precision'), report).toBeGreaterThanOrEqual(0.9);
    expect(mean('recall'), report).toBeGreaterThanOrEqual(0.9);
    // The vocabulary is tuned on `tuning`; `held_out` measures how far it carries to queries it
    // was never tuned on (0.84 and 0.95 when it was written: docs/catalog.md), kept from sliding.
    expect(tuning.precision, report).toBeGreaterThanOrEqual(0.9);
    expect(tuning.recall, report).toBeGreaterThanOrEqual(0.9);
    expect(heldOut.precision, report).toBeGreaterThanOrEqual(0.8);
    expect(heldOut.recall, report).toBeGreaterThanOrEqual(0.9);
  });
});
