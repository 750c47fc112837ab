/**
 * Sets of index positions as sorted Int32Array slices, built in buffers that every search reuses.
 *
 * A search runs from start to end without yielding, so one set of buffers per index serves them
 * all. Reusing them matters at 100k listings: a common word's matches are 30k+ positions, and
 * allocating 100–400 KB per search for them (plus a 100 KB membership map) made V8 count that much
 * external memory per request, which brings full collections forward.
 */

/** Buffers sized to the index: two position lists and a zeroed byte map. */
export class Scratch {
  /** Zero everywhere between uses: whoever sets bytes clears them before returning. */
  marks = new Uint8Array(0);
  lists = [new Int32Array(0), new Int32Array(0)] as const;

  /** Room for `n` positions (grows with headroom, so added listings do not reallocate each time). */
  ensure(n: number): this {
    if (this.marks.length < n) {
      const size = n + (n >> 3) + 64;
      this.marks = new Uint8Array(size);
      this.lists = [new Int32Array(size), new Int32Array(size)];
    }
    return this;
  }
}

/**
 * The sorted, distinct positions of some sorted lists, written to `out` (length ≥ `n`). Few
 * positions are copied and sorted; many are marked in `marks` and read back in order with one
 * branch-free pass over the `n` positions, which costs less than sorting them.
 * @example unionInto(out, [[1, 4], [2, 4]], marks, 8) // Int32Array [1, 2, 4]
 */
export function unionInto(
  out: Int32Array,
  lists: ArrayLike<number>[],
  marks: Uint8Array,
  n: number,
): Int32Array {
  let size = 0;
  for (const list of lists) size += list.length;
  if (lists.length === 1 || size * 8 < n) {
    const all = out.subarray(0, size);
    let at = 0;
    for (const list of lists) for (let k = 0; k < list.length; k += 1) all[at++] = list[k];
    if (lists.length === 1) return all;
    all.sort();
    let kept = 0;
    for (let k = 0; k < size; k += 1) if (k === 0 || all[k] !== all[k - 1]) all[kept++] = all[k];
    return all.subarray(0, kept);
  }
  for (const list of lists) for (let k = 0; k < list.length; k += 1) marks[list[k]] = 1;
  let count = 0;
  for (let i = 0; i < n; i += 1) {
    out[count] = i;
    count += marks[i];
  }
  marks.fill(0, 0, n);
  return out.subarray(0, count);
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
