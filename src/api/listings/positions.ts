/**
 * Sets of index positions as sorted Int32Array slices, built in buffers that every search reuses.
 *
 * A search runs from start to end without yielding, so one set of buffers per index serves them
 * all. Reusing them matters at 100k listings: a common word's matches are 30k+ positions, and
 * allocating 100–400 KB per search for them (plus a 100 KB membership map) made V8 count that much
 * external memory per request, which brings full collections forward.
 */

/** Buffers sized to the index: two position lists for results, a spare one, a zeroed byte map. */
export class Scratch {
  /** Zero everywhere between uses: whoever sets bytes clears them before returning. */
  marks = new Uint8Array(0);
  lists = [new Int32Array(0), new Int32Array(0)] as const;
  /** A text search's matching positions, and the kept matches of a search (search.ts). */
  spare = new Int32Array(0);
  /** A text search's rank tier of each matching position (search-text.ts); stale elsewhere. */
  tiers = new Uint8Array(0);
  /** A text search's best tier per part, plus one (zero between uses). */
  partTiers = new Uint8Array(0);
  private keyBuffer = new Float64Array(0);

  /** Room for `count` sort keys (search.ts `inOrder`), grown as needed; stale contents. */
  keys(count: number): Float64Array {
    if (this.keyBuffer.length < count)
      this.keyBuffer = new Float64Array(Math.max(count, this.keyBuffer.length * 2));
    return this.keyBuffer.subarray(0, count);
  }

  /** Room for `n` positions (grows with headroom, so added listings do not reallocate each time). */
  ensure(n: number): this {
    if (this.marks.length < n) {
      const size = n + (n >> 3) + 64;
      this.marks = new Uint8Array(size);
      this.lists = [new Int32Array(size), new Int32Array(size)];
      this.spare = new Int32Array(size);
      this.tiers = new Uint8Array(size);
    }
    return this;
  }
}

/**
 * The sorted, distinct positions of some sorted lists, written to `out` (one of `s.lists`, room
 * for `n`): copied, sorted and each position kept once.
 * @example unionInto(s.lists[0], [[1, 4], [2, 4]]) // Int32Array [1, 2, 4]
 */
export function unionInto(out: Int32Array, lists: ArrayLike<number>[]): Int32Array {
  let size = 0;
  for (const list of lists) size += list.length;
  // The lists may share positions, so together they may hold more than `out` has room for.
  const all = new Int32Array(size);
  let at = 0;
  for (const list of lists) for (let k = 0; k < list.length; k += 1) all[at++] = list[k];
  all.sort();
  let kept = 0;
  for (let k = 0; k < size; k += 1) if (k === 0 || all[k] !== all[k - 1]) out[kept++] = all[k];
  return out.subarray(0, kept);
}

/**
 * The positions in both sorted lists, written to `out`. `out` may be the buffer of `a` or `b`:
 * the k-th match is written at or before where it was read.
 * @example intersectInto(out, Int32Array.of(1, 3, 5), Int32Array.of(3, 4, 5)) // Int32Array [3, 5]
 */
export function intersectInto(out: Int32Array, a: Int32Array, b: Int32Array): Int32Array {
  let n = 0;
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] < b[j]) i += 1;
    else if (a[i] > b[j]) j += 1;
    else {
      out[n++] = a[i];
      i += 1;
      j += 1;
    }
  }
  return out.subarray(0, n);
}
