/**
 * What the interface document (../shared/interface/marketplace-service-interface.md) states, as
 * data: the field tables of its section 2, its value lists and its numbers. The conformance tests
 * check the sandbox against these and nothing else; a sandbox choice is cited where it is used.
 */

/** A field type as the document's tables give it. `?` = the document says "optional". */
export type FieldType =
  | 'string'
  | 'string?'
  | 'uuid'
  | 'integer'
  | 'number'
  | 'boolean'
  | 'string[]'
  | 'iso'
  | 'object'
  | 'string|null'
  | 'country'
  | 'country|null';

export type Fields = Record<string, FieldType>;

export const LISTING_TYPES = ['mall', 'classifieds', 'auction', 'reverse_auction'] as const;
export const DURATIONS = ['1day', '2weeks', '1year'] as const;
export const FEATURED_PAYMENT_METHODS = ['subscription', 'payprovider', 'credit_wallet'] as const;
export const SORTS = ['newest', 'price_low', 'price_high', 'ending_soon'] as const;

/** 4.13: "Language codes: ar, de, en, es, fa, fr, hi, ja, ko, pt, ru, sv, tl, tr, ur, vi, zh." */
export const LANGUAGES = [
  'ar',
  'de',
  'en',
  'es',
  'fa',
  'fr',
  'hi',
  'ja',
  'ko',
  'pt',
  'ru',
  'sv',
  'tl',
  'tr',
  'ur',
  'vi',
  'zh',
] as const;

/** Section 2, Listing: every field of the table. */
export const LISTING_FIELDS: Fields = {
  id: 'uuid',
  title: 'string',
  description: 'string?',
  type: 'string',
  category: 'string',
  price_cents: 'integer',
  currency: 'string',
  accepted_currencies: 'string[]',
  quantity_available: 'integer',
  duration: 'string',
  location_city: 'string',
  location_country: 'country',
  images: 'string[]',
  is_featured: 'boolean',
  featured_payment_method: 'string|null',
  created_at: 'iso',
};

/** 4.5: "listings (array of Listing objects with id, title, description, price_cents, …, created_at)". */
export const SEARCH_LISTING_FIELDS = [
  'id',
  'title',
  'description',
  'price_cents',
  'type',
  'category',
  'location_city',
  'images',
  'currency',
  'accepted_currencies',
  'created_at',
] as const;

/** Section 2, Category. */
export const CATEGORY_FIELDS: Fields = {
  slug: 'string',
  name: 'string',
  icon: 'string',
  count: 'integer',
  subcategory_count: 'integer',
};

/** Section 2, Store. */
export const STORE_FIELDS: Fields = { store_name: 'string', slug: 'string', description: 'string' };

/** Section 2, Wallet balance. */
export const BALANCE_FIELDS: Fields = { balance_cents: 'integer', balance_usd: 'string' };

/** 4.5: "pagination (page, limit, total, totalPages; all integers)". */
export const PAGINATION_FIELDS: Fields = {
  page: 'integer',
  limit: 'integer',
  total: 'integer',
  totalPages: 'integer',
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** ISO 8601 date-time as JSON APIs send it (date, `T`, time, optional fraction, zone). */
export const ISO_8601 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export const isUuid = (v: unknown): boolean => typeof v === 'string' && UUID.test(v);
export const isIso = (v: unknown): boolean =>
  typeof v === 'string' && ISO_8601.test(v) && !isNaN(Date.parse(v));

function fits(value: unknown, type: FieldType): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string';
    case 'string?':
      return value === undefined || typeof value === 'string';
    case 'uuid':
      return isUuid(value);
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'iso':
      return isIso(value);
    case 'object':
      return typeof value === 'object' && value !== null && !Array.isArray(value);
    case 'string|null':
      return value === null || typeof value === 'string';
    case 'country':
      return typeof value === 'string' && /^[A-Z]{2}$/.test(value);
    case 'country|null':
      return value === null || fits(value, 'country');
  }
}

/**
 * Every way `value` departs from the document's field table, one line each (an empty list when it
 * fits): a missing field (unless optional) or a value of another type. Extra fields are allowed.
 */
export function fieldProblems(value: unknown, fields: Fields, where = 'value'): string[] {
  if (typeof value !== 'object' || value === null)
    return [`${where} is not an object: ${JSON.stringify(value)}`];
  const record = value as Record<string, unknown>;
  const problems: string[] = [];
  for (const [name, type] of Object.entries(fields)) {
    if (!(name in record) && !type.endsWith('?')) problems.push(`${where}.${name} is missing`);
    else if (!fits(record[name], type))
      problems.push(`${where}.${name} should be ${type}, got ${JSON.stringify(record[name])}`);
  }
  return problems;
}
