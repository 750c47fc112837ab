import type { ItemTemplate } from '../i18n/catalog-fixture.js';
import { templateTitle } from '../i18n/template-text.js';
import type { ListingRecord, ListingType } from '../store/types.js';
import type { Draw } from './catalog-data.js';
import { drawVariants, inTitleOrder } from './item-draw.js';

type Variants = [string, string][];

/** Templates tried for a listing before one that has dealt all its variants is taken again. */
const TEMPLATE_TRIES = 12;

/**
 * The item templates dealt like cards, so that the catalogue repeats nothing it need not: every
 * template once, in a seeded order, before any comes again (the test accounts' templates last in
 * the first deal, since their listings show them already), then a new shuffle. Each template
 * deals its variants the same way: every one or two of its attributes with a value each, in a
 * seeded order, before any comes again. So with more templates than listings, as in the default
 * seed, no two listings share a template, and past that no two share a title until a template has
 * given every title it can; from then on its variants are drawn at random.
 * Deterministic: every order comes from the seeded draw. A deal costs one draw per card, so a
 * large seed pays for the shuffles once and nothing per listing.
 */
export class TitleDeck {
  private order: ItemTemplate[] = [];
  private at = 0;
  /** Per template, its variants still to deal (shuffled on the template's first deal). */
  private readonly variantsLeft = new Map<string, Variants[]>();
  /** Templates that have dealt every variant they have. */
  private readonly spent = new Set<string>();
  /** The test accounts' titles, which no drawn listing takes again. */
  private readonly fixedTitles: Set<string>;
  private readonly fixedTemplates: Set<string>;

  constructor(
    private readonly d: Draw,
    private readonly templates: readonly ItemTemplate[],
    fixed: readonly ListingRecord[],
  ) {
    this.fixedTemplates = new Set(fixed.map((l) => l.text_ref?.split('|')[0] ?? ''));
    this.fixedTitles = new Set(fixed.map((l) => l.title));
    const free = templates.filter((t) => !this.fixedTemplates.has(t.id));
    this.deal(free);
    this.order.push(...templates.filter((t) => this.fixedTemplates.has(t.id)));
  }

  private shuffle<T>(list: T[]): T[] {
    for (let i = list.length - 1; i > 0; i -= 1) {
      const j = Math.floor(this.d.rand() * (i + 1));
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  }

  private deal(list: ItemTemplate[]): void {
    this.order = this.shuffle(list);
    this.at = 0;
  }

  /** The next template of the deck, a new shuffle of every template once this one is dealt out. */
  next(): ItemTemplate {
    if (this.at >= this.order.length) this.deal([...this.templates]);
    return this.order[this.at++];
  }

  /**
   * The next listing's template, its type (`typeOf` draws it) and variants: the deck's next
   * template with its next variants not dealt yet. A template that has dealt every one (or, for
   * the test accounts' templates, has only titles they hold left) is passed over for the next, up
   * to {@link TEMPLATE_TRIES} templates; then the last one takes variants drawn at random (a
   * repeat that a catalogue larger than its titles cannot avoid).
   */
  pick(typeOf: (t: ItemTemplate) => ListingType): {
    template: ItemTemplate;
    type: ListingType;
    variants: Variants;
  } {
    for (let k = 1; ; k += 1) {
      const template = this.next();
      // Passed over at no cost once it has dealt everything: no type drawn, no title made.
      const last = k >= TEMPLATE_TRIES || this.spent.size >= this.templates.length;
      if (this.variantsLeft.get(template.id)?.length === 0 && !last) continue;
      const type = typeOf(template);
      const variants = this.undealt(template, type);
      if (variants) return { template, type, variants };
      this.spent.add(template.id);
      if (last) return { template, type, variants: drawVariants(this.d, template) };
    }
  }

  /** The template's next variants not dealt yet for a listing of `type`, if any are left. */
  private undealt(template: ItemTemplate, type: ListingType): Variants | undefined {
    let left = this.variantsLeft.get(template.id);
    if (left === undefined) {
      left = this.shuffle(everyVariant(template));
      this.variantsLeft.set(template.id, left);
    }
    while (left.length > 0) {
      const variants = left.pop() as Variants;
      if (!this.fixedTemplates.has(template.id)) return variants;
      const ref = { template: template.id, variants };
      if (!this.fixedTitles.has(templateTitle(template, ref, 'en', type === 'reverse_auction')))
        return variants;
    }
    return undefined;
  }
}

/**
 * Every variant a listing of `template` may have, as drawVariants draws them: one of its
 * attributes with a value, or two, in title order; none when it has no attributes.
 */
function everyVariant(template: ItemTemplate): Variants[] {
  const attributes = Object.entries(template.attributes ?? {});
  if (attributes.length === 0) return [[]];
  const all: Variants[] = [];
  attributes.forEach(([a, values], i) => {
    for (const v of values) all.push([[a, v]]);
    for (const [b, others] of attributes.slice(i + 1))
      for (const v of values)
        for (const w of others)
          all.push(
            inTitleOrder([
              [a, v],
              [b, w],
            ]),
          );
  });
  return all;
}
