import type { ListingRecord } from '../store/types.js';
import { catalogFixture, type ItemTemplate } from './catalog-fixture.js';
import { templateDescription, templateTitle, wantedDescription } from './template-text.js';
import { parseTextRef, type TextRef } from './text-ref.js';
import { translateDescription, translateTitle } from './translate.js';

/** The fields a listing's text is made from. */
export type TextSource = Pick<ListingRecord, 'title' | 'description' | 'type' | 'text_ref'>;

/** A text reference whose template and every variant value the fixtures still hold. */
export interface ResolvedRef {
  template: ItemTemplate;
  ref: TextRef;
}

const resolved = new Map<string, ResolvedRef | null>();

/**
 * The template behind a `text_ref`, or null when there is none or the fixtures no longer hold it
 * (a data file made with other fixtures): such a listing is then shown as a user's listing, its
 * stored English text kept.
 */
export function resolveTextRef(textRef: string | undefined): ResolvedRef | null {
  if (textRef === undefined) return null;
  let found = resolved.get(textRef);
  if (found === undefined) {
    const ref = parseTextRef(textRef);
    const template = catalogFixture().byId.get(ref.template);
    const known = ref.variants.every(([a, v]) => template?.attributes?.[a]?.includes(v) === true);
    found = template && known ? { template, ref } : null;
    if (resolved.size < 100_000) resolved.set(textRef, found);
  }
  return found;
}

const MAX_KEPT = 50_000;
const kept = new Map<string, string>();

function keptText(key: string, make: () => string): string {
  let text = kept.get(key);
  if (text === undefined) {
    if (kept.size >= MAX_KEPT) kept.clear();
    text = make();
    kept.set(key, text);
  }
  return text;
}

/**
 * A listing's title in `lang`: a seeded listing's from its template and variants (the stored
 * English title for `en`), a user's translated only where the whole title is known (translate.ts).
 */
export function listingTitle(rec: TextSource, lang: string): string {
  if (lang === 'en') return rec.title;
  const found = resolveTextRef(rec.text_ref);
  if (!found) return translateTitle(rec.title, lang);
  const wanted = rec.type === 'reverse_auction';
  return keptText(`t\u0000${lang}\u0000${wanted ? 'w' : ''}${rec.text_ref}`, () =>
    templateTitle(found.template, found.ref, lang, wanted),
  );
}

/** A listing's description in `lang`, made as {@link listingTitle} makes its title. */
export function listingDescription(rec: TextSource, lang: string): string | null {
  if (lang === 'en' || rec.description === null) return rec.description;
  const found = resolveTextRef(rec.text_ref);
  if (!found) return translateDescription(rec.description, lang);
  // A wanted ad says what the buyer wants, not what a seller would say about the item.
  if (rec.type === 'reverse_auction') return wantedDescription(rec.text_ref ?? '', lang);
  return templateDescription(found.template, lang);
}
