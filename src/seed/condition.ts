import type { ItemTemplate } from '../i18n/catalog-fixture.js';
import type { ListingType } from '../store/types.js';
import type { Draw } from './catalog-data.js';

/**
 * Conditions from the cheapest to the dearest, each with its share of a template's price range:
 * a listing in a condition is priced in that condition's slice of the range, among the
 * conditions the template allows, so a used jacket always costs less than a like-new one of the
 * same template, and a like-new one less than a new one.
 */
const CONDITIONS: readonly (readonly [string, number])[] = [
  ['for-parts', 0.5],
  ['used', 1.5],
  ['refurbished', 1],
  ['like-new', 1],
  ['new', 1.5],
];
/** Conditions a shop holds one piece of: each used item is a one-off. */
const ONE_PIECE = new Set(['used', 'like-new', 'for-parts']);
/** A refurbisher holds a few refurbished units, never more than this many. */
export const REFURBISHED_STOCK = 5;

/** The condition a listing's variants name, if any. */
export function conditionOf(variants: readonly (readonly [string, string])[]): string | undefined {
  for (const [attribute, value] of variants) if (attribute === 'condition') return value;
  return undefined;
}

/**
 * The part of a template's price range, as fractions `[from, to]` of it (on the scale prices are
 * drawn on), that a listing in `condition` takes; the whole range without a condition.
 * @example conditionSlice(['new', 'like-new', 'used'], 'used') // [0, 0.375]
 */
export function conditionSlice(allowed: readonly string[], condition: string | undefined): [number, number] {
  const ranked = CONDITIONS.filter(([c]) => allowed.includes(c));
  if (condition === undefined || !ranked.some(([c]) => c === condition)) return [0, 1];
  const total = ranked.reduce((sum, [, w]) => sum + w, 0);
  let from = 0;
  for (const [c, w] of ranked) {
    if (c === condition) return [from / total, (from + w) / total];
    from += w;
  }
  return [0, 1];
}

const ranges = new Map<string, [number, number]>();

/**
 * The USD range a listing of `template` with `variants` is priced in: its condition's slice of
 * the template's range, log-scaled like the draw (linear when the range starts at 0). Kept per
 * template and condition: a large seed asks for the same few ranges many times.
 * @example priceRange(jacket, [['condition', 'used']]) // [150, 218] of [150, 400]
 */
export function priceRange(
  template: ItemTemplate,
  variants: readonly (readonly [string, string])[],
): [number, number] {
  const condition = conditionOf(variants);
  const key = `${template.id}|${condition ?? ''}`;
  let range = ranges.get(key);
  if (range === undefined) {
    const [lo, hi] = template.price_usd;
    const [from, to] = conditionSlice(template.attributes?.condition ?? [], condition);
    range = lo <= 0 ? [hi * from, hi * to] : [lo * (hi / lo) ** from, lo * (hi / lo) ** to];
    if (ranges.size < 10_000) ranges.set(key, range);
  }
  return range;
}

/**
 * The most a shop holds of an item in this condition: one of a used, like-new or for-parts item
 * (each is a one-off), {@link REFURBISHED_STOCK} refurbished units, else no limit of its own.
 */
export function stockCap(variants: readonly (readonly [string, string])[]): number {
  const condition = conditionOf(variants);
  if (condition !== undefined && ONE_PIECE.has(condition)) return 1;
  return condition === 'refurbished' ? REFURBISHED_STOCK : Number.POSITIVE_INFINITY;
}

/**
 * A listing's stock: one for every type but a shop's (`mall`); a shop's within the template's
 * quantity range, capped by the item's condition ({@link stockCap}).
 */
export function drawStock(
  d: Draw,
  template: ItemTemplate,
  type: ListingType,
  variants: readonly (readonly [string, string])[],
): number {
  if (type !== 'mall') return 1;
  const cap = stockCap(variants);
  const [qlo, qhi] = template.quantity;
  return d.int(Math.min(qlo, cap), Math.min(qhi, cap));
}
