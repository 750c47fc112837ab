import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intersectInto, Scratch, unionInto } from './positions.js';

const N = 400;
const sortedList = fc
  .uniqueArray(fc.integer({ min: 0, max: N - 1 }), { maxLength: 120 })
  .map((a) => a.sort((x, y) => x - y));

describe('unionInto', () => {
  it('gives the sorted distinct positions of any lists', () => {
    const s = new Scratch().ensure(N);
    fc.assert(
      fc.property(fc.array(sortedList, { maxLength: 12 }), (lists) => {
        const want = [...new Set(lists.flat())].sort((a, b) => a - b);
        expect([...unionInto(s.lists[0], lists)]).toEqual(want);
        // Into the second buffer too (the one a later word of a query uses).
        expect([...unionInto(s.lists[1], lists)]).toEqual(want);
        // The byte map is left zeroed for the next user.
        expect(s.marks.every((b) => b === 0)).toBe(true);
      }),
      { numRuns: 500, seed: 1 },
    );
  });

  it('gives the sorted distinct positions of few or many, short or long lists', () => {
    const s = new Scratch().ensure(N);
    const step = (by: number, from = 0) =>
      Array.from({ length: Math.floor((N - from) / by) }, (_, i) => from + i * by).filter((x) => x < N);
    const union = (lists: number[][]) => [...new Set(lists.flat())].sort((a, b) => a - b);
    for (const lists of [
      [step(2), step(3)],
      [step(2), step(3), step(5)],
      [step(2), step(3), step(5), step(7, 1)],
      [step(2), step(3), step(5), step(7, 1), step(11, 4), step(13, 6)],
      [[1], [7, 9], [3], [2, 399], [5], [0]],
    ]) {
      const got = unionInto(s.lists[0], lists);
      expect([...got], `${lists.length} lists`).toEqual(union(lists));
      expect(got.buffer).toBe(s.lists[0].buffer);
    }
    expect(s.marks.every((b) => b === 0)).toBe(true);
  });

  it('is empty for no lists', () => {
    const s = new Scratch().ensure(N);
    expect(unionInto(s.lists[0], []).length).toBe(0);
  });
});

describe('intersectInto', () => {
  it('gives the common positions, also when writing over its first input', () => {
    const s = new Scratch().ensure(N);
    fc.assert(
      fc.property(sortedList, sortedList, (a, b) => {
        const want = a.filter((x) => b.includes(x));
        const first = s.lists[0].subarray(0, a.length);
        first.set(a);
        const second = Int32Array.from(b);
        expect([...intersectInto(s.lists[0], first, second)]).toEqual(want);
      }),
      { numRuns: 500, seed: 2 },
    );
  });
});

describe('Scratch', () => {
  it('grows with headroom and keeps its buffers while they are large enough', () => {
    const s = new Scratch().ensure(1000);
    const marks = s.marks;
    expect(s.marks.length).toBeGreaterThanOrEqual(1000);
    expect(s.lists[1].length).toBe(s.marks.length);
    s.ensure(1001);
    expect(s.marks).toBe(marks);
  });
});
