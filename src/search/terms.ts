import { stemmer as ar } from '@orama/stemmers/arabic';
import { stemmer as de } from '@orama/stemmers/german';
import { stemmer as en } from '@orama/stemmers/english';
import { stemmer as es } from '@orama/stemmers/spanish';
import { stemmer as fr } from '@orama/stemmers/french';
import { stemmer as hi } from '@orama/stemmers/indian';
import { stemmer as pt } from '@orama/stemmers/portuguese';
import { stemmer as ru } from '@orama/stemmers/russian';
import { stemmer as sv } from '@orama/stemmers/swedish';
import { stemmer as tr } from '@orama/stemmers/turkish';
import * as stopwords from 'stopword';
import { normalize, wordsIn } from '../i18n/text.js';

/**
 * The Snowball stemmers Orama ships, for the catalogue's languages that have one. The others are
 * written without inflection (zh, ja, vi), with particles (ko, below), or have no stemmer in a
 * maintained package (fa, ur, tl): their words match whole, or by prefix and typo in the
 * requested language.
 */
const STEMMERS: Record<string, (word: string) => string> = { ar, de, en, es, fr, hi, pt, ru, sv, tr };

/**
 * Snowball's French keeps an `s` after a vowel (`vélos`, `prix`): a plural ending it leaves is
 * taken off, for the texts and the queries alike.
 */
const AFTER: Record<string, (stem: string) => string> = {
  fr: (stem) => (stem.length > 3 ? stem.replace(/[sx]$/, '') : stem),
};

/** Korean particles after a noun, longest first (`자전거를` → `자전거`). */
const PARTICLES = [
  '에서',
  '에게',
  '한테',
  '으로',
  '하고',
  '까지',
  '부터',
  '처럼',
  '보다',
  '은',
  '는',
  '이',
  '가',
  '을',
  '를',
  '에',
  '의',
  '도',
  '로',
  '와',
  '과',
  '만',
];

function withoutParticle(word: string): string {
  for (const p of PARTICLES)
    if (word.length >= p.length + 2 && word.endsWith(p)) return word.slice(0, -p.length);
  return word;
}

/**
 * A word (normalised as text.ts makes words) as the search index keeps it in `lang`: its stem
 * where the language has a stemmer, without its particle in Korean.
 * @example searchTerm('lampen', 'de') // 'lamp'
 */
export function searchTerm(word: string, lang: string): string {
  if (lang === 'ko') return withoutParticle(word);
  const stem = STEMMERS[lang];
  if (!stem) return word;
  const stemmed = stem(word);
  return normalize(AFTER[lang]?.(stemmed) ?? stemmed);
}

/** The index terms of a text written in `lang`: its words (Chinese and Japanese segmented), stemmed. */
export function searchTerms(text: string, lang: string): string[] {
  return wordsIn(text, lang).map((w) => searchTerm(w, lang));
}

/** The stopword package's list names for the catalogue's languages (ISO 639-3, Brazilian Portuguese). */
const LISTS: Record<string, string> = {
  en: 'eng',
  ar: 'ara',
  de: 'deu',
  es: 'spa',
  fa: 'fas',
  fr: 'fra',
  hi: 'hin',
  ja: 'jpn',
  ko: 'kor',
  pt: 'porBr',
  ru: 'rus',
  sv: 'swe',
  tl: 'tgl',
  tr: 'tur',
  ur: 'urd',
  vi: 'vie',
  zh: 'zho',
};

const stopSets = new Map<string, Set<string>>();

/** The stopwords of `lang`, normalised as query words are. */
export function stopwordsOf(lang: string): Set<string> {
  let set = stopSets.get(lang);
  if (!set) {
    const list = (stopwords as unknown as Record<string, string[] | undefined>)[LISTS[lang] ?? ''] ?? [];
    set = new Set(list.map(normalize));
    stopSets.set(lang, set);
  }
  return set;
}
