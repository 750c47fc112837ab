import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { intersectInto, Scratch, unionInto } from './positions.js';

const N = 400;
const sortedList = fc
  .uniqueArray(fc.integer({ min: 0, max: N - 1 }), { maxLength: 120 })
  .map((a) => a.sort((x, y) => x - y));

describe('unionInto', () => {
  it('gives the sorted distinct positions of any lists, by sorting (few) or by marking (many)', () => {
    const s = new Scratch().ensure(N);
    fc.assert(
      fc.property(fc.array(sortedList, { maxLength: 12 }), (lists) => {
        const want = [...new Set(lists.flat())].sort((a, b) => a - b);
        expect([...unionInto(s.lists[0], lists, s.marks, N)]).toEqual(want);
        // The byte map is left zeroed for the next user.
        expect(s.marks.every((b) => b === 0)).toBe(true);
      }),
      { numRuns: 500, seed: 1 },
    );
  });

  it('takes the marking pass once the lists hold an eighth of the positions', () => {
    const s = new Scratch().ensure(N);
    const evens = Array.from({ length: 200 }, (_, i) => i * 2);
    const threes = Array.from({ length: 133 }, (_, i) => i * 3);
    const got = unionInto(s.lists[0], [evens, threes], s.marks, N);
    expect([...got]).toEqual([...new Set([...evens, ...threes])].sort((a, b) => a - b));
    expect(got.at(-1)).toBe(398);
    expect(s.marks.every((b) => b === 0)).toBe(true);
  });

  it('is empty for no lists', () => {
    const s = new Scratch().ensure(N);
    expect(unionInto(s.lists[0], [], s.marks, N).length).toBe(0);
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
