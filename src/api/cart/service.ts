import type { Body } from '../../contract/types.js';
import { ApiError, Messages } from '../../contract/errors.js';
import type { Principal } from '../../stages/principal.js';
import type { CartRecord, Db } from '../../store/types.js';
import { isListingActive, seedStartOf } from '../listings/listing-state.js';
import { toUsdCents } from '../wallet/convert.js';
import { MAX_CART_LINES, unitPriceProblem } from '../wallet/limits.js';
import type { RateTable } from '../wallet/rates.js';

/** The most units of one listing a cart line may hold. */
export const MAX_CART_QUANTITY = 10_000;

/** `user:<id>` when a user credential came, else `guest:<id>`. */
export function cartOwner(principal: Principal): string {
  if (principal.user) return `user:${principal.user.id}`;
  if (principal.guest) return `guest:${principal.guest.id}`;
  throw new ApiError(
    401,
    Messages.invalidToken,
    {},
    `${Messages.authRequired}: send a bearer token, an API key or X-Guest-Token`,
  );
}

function cartOf(db: Db, owner: string, at: string): CartRecord {
  db.carts[owner] ??= { owner, items: [], updated_at: at };
  return db.carts[owner];
}

/**
 * When a request carries both a user credential and a guest token, the guest's cart moves into
 * the user's: quantities of the same listing add up (capped at MAX_CART_QUANTITY) and the guest
 * cart is deleted. Returns true when something moved.
 */
export function mergeGuestCart(db: Db, principal: Principal, at: string): boolean {
  if (!principal.user || !principal.guest) return false;
  const guest = db.carts[`guest:${principal.guest.id}`];
  if (!guest) return false;
  const cart = cartOf(db, `user:${principal.user.id}`, at);
  const left: CartRecord['items'] = [];
  for (const item of guest.items) {
    const line = cart.items.find((i) => i.listing_id === item.listing_id);
    if (line) line.quantity = Math.min(MAX_CART_QUANTITY, line.quantity + item.quantity);
    else if (cart.items.length < MAX_CART_LINES) cart.items.push({ ...item });
    else left.push(item);
  }
  cart.updated_at = at;
  // Lines past MAX_CART_LINES stay in the guest cart rather than being dropped.
  if (left.length > 0) guest.items = left;
  else delete db.carts[guest.owner];
  return true;
}

/** Sets a line's quantity (0 removes it). The listing must exist, be active and have the stock. */
export function setCartItem(db: Db, owner: string, input: Body<'setCartItem'>, now: number): void {
  const at = new Date(now).toISOString();
  if (input.quantity === 0) {
    removeCartItem(db, owner, input.listingId, at, false);
    return;
  }
  const listing = db.listings[input.listingId];
  if (!listing)
    throw new ApiError(404, Messages.listingNotFound, {}, `No listing has the id ${input.listingId}`);
  if (owner === `user:${listing.seller_id}`)
    throw new ApiError(403, `You cannot buy your own listing ${listing.id}`);
  if (!isListingActive(listing, now, seedStartOf(db.meta)))
    throw new ApiError(409, `Listing ${listing.id} is no longer active (its duration has ended)`);
  if (input.quantity > listing.quantity_available)
    throw new ApiError(
      409,
      `Only ${listing.quantity_available} of listing ${listing.id} available; ${input.quantity} requested`,
    );
  const tooDear = unitPriceProblem(listing.price_cents, listing.currency);
  if (tooDear) throw new ApiError(409, `Listing ${listing.id} cannot be bought: ${tooDear}`);
  const cart = cartOf(db, owner, at);
  const line = cart.items.find((i) => i.listing_id === listing.id);
  if (line) line.quantity = input.quantity;
  else if (cart.items.length >= MAX_CART_LINES)
    throw new ApiError(
      409,
      `The cart holds ${cart.items.length} listings, the most it may hold is ${MAX_CART_LINES}; check out or remove one first`,
    );
  else cart.items.push({ listing_id: listing.id, quantity: input.quantity });
  cart.updated_at = at;
}

/** Removes a line; `strict` makes a line that is not in the cart a 404. */
export function removeCartItem(db: Db, owner: string, listingId: string, at: string, strict = true): void {
  const cart = db.carts[owner];
  const index = cart ? cart.items.findIndex((i) => i.listing_id === listingId) : -1;
  if (index < 0) {
    if (strict)
      throw new ApiError(404, Messages.listingNotFound, {}, `Listing ${listingId} is not in the cart`);
    return;
  }
  cart.items.splice(index, 1);
  cart.updated_at = at;
}

/** The cart as answered: each line with its listing's current price, and a USD subtotal. */
export function cartView(db: Db, owner: string, rates: RateTable, now: number) {
  const cart = db.carts[owner];
  const seedStart = seedStartOf(db.meta);
  let subtotal = 0;
  const items = (cart?.items ?? []).map((item) => {
    const listing = db.listings[item.listing_id];
    // A price from before the bound (an older data file) is shown without a total it could overflow.
    const priced = !!listing && unitPriceProblem(listing.price_cents, listing.currency) === null;
    const available =
      priced && isListingActive(listing, now, seedStart) && listing.quantity_available >= item.quantity;
    const lineUsd = priced ? toUsdCents(listing.price_cents * item.quantity, listing.currency, rates) : 0;
    if (available) subtotal += lineUsd;
    return {
      listing_id: item.listing_id,
      quantity: item.quantity,
      title: listing?.title ?? null,
      price_cents: listing?.price_cents ?? null,
      currency: listing?.currency ?? null,
      line_total_usd_cents: priced ? lineUsd : null,
      available,
    };
  });
  return { items, subtotal_usd_cents: subtotal, updated_at: cart?.updated_at ?? null };
}
