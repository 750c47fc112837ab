/**
 * The shape of one sandbox world's database. Every stateful module reads and writes these records
 * through the Store (store.ts); keyed collections are plain objects so lookups by id are O(1).
 * A record returned as it is stored (an order, a payment, a mail) is the contract's own schema
 * (openapi.yaml, through src/generated/api.ts), and so are the enumerations the records share
 * with the wire, so the two cannot drift apart.
 */
import type { components } from '../generated/api.js';

type Schemas = components['schemas'];

export type ListingType = Schemas['ListingType'];
export type Duration = Schemas['Listing']['duration'];
export type FeaturedPaymentMethod = NonNullable<Schemas['Listing']['featured_payment_method']>;

export interface UserRecord {
  id: string;
  email: string;
  password_hash: string;
  full_name: string | null;
  referral_code: string;
  referred_by: string | null;
  balance_cents: number;
  created_at: string;
}

export interface ApiKeyRecord {
  id: string;
  user_id: string;
  name: string | null;
  /** The first characters of the key, shown in lists so a user can tell keys apart. */
  prefix: string;
  /** sha256 of the whole key; the key itself is never stored. */
  hash: string;
  created_at: string;
  revoked_at: string | null;
}

export interface ResetTokenRecord {
  hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
}

/** A mail the sandbox "sent" (`token`: the reset token of a password-reset mail), returned as is. */
export type MailRecord = Schemas['Mail'];

export type LedgerKind = Schemas['WalletTransaction']['kind'];

/** A wallet transaction (signed `amount_cents`: credits positive) and whose wallet it is in. */
export type LedgerEntry = Schemas['WalletTransaction'] & { user_id: string };

export interface CategoryRecord {
  slug: string;
  parent: string | null;
  icon: string;
  /** Name per language code (all 17). */
  names: Record<string, string>;
  position: number;
}

export interface StoreRecord {
  slug: string;
  store_name: string;
  description: string;
  owner_id: string;
  created_at: string;
}

export interface ListingRecord {
  id: string;
  seller_id: string;
  store_slug: string | null;
  type: ListingType;
  /** English source text; other languages are derived (see the translations module). */
  title: string;
  description: string | null;
  category: string;
  price_cents: number;
  currency: string;
  /** Shared and frozen across listings (store/intern.ts): a change assigns a new array. */
  accepted_currencies: readonly string[];
  quantity_available: number;
  duration: Duration;
  location_city: string | null;
  location_country: string | null;
  lat: number | null;
  lng: number | null;
  /** Shared and frozen like `accepted_currencies`. */
  images: readonly string[];
  is_featured: boolean;
  featured_payment_method: FeaturedPaymentMethod | null;
  created_at: string;
  /**
   * A seeded listing's item template and variants (`apple-iphone-14|storage=128gb`): its title and
   * description in every language come from the template. Absent on a user's listing.
   */
  text_ref?: string;
}

export interface UploadRecord {
  /** File name under /uploads/, e.g. `3f2c….png`. */
  name: string;
  user_id: string;
  content_type: string;
  size: number;
  created_at: string;
}

/** One line of an order: the price in the listing's currency, the line total and fee in USD cents. */
export type OrderItem = Schemas['OrderItem'];

/** An order, returned as is by GET /api/shop/orders/{id}. */
export type OrderRecord = Schemas['Order'];

/** A provider payment (`reference`: order id, listing id, or `planId:billingCycle`), returned as is. */
export type PaymentRecord = Schemas['Payment'];

export interface SubscriptionRecord {
  user_id: string;
  plan_id: string;
  billing_cycle: 'monthly' | 'yearly';
  started_at: string;
  expires_at: string;
}

export interface CartRecord {
  /** `user:<id>` or `guest:<id>`. */
  owner: string;
  items: { listing_id: string; quantity: number }[];
  updated_at: string;
}

export interface DbMeta {
  schema: 1;
  seed: number;
  listings: number;
  /** Next id counter for uuidFor(id space, n) (world/ids.ts). */
  next_id: number;
  /** The id space of records made after the seed: random, drawn at the first (world/ids.ts `newId`). */
  id_space?: string;
  clock: Schemas['Clock'];
  /**
   * Wall time (ISO 8601) when `clock` was recorded: a restart adds the wall time since, so a
   * running sandbox clock keeps its distance to the wall clock while the sandbox is down.
   */
  clock_recorded_at?: string;
  /**
   * The seed's start (ISO 8601), the clock's first instant: a seeded listing still listed then is
   * relisted whenever its term ends (api/listings/listing-state.ts). Absent in older files.
   */
  seeded_at?: string;
  /** Identifies the file snapshot its change log (`<file>.changes`) continues (store/change-log.ts). */
  snapshot_id?: string;
}

export interface Db {
  meta: DbMeta;
  users: Record<string, UserRecord>;
  api_keys: Record<string, ApiKeyRecord>;
  reset_tokens: ResetTokenRecord[];
  mailbox: MailRecord[];
  ledger: LedgerEntry[];
  categories: CategoryRecord[];
  stores: Record<string, StoreRecord>;
  listings: Record<string, ListingRecord>;
  uploads: Record<string, UploadRecord>;
  orders: Record<string, OrderRecord>;
  payments: Record<string, PaymentRecord>;
  subscriptions: Record<string, SubscriptionRecord>;
  carts: Record<string, CartRecord>;
}

/** The collections keyed by id (or slug, or owner), which requests look records up in. */
const KEYED = [
  'users',
  'api_keys',
  'stores',
  'listings',
  'uploads',
  'orders',
  'payments',
  'subscriptions',
  'carts',
] as const;

/**
 * Gives every keyed collection a null prototype, in place, so a key taken from a request
 * (`/api/shop/stores/toString`, `constructor`, `__proto__`) can only find a record, never an
 * inherited property. The store applies it to every database it is given or reads.
 */
export function withBareCollections(db: Db): Db {
  for (const name of KEYED) {
    const collection = db[name] as object | undefined;
    if (collection && Object.getPrototypeOf(collection) !== null) Object.setPrototypeOf(collection, null);
  }
  return db;
}

export function emptyDb(seed: number, clock: Schemas['Clock']): Db {
  return {
    meta: { schema: 1, seed, listings: 0, next_id: 0, clock },
    users: {},
    api_keys: {},
    reset_tokens: [],
    mailbox: [],
    ledger: [],
    categories: [],
    stores: {},
    listings: {},
    uploads: {},
    orders: {},
    payments: {},
    subscriptions: {},
    carts: {},
  };
}
