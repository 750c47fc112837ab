import type { Body, Reply } from '../../contract/types.js';
import { ApiError, Messages } from '../../contract/errors.js';
import { newId } from '../../world/ids.js';
import type { Db, ListingRecord, OrderItem, OrderRecord } from '../../store/types.js';
import { payOrder } from '../orders/settle.js';
import { expireDuePayments } from '../payprovider/settle.js';
import { approvalUrl, createPayment } from '../payprovider/service.js';
import { platformFeeCents, toUsdCents } from '../wallet/convert.js';
import { postLedger } from '../wallet/ledger.js';
import { unitPriceProblem } from '../wallet/limits.js';
import type { RateTable } from '../wallet/rates.js';
import { isListingActive, seedStartOf } from '../listings/listing-state.js';
import { checkWalletAccepted, providerQuote, type ProviderQuote } from './currencies.js';

/** The body of POST /api/shop/checkout, validated. */
export type CheckoutInput = Body<'checkout'>;
type CartLine = CheckoutInput['cartItems'][number];

/** What the checkout needs besides the body: time, rates, the fee and the base URL for approvalUrl. */
export interface CheckoutContext {
  buyerId: string;
  now: number;
  rates: RateTable;
  feeBps: number;
  baseUrl: string;
  /** The sandbox the call was made in (the approval URL names it). */
  sandboxId: string;
  /** Take the provider redirect whatever the balance (scenario `wallet.insufficient`). */
  forceProvider?: boolean;
}

/** Paid from the wallet, or a provider redirect (openapi.yaml checkout's 200). */
export type CheckoutResult = Reply<'checkout'>;

function checkBody(input: CheckoutInput): { delivery: 'shipping' | 'pickup'; shipping: number } {
  const delivery = input.deliveryMethod ?? 'shipping';
  const shipping = input.shippingCostCents ?? 0;
  if (delivery === 'pickup' && shipping !== 0)
    throw new ApiError(400, 'body.shippingCostCents must be 0 when deliveryMethod is pickup');
  if (delivery === 'shipping' && !input.shippingAddress)
    throw new ApiError(400, 'body.shippingAddress is required when deliveryMethod is shipping');
  const seen = new Set<string>();
  for (const item of input.cartItems) {
    if (seen.has(item.listing_id))
      throw new ApiError(
        400,
        `body.cartItems lists ${item.listing_id} more than once; send one line per listing`,
      );
    seen.add(item.listing_id);
  }
  return { delivery, shipping };
}

/** Checks one cart line against the store; returns the order line (price converted to USD cents). */
function priceLine(db: Db, item: CartLine, ctx: CheckoutContext): OrderItem {
  const listing: ListingRecord | undefined = db.listings[item.listing_id];
  if (!listing)
    throw new ApiError(
      404,
      Messages.listingNotFound,
      {},
      `No listing has the id ${item.listing_id} (body.cartItems)`,
    );
  if (listing.seller_id === ctx.buyerId)
    throw new ApiError(403, `You cannot buy your own listing ${listing.id}`);
  if (!isListingActive(listing, ctx.now, seedStartOf(db.meta)))
    throw new ApiError(409, `Listing ${listing.id} is no longer active (its duration has ended)`);
  if (item.quantity > listing.quantity_available)
    throw new ApiError(
      409,
      `Only ${listing.quantity_available} of listing ${listing.id} available; ${item.quantity} requested`,
    );
  // A price from before the bound (an older data file, a scenario overlay) must not overflow a total.
  const tooDear = unitPriceProblem(listing.price_cents, listing.currency);
  if (tooDear) throw new ApiError(409, `Listing ${listing.id} cannot be bought: ${tooDear}`);
  const lineTotal = toUsdCents(listing.price_cents * item.quantity, listing.currency, ctx.rates);
  return {
    listing_id: listing.id,
    seller_id: listing.seller_id,
    title: listing.title,
    quantity: item.quantity,
    unit_price_cents: listing.price_cents,
    currency: listing.currency,
    line_total_cents: lineTotal,
    platform_fee_cents: platformFeeCents(lineTotal, ctx.feeBps),
  };
}

function removeFromCart(db: Db, buyerId: string, listingIds: string[], at: string): void {
  const cart = db.carts[`user:${buyerId}`];
  if (!cart) return;
  const before = cart.items.length;
  cart.items = cart.items.filter((i) => !listingIds.includes(i.listing_id));
  if (cart.items.length !== before) cart.updated_at = at;
}

function newOrder(
  db: Db,
  buyerId: string,
  items: OrderItem[],
  input: CheckoutInput,
  at: string,
): OrderRecord {
  const { delivery, shipping } = checkBody(input);
  const subtotal = subtotalOf(items);
  return {
    id: newId(db),
    buyer_id: buyerId,
    status: 'pending_payment',
    items,
    subtotal_cents: subtotal,
    shipping_cents: shipping,
    platform_fee_cents: items.reduce((sum, i) => sum + (i.platform_fee_cents ?? 0), 0),
    total_cents: subtotal + shipping,
    paymentMethod: 'payprovider',
    payment_id: null,
    delivery_method: delivery,
    shipping_address: input.shippingAddress ?? null,
    created_at: at,
    paid_at: null,
    cancelled_at: null,
  };
}

const subtotalOf = (items: OrderItem[]) => items.reduce((sum, i) => sum + i.line_total_cents, 0);

/**
 * How the order is paid, decided before anything changes: from the wallet (asked for, every
 * listing accepting what it pays in, the balance enough), else by the provider, quoted in a
 * currency every listing accepts (docs/money.md, Checkout).
 */
function paymentOf(db: Db, items: OrderItem[], input: CheckoutInput, ctx: CheckoutContext) {
  const listings = items.map((i) => db.listings[i.listing_id]);
  const walletAsked = (input.paymentMethod ?? 'credit_wallet') === 'credit_wallet';
  if (walletAsked) checkWalletAccepted(listings);
  const total = subtotalOf(items) + checkBody(input).shipping;
  if (walletAsked && !ctx.forceProvider && db.users[ctx.buyerId].balance_cents >= total)
    return { byWallet: true } as const;
  return { byWallet: false, quote: providerQuote(listings, items, ctx.rates) } as const;
}

function payFromWallet(db: Db, order: OrderRecord, at: string): CheckoutResult {
  order.paymentMethod = 'credit_wallet';
  if (order.total_cents > 0)
    postLedger(db, {
      userId: order.buyer_id,
      amountCents: -order.total_cents,
      kind: 'checkout',
      reference: order.id,
      description: `Checkout of order ${order.id}`,
      at,
    });
  payOrder(db, order, at);
  return {
    success: true,
    paymentMethod: 'credit_wallet',
    deducted: order.total_cents,
    shippingCurrency: 'USD',
    orderId: order.id,
  };
}

function sendToProvider(
  db: Db,
  order: OrderRecord,
  { returnUrl, quote }: { returnUrl: string | undefined; quote: ProviderQuote },
  ctx: CheckoutContext,
): CheckoutResult {
  const payment = createPayment(db, {
    kind: 'order',
    userId: order.buyer_id,
    amountCents: order.total_cents,
    reference: order.id,
    description: `Order ${order.id}: ${order.items.length} item(s)`,
    now: ctx.now,
    returnUrl,
    quote,
  });
  order.payment_id = payment.id;
  return {
    success: true,
    paymentMethod: 'payprovider',
    approvalUrl: approvalUrl(ctx.baseUrl, payment.id, ctx.sandboxId),
    shippingCurrency: 'USD',
    orderId: order.id,
    paymentId: payment.id,
    quote,
  };
}

/**
 * Checkout (openapi.yaml `checkout`; docs/money.md, Checkout), all in one synchronous mutation: validate every line, convert to
 * USD cents, add shipping, then wallet first (debit, stock, paid order, sellers credited) or, when
 * the balance is short or the provider was asked for, a pending order holding the stock for
 * three hours behind a provider payment. Nothing changes until every check has passed.
 */
export function checkout(db: Db, input: CheckoutInput, ctx: CheckoutContext): CheckoutResult {
  expireDuePayments(db, ctx.now);
  checkBody(input);
  const items = input.cartItems.map((item) => priceLine(db, item, ctx));
  const payment = paymentOf(db, items, input, ctx);
  const at = new Date(ctx.now).toISOString();
  const order = newOrder(db, ctx.buyerId, items, input, at);
  db.orders[order.id] = order;
  for (const item of items) db.listings[item.listing_id].quantity_available -= item.quantity;
  removeFromCart(
    db,
    ctx.buyerId,
    items.map((i) => i.listing_id),
    at,
  );
  return payment.byWallet
    ? payFromWallet(db, order, at)
    : sendToProvider(db, order, { returnUrl: input.returnUrl, quote: payment.quote }, ctx);
}
