import { describe, expect, it } from 'vitest';
import { normalize, segment, words } from './text.js';

describe('normalize and words', () => {
  it('folds case and strips accents, keeping non-Latin letters intact', () => {
    expect(normalize('Café CRÈME Ölçü')).toBe('cafe creme olcu');
    expect(normalize('Điện thoại')).toBe('dien thoai');
    expect(normalize('Straße')).toBe('strasse');
    expect(normalize('फ़ोन')).toBe('फ़ोन'.normalize('NFC'));
    expect(normalize('전화기')).toBe('전화기');
  });

  it('splits on anything that is not a letter or digit', () => {
    expect(words('Red, leather JACKET! (x2)')).toEqual(['red', 'leather', 'jacket', 'x2']);
    expect(words('t-shirt')).toEqual(['t', 'shirt']);
    expect(words('')).toEqual([]);
  });
});

describe('segment', () => {
  const known = (t: string) => ['红色', '夹克', '皮'].includes(t);
  it('splits a run into known terms, longest first', () => {
    expect(segment('红色夹克', known)).toEqual(['红色', '夹克']);
  });
  it('keeps unknown characters together', () => {
    expect(segment('新的红色夹克', known)).toEqual(['新的', '红色', '夹克']);
    expect(segment('未知', known)).toEqual(['未知']);
  });
});
