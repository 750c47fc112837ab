/**
 * Text helpers shared by search, translation and the assistant: one normalisation (case- and
 * accent-insensitive) and one tokeniser, so the index and the queries always agree.
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

/** Scripts written without spaces between words: their runs are split into words by ICU's dictionary. */
const UNSPACED = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const KANA = /[\p{Script=Hiragana}\p{Script=Katakana}]/u;
/** Scripts whose one character carries as much as a few Latin letters (Han, kana, Hangul syllables). */
const DENSE = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/**
 * Normalised words of a text, in order.
 * @example words('Red, leather JACKET!') // ['red', 'leather', 'jacket']
 */
export function words(text: string): string[] {
  return normalize(text).match(WORD) ?? [];
}

const segmenters = new Map<string, Intl.Segmenter>();

function segmenter(locale: string): Intl.Segmenter {
  let found = segmenters.get(locale);
  if (!found) {
    found = new Intl.Segmenter(locale, { granularity: 'word' });
    segmenters.set(locale, found);
  }
  return found;
}

/**
 * Normalised words of a text written in `lang`. Chinese and Japanese are written without spaces:
 * their words come from ICU's dictionary segmentation (`Intl.Segmenter`), the same for a listing's
 * text and for a query, so `夹克` finds `红色皮夹克`. A run of such characters in another language's
 * text (a query typed in Chinese with `lang=en`) is segmented as Japanese when it holds kana, else
 * as Chinese. With `max`, the first `max` words only: segmentation stops there (ICU's costs some
 * 2 ms per 2,000 characters, which a query of 32 words need not pay for the rest).
 * @example wordsIn('红色皮夹克', 'zh') // ['红色', '皮', '夹克']
 */
export function wordsIn(text: string, lang: string, max = Infinity): string[] {
  if (!UNSPACED.test(text)) return words(text).slice(0, max);
  const locale = lang === 'ja' || lang === 'zh' ? lang : KANA.test(text) ? 'ja' : 'zh';
  const out: string[] = [];
  for (const piece of segmenter(locale).segment(text)) {
    if (out.length >= max) break;
    if (piece.isWordLike) for (const w of words(piece.segment)) out.push(w);
  }
  return out.slice(0, max);
}

/**
 * Whether a query word may match the start of a longer word: three letters or more (two
 * characters of Han, kana or Hangul, each of which says as much). Shorter words match whole
 * words only, so `am` never finds `Amplifier`.
 * @example prefixAllowed('lam') // true
 */
export function prefixAllowed(word: string): boolean {
  const length = [...word].length;
  return length >= 3 || (length === 2 && DENSE.test(word));
}
