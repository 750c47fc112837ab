import { describe, expect, it } from 'vitest';
import { Lexicon } from './lexicon.js';
import { conceptsOf, sentences, translateDescription, wordByWord } from './translate.js';

const lex = new Lexicon(
  [
    { code: 'en', name: 'English', native: 'English', dir: 'ltr' },
    { code: 'de', name: 'German', native: 'Deutsch', dir: 'ltr' },
    { code: 'zh', name: 'Chinese', native: '中文', dir: 'ltr' },
  ],
  {
    red: { de: 'rot', zh: '红色' },
    jacket: { de: 'Jacke', zh: '夹克' },
    'coffee table': { de: 'Couchtisch', zh: '咖啡桌' },
  },
  { description: [{ en: 'Like new.', de: 'Wie neu.', zh: '几乎全新。' }] },
);

describe('wordByWord', () => {
  it('translates known words, keeps unknown words as written, and keeps capitals', () => {
    expect(wordByWord(lex, 'Red Zorblax Jacket', 'de')).toBe('Rot Zorblax Jacke');
    expect(wordByWord(lex, 'red jacket', 'en')).toBe('red jacket');
  });
  it('matches multi-word entries first', () => {
    expect(wordByWord(lex, 'Red coffee table', 'de')).toBe('Rot Couchtisch');
  });
  it('drops the space between two Chinese words only', () => {
    expect(wordByWord(lex, 'red jacket', 'zh')).toBe('红色夹克');
    expect(wordByWord(lex, 'red Zorblax jacket', 'zh')).toBe('红色 Zorblax 夹克');
  });
});

describe('descriptions', () => {
  it('replaces known sentences whole and translates the rest word by word', () => {
    expect(sentences('Like new. Red jacket!')).toEqual(['Like new. ', 'Red jacket!']);
    expect(translateDescription('Like new. Red jacket!', 'de', lex)).toBe('Wie neu. Rot Jacke!');
  });
});

describe('conceptsOf', () => {
  it('gives vocabulary entries, phrases and literal words', () => {
    expect(conceptsOf('Red Zorblax jacket. Like new.', lex).sort()).toEqual([
      'l:zorblax',
      'p:0',
      'w:jacket',
      'w:red',
    ]);
  });
  it('lets any language find the concept by prefix', () => {
    const found = new Set<string>();
    lex.conceptsWithPrefix('jack', found);
    lex.conceptsWithPrefix('夹克', found);
    expect([...found]).toEqual(['w:jacket']);
  });
});
