// Writes page 1 of the default search, in English and German, into docs/catalog.md between its
// markers, so the document shows what the default seed really holds. `npm run docs:catalog`;
// test/catalog/catalog-doc.test.ts fails while the document is stale.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { searchPage } from '../src/api/listings/search-page.js';
import { isCrypto } from '../src/api/wallet/rates.js';
import { makeConfig } from '../src/process/config.js';
import { openDefaultWorld } from '../src/world/open.js';

export const CATALOG_DOC = fileURLToPath(new URL('../docs/catalog.md', import.meta.url));
export const START = '<!-- default-search-page: start (written by npm run docs:catalog) -->';
export const END = '<!-- default-search-page: end -->';
/** The default seed as `npm start` makes it, at its fixed start. */
const CLOCK_START = '2026-01-01T00:00:00.000Z';

/** A price as a shop shows it: `49.99 USD`, `18,000 JPY`, `0.25 BTC`, `free`. */
function price(cents: number, currency: string): string {
  if (cents === 0) return 'free';
  const units = cents / 100;
  const digits = isCrypto(currency) || !Number.isInteger(units) ? 2 : 0;
  return `${units.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: 2 })} ${currency}`;
}

const cell = (text: string | null) => (text ?? '').replace(/\|/g, '\\|');

/** The section between the markers: one table per language. */
export async function defaultPageSection(): Promise<string> {
  const config = makeConfig({ inMemory: true, seed: 42, listings: 500, clockStart: CLOCK_START });
  const { world } = await openDefaultWorld(config);
  world.clock.freeze(true);
  const parts = [START, ''];
  for (const [lang, name] of [
    ['en', 'English'],
    ['de', 'German (`lang=de`)'],
  ]) {
    const { listings } = searchPage(world, { lang } as Parameters<typeof searchPage>[1], '');
    parts.push(
      `${name}:`,
      '',
      '| # | title | type | price | city | category | shop |',
      '|---|---|---|---|---|---|---|',
    );
    listings.forEach((l, i) => {
      const flag = l.is_featured ? ' (featured)' : '';
      parts.push(
        `| ${i + 1} | ${cell(l.title)}${flag} | ${l.type} | ${price(l.price_cents, l.currency)} | ${cell(l.location_city)} | ${l.category} | ${cell(l.store_slug)} |`,
      );
    });
    parts.push('');
  }
  parts.push(END);
  return parts.join('\n');
}

/** The document with its section replaced by `section`. */
export function withSection(doc: string, section: string): string {
  const from = doc.indexOf(START);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${CATALOG_DOC} has no ${START} … ${END} markers`);
  return doc.slice(0, from) + section + doc.slice(to + END.length);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const doc = readFileSync(CATALOG_DOC, 'utf8');
  writeFileSync(CATALOG_DOC, withSection(doc, await defaultPageSection()));
  console.log(`${CATALOG_DOC}: page 1 of the default search written`);
}
