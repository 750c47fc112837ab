import { loadFixture } from '../../fixtures.js';
import type { ListingRecord } from '../../store/types.js';
import type { World } from '../../world/world.js';
import { normalize } from '../../i18n/text.js';
import { queryWords, runSearch } from '../listings/search.js';
import { searchIndex } from '../listings/search-index.js';
import { detectLanguage, type AssistantFixture } from './detect.js';

export interface AssistantTurn {
  role: 'user' | 'assistant';
  content: string;
}

export interface AssistantAnswer {
  lang: string;
  reply: string;
  listings: ListingRecord[];
}

/** Listings the assistant shows at most. */
export const ASSISTANT_LISTINGS = 5;

interface Replies {
  found: string;
  none: string;
  greeting: string;
}

const fill = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (m, key: string) => values[key] ?? m);

/** The message's search words: stopwords of its language (and English ones) dropped. */
export function searchWords(world: World, text: string, lang: string, fixture: AssistantFixture): string[] {
  const stop = new Set([...(fixture.stopwords[lang] ?? []), ...(fixture.stopwords.en ?? [])].map(normalize));
  return queryWords(text, searchIndex(world)).filter((w) => !stop.has(w) && w.length > 1);
}

/**
 * A deterministic shopping helper: searches with the message's words (all of them; while that
 * finds nothing, the last word is dropped), answers in the message's language with the count and
 * the first listings. A message without search words falls back to the last user turn of the
 * history, then to a greeting.
 */
export function answer(world: World, message: string, history: AssistantTurn[]): AssistantAnswer {
  const fixture = loadFixture<AssistantFixture>('assistant.json');
  const lang = detectLanguage(message, fixture);
  const replies = (fixture[lang] ?? fixture.en) as Replies;
  let terms = searchWords(world, message, lang, fixture);
  for (const turn of [...history].reverse()) {
    if (terms.length > 0) break;
    if (turn.role === 'user')
      terms = searchWords(world, turn.content, detectLanguage(turn.content, fixture), fixture);
  }
  if (terms.length === 0) return { lang, reply: replies.greeting, listings: [] };
  const index = searchIndex(world);
  const now = world.clock.now();
  for (let n = terms.length; n > 0; n -= 1) {
    const q = terms.slice(0, n).join(' ');
    const found = runSearch(index, { q, sort: 'newest', page: 1, limit: ASSISTANT_LISTINGS, now });
    if (found.total > 0)
      return {
        lang,
        reply: fill(replies.found, { count: String(found.total), query: q }),
        listings: found.items,
      };
  }
  return { lang, reply: fill(replies.none, { query: terms.join(' ') }), listings: [] };
}
