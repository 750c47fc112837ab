import { loadFixture } from '../fixtures.js';
import { catalogFixture, type ItemTemplate } from './catalog-fixture.js';
import { words } from './text.js';

/** `{enWord: {ar: …, de: …, …}}`: single items a user might title a listing with ("Bicycle"). */
export type Vocabulary = Record<string, Record<string, string>>;
/** `{description: [{en: …, de: …, …}]}`: whole sentences with their translations. */
export interface Phrases {
  description: Record<string, string>[];
}
export interface Language {
  code: string;
  name: string;
  native: string;
  dir: 'ltr' | 'rtl';
}
/** A whole text in every language it is known in. */
export type Translations = Record<string, string>;

/** The key two texts share when they are the same words: `Red, leather JACKET!` → `red leather jacket`. */
export const textKey = (text: string): string => words(text).join(' ');

/**
 * The static language data, read once per process from fixtures: the 17 languages, and the whole
 * texts the sandbox can translate well. A user's title is translated only when it is one of the
 * known titles (an item template's title, or a vocabulary item); a description only when it is a
 * template's description or made only of known sentences (`fixtures/phrases.json`).
 */
export class Lexicon {
  readonly languages: Language[];
  readonly codes: string[];
  /** textKey(English title) → the title in every language. */
  readonly titles = new Map<string, Translations>();
  /** textKey(English description) → the description in every language. */
  readonly descriptions = new Map<string, Translations>();
  /** textKey(English sentence) → the sentence in every language. */
  readonly sentences = new Map<string, Translations>();

  constructor(languages: Language[], vocabulary: Vocabulary, phrases: Phrases) {
    this.languages = languages;
    this.codes = languages.map((l) => l.code);
    for (const [en, others] of Object.entries(vocabulary)) this.titles.set(textKey(en), { en, ...others });
    for (const phrase of phrases.description) this.sentences.set(textKey(phrase.en ?? ''), phrase);
  }

  /** Adds an item template's title and description (whole texts in all 17 languages). */
  addTemplate(t: ItemTemplate): void {
    const titles: Translations = {};
    const descriptions: Translations = {};
    for (const [lang, text] of Object.entries(t.text)) {
      titles[lang] = text.title;
      descriptions[lang] = text.description;
    }
    this.titles.set(textKey(t.text.en.title), titles);
    this.descriptions.set(textKey(t.text.en.description), descriptions);
  }
}

function buildLexicon(): Lexicon {
  const lex = new Lexicon(
    loadFixture<Language[]>('languages.json'),
    loadFixture<Vocabulary>('vocabulary.json'),
    loadFixture<Phrases>('phrases.json'),
  );
  for (const t of catalogFixture().templates) lex.addTemplate(t);
  return lex;
}

let built: Lexicon | undefined;

/** The process-wide lexicon built from fixtures, on first use (static data, like loadFixture). */
export function lexicon(): Lexicon {
  built ??= buildLexicon();
  return built;
}
