import { ApiError, Messages } from '../../contract/errors.js';
import { newId } from '../../world/ids.js';
import type { Schema } from '../../contract/types.js';
import type { NullsTakenAsAbsent } from '../../contract/leniency.js';
import type { Db, ListingRecord, ListingType } from '../../store/types.js';
import { cityFixture } from '../../seed/catalog-data.js';
import { canonicalCurrency } from '../wallet/currencies.js';
import { unitPriceProblem } from '../wallet/limits.js';
import { normalize } from '../../i18n/text.js';
import type { World } from '../../world/world.js';
import { chargeFeatured, checkFeaturing, type FeaturedOutcome } from '../featured/service.js';
import { uploadNameIn, uploadPath } from '../uploads/paths.js';

/** The body of POST /api/shop/listings (already checked against the schema). */
export type CreateListingBody = NullsTakenAsAbsent<Schema<'NewListing'>>;

/** Types whose `price_cents` is required (reverse_auction: an optional budget, 0 when absent). */
export const PRICE_REQUIRED: ListingType[] = ['mall', 'classifieds', 'auction'];

function currency(code: string, field: string): string {
  const found = canonicalCurrency(code);
  if (!found) throw new ApiError(400, `${field} is not a known currency code: ${code}`);
  return found;
}

function checkFeatured(body: CreateListingBody): void {
  if (body.is_featured === true && body.featured_payment_method === undefined)
    throw new ApiError(
      400,
      'body.featured_payment_method is required when is_featured is true (subscription, payprovider or credit_wallet)',
    );
  if (body.featured_payment_method !== undefined && body.is_featured !== true)
    throw new ApiError(400, 'body.featured_payment_method is only allowed together with is_featured: true');
}

function checkImages(world: World, db: Db, owner: string, images: string[]): string[] {
  return images.map((url, i) => {
    const name = uploadNameIn(world.id, url);
    const upload = name === null ? undefined : db.uploads[name];
    if (!upload || upload.user_id !== owner)
      throw new ApiError(400, `body.images[${i}] is not an image you uploaded with POST /api/shop/upload`);
    return uploadPath(world.id, upload.name);
  });
}

/** Coordinates of a known city (fixtures/cities.json), matched without case and accents. */
export function locate(city: string | undefined, country: string | undefined) {
  if (!city) return null;
  const wanted = normalize(city.trim());
  return (
    cityFixture().find(
      (c) => normalize(c.city) === wanted && (country === undefined || c.country === country.toUpperCase()),
    ) ?? null
  );
}

/** Everything checked, the record built but for its id; nothing changed yet. */
function buildListing(
  world: World,
  db: Db,
  owner: string,
  body: CreateListingBody,
): Omit<ListingRecord, 'id'> {
  if (!db.categories.some((c) => c.slug === body.category))
    throw new ApiError(400, `body.category is not a known category slug: ${body.category}`);
  if (body.price_cents === undefined && PRICE_REQUIRED.includes(body.type))
    throw new ApiError(
      400,
      Messages.amountRequired,
      {},
      `body.price_cents is required for ${body.type} listings (0 for a free item)`,
    );
  checkFeatured(body);
  const display = currency(body.currency ?? 'USD', 'body.currency');
  const tooDear = unitPriceProblem(body.price_cents ?? 0, display);
  if (tooDear) throw new ApiError(400, `body.price_cents: ${tooDear}`);
  const accepted = (body.accepted_currencies ?? ['USD']).map((c, i) =>
    currency(c, `body.accepted_currencies[${i}]`),
  );
  const images = checkImages(world, db, owner, body.images ?? []);
  if ((body.lat === undefined) !== (body.lng === undefined))
    throw new ApiError(400, 'body.lat and body.lng go together: send both or neither');
  const place = locate(body.location_city, body.location_country);
  const at = body.lat !== undefined && body.lng !== undefined ? { lat: body.lat, lng: body.lng } : place;
  const store = Object.values(db.stores).find((s) => s.owner_id === owner);
  return {
    seller_id: owner,
    store_slug: store?.slug ?? null,
    type: body.type,
    title: body.title.trim(),
    description: body.description?.trim() || null,
    category: body.category,
    price_cents: body.price_cents ?? 0,
    currency: display,
    accepted_currencies: [...new Set(accepted)],
    quantity_available: body.quantity_available ?? 1,
    duration: body.duration ?? '2weeks',
    location_city: body.location_city?.trim() || null,
    location_country: body.location_country?.toUpperCase() ?? place?.country ?? null,
    lat: at?.lat ?? null,
    lng: at?.lng ?? null,
    images,
    is_featured: false,
    featured_payment_method: null,
    created_at: world.clock.nowIso(),
  };
}

/**
 * Creates a listing in one synchronous mutation: every check first, then the record, then the
 * featuring decision (`chargeFeatured`: a subscription slot, the wallet or a provider redirect),
 * which may refuse and so roll the whole call back: nothing is stored then.
 */
export async function createListing(
  world: World,
  owner: string,
  body: CreateListingBody,
  request: { baseUrl: string; forceProvider?: boolean; settle?: (db: Db, outcome: FeaturedOutcome) => void },
): Promise<{ listing: ListingRecord; featured: FeaturedOutcome }> {
  return world.store.commit((db) => {
    const fields = buildListing(world, db, owner, body);
    const featuring =
      body.is_featured === true && body.featured_payment_method !== undefined
        ? {
            userId: owner,
            method: body.featured_payment_method,
            now: world.clock.now(),
            baseUrl: request.baseUrl,
            sandboxId: world.id,
            forceProvider: request.forceProvider,
          }
        : undefined;
    // Every refusal before the first change (the id): a refused call leaves no trace.
    if (featuring) checkFeaturing(db, featuring);
    const listing: ListingRecord = { id: newId(db), ...fields };
    const featured = featuring
      ? chargeFeatured(db, { ...featuring, listingId: listing.id })
      : { is_featured: false, featured_payment_method: null };
    listing.is_featured = featured.is_featured;
    listing.featured_payment_method = featured.featured_payment_method;
    db.listings[listing.id] = listing;
    // A provider payment may resolve at once (provider.approve/cancel scenarios), featuring the listing.
    request.settle?.(db, featured);
    return { listing, featured };
  });
}
