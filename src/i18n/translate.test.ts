import { describe, expect, it } from 'vitest';
import { Lexicon } from './lexicon.js';
import { sentences, translateDescription, translateTitle } from './translate.js';

const lex = new Lexicon(
  [
    { code: 'en', name: 'English', native: 'English', dir: 'ltr' },
    { code: 'de', name: 'German', native: 'Deutsch', dir: 'ltr' },
    { code: 'tr', name: 'Turkish', native: 'Türkçe', dir: 'ltr' },
    { code: 'zh', name: 'Chinese', native: '中文', dir: 'ltr' },
  ],
  {
    jacket: { de: 'Jacke', tr: 'ceket', zh: '夹克' },
    'coffee table': { de: 'Couchtisch', tr: 'sehpa', zh: '咖啡桌' },
    'ironing board': { de: 'Bügelbrett', tr: 'ütü masası', zh: '熨衣板' },
  },
  {
    description: [
      { en: 'Like new.', de: 'Wie neu.', tr: 'Sıfır gibi.', zh: '几乎全新。' },
      { en: 'Pickup only.', de: 'Nur Abholung.', tr: 'Sadece elden teslim.', zh: '仅限自取。' },
    ],
  },
);

describe('translateTitle', () => {
  it('translates a title that is known as a whole, capitalised like the source', () => {
    expect(translateTitle('Jacket', 'de', lex)).toBe('Jacke');
    expect(translateTitle('Coffee table', 'zh', lex)).toBe('咖啡桌');
    expect(translateTitle('Ironing board', 'tr', lex)).toBe('Ütü masası');
    expect(translateTitle('jacket', 'tr', lex)).toBe('ceket');
  });
  it('keeps any other title as written: never half translated', () => {
    expect(translateTitle('Red Zorblax Jacket', 'de', lex)).toBe('Red Zorblax Jacket');
    expect(translateTitle('Jacket', 'en', lex)).toBe('Jacket');
  });
});

describe('translateDescription', () => {
  it('translates a description made only of known sentences, joined as the language writes', () => {
    expect(sentences('Like new. Pickup only!')).toEqual(['Like new. ', 'Pickup only!']);
    expect(translateDescription('Like new. Pickup only.', 'de', lex)).toBe('Wie neu. Nur Abholung.');
    expect(translateDescription('Like new. Pickup only.', 'zh', lex)).toBe('几乎全新。仅限自取。');
  });
  it('keeps a description with any unknown sentence as written', () => {
    const text = 'Like new. Comes with extra needles and the manual.';
    expect(translateDescription(text, 'de', lex)).toBe(text);
  });
});
