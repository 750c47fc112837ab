import type { ListingRecord } from '../../store/types.js';
import { catalogFixture } from '../../i18n/catalog-fixture.js';
import { listingDescription, listingTitle, resolveTextRef } from '../../i18n/listing-text.js';
import {
  DESCRIPTION,
  dictionaryOf,
  partTable,
  TITLE,
  type TermDictionary,
} from '../../i18n/term-dictionary.js';
import { wantedTextCount, wantedTextIndex } from '../../i18n/template-text.js';
import { wordsIn } from '../../i18n/text.js';

/**
 * A world's text postings. A seeded listing is found through the parts of its text (its
 * template, its variants, the wanted wording: i18n/term-dictionary.ts), so the index keeps per
 * part the sorted positions of the listings that have it. A listing without a template (a user's)
 * has words of its own: per language they are gathered into a small dictionary whose codes are
 * `position * 2 + field`, made again on the first search after a user's listing was added.
 */
export class ListingParts {
  /** Part → positions of the listings that have it, ascending. */
  readonly positions: number[][] = Array.from({ length: partTable().count }, () => []);
  /** Positions of listings without a template, ascending. */
  readonly user: number[] = [];
  private userDictionaries = new Map<string, { made: number; dict: TermDictionary }>();

  /** Records the parts of the listing at position `i` (positions come in ascending order). */
  place(rec: ListingRecord, i: number): void {
    const found = resolveTextRef(rec.text_ref);
    const index = found ? catalogFixture().indexOf.get(found.template.id) : undefined;
    if (!found || index === undefined) {
      this.user.push(i);
      return;
    }
    const table = partTable();
    // A wanted ad writes the title and variants as its wording takes them ("Куплю электрогитару").
    const wanted = rec.type === 'reverse_auction' && found.template.types.includes('reverse_auction');
    this.positions[wanted ? table.wantedTitles + index : index].push(i);
    for (const [attribute, value] of found.ref.variants) {
      const part = (wanted ? table.wantedVariants : table.variants).get(`${index}|${attribute}=${value}`);
      if (part !== undefined) this.positions[part].push(i);
    }
    if (rec.type === 'reverse_auction') {
      // A wanted ad shows the buyer's description (listing-text.ts), so it is found by its words.
      this.positions[table.wanted].push(i);
      const k = wantedTextIndex(rec.text_ref ?? '', wantedTextCount());
      this.positions[table.wantedDescriptions + k].push(i);
    } else this.positions[table.descriptions + index].push(i);
  }

  /** The words of the users' listings in `lang` (their title and description as shown in it). */
  userDictionary(lang: string, recs: ListingRecord[]): TermDictionary {
    const kept = this.userDictionaries.get(lang);
    if (kept && kept.made === this.user.length) return kept.dict;
    const codes = new Map<string, number[]>();
    const add = (text: string | null, code: number) => {
      for (const word of wordsIn(text ?? '', lang)) {
        const list = codes.get(word);
        if (!list) codes.set(word, [code]);
        else if (list[list.length - 1] !== code) list.push(code);
      }
    };
    for (const i of this.user) {
      add(listingTitle(recs[i], lang), i * 2 + TITLE);
      add(listingDescription(recs[i], lang), i * 2 + DESCRIPTION);
    }
    const dict = dictionaryOf(lang, codes);
    this.userDictionaries.set(lang, { made: this.user.length, dict });
    return dict;
  }
}
