/**
 * Sets of index positions as sorted Int32Array slices, built in buffers that every search reuses.
 *
 * A search runs from start to end without yielding, so one set of buffers per index serves them
 * all. Reusing them matters at 100k listings: a common word's matches are 30k+ positions, and
 * allocating 100–400 KB per search for them (plus a 100 KB membership map) made V8 count that much
 * external memory per request, which brings full collections forward.
 */

/** Buffers sized to the index: two position lists for results, one for merging, a zeroed byte map. */
export class Scratch {
  /** Zero everywhere between uses: whoever sets bytes clears them before returning. */
  marks = new Uint8Array(0);
  lists = [new Int32Array(0), new Int32Array(0)] as const;
  /** Intermediate merges of {@link unionInto}, never a result. */
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

/** Up to this many lists are merged pairwise; more are sorted together or marked and read back. */
const MAX_MERGED_LISTS = 4;
/**
 * Many lists holding under 1/20 of the positions are copied and sorted; more are marked. Measured
 * at 100k positions: sorting costs ~40 ns a position, the marking pass ~0.25 ms whatever the count.
 */
const SORTED_SHARE = 20;

/**
 * The sorted, distinct positions of some sorted lists, written to `out` (one of `s.lists`, room
 * for `n`). One list is copied; up to four are merged two at a time; more are copied and sorted
 * when they hold few positions, or else marked in `s.marks` and read back in order with one
 * branch-free pass over the `n` positions, which costs less than sorting many.
 * @example unionInto(s.lists[0], [[1, 4], [2, 4]], s, 8) // Int32Array [1, 2, 4]
 */
export function unionInto(out: Int32Array, lists: ArrayLike<number>[], s: Scratch, n: number): Int32Array {
  let size = 0;
  for (const list of lists) size += list.length;
  if (lists.length <= 1) {
    const all = out.subarray(0, size);
    if (lists.length === 0) return all;
    all.set(lists[0]);
    return all;
  }
  if (lists.length <= MAX_MERGED_LISTS) {
    // Merges alternate between `out` and the spare buffer so that the last one lands in `out`.
    let into = lists.length % 2 === 0 ? out : s.spare;
    let merged: ArrayLike<number> = lists[0];
    for (let l = 1; l < lists.length; l += 1) {
      merged = mergeInto(into, merged, lists[l]);
      into = into === out ? s.spare : out;
    }
    return merged as Int32Array;
  }
  if (size * SORTED_SHARE < n) {
    const all = out.subarray(0, size);
    let at = 0;
    for (const list of lists) for (let k = 0; k < list.length; k += 1) all[at++] = list[k];
    all.sort();
    let kept = 0;
    for (let k = 0; k < size; k += 1) if (k === 0 || all[k] !== all[k - 1]) all[kept++] = all[k];
    return all.subarray(0, kept);
  }
  const { marks } = s;
  for (const list of lists) for (let k = 0; k < list.length; k += 1) marks[list[k]] = 1;
  let count = 0;
  for (let i = 0; i < n; i += 1) {
    out[count] = i;
    count += marks[i];
  }
  marks.fill(0, 0, n);
  return out.subarray(0, count);
}

/** Two sorted lists merged into `out` (which holds neither), each position once. */
function mergeInto(out: Int32Array, a: ArrayLike<number>, b: ArrayLike<number>): Int32Array {
  let i = 0;
  let j = 0;
  let n = 0;
  while (i < a.length && j < b.length) {
    const x = a[i];
    const y = b[j];
    if (x <= y) {
      out[n++] = x;
      i += 1;
      if (x === y) j += 1;
    } else {
      out[n++] = y;
      j += 1;
    }
  }
  while (i < a.length) out[n++] = a[i++];
  while (j < b.length) out[n++] = b[j++];
  return out.subarray(0, n);
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
