import { catalogIndex, LANGUAGES } from '../../src/search/catalog-text.js';

/**
 * Builds every language's text index, as a process does by its first search or question: for
 * tests that hold each request to the CPU budget of a process past that first use. The first
 * use's own cost is test/hardening/assistant-cost.test.ts's concern.
 */
export function buildEveryLanguage(): void {
  for (const code of LANGUAGES) catalogIndex(code);
}
