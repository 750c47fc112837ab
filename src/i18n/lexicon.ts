import { loadFixture } from '../fixtures.js';
import { normalize, words } from './text.js';

/** `{enWord: {ar: …, de: …, …}}`: the 16 other languages of every English vocabulary word. */
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

/** A piece of an English source text: a vocabulary entry, or a word kept as written. */
export interface Piece {
  /** Offsets in the source text. */
  start: number;
  end: number;
  /** The vocabulary key, or null for an unknown word. */
  key: string | null;
}

/**
 * The static language data, read once per process from fixtures: the vocabulary (and its
 * reverse, any language's word → English entries), the description phrases, and a sorted term
 * list for prefix search. Pure data; per-world state lives in the search index.
 */
export class Lexicon {
  readonly languages: Language[];
  readonly codes: string[];
  readonly vocabulary: Vocabulary;
  readonly phrases: Record<string, string>[];
  /** normalised English key → key. */
  private readonly keys = new Map<string, string>();
  /** Most words in one vocabulary key (`coffee table` = 2). */
  private readonly maxKeyWords: number;
  /** normalised English sentence → phrase index. */
  private readonly phraseIndex = new Map<string, number>();
  /** normalised term (any language) → concept ids (`w:<key>`, `p:<index>`). */
  readonly terms = new Map<string, string[]>();
  /** `terms` keys, sorted, for prefix ranges. */
  readonly sortedTerms: string[];

  constructor(languages: Language[], vocabulary: Vocabulary, phrases: Phrases) {
    this.languages = languages;
    this.codes = languages.map((l) => l.code);
    this.vocabulary = vocabulary;
    this.phrases = phrases.description;
    let most = 1;
    for (const key of Object.keys(vocabulary)) {
      const norm = words(key).join(' ');
      this.keys.set(norm, key);
      most = Math.max(most, norm.split(' ').length);
      this.addTerms(`w:${key}`, [key, ...Object.values(vocabulary[key])]);
    }
    this.maxKeyWords = most;
    this.phrases.forEach((phrase, i) => {
      this.phraseIndex.set(words(phrase.en ?? '').join(' '), i);
      this.addTerms(`p:${i}`, Object.values(phrase));
    });
    this.sortedTerms = [...this.terms.keys()].sort();
  }

  private addTerms(concept: string, texts: string[]): void {
    for (const text of texts) {
      for (const term of words(text)) {
        const list = this.terms.get(term);
        if (!list) this.terms.set(term, [concept]);
        else if (!list.includes(concept)) list.push(concept);
      }
    }
  }

  /** Splits an English text into vocabulary entries (longest match) and unknown words. */
  pieces(text: string): Piece[] {
    const tokens = [...text.matchAll(/[\p{L}\p{M}\p{N}]+(?:['’-][\p{L}\p{M}\p{N}]+)*/gu)];
    const out: Piece[] = [];
    let i = 0;
    while (i < tokens.length) {
      let taken = 0;
      for (let n = Math.min(this.maxKeyWords, tokens.length - i); n >= 1 && taken === 0; n -= 1) {
        const last = tokens[i + n - 1];
        const span = text.slice(tokens[i].index, last.index + last[0].length);
        if (n > 1 && /[^\p{L}\p{M}\p{N}\s'’-]/u.test(span)) continue;
        const key = this.keys.get(words(span).join(' '));
        if (key !== undefined) {
          out.push({ start: tokens[i].index, end: last.index + last[0].length, key });
          taken = n;
        }
      }
      if (taken === 0) {
        out.push({ start: tokens[i].index, end: tokens[i].index + tokens[i][0].length, key: null });
        taken = 1;
      }
      i += taken;
    }
    return out;
  }

  /** The phrase a sentence is, when it is one of the known description sentences. */
  phraseOf(sentence: string): number | undefined {
    return this.phraseIndex.get(words(sentence).join(' '));
  }

  /** Concept ids of a term prefix (static dictionary only). */
  conceptsWithPrefix(prefix: string, into: Set<string>): void {
    let lo = 0;
    let hi = this.sortedTerms.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.sortedTerms[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sortedTerms.length && this.sortedTerms[i].startsWith(prefix); i += 1) {
      for (const c of this.terms.get(this.sortedTerms[i]) ?? []) into.add(c);
    }
  }
}

let shared: Lexicon | undefined;

/** The process-wide lexicon built from fixtures (static data, like loadFixture). */
export function lexicon(): Lexicon {
  shared ??= new Lexicon(
    loadFixture<Language[]>('languages.json'),
    loadFixture<Vocabulary>('vocabulary.json'),
    loadFixture<Phrases>('phrases.json'),
  );
  return shared;
}

/** Literal (unknown-word) concepts carry the normalised word itself. */
export const literalConcept = (word: string): string => `l:${normalize(word)}`;
