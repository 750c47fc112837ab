import { describe, expect, it } from 'vitest';
import { loadFixture } from '../../fixtures.js';
import { detectLanguage, type AssistantFixture } from './detect.js';

const fixture = loadFixture<AssistantFixture>('assistant.json');

describe('detectLanguage', () => {
  it('uses the script first', () => {
    expect(detectLanguage('ジャケットを探しています', fixture)).toBe('ja');
    expect(detectLanguage('红色夹克', fixture)).toBe('zh');
    expect(detectLanguage('가방 찾고 있어요', fixture)).toBe('ko');
    expect(detectLanguage('मुझे फ़ोन चाहिए', fixture)).toBe('hi');
    expect(detectLanguage('Я ищу телефон', fixture)).toBe('ru');
    expect(detectLanguage('أبحث عن هاتف', fixture)).toBe('ar');
    expect(detectLanguage('دنبال گوشی هستم', fixture)).toBe('fa');
    expect(detectLanguage('مجھے فون چاہیے', fixture)).toBe('ur');
  });
  it('uses letters and marker words for Latin script, English by default', () => {
    expect(detectLanguage('Ich suche eine Jacke', fixture)).toBe('de');
    expect(detectLanguage('Je cherche une veste', fixture)).toBe('fr');
    expect(detectLanguage('Busco una chaqueta', fixture)).toBe('es');
    expect(detectLanguage('Tôi cần điện thoại', fixture)).toBe('vi');
    expect(detectLanguage('I need a jacket', fixture)).toBe('en');
    // A word naming a category in one language only says as much as a marker word.
    expect(detectLanguage('Fahrräder in Berlin', fixture)).toBe('de');
    expect(detectLanguage('xyzzy', fixture)).toBe('en');
  });
});
