import { loadFixture } from '../../fixtures.js';
import type { ListingRecord } from '../../store/types.js';
import type { World } from '../../world/world.js';
import { normalize } from '../../i18n/text.js';
import { runSearch, type SearchQuery } from '../listings/search.js';
import { queryWords, searchLanguages } from '../listings/search-text.js';
import { SlicedTable, type Steps } from '../../i18n/sliced-table.js';
import { textsReady } from '../../i18n/warm-up.js';
import { searchIndex } from '../listings/search-index.js';
import { ratesNow } from '../wallet/rates.js';
import { detectLanguage, LATIN, markerSets, type AssistantFixture } from './detect.js';
import { cityIn, priceBounds, understand, type PriceBound, type PriceWords } from './understand.js';

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

/** A message as a search: its words without stopwords, its price bounds in USD cents and its city. */
interface Wish {
  terms: string[];
  bounds: PriceBound[];
  filters: Pick<SearchQuery, 'minCents' | 'maxCents' | 'geo'>;
  /** What was understood, for the reply: `lamp, ≤ 50 USD, Berlin`. */
  label: (terms: string[]) => string;
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
  const terms = queryWords(request.rest, lang).filter((w) => !stop.has(w) && w.length > 1);
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
  return {
    terms,
    bounds: request.bounds,
    filters,
    label: (ts) => [ts.join(' '), ...extras].filter(Boolean).join(', '),
  };
}

/** The word sets tried, best first: every word, then each word alone, longest first. */
function attempts(terms: string[]): string[][] {
  if (terms.length <= 1) return [terms];
  return [terms, ...[...terms].sort((a, b) => b.length - a.length).map((t) => [t])];
}

/**
 * The assistant's own tables, made once per process from fixtures/assistant.json: the marker words,
 * each language's stopwords and price patterns, the city names, the amount format. Each is made on
 * first use anyway; built here as steps (a server builds them in the background from start,
 * app/prepare.ts), no first question makes them all in one task.
 */
function* assistantSteps(): Steps<true> {
  const fixture = loadFixture<Fixture>('assistant.json');
  markerSets(fixture);
  yield;
  amountText(0);
  yield;
  cityIn('', fixture.city_names);
  yield;
  for (const lang of Object.keys(fixture.stopwords)) {
    stopwordsOf(lang, fixture);
    yield;
    priceBounds('', lang, fixture.price);
    yield;
  }
  return true;
}

const assistantTables = new SlicedTable(assistantSteps);

/** Builds the assistant's own tables in the background, a step at a time (once per process). */
export function warmAssistant(): Promise<void> {
  return assistantTables.ready() ?? Promise.resolve();
}

/**
 * Waits, without blocking other requests, for the word lists `answer` reads for this message: the
 * Latin-script languages' (language detection), then those of the language it is in (the search),
 * and the assistant's own tables. Built in slices on first use (i18n/warm-up.ts), so a first
 * question never holds every sandbox up.
 */
export async function wordListsFor(message: string): Promise<void> {
  await textsReady(LATIN);
  await assistantTables.ready(true);
  const lang = detectLanguage(message, loadFixture<Fixture>('assistant.json'));
  await textsReady(searchLanguages(lang));
}

/**
 * A deterministic shopping helper. It reads a message in its language (detect.ts): a price bound
 * ("under 50 dollars", "bis 30 Euro") and a city ("in Berlin") become search filters, stopwords
 * are dropped, and the rest is searched with the listings search in that language and English.
 * When every word together finds nothing, each word alone is tried (longest first). It answers in
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
  const empty = (w: Wish) => w.terms.length === 0 && w.bounds.length === 0 && !w.filters.geo;
  let wish = wishOf(world, message, lang, fixture);
  for (const turn of [...history].reverse()) {
    if (!empty(wish)) break;
    if (turn.role === 'user')
      wish = wishOf(world, turn.content, detectLanguage(turn.content, fixture), fixture);
  }
  if (empty(wish)) return { lang, reply: replies.greeting, listings: [] };
  const index = searchIndex(world, now);
  for (const terms of attempts(wish.terms)) {
    const q = terms.join(' ') || undefined;
    const query: SearchQuery = {
      q,
      lang,
      ...wish.filters,
      sort: 'newest',
      page: 1,
      limit: ASSISTANT_LISTINGS,
      now,
    };
    const found = runSearch(index, query);
    if (found.total === 0) continue;
    const one = new Intl.PluralRules(lang).select(found.total) === 'one' ? replies.found_one : undefined;
    const reply = fill(one ?? replies.found, { count: String(found.total), query: wish.label(terms) });
    return { lang, reply, listings: found.items };
  }
  return { lang, reply: fill(replies.none, { query: wish.label(wish.terms) }), listings: [] };
}
