import { describe, expect, it } from 'vitest';
import { normalize, prefixAllowed, words, wordsIn } from './text.js';

describe('normalize and words', () => {
  it('folds case and strips accents, keeping non-Latin letters intact', () => {
    expect(normalize('Café CRÈME Ölçü')).toBe('cafe creme olcu');
    expect(normalize('Điện thoại')).toBe('dien thoai');
    expect(normalize('Straße')).toBe('strasse');
    expect(normalize('İPEK ipek')).toBe('ipek ipek');
    expect(normalize('फ़ोन')).toBe('फ़ोन'.normalize('NFC'));
    expect(normalize('전화기')).toBe('전화기');
  });

  it('splits on anything that is not a letter or digit', () => {
    expect(words('Red, leather JACKET! (x2)')).toEqual(['red', 'leather', 'jacket', 'x2']);
    expect(words('t-shirt')).toEqual(['t', 'shirt']);
    expect(words('')).toEqual([]);
  });
});

describe('wordsIn', () => {
  it('segments Chinese and Japanese with the dictionary, the same way in a text and a query', () => {
    expect(wordsIn('红色皮夹克', 'zh')).toContain('夹克');
    expect(wordsIn('夹克', 'zh')).toEqual(['夹克']);
    expect(wordsIn('レザージャケット', 'ja')).toEqual(['レザー', 'ジャケット']);
    expect(wordsIn('iPhone 14 です', 'ja')).toEqual(['iphone', '14', 'です']);
  });
  it('with a most, gives the first words of the whole text, segmented or spaced', () => {
    for (const [text, lang] of [
      ['赤いランプと青いランプ'.repeat(50), 'ja'],
      ['红色皮夹克'.repeat(50), 'zh'],
      ['black leather jacket '.repeat(50), 'en'],
    ]) {
      const all = wordsIn(text, lang);
      for (const max of [0, 1, 3, 32]) expect(wordsIn(text, lang, max)).toEqual(all.slice(0, max));
    }
  });
  it('reads spaced scripts as words', () => {
    expect(wordsIn('Lederjacke, schwarz', 'de')).toEqual(['lederjacke', 'schwarz']);
    expect(wordsIn('가죽 재킷', 'ko')).toEqual(['가죽', '재킷']);
  });
});

describe('prefixAllowed', () => {
  it('needs three letters, or two characters of a dense script', () => {
    expect(prefixAllowed('am')).toBe(false);
    expect(prefixAllowed('lam')).toBe(true);
    expect(prefixAllowed('夹克')).toBe(true);
    expect(prefixAllowed('夹')).toBe(false);
    expect(prefixAllowed('가방')).toBe(true);
  });
});
