import { catalogTable } from './catalog-fixture.js';
import { lexiconTable } from './lexicon.js';
import type { SlicedTable } from './sliced-table.js';
import { dictionaryTable, partsTable } from './term-dictionary.js';

/** The tables every request reading the catalogue needs, then the word lists of `langs`. */
const tablesOf = (langs: readonly string[]): SlicedTable<unknown>[] => [
  catalogTable,
  partsTable,
  lexiconTable,
  ...langs.map((lang) => dictionaryTable(lang)),
];

/**
 * Resolves once the catalogue's texts and the word lists of `langs` are built, building what is
 * missing a slice at a time (sliced-table.ts) before tables only warmed in advance; null when all
 * are built, so a request awaits nothing once the process is warm. Handlers that read these tables
 * await it first: the first search in Japanese costs its request a wait, never every other
 * request a freeze of 170 ms.
 * @example const waiting = textsReady(['de', 'en']); if (waiting) await waiting;
 */
export function textsReady(langs: readonly string[]): Promise<void> | null {
  const missing = tablesOf(langs).filter((t) => !t.built());
  if (missing.length === 0) return null;
  // Each goes to the front of the queue: the last one asked for is built first.
  const waits = missing.reverse().map((t) => t.ready(true));
  return Promise.all(waits).then(() => undefined);
}

/** Whether the catalogue's texts and the word lists of `langs` are built (no wait, no work). */
export function textsBuilt(langs: readonly string[]): boolean {
  return tablesOf(langs).every((t) => t.built());
}

/**
 * Builds the catalogue's tables and English's word list in the background, a slice at a time: a
 * server starts this once it listens, so requests find them built (a few hundred ms of CPU time in
 * all, never more than a few ms at once). Another language's list (about 1 MB of heap each, 16 MB
 * for all of them) is built by the first search or question that reads it, which waits for it
 * (`textsReady`): a process that only serves English keeps the memory.
 */
export function warmTexts(): Promise<void> {
  return Promise.all(tablesOf(['en']).map((t) => t.ready() ?? Promise.resolve())).then(() => undefined);
}
