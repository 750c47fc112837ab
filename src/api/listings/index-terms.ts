import type { ListingRecord } from '../../store/types.js';
import type { Columns } from './columns.js';
import { firstTerm, listingTerm, relists } from './listing-state.js';

/**
 * The sandbox times the index's `created` and `expires` columns hold for: from the latest start
 * of a relisting round (-Infinity before any) up to the soonest end of a relisting listing's term.
 * Inside it no term changes, so a search checks two numbers and goes on.
 */
export class TermSpan {
  from = -Infinity;
  until = Infinity;

  holds(now: number): boolean {
    return now >= this.from && now < this.until;
  }

  /** Narrows the span by one relisting listing's term (`rolled`: not its first). */
  take(created: number, expires: number, rolled: boolean): void {
    if (rolled && created > this.from) this.from = created;
    if (expires < this.until) this.until = expires;
  }
}

/**
 * Writes listing `i`'s term at `now` (listing-state.ts, the one definition) into the columns and
 * narrows `span` by it when the listing relists.
 */
export function placeTerm(
  c: Columns,
  i: number,
  rec: ListingRecord,
  at: { now: number; seedStart: number; span: TermSpan },
): void {
  const term = listingTerm(rec, at.now, at.seedStart);
  c.created[i] = term.created;
  c.expires[i] = term.expires;
  c.relists[i] = relists(rec, at.seedStart) ? 1 : 0;
  if (c.relists[i] === 1) at.span.take(term.created, term.expires, term.created !== firstTerm(rec).created);
}

/**
 * Brings the terms of relisting listings to `now`, narrows `at.span` to what then holds, and
 * returns the positions whose term changed. Forward in time only the listings whose term has
 * ended are looked at; a clock set back before the span looks at every relisting listing (a round
 * may have to be undone).
 */
export function rollTerms(
  c: Columns,
  recs: ListingRecord[],
  at: { now: number; seedStart: number; span: TermSpan },
): number[] {
  const back = at.now < at.span.from;
  const span = new TermSpan();
  // Forward, rounds started before stay started: the span begins no earlier than it did.
  if (!back) span.from = at.span.from;
  const moved: number[] = [];
  for (let i = 0; i < recs.length; i += 1) {
    if (c.relists[i] === 0) continue;
    if (back || c.expires[i] <= at.now) {
      const created = c.created[i];
      placeTerm(c, i, recs[i], { now: at.now, seedStart: at.seedStart, span });
      if (c.created[i] !== created) moved.push(i);
    } else span.take(c.created[i], c.expires[i], false);
  }
  at.span.from = span.from;
  at.span.until = span.until;
  return moved;
}

type Cmp = (a: number, b: number) => number;

/**
 * Puts `moved` positions (whose sort keys changed) back in their places in `order` (sorted by
 * `cmp`), and brings `rank` (each position's place in `order`) up to date; both in place: the
 * moved ones are sorted and merged with the others in one pass over the order.
 */
export function reorder(order: number[], rank: Int32Array, moved: number[], cmp: Cmp): void {
  const marked = new Uint8Array(order.length);
  for (const i of moved) marked[i] = 1;
  const placed = [...moved].sort(cmp);
  const merged: number[] = [];
  let b = 0;
  for (const i of order) {
    if (marked[i] === 1) continue;
    while (b < placed.length && cmp(placed[b], i) < 0) merged.push(placed[b++]);
    merged.push(i);
  }
  while (b < placed.length) merged.push(placed[b++]);
  for (let k = 0; k < merged.length; k += 1) {
    order[k] = merged[k];
    rank[merged[k]] = k;
  }
}
