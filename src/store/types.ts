/**
 * The shape of one sandbox world's database. Every stateful module reads and writes these records
 * through the Store (store.ts); keyed collections are plain objects so lookups by id are O(1).
 * Field names follow the interface's wire names where a record is returned as is.
 */
import type { ClockState } from '../world/clock.js';

export type ListingType = 'mall' | 'classifieds' | 'auction' | 'reverse_auction';
export type Duration = '1day' | '2weeks' | '1year';
export type FeaturedPaymentMethod = 'subscription' | 'payprovider' | 'credit_wallet';

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

export interface MailRecord {
  id: string;
  to: string;
  subject: string;
  text: string;
  /** The reset token carried by the mail, when it is a password-reset mail. */
  token: string | null;
  created_at: string;
}

export type LedgerKind =
  'seed' | 'referral' | 'fund' | 'checkout' | 'sale' | 'subscription' | 'featured' | 'refund';

export interface LedgerEntry {
  id: string;
  user_id: string;
  /** Signed: credits are positive, debits negative. */
  amount_cents: number;
  balance_after_cents: number;
  kind: LedgerKind;
  /** The order, payment or user this entry belongs to. */
  reference: string | null;
  description: string;
  created_at: string;
}

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
  accepted_currencies: string[];
  quantity_available: number;
  duration: Duration;
  location_city: string | null;
  location_country: string | null;
  lat: number | null;
  lng: number | null;
  images: string[];
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

export type OrderStatus = 'pending_payment' | 'paid' | 'cancelled';

export interface OrderItem {
  listing_id: string;
  seller_id: string;
  title: string;
  quantity: number;
  unit_price_cents: number;
  currency: string;
  /** Line total converted to USD cents. */
  line_total_cents: number;
  /** Platform fee on this line (USD cents), kept from the seller's proceeds. */
  platform_fee_cents?: number;
}

export interface OrderRecord {
  id: string;
  buyer_id: string;
  status: OrderStatus;
  items: OrderItem[];
  subtotal_cents: number;
  shipping_cents: number;
  platform_fee_cents: number;
  total_cents: number;
  paymentMethod: 'credit_wallet' | 'payprovider';
  payment_id: string | null;
  delivery_method: 'shipping' | 'pickup';
  shipping_address: { street: string; city: string; zip: string } | null;
  created_at: string;
  paid_at: string | null;
  cancelled_at: string | null;
}

export type PaymentStatus = 'pending' | 'approved' | 'cancelled' | 'expired';

export interface PaymentRecord {
  id: string;
  kind: 'order' | 'subscription' | 'featured';
  user_id: string;
  amount_cents: number;
  /** Order id, listing id, or `${planId}:${billingCycle}` for a subscription. */
  reference: string;
  description: string;
  status: PaymentStatus;
  created_at: string;
  expires_at: string;
  resolved_at: string | null;
}

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
  /** Next id counter for uuidFor(seed, n). */
  next_id: number;
  clock: ClockState;
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

export function emptyDb(seed: number, clock: ClockState): Db {
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
