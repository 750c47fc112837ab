import { lexicon, type Lexicon } from './lexicon.js';
import { UNSPACED, words } from './text.js';

/**
 * Translation of English source text into one of the 17 codes. `en` is the source and comes
 * back as written. Titles go word by word through the vocabulary (longest entry first);
 * a word the vocabulary does not know is kept as written. Descriptions go sentence by
 * sentence: a known phrase is replaced whole, any other sentence goes word by word.
 * Results are cached (pure function of text and language; the cache is bounded).
 */

const MAX_CACHE = 50_000;
const cache = new Map<string, string>();

function cached(key: string, make: () => string): string {
  let value = cache.get(key);
  if (value === undefined) {
    if (cache.size >= MAX_CACHE) cache.clear();
    value = make();
    cache.set(key, value);
  }
  return value;
}

function capitalizeLike(source: string, target: string): string {
  const first = source[0];
  if (first && first !== first.toLowerCase() && target.length > 0) {
    return target[0].toUpperCase() + target.slice(1);
  }
  return target;
}

/**
 * Word-by-word translation; between two words of Chinese or Japanese the space is dropped.
 * @example wordByWord(lex, 'Red Nikon camera', 'de') // 'Rot Nikon Kamera'
 */
export function wordByWord(lex: Lexicon, text: string, lang: string): string {
  if (lang === 'en') return text;
  let out = '';
  let at = 0;
  let lastUnspaced = false;
  for (const piece of lex.pieces(text)) {
    const gap = text.slice(at, piece.start);
    const source = text.slice(piece.start, piece.end);
    const translated = piece.key === null ? source : (lex.vocabulary[piece.key]?.[lang] ?? source);
    const word = piece.key === null ? source : capitalizeLike(source, translated);
    const unspaced = UNSPACED.test(word);
    out += lastUnspaced && unspaced && /^\s+$/.test(gap) ? '' : gap;
    out += word;
    at = piece.end;
    lastUnspaced = unspaced;
  }
  return out + text.slice(at);
}

/** Splits a text into sentences, keeping the spaces that follow each one. */
export function sentences(text: string): string[] {
  return text.match(/[^.!?。！？]+(?:[.!?。！？]+|$)\s*/g) ?? [];
}

/** Translates a title (word by word). */
export function translateTitle(text: string, lang: string, lex: Lexicon = lexicon()): string {
  if (lang === 'en') return text;
  return cached(`t\u0000${lang}\u0000${text}`, () => wordByWord(lex, text, lang));
}

/** Translates a description: known phrases whole, other sentences word by word. */
export function translateDescription(text: string, lang: string, lex: Lexicon = lexicon()): string {
  if (lang === 'en') return text;
  return cached(`d\u0000${lang}\u0000${text}`, () =>
    sentences(text)
      .map((sentence) => {
        const trailing = /\s*$/.exec(sentence)?.[0] ?? '';
        const index = lex.phraseOf(sentence);
        const body = sentence.slice(0, sentence.length - trailing.length);
        const phrase = index === undefined ? undefined : lex.phrases[index][lang];
        return (phrase ?? wordByWord(lex, body, lang)) + (trailing ? ' ' : '');
      })
      .join('')
      .trimEnd(),
  );
}

/**
 * The search concepts of an English title or description: vocabulary entries (`w:`), whole
 * phrases (`p:`) and words kept as written (`l:`), so one listing's English text is enough to
 * find it by any language's word.
 */
export function conceptsOf(text: string, lex: Lexicon = lexicon()): string[] {
  const out = new Set<string>();
  for (const sentence of sentences(text)) {
    const phrase = lex.phraseOf(sentence);
    if (phrase !== undefined) {
      out.add(`p:${phrase}`);
      continue;
    }
    for (const piece of lex.pieces(sentence)) {
      if (piece.key !== null) out.add(`w:${piece.key}`);
      else for (const w of words(sentence.slice(piece.start, piece.end))) out.add(`l:${w}`);
    }
  }
  return [...out];
}
