import { listingDescription, listingTitle, type TextSource } from '../../src/i18n/listing-text.js';
import { compoundEndAllowed, prefixAllowed, wordsIn } from '../../src/i18n/text.js';

const kept = new Map<string, string[]>();

/** The words of a text as shown in `lang` (kept: the same texts are read many times). */
function shownWords(text: string, lang: string): string[] {
  const key = `${lang}\u0000${text}`;
  let found = kept.get(key);
  if (!found) {
    found = wordsIn(text, lang);
    kept.set(key, found);
  }
  return found;
}

/**
 * The search rule read off a listing's shown texts, with no index: per query word the best of a
 * whole title word (0), a title word's start (1), a whole description word (2), a description
 * word's start (3), in the search language or English; the listing's tier is its worst word's,
 * undefined when some word matches nothing. Starts count from three letters (two Han, kana or
 * Hangul characters); in German and Swedish a word of five letters also matches a compound's end
 * (as a start does).
 */
export function tierOf(rec: TextSource, q: string, lang: string): number | undefined {
  const langs = lang === 'en' ? ['en'] : [lang, 'en'];
  const fields = langs.flatMap((l) => [
    [0, shownWords(listingTitle(rec, l), l), l] as const,
    [2, shownWords(listingDescription(rec, l) ?? '', l), l] as const,
  ]);
  let worst = 0;
  for (const word of wordsIn(q, lang).slice(0, 32)) {
    let best = Infinity;
    for (const [base, ws, l] of fields) {
      const part = (w: string) =>
        (prefixAllowed(word) && w.startsWith(word)) || (compoundEndAllowed(word, l) && w.endsWith(word));
      if (ws.includes(word)) best = Math.min(best, base);
      else if (ws.some(part)) best = Math.min(best, base + 1);
    }
    if (best === Infinity) return undefined;
    worst = Math.max(worst, best);
  }
  return worst;
}
