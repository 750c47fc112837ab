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
  const symbols = Object.keys(words.currencies)
    .sort((a, b) => b.length - a.length)
    .map(escape)
    .join('|');
  const bounds: PriceBound[] = [];
  let rest = text;
  for (const kind of ['below', 'above'] as const) {
    const phrases = [...(words[kind][lang] ?? []), ...(lang === 'en' ? [] : (words[kind].en ?? []))];
    if (phrases.length === 0) continue;
    const pattern = new RegExp(
      `(?<![\\p{L}\\p{N}])(?:${phrases.map(escape).join('|')})\\s*(${symbols})?\\s*(\\d[\\d.,]*)\\s*(${symbols})?(?![\\p{L}\\p{N}])`,
      'giu',
    );
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

/**
 * The city a message names (fixtures/cities.json, or a local name such as `München`), matched as
 * whole words without case and accents; the longest name wins (`New York` before `York`).
 */
export function cityIn(text: string, aliases: Record<string, string>): { city?: CityFixture; rest: string } {
  const cities = cityFixture();
  const names: [string, CityFixture][] = cities.map((c) => [normalize(c.city), c]);
  for (const [alias, name] of Object.entries(aliases)) {
    const city = cities.find((c) => c.city === name);
    if (city) names.push([normalize(alias), city]);
  }
  names.sort((a, b) => b[0].length - a[0].length);
  const plain = normalize(text);
  for (const [name, city] of names) {
    const match = new RegExp(`(?<![\\p{L}\\p{N}])${escape(name)}(?![\\p{L}\\p{N}])`, 'u').exec(plain);
    if (match)
      return { city, rest: plain.slice(0, match.index) + ' ' + plain.slice(match.index + name.length) };
  }
  return { rest: text };
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
