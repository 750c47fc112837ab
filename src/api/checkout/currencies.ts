import type { Schema } from '../../http/contract.js';
import { ApiError } from '../../http/errors.js';
import type { ListingRecord, OrderItem } from '../../store/types.js';
import { fromUsdCents } from '../wallet/convert.js';
import type { RateTable } from '../wallet/rates.js';

/** What the provider asks for an order's items (openapi.yaml `ProviderQuote`). */
export type ProviderQuote = Schema<'ProviderQuote'>;

type Accepting = Pick<ListingRecord, 'id' | 'accepted_currencies'>;

/**
 * Whether the wallet may pay in a currency: its balance is USD cents and its money the wallet
 * currencies `Credit-<code>` (`Credit-USD` worth exactly USD), so US dollars or any `Credit-` code.
 */
export const walletPaysIn = (currency: string): boolean =>
  currency === 'USD' || currency.startsWith('Credit-');

/**
 * Refuses a wallet checkout of a listing whose `accepted_currencies` hold nothing the wallet pays
 * in: 400, naming what the listing accepts and the way that can pay it.
 */
export function checkWalletAccepted(listings: Accepting[]): void {
  for (const listing of listings) {
    if (listing.accepted_currencies.some(walletPaysIn)) continue;
    throw new ApiError(
      400,
      `Listing ${listing.id} accepts only ${listing.accepted_currencies.join(', ')}: the wallet pays in ` +
        'USD or a Credit-<code> currency; check out with paymentMethod payprovider',
    );
  }
}

/**
 * The currency the provider quotes an order in: one every listing accepts, USD when they all do
 * (the unit the order is kept in), else the first such in the first listing's list. Listings that
 * accept no currency in common cannot be paid at once: 400, naming what each accepts.
 */
export function quoteCurrency(listings: Accepting[]): string {
  const accepted = (currency: string) => listings.every((l) => l.accepted_currencies.includes(currency));
  if (accepted('USD')) return 'USD';
  const common = listings[0].accepted_currencies.find(accepted);
  if (common !== undefined) return common;
  const each = listings.map((l) => `${l.id} accepts ${l.accepted_currencies.join(', ')}`).join('; ');
  throw new ApiError(400, `The listings accept no currency in common (${each}): check them out separately`);
}

/**
 * The order's items in the quote currency: a line priced in it at its own price, any other line
 * converted from its USD cents at the request's rates (rounded half up, once per line).
 */
export function quoteItems(currency: string, items: OrderItem[], rates: RateTable): ProviderQuote {
  let cents = 0;
  for (const item of items)
    cents +=
      item.currency === currency
        ? item.unit_price_cents * item.quantity
        : fromUsdCents(item.line_total_cents, currency, rates);
  return { currency, items_cents: cents };
}
