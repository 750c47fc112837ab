import { loadFixture } from '../../fixtures.js';
import type { ListingRecord } from '../../store/types.js';
import type { World } from '../../world/world.js';
import { normalize, wordsIn } from '../../i18n/text.js';
import { listingTable, type ListingTable } from '../../search/listing-table.js';
import { runSearch, type SearchQuery, type SearchResult } from '../listings/search.js';
import { categoryFamily } from '../categories/family.js';
import { ratesNow } from '../wallet/rates.js';
import { detectLanguage, type AssistantFixture } from './detect.js';
import { understand, type PriceBound, type PriceWords } from './understand.js';
import { categoryIn, type NamedCategory } from './category-words.js';

export interface AssistantTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface AssistantAnswer {
  lang: string;
  reply: string;
  listings: ListingRecord[];
}

/** Listings the assistant shows at most. */
export const ASSISTANT_LISTINGS = 5;
/** A city in a message keeps listings within this distance of its centre. */
export const CITY_RADIUS_KM = 30;

interface Replies {
  found: string;
  /** For a count the language says in the singular (Intl.PluralRules `one`), where it differs. */
  found_one?: string;
  none: string;
  greeting: string;
}

type Fixture = AssistantFixture & { price: PriceWords; city_names: Record<string, string> };

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (m, key: string) => values[key] ?? m);

/**
 * A message as a search: its words without stopwords, the category it names, its price bounds in
 * USD cents and its city.
 */
interface Wish {
  terms: string[];
  category?: NamedCategory;
  bounds: PriceBound[];
  filters: Pick<SearchQuery, 'minCents' | 'maxCents' | 'geo'>;
  /** What was understood, for the reply: `lamp, ≤ 50 USD, Berlin`, `Fahrräder, Berlin`. */
  label: (terms: string[], inCategory: boolean) => string;
}

const stopwords = new Map<string, Set<string>>();
let amounts: Intl.NumberFormat | undefined;

/** `1,234.5`: an amount as the reply's label shows it (the format made once: its first costs 10-30 ms). */
function amountText(amount: number): string {
  amounts ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  return amounts.format(amount);
}

/** The words a search drops in `lang`: its stopwords and English ones, normalised once. */
function stopwordsOf(lang: string, fixture: Fixture): Set<string> {
  let found = stopwords.get(lang);
  if (!found) {
    found = new Set([...(fixture.stopwords[lang] ?? []), ...(fixture.stopwords.en ?? [])].map(normalize));
    stopwords.set(lang, found);
  }
  return found;
}

function wishOf(world: World, text: string, lang: string, fixture: Fixture): Wish {
  const request = understand(text, lang, fixture);
  const stop = stopwordsOf(lang, fixture);
  // Category words first: a phrase may hold a stopword (`juegos de mesa`) or one character (`书`).
  const { category, rest } = categoryIn(wordsIn(request.rest, lang, 32), lang, fixture.categories);
  // Each word once: a word said twice is one wish, and tried alone once.
  const terms = [...new Set(rest.filter((w) => !stop.has(w) && w.length > 1))];
  const rates = ratesNow(world).rates;
  const usdCents = (b: PriceBound) => (b.amount / (rates.get(b.currency) ?? 1)) * 100;
  const filters: Wish['filters'] = {};
  for (const b of request.bounds) {
    if (b.kind === 'below') filters.maxCents = Math.floor(usdCents(b) + 1e-9);
    else filters.minCents = Math.ceil(usdCents(b) - 1e-9);
  }
  if (request.city) filters.geo = { lat: request.city.lat, lng: request.city.lng, radiusKm: CITY_RADIUS_KM };
  const extras = [
    ...request.bounds.map((b) => `${b.kind === 'below' ? '≤' : '≥'} ${amountText(b.amount)} ${b.currency}`),
    ...(request.city ? [request.city.city] : []),
  ];
  const named = category && categoryName(world, category.slug, lang);
  return {
    terms,
    category,
    bounds: request.bounds,
    filters,
    label: (ts, inCategory) => [ts.join(' '), inCategory ? named : '', ...extras].filter(Boolean).join(', '),
  };
}

/** A category's name in `lang` (English where it has none), as the categories endpoints show it. */
function categoryName(world: World, slug: string, lang: string): string {
  const record = world.store.db.categories.find((c) => c.slug === slug);
  return record?.names[lang] ?? record?.names.en ?? slug;
}

/** One search the assistant tries: its words, and whether it keeps to the category the message names. */
interface Attempt {
  terms: string[];
  inCategory: boolean;
}

/**
 * The searches tried, best first. Without a category: every word, then each word alone, longest
 * first. With one: the other words in the category; every word as text anywhere (`kitchen table`
 * is a table, not any kitchen thing); each other word alone in the category; the category alone.
 */
function attemptsOf(wish: Wish): Attempt[] {
  const { terms, category } = wish;
  const alone = terms.length <= 1 ? [] : [...terms].sort((a, b) => b.length - a.length).map((t) => [t]);
  if (!category) return [terms, ...alone].map((ts) => ({ terms: ts, inCategory: false }));
  if (terms.length === 0) return [{ terms: [], inCategory: true }];
  return [
    { terms, inCategory: true },
    { terms: [...category.words, ...terms], inCategory: false },
    ...alone.map((ts) => ({ terms: ts, inCategory: true })),
    { terms: [], inCategory: true },
  ];
}

/**
 * A search of the category alone: its listings whose English title holds the category's probe
 * word first (the bikes before the saddles and locks), then the others, newest first each.
 */
function categorySearch(
  index: ListingTable,
  query: SearchQuery,
  probe: string | undefined,
): Omit<SearchResult, 'terms'> {
  const all = runSearch(index, query);
  if (!probe || all.total === 0) return all;
  const first = runSearch(index, { ...query, q: probe, lang: 'en' });
  const firstIds = new Set(first.items.map((l) => l.id));
  const rest = runSearch(index, { ...query, limit: query.limit + first.items.length });
  const items = [...first.items, ...rest.items.filter((l) => !firstIds.has(l.id))].slice(0, query.limit);
  return { items, total: all.total };
}

/**
 * A deterministic shopping helper. It reads a message in its language (detect.ts): a price bound
 * ("under 50 dollars", "bis 30 Euro"), a city ("in Berlin") and a word naming a category
 * ("Fahrrad", "bikes": category-words.ts) become search filters, stopwords are dropped, and the
 * rest is searched with the listings search in that language and English. When every word
 * together finds nothing, fewer are tried (attemptsOf). It answers in
 * the message's language with the count and the first listings. A message without search words or
 * filters falls back to the last user turn of the history, then to a greeting.
 */
export function answer(
  world: World,
  message: string,
  history: AssistantTurn[],
  now: number = world.clock.now(),
): AssistantAnswer {
  const fixture = loadFixture<Fixture>('assistant.json');
  const lang = detectLanguage(message, fixture);
  const replies = (fixture[lang] ?? fixture.en) as Replies;
  const empty = (w: Wish) => w.terms.length === 0 && !w.category && w.bounds.length === 0 && !w.filters.geo;
  let wish = wishOf(world, message, lang, fixture);
  for (const turn of [...history].reverse()) {
    if (!empty(wish)) break;
    if (turn.role === 'user')
      wish = wishOf(world, turn.content, detectLanguage(turn.content, fixture), fixture);
  }
  if (empty(wish)) return { lang, reply: replies.greeting, listings: [] };
  const index = listingTable(world);
  const family = wish.category && categoryFamily(world.store.db.categories, wish.category.slug);
  for (const { terms, inCategory } of attemptsOf(wish)) {
    const q = terms.join(' ') || undefined;
    const query: SearchQuery = {
      q,
      lang,
      ...wish.filters,
      categories: inCategory ? family : undefined,
      // The best matches first, as a search without `sort` ranks them.
      sort: 'newest',
      ranked: true,
      page: 1,
      limit: ASSISTANT_LISTINGS,
      now,
    };
    const found =
      inCategory && !q ? categorySearch(index, query, wish.category?.probe) : runSearch(index, query);
    if (found.total === 0) continue;
    const one = new Intl.PluralRules(lang).select(found.total) === 'one' ? replies.found_one : undefined;
    const label = wish.label(terms, inCategory);
    const reply = fill(one ?? replies.found, { count: String(found.total), query: label });
    return { lang, reply, listings: found.items };
  }
  const words = wish.category ? [...wish.category.words, ...wish.terms] : wish.terms;
  return { lang, reply: fill(replies.none, { query: wish.label(words, false) }), listings: [] };
}
