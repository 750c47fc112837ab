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

/** Up to this many moved positions are put back one by one; more are merged with the rest in one pass. */
const FEW = 256;

type Cmp = (a: number, b: number) => number;

/** A moved position: where it was in the order, and where it goes (among the positions that stay). */
interface Move {
  i: number;
  from: number;
  to: number;
}

/**
 * Puts `moved` positions (whose sort keys changed) back in their places in `order` (sorted by
 * `cmp`), and brings `rank` (each position's place in `order`) up to date; both in place. A few,
 * as the clock running on relists them, are binary-inserted among the others, and only the
 * stretches of the order between their old and new places are rewritten: a relisted listing
 * moves from the end of the expired to the listed ending within its duration, to the top of the
 * newest, and among the listings of its own price in the price orders. Many, after a long clock
 * jump, are sorted and merged with the rest in one pass.
 */
export function reorder(order: number[], rank: Int32Array, moved: number[], cmp: Cmp): void {
  const marked = new Uint8Array(order.length);
  for (const i of moved) marked[i] = 1;
  if (moved.length > FEW) {
    rewrite(order, rank, { from: 0, to: order.length }, marked, [...moved].sort(cmp), cmp);
    return;
  }
  const moves = [...moved]
    .sort(cmp)
    .map((i): Move => ({ i, from: rank[i], to: placeOf(order, marked, i, cmp) }));
  // Stretches that overlap are rewritten as one: within each, as many leave as come in.
  const spans = moves
    .map((m) => ({ from: Math.min(m.from, m.to), to: Math.max(m.from + 1, m.to), moves: [m] }))
    .sort((a, b) => a.from - b.from);
  for (let k = 0; k < spans.length; k += 1) {
    const span = spans[k];
    while (k + 1 < spans.length && spans[k + 1].from <= span.to) {
      const next = spans[++k];
      span.to = Math.max(span.to, next.to);
      span.moves.push(...next.moves);
    }
    span.moves.sort((a, b) => a.to - b.to || cmp(a.i, b.i));
    rewrite(order, rank, span, marked, span.moves, cmp);
  }
}

/**
 * Rewrites `order[from…to)` without the marked positions and with `placed` in their places:
 * each at its `to` when it is a {@link Move}, else merged by `cmp`.
 */
function rewrite(
  order: number[],
  rank: Int32Array,
  { from, to }: { from: number; to: number },
  marked: Uint8Array,
  placed: (Move | number)[],
  cmp: Cmp,
): void {
  const stretch: number[] = [];
  let b = 0;
  const next = () => {
    const p = placed[b++];
    stretch.push(typeof p === 'number' ? p : p.i);
  };
  for (let k = from; k < to; k += 1) {
    const i = order[k];
    while (b < placed.length && typeof placed[b] !== 'number' && (placed[b] as Move).to <= k) next();
    if (marked[i] === 1) continue;
    while (b < placed.length && typeof placed[b] === 'number' && cmp(placed[b] as number, i) < 0) next();
    stretch.push(i);
  }
  while (b < placed.length) next();
  for (let k = 0; k < stretch.length; k += 1) {
    order[from + k] = stretch[k];
    rank[stretch[k]] = from + k;
  }
}

/**
 * Where `i` goes in `order` among the positions not `marked`: the place after the last one that
 * sorts before it (a binary search that steps over marked positions, which are few).
 */
function placeOf(order: number[], marked: Uint8Array, i: number, cmp: Cmp): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    let m = mid;
    while (m < hi && marked[order[m]] === 1) m += 1;
    if (m === hi) hi = mid;
    else if (cmp(order[m], i) <= 0) lo = m + 1;
    else hi = mid;
  }
  return lo;
}
