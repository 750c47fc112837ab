import { lexicon, textKey, type Lexicon } from './lexicon.js';

/**
 * Translation of a user's English listing text (`en` is the source and comes back as written).
 * Only what is known as a whole is translated: a title that is a known title, a description that
 * is a known description or made only of known sentences. Anything else is kept as written in
 * every language: a listing may show English in a German search, but never a sentence half in
 * one language and half in another. Seeded listings never come here: their text comes from their
 * item template (listing-text.ts).
 */

/** The first letter upper-cased when the source's is, in the language's own way (Turkish `i` → `İ`). */
function capitalizeLike(source: string, target: string, lang: string): string {
  const first = source[0];
  if (!first || first === first.toLowerCase() || target.length === 0) return target;
  return target[0].toLocaleUpperCase(lang) + target.slice(1);
}

/** Languages whose sentences follow each other without a space. */
const UNSPACED_LANGUAGES = new Set(['ja', 'zh']);

/** Splits a text into sentences, keeping the spaces that follow each one. */
export function sentences(text: string): string[] {
  return text.match(/[^.!?。！？]+(?:[.!?。！？]+|$)\s*/g) ?? [];
}

/**
 * A title in `lang` when the whole title is known, else the title as written.
 * @example translateTitle('Bicycle', 'de') // 'Fahrrad'
 * @example translateTitle('Red Zorblax Jacket', 'de') // 'Red Zorblax Jacket'
 */
export function translateTitle(text: string, lang: string, lex: Lexicon = lexicon()): string {
  if (lang === 'en') return text;
  const known = lex.titles.get(textKey(text))?.[lang];
  return known === undefined ? text : capitalizeLike(text.trim(), known, lang);
}

/**
 * A description in `lang` when it is known whole or made only of known sentences, else as written.
 * @example translateDescription('Like new. Pickup only, no shipping.', 'de') // 'Wie neu. Nur Abholung, kein Versand.'
 */
export function translateDescription(text: string, lang: string, lex: Lexicon = lexicon()): string {
  if (lang === 'en') return text;
  const whole = lex.descriptions.get(textKey(text))?.[lang];
  if (whole !== undefined) return whole;
  const parts = sentences(text).map((s) => lex.sentences.get(textKey(s))?.[lang]);
  if (parts.length === 0 || parts.some((p) => p === undefined)) return text;
  return parts.join(UNSPACED_LANGUAGES.has(lang) ? '' : ' ');
}
