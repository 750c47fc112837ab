/**
 * Text helpers shared by search and translation: one normalisation (case- and accent-insensitive)
 * and one tokeniser, so the index and the queries always agree.
 */

/** Combining Latin/Cyrillic diacritics (after NFD) and optional Arabic-script vowel marks. */
const MARKS = /[\u0300-\u036f\u064b-\u065f\u0670]/g;
const ASCII = /^[ -~]*$/;

/**
 * Lower-case, accent-free form of a text: `Café Crème` → `cafe creme`. Only diacritics are
 * stripped (not Devanagari vowel signs, which change the word), then NFC recomposes Hangul.
 * @example normalize('Ölçü') // 'olcu'
 */
export function normalize(text: string): string {
  // Plain ASCII has no accents to strip: the common case, kept cheap for index builds.
  if (ASCII.test(text)) return text.toLowerCase();
  return text
    .normalize('NFD')
    .replace(MARKS, '')
    .normalize('NFC')
    .toLowerCase()
    .replace(/đ/g, 'd')
    .replace(/ı/g, 'i')
    .replace(/ß/g, 'ss');
}

/** Words are runs of letters, marks and digits (hyphens and apostrophes split words). */
const WORD = /[\p{L}\p{M}\p{N}]+/gu;

/** Scripts written without spaces between words: their runs are segmented against the dictionary. */
export const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;

/**
 * Normalised words of a text, in order.
 * @example words('Red, leather JACKET!') // ['red', 'leather', 'jacket']
 */
export function words(text: string): string[] {
  return normalize(text).match(WORD) ?? [];
}

/**
 * Splits a run of Chinese/Japanese characters into known terms, longest first; characters that
 * start no known term are kept together as one unknown piece.
 * @example segment('红色夹克', t => ['红色', '夹克'].includes(t)) // ['红色', '夹克']
 */
export function segment(run: string, isTerm: (t: string) => boolean, maxLen = 8): string[] {
  const out: string[] = [];
  let unknown = '';
  let i = 0;
  while (i < run.length) {
    let len = Math.min(maxLen, run.length - i);
    while (len > 0 && !isTerm(run.slice(i, i + len))) len -= 1;
    if (len === 0) {
      unknown += run[i];
      i += 1;
      continue;
    }
    if (unknown) out.push(unknown);
    unknown = '';
    out.push(run.slice(i, i + len));
    i += len;
  }
  if (unknown) out.push(unknown);
  return out;
}
