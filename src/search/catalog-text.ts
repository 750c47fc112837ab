import MiniSearch from 'minisearch';
import { loadFixture } from '../fixtures.js';
import { catalogFixture } from '../i18n/catalog-fixture.js';
import { resolveTextRef } from '../i18n/listing-text.js';
import {
  templateDescription,
  variantText,
  wantedHead,
  wantedTextCount,
  wantedTextIndex,
  wantedWording,
} from '../i18n/template-text.js';
import { wordsIn } from '../i18n/text.js';
import type { ListingRecord } from '../store/types.js';
import { searchTerm, stopwordsOf } from './terms.js';

/** A kind of thing shoppers name (fixtures/search-vocabulary.json): its words and its listings. */
export interface Kind {
  id: string;
  /** Item templates that are this kind. */
  templates: string[];
  /** Categories or subcategories all of whose listings are this kind. */
  categories?: string[];
  words: Record<string, string[]>;
}

export const vocabulary = (): { kinds: Kind[] } => loadFixture('search-vocabulary.json');

/** A text document of the catalogue: one piece many seeded listings share, or a kind's words. */
interface Doc {
  id: string;
  title?: string;
  description?: string;
}

/**
 * The pieces a seeded listing's text is made of, in `lang`, as documents of the search library:
 * each template's title (`t:`), its title as a wanted ad writes it (`wt:`), its description
 * (`d:`), each variant value (`v:`, and `wv:` in a wanted ad), the wanted wording (`w`) and
 * the buyer's descriptions (`wd:`); and each kind's words (`k:`). A listing is found through the
 * documents of its pieces ({@link docsOf}): 497 templates make some 1,340 documents per
 * language, whatever the number of listings (docs/catalog.md has the figures).
 */
export function* documents(lang: string): Generator<Doc> {
  const { templates, attributes } = catalogFixture();
  // A variant's words differ between templates only by the agreement with the title's noun
  // (`noir`, `noire`): one document per value holds each form.
  const variants = new Map<string, Set<string>>();
  const variant = (id: string, text: string) => variants.set(id, (variants.get(id) ?? new Set()).add(text));
  for (const t of templates) {
    yield { id: `t:${t.id}`, title: (t.text[lang] ?? t.text.en).title };
    yield { id: `d:${t.id}`, description: templateDescription(t, lang) };
    const wanted = t.types.includes('reverse_auction');
    if (wanted) yield { id: `wt:${t.id}`, title: wantedHead(t, lang) };
    for (const [attribute, values] of Object.entries(t.attributes ?? {}))
      for (const value of values) {
        variant(`v:${attribute}=${value}`, variantText(t, attribute, value, lang));
        if (wanted) variant(`wv:${attribute}=${value}`, variantText(t, attribute, value, lang, true));
      }
  }
  for (const [id, texts] of variants) yield { id, title: [...texts].join(' ') };
  yield { id: 'w', title: wantedWording(lang) };
  const buyers = attributes.wanted_descriptions;
  for (const [k, text] of (buyers[lang] ?? buyers.en).entries()) yield { id: `wd:${k}`, description: text };
  // A kind's names of one word; those of several are matched as phrases (text-match.ts `wordGroups`).
  for (const kind of vocabulary().kinds)
    yield {
      id: `k:${kind.id}`,
      title: (kind.words[lang] ?? []).filter((w) => wordsIn(w, lang).length === 1).join(' '),
    };
}

/** The catalogue's document ids a seeded listing is found through; empty for a user's listing. */
export function docsOf(rec: ListingRecord): string[] {
  const found = resolveTextRef(rec.text_ref);
  if (!found) return [];
  const { template, ref } = found;
  // A wanted ad writes the title and variants as its wording takes them ("Куплю электрогитару").
  const wanted = rec.type === 'reverse_auction' && template.types.includes('reverse_auction');
  const docs = [wanted ? `wt:${template.id}` : `t:${template.id}`];
  for (const [attribute, value] of ref.variants) docs.push(`${wanted ? 'wv' : 'v'}:${attribute}=${value}`);
  // A wanted ad shows a buyer's description (listing-text.ts), so it is found by its words.
  if (rec.type === 'reverse_auction')
    docs.push('w', `wd:${wantedTextIndex(rec.text_ref ?? '', wantedTextCount())}`);
  else docs.push(`d:${template.id}`);
  return docs;
}

/** A kind's words are never stopwords: Hindi's list holds घर (house). */
function stopwordsIn(lang: string): Set<string> {
  const kept = new Set(
    vocabulary().kinds.flatMap((k) => (k.words[lang] ?? []).flatMap((w) => wordsIn(w, lang))),
  );
  return new Set([...stopwordsOf(lang)].filter((w) => !kept.has(w)));
}

/** Per language: the words a search drops (in queries and texts alike). */
const dropped = new Map<string, Set<string>>();

export function droppedWords(lang: string): Set<string> {
  let set = dropped.get(lang);
  if (!set) {
    set = stopwordsIn(lang);
    dropped.set(lang, set);
  }
  return set;
}

/** A text's word as an index keeps it in `lang`: none for a stopword, else its stem. */
export const indexTerm = (word: string, lang: string): string | null =>
  droppedWords(lang).has(word) ? null : searchTerm(word, lang);

/**
 * A search library index of texts in `lang`: its fields' words (text.ts `wordsIn`), stopwords
 * dropped, stemmed (terms.ts), each distinct word stemmed once (a text repeats its words: a
 * third of the stemming); `seen` is given every word as it is read.
 */
export function textIndex(lang: string, fields: string[], seen?: (word: string) => void): MiniSearch<Doc> {
  const stems = new Map<string, string | null>();
  return new MiniSearch<Doc>({
    fields,
    tokenize: (text) => wordsIn(text, lang),
    processTerm: (word) => {
      let term = stems.get(word);
      if (term === undefined) {
        seen?.(word);
        term = indexTerm(word, lang);
        stems.set(word, term);
      }
      return term;
    },
  });
}

/** A kind's name of several words in one language, as normalised words (`xe đạp`, `electric guitar`). */
export interface Phrase {
  kind: string;
  words: string[];
}

interface Built {
  index: MiniSearch<Doc>;
  /** Every word of the language's texts, normalised, unstemmed (language detection reads it). */
  words: Set<string>;
  phrases: Phrase[];
}

/** The kinds' names of several words in `lang` (text-match.ts `wordGroups` matches them). */
function phrasesIn(lang: string): Phrase[] {
  const out: Phrase[] = [];
  for (const kind of vocabulary().kinds)
    for (const name of kind.words[lang] ?? []) {
      const words = wordsIn(name, lang);
      if (words.length > 1) out.push({ kind: kind.id, words });
    }
  return out;
}

const built = new Map<string, Built>();

/** A language's index (empty: the caller adds the documents), words and phrases. */
function empty(lang: string): Built & { docs: Doc[] } {
  const words = new Set<string>();
  const index = textIndex(lang, ['title', 'description'], (w) => words.add(w));
  return { index, words, phrases: phrasesIn(lang), docs: [...documents(lang)] };
}

function builtIn(lang: string): Built {
  let found = built.get(lang);
  if (!found) {
    const made = empty(lang);
    made.index.addAll(made.docs);
    found = { index: made.index, words: made.words, phrases: made.phrases };
    built.set(lang, found);
  }
  return found;
}

/** The catalogue's text index in `lang`, built on its first use (docs/catalog.md has the figures). */
export const catalogIndex = (lang: string): MiniSearch<Doc> => builtIn(lang).index;

/** The kinds' names of several words in `lang`, as normalised words. */
export const catalogPhrases = (lang: string): Phrase[] => builtIn(lang).phrases;

/** The normalised words of the catalogue's texts in `lang`. */
export const catalogWords = (lang: string): Set<string> => builtIn(lang).words;

/** The languages the catalogue is written in. */
export const LANGUAGES: readonly string[] = loadFixture<{ code: string }[]>('languages.json').map(
  (l) => l.code,
);

/** Size of the steps an index is built in by {@link catalogIndexesReady}: tens of ms each. */
const CHUNK = 400;

const building = new Map<string, Promise<void>>();

async function buildInSteps(lang: string): Promise<void> {
  const made = empty(lang);
  await made.index.addAllAsync(made.docs, { chunkSize: CHUNK });
  if (!built.has(lang)) built.set(lang, { index: made.index, words: made.words, phrases: made.phrases });
}

/**
 * Builds the indexes of every language not built yet in steps (the library's `addAllAsync`, a
 * few hundred documents a turn of the event loop), so the process's first search, which reads
 * every language, holds other requests up for one step at a time: all seventeen cost some 1.5 s of
 * CPU once per process (docs/catalog.md). Requests that arrive meanwhile wait for the same build.
 */
export async function catalogIndexesReady(): Promise<void> {
  for (const lang of LANGUAGES) {
    if (built.has(lang)) continue;
    let step = building.get(lang);
    if (!step) {
      step = buildInSteps(lang);
      building.set(lang, step);
    }
    await step;
  }
}
