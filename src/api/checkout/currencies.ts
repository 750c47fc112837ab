import type { Schema } from '../../contract/types.js';
import { ApiError } from '../../contract/errors.js';
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
 * The currencies the provider may quote an order in, best first: the ones every listing accepts,
 * USD first when they all do (the unit the order is kept in), then the first listing's list in
 * order. Listings that accept no currency in common cannot be paid at once: 400, naming what each
 * accepts.
 */
function quoteCurrencies(listings: Accepting[]): string[] {
  const accepted = (currency: string) => listings.every((l) => l.accepted_currencies.includes(currency));
  const common = listings[0].accepted_currencies.filter(accepted);
  if (common.length > 0) return accepted('USD') ? ['USD', ...common.filter((c) => c !== 'USD')] : common;
  const each = listings.map((l) => `${l.id} accepts ${l.accepted_currencies.join(', ')}`).join('; ');
  throw new ApiError(400, `The listings accept no currency in common (${each}): check them out separately`);
}

/**
 * The order's items in the quote currency: a line priced in it at its own price, any other line
 * converted from its USD cents at the request's rates (rounded half up, once per line).
 */
function quoteItems(currency: string, items: OrderItem[], rates: RateTable): ProviderQuote {
  let cents = 0;
  for (const item of items)
    cents +=
      item.currency === currency
        ? item.unit_price_cents * item.quantity
        : fromUsdCents(item.line_total_cents, currency, rates);
  return { currency, items_cents: cents };
}

/**
 * What the provider asks for an order's items: in the first currency of {@link quoteCurrencies}
 * in which the amount is a safe integer (exact in a JavaScript number). An order kept in USD
 * cents is at most about 10^15, but a weak currency multiplies it (42,000 IRR a dollar made
 * 1.26 × 10^18 of three lines of 10,000 units at the dearest unit): when no accepted currency
 * holds it, 400 saying the limit, before anything changes.
 */
export function providerQuote(listings: Accepting[], items: OrderItem[], rates: RateTable): ProviderQuote {
  const currencies = quoteCurrencies(listings);
  const quotes = currencies.map((currency) => quoteItems(currency, items, rates));
  const fits = quotes.find((q) => Number.isSafeInteger(q.items_cents));
  if (fits) return fits;
  throw new ApiError(
    400,
    `The order's items would be ${quotes[0].items_cents.toExponential(3)} cents of ${quotes[0].currency} ` +
      `(the only ${currencies.length === 1 ? 'currency' : 'currencies'} its listings accept in common: ` +
      `${currencies.join(', ')}), more than the provider can be asked exactly ` +
      `(${Number.MAX_SAFE_INTEGER} cents): buy fewer units, or check the listings out separately`,
  );
}
