import { loadFixture } from '../../src/fixtures.js';
import type { Language } from '../../src/i18n/lexicon.js';
import { textsReady } from '../../src/i18n/warm-up.js';

/**
 * Builds every language's word list, as a process does by its first search or question in each
 * (a server builds only English's at start, src/i18n/warm-up.ts): for tests that hold each request
 * to the CPU budget of a warm process, whatever language it asks in. The first use's own cost is
 * test/hardening/assistant-cost.test.ts's concern.
 */
export async function buildEveryLanguage(): Promise<void> {
  await textsReady(loadFixture<Language[]>('languages.json').map((l) => l.code));
}
