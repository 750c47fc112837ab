import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { reorder } from './index-terms.js';

/** An order of `keys.length` positions by key (ties by position), and its ranks. */
function sorted(keys: number[]) {
  const cmp = (a: number, b: number) => keys[a] - keys[b] || a - b;
  const order = keys.map((_, i) => i).sort(cmp);
  const rank = new Int32Array(keys.length);
  order.forEach((i, k) => (rank[i] = k));
  return { order, rank, cmp };
}

describe('reorder', () => {
  it('gives the order a full sort gives after some keys changed, with ranks to match', () => {
    fc.assert(
      fc.property(
        // Few distinct keys, so that ties and equal insertion places are common.
        fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 400 }),
        fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 30 })), { maxLength: 300 }),
        (keys, changes) => {
          const { order, rank, cmp } = sorted(keys);
          const moved = new Set<number>();
          for (const [at, key] of changes) {
            keys[at % keys.length] = key;
            moved.add(at % keys.length);
          }
          reorder(order, rank, [...moved], cmp);
          const expected = sorted(keys);
          expect(order).toEqual(expected.order);
          expect([...rank]).toEqual([...expected.rank]);
        },
      ),
      { numRuns: 500, seed: 13 },
    );
  });
});
