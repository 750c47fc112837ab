import { catalogWords } from '../../search/catalog-text.js';
import { normalize, words } from '../../i18n/text.js';
import { categoryLanguages, type CategoryWords } from './category-words.js';

/** `fixtures/assistant.json`: replies per language, stopwords, marker words of Latin-script languages, category words. */
export interface AssistantFixture {
  [code: string]: unknown;
  stopwords: Record<string, string[]>;
  markers: Record<string, string[]>;
  categories: CategoryWords;
}

/** Scripts that name one language (checked in this order; Japanese before Chinese). */
const SCRIPTS: [RegExp, string][] = [
  [/[\p{Script=Hiragana}\p{Script=Katakana}]/u, 'ja'],
  [/\p{Script=Hangul}/u, 'ko'],
  [/\p{Script=Han}/u, 'zh'],
  [/\p{Script=Devanagari}/u, 'hi'],
  [/\p{Script=Cyrillic}/u, 'ru'],
];
/** Letters only Urdu, or only Persian, uses among the Arabic-script languages. */
const URDU = /[ٹڈڑںےھۓ]/;
const PERSIAN = /[پچژگکی]/;
/** Letters that give a Latin-script language away. */
const LETTERS: [RegExp, string][] = [
  [/[ăâđêôơưạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹ]/i, 'vi'],
  [/[ğışİ]/, 'tr'],
  [/[ß]/, 'de'],
  [/[ñ¿¡]/, 'es'],
  [/[ãõ]/, 'pt'],
  [/[å]/, 'sv'],
];
/** Latin-script languages whose catalogue words count as evidence (their word lists are read). */
export const LATIN = ['en', 'de', 'es', 'fr', 'pt', 'sv', 'tl', 'tr', 'vi'];
/** A word found in more languages' catalogue texts than this says nothing (brands, numbers). */
const TELLING = 2;

let markers: Map<string, Set<string>> | undefined;

/** Each language's marker words, normalised once. */
function markerSets(fixture: AssistantFixture): Map<string, Set<string>> {
  markers ??= new Map(
    Object.entries(fixture.markers).map(([code, list]) => [code, new Set(list.map(normalize))]),
  );
  return markers;
}

function latinLanguage(text: string, fixture: AssistantFixture): string {
  const scores = new Map<string, number>();
  const bump = (code: string, by: number) => scores.set(code, (scores.get(code) ?? 0) + by);
  for (const [pattern, code] of LETTERS) if (pattern.test(text)) bump(code, 2);
  const ws = words(text);
  for (const [code, set] of markerSets(fixture)) {
    for (const w of ws) if (set.has(w)) bump(code, 1);
  }
  for (const w of ws) {
    const langs = LATIN.filter((code) => catalogWords(code).has(w));
    if (langs.length > 0 && langs.length <= TELLING) for (const code of langs) bump(code, 0.5);
    // A word naming a category in one language only ("Fahrräder") says it as a marker word does.
    const naming = categoryLanguages(w, fixture.categories, LATIN);
    if (naming.length === 1 && naming[0] !== 'en') bump(naming[0], 1);
  }
  let best = 'en';
  let top = 0;
  for (const [code, score] of scores) {
    if (score > top || (score === top && code === 'en')) [best, top] = [code, score];
  }
  return best;
}

/**
 * The language of a message: by script first (Arabic script split into ar, fa and ur by their own
 * letters), then, for Latin script, by telltale letters, marker words and the words of the
 * catalogue's texts in each language; `en` when nothing points elsewhere.
 * @example detectLanguage('Ich suche eine Lampe', fixture) // 'de'
 */
export function detectLanguage(text: string, fixture: AssistantFixture): string {
  for (const [pattern, code] of SCRIPTS) if (pattern.test(text)) return code;
  if (/\p{Script=Arabic}/u.test(text)) return URDU.test(text) ? 'ur' : PERSIAN.test(text) ? 'fa' : 'ar';
  return latinLanguage(text, fixture);
}
