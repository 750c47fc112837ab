import { loadFixture } from '../../src/fixtures.js';
import type { Language } from '../../src/i18n/lexicon.js';
import { termDictionary } from '../../src/i18n/term-dictionary.js';

/**
 * Builds every language's word list, as a process does by its first search or question in each:
 * for tests that hold each request to the CPU budget of a process past those first uses, whatever
 * language it asks in. The first use's own cost is test/hardening/assistant-cost.test.ts's concern.
 */
export function buildEveryLanguage(): void {
  for (const { code } of loadFixture<Language[]>('languages.json')) termDictionary(code);
}
