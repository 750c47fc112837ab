import type { ItemTemplate } from '../i18n/catalog-fixture.js';
import { templateDescription, templateTitle, wantedDescription } from '../i18n/template-text.js';
import { formatTextRef, VARIANT_ORDER } from '../i18n/text-ref.js';
import type { ListingRecord, ListingType } from '../store/types.js';
import type { RateTable } from '../api/wallet/rates.js';
import type { Draw } from './catalog-data.js';
import { drawStock, priceRange } from './condition.js';
import { priceLevel } from './price-levels.js';
import { acceptedFor, displayCents, drawCurrency, drawUsd } from './pricing.js';

/** The image path of a template's placeholder picture (served by GET /uploads/{name}). */
export const placeholderPath = (template: string, n: number): string => `/uploads/seed-${template}-${n}.png`;

const orderOf = (attribute: string) => {
  const at = VARIANT_ORDER.indexOf(attribute);
  return at < 0 ? VARIANT_ORDER.length : at;
};

/** Variants sorted as a shop writes them after a title (VARIANT_ORDER). */
export const inTitleOrder = (variants: [string, string][]): [string, string][] =>
  variants.sort((a, b) => orderOf(a[0]) - orderOf(b[0]));

/** One or two of the template's attributes with a value each, in title order (none when it has none). */
export function drawVariants(d: Draw, template: ItemTemplate): [string, string][] {
  const pool = Object.keys(template.attributes ?? {});
  if (pool.length === 0) return [];
  const count = pool.length === 1 || d.rand() < 0.5 ? 1 : 2;
  const chosen: string[] = [];
  for (let k = 0; k < count; k += 1) chosen.push(...pool.splice(d.int(0, pool.length - 1), 1));
  return inTitleOrder(chosen.map((a) => [a, d.any(template.attributes?.[a] ?? [])]));
}

/** A listing's stored text: the English title and description, and the reference to its template. */
export function itemText(
  template: ItemTemplate,
  variants: [string, string][],
  type: ListingType,
): Pick<ListingRecord, 'title' | 'description' | 'text_ref'> {
  const ref = { template: template.id, variants };
  const textRef = formatTextRef(ref);
  const wanted = type === 'reverse_auction';
  return {
    title: templateTitle(template, ref, 'en', wanted),
    description: wanted ? wantedDescription(textRef, 'en') : templateDescription(template, 'en'),
    text_ref: textRef,
  };
}

/** The item fields of a listing drawn from `template`: text, price, currencies, stock and images. */
export type ItemFields = Pick<
  ListingRecord,
  | 'title'
  | 'description'
  | 'text_ref'
  | 'price_cents'
  | 'currency'
  | 'accepted_currencies'
  | 'quantity_available'
  | 'images'
>;

/**
 * Draws what a listing of `template` shows: its variants (one or two, unless given), a price in
 * its condition's part of the template's USD range (condition.ts), for a job, a service or real
 * estate at the price level of the listing's `country` (price-levels.ts), in that country's
 * currency (rounded as that currency is priced), stock for a shop's listing (one for
 * any other type, and for a used item) and its placeholder pictures.
 */
export function drawItem(
  d: Draw,
  template: ItemTemplate,
  type: ListingType,
  country: string,
  rates: RateTable,
  variants: [string, string][] = drawVariants(d, template),
): ItemFields {
  const text = itemText(template, variants, type);
  const usd = drawUsd(d, priceRange(template, variants)) * priceLevel(template, country);
  const currency = drawCurrency(d, country, usd, rates);
  return {
    title: text.title,
    description: text.description,
    text_ref: text.text_ref,
    price_cents: displayCents(usd, currency, type, rates),
    currency,
    accepted_currencies: acceptedFor(currency, d.rand()),
    quantity_available: drawStock(d, template, type, variants),
    images:
      d.rand() < 0.3
        ? [placeholderPath(template.id, 1), placeholderPath(template.id, 2)]
        : [placeholderPath(template.id, 1)],
  };
}
