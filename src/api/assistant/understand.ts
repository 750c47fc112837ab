import { normalize } from '../../i18n/text.js';
import { cityFixture, type CityFixture } from '../../seed/catalog-data.js';

/** The price part of `fixtures/assistant.json`: bound words per language and currency words. */
export interface PriceWords {
  below: Record<string, string[]>;
  above: Record<string, string[]>;
  currencies: Record<string, string>;
  default_currency: Record<string, string>;
}

/** A price bound the message states: "under 50 dollars", "ab 20 Euro". */
export interface PriceBound {
  kind: 'below' | 'above';
  amount: number;
  currency: string;
}

/** What a message asks for besides its search words. */
export interface Request {
  /** The message with the price phrases and the city taken out. */
  rest: string;
  bounds: PriceBound[];
  city?: CityFixture;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `1.000`, `1,000` and `49,90` as numbers (a separator before three digits groups thousands). */
function amountOf(text: string): number {
  const grouped = text.replace(/[.,](?=\d{3}(?!\d))/g, '');
  return Number(grouped.replace(',', '.'));
}

const patterns = new Map<string, { kind: PriceBound['kind']; pattern: RegExp }[]>();

/**
 * The bound phrases of `lang` (and English) as regular expressions, made once per language. Each
 * is linear in the text: between the phrase, the currency and the number only one `\s*` can take
 * a space (a currency never starts with one), so no split of a run of spaces is tried twice.
 */
function boundPatterns(lang: string, words: PriceWords) {
  let found = patterns.get(lang);
  if (found) return found;
  const symbols = Object.keys(words.currencies)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
  found = [];
  for (const kind of ['below', 'above'] as const) {
    const phrases = [...(words[kind][lang] ?? []), ...(lang === 'en' ? [] : (words[kind].en ?? []))];
    if (phrases.length === 0) continue;
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])(?:${phrases.map(escape).join('|')})\\s*(?:(${symbols})\\s*)?(\\d[\\d.,]*)(?:\\s*(${symbols}))?(?![\\p{L}\\p{N}])`,
      'giu',
    );
    found.push({ kind, pattern });
  }
  patterns.set(lang, found);
  return found;
}

/**
 * The price bounds of a message in `lang` (or English), with the currency it names before or
 * after the number, else the language's usual one; each phrase is cut out of the text.
 * @example priceBounds('lamp under 50 dollars', 'en', words) // bounds [{ below, 50, USD }], rest 'lamp  '
 */
export function priceBounds(
  text: string,
  lang: string,
  words: PriceWords,
): { rest: string; bounds: PriceBound[] } {
  const bounds: PriceBound[] = [];
  let rest = text;
  for (const { kind, pattern } of boundPatterns(lang, words)) {
    rest = rest.replace(
      pattern,
      (_m, before: string | undefined, number: string, after: string | undefined) => {
        const word = (before ?? after ?? '').toLowerCase();
        const currency = words.currencies[word] ?? words.default_currency[lang] ?? 'USD';
        const amount = amountOf(number.replace(/[.,]$/, ''));
        if (Number.isFinite(amount)) bounds.push({ kind, amount, currency });
        return ' ';
      },
    );
  }
  return { rest, bounds };
}

/** A run of letters and digits: names are matched as whole runs (not inside a longer word). */
const RUN = /[\p{L}\p{N}]+/gu;
const LETTER_OR_DIGIT = /[\p{L}\p{N}]/u;

/** City names by their first run, each with its rank: the longest name first (`New York` before `York`). */
interface CityNames {
  byFirstRun: Map<string, { name: string; rank: number; city: CityFixture }[]>;
}

let cityNames: CityNames | undefined;

/** The names a message may use for a city (fixtures/cities.json and the local names), made once. */
function namesOf(aliases: Record<string, string>): CityNames {
  if (cityNames) return cityNames;
  const cities = cityFixture();
  const names: [string, CityFixture][] = cities.map((c) => [normalize(c.city), c]);
  for (const [alias, name] of Object.entries(aliases)) {
    const city = cities.find((c) => c.city === name);
    if (city) names.push([normalize(alias), city]);
  }
  names.sort((a, b) => b[0].length - a[0].length);
  const byFirstRun = new Map<string, { name: string; rank: number; city: CityFixture }[]>();
  names.forEach(([name, city], rank) => {
    const first = name.match(/^[\p{L}\p{N}]+/u)?.[0];
    if (!first) return;
    const list = byFirstRun.get(first) ?? [];
    list.push({ name, rank, city });
    byFirstRun.set(first, list);
  });
  cityNames = { byFirstRun };
  return cityNames;
}

/**
 * The city a message names (fixtures/cities.json, or a local name such as `München`), matched as
 * whole words without case and accents; the longest name wins (`New York` before `York`), at its
 * first place. One pass over the text's runs of letters, each looked up by itself: linear in the
 * text, whatever it holds.
 */
export function cityIn(text: string, aliases: Record<string, string>): { city?: CityFixture; rest: string } {
  const { byFirstRun } = namesOf(aliases);
  const plain = normalize(text);
  let best: { rank: number; at: number; name: string; city: CityFixture } | undefined;
  for (const run of plain.matchAll(RUN)) {
    const at = run.index;
    for (const candidate of byFirstRun.get(run[0]) ?? []) {
      if (best && best.rank <= candidate.rank) continue;
      const next = plain.codePointAt(at + candidate.name.length);
      const wordGoesOn = next !== undefined && LETTER_OR_DIGIT.test(String.fromCodePoint(next));
      if (plain.startsWith(candidate.name, at) && !wordGoesOn) best = { ...candidate, at };
    }
  }
  if (!best) return { rest: text };
  return { city: best.city, rest: plain.slice(0, best.at) + ' ' + plain.slice(best.at + best.name.length) };
}

/** The price bounds and the city of a message, and what is left to search for. */
export function understand(
  message: string,
  lang: string,
  fixture: { price: PriceWords; city_names: Record<string, string> },
): Request {
  const priced = priceBounds(message, lang, fixture.price);
  const placed = cityIn(priced.rest, fixture.city_names);
  return { rest: placed.rest, bounds: priced.bounds, city: placed.city };
}
