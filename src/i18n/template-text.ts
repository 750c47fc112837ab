import { catalogFixture, type ItemTemplate, type ValueText } from './catalog-fixture.js';
import type { TextRef } from './text-ref.js';

/**
 * A variant as a language writes it after a title: the value in the form that agrees with the
 * template's head noun (`g`), wrapped in the attribute's pattern ("size M", "Größe M", "Mサイズ").
 * `model` values are model names, the same in every language.
 * @example variantText(t, 'colour', 'black', 'fr') // 'noire' for a feminine title
 */
export function variantText(template: ItemTemplate, attribute: string, value: string, lang: string): string {
  if (attribute === 'model') return value;
  const attr = catalogFixture().attributes.attributes[attribute];
  const raw = attr?.values[value];
  if (raw === undefined) return value;
  const text = formOf(raw, lang, template.text[lang]?.g);
  const pattern = attr.pattern?.[lang] ?? attr.pattern?.en;
  return pattern ? pattern.replace('{v}', text) : text;
}

function formOf(raw: ValueText, lang: string, g: string | undefined): string {
  if (typeof raw === 'string') return raw;
  const form = raw[lang] ?? raw.en;
  if (typeof form === 'string') return form;
  return (g !== undefined ? form[g] : undefined) ?? Object.values(form)[0] ?? '';
}

/** The template's text in `lang` (English where a language is missing, so nothing is ever empty). */
const textOf = (template: ItemTemplate, lang: string) => template.text[lang] ?? template.text.en;

/**
 * A seeded listing's title in `lang`: the template's title, each variant after the language's
 * separator, and for a reverse auction the language's "wanted" wording around it.
 * @example templateTitle(t, ref, 'en', false) // 'Apple iPhone 14, 128 GB, blue'
 */
export function templateTitle(template: ItemTemplate, ref: TextRef, lang: string, wanted: boolean): string {
  const { separator, wanted: wording } = catalogFixture().attributes;
  const sep = separator[lang] ?? ', ';
  let title = textOf(template, lang).title;
  for (const [attribute, value] of ref.variants) title += sep + variantText(template, attribute, value, lang);
  return wanted ? (wording[lang] ?? '{title}').replace('{title}', title) : title;
}

/** A seeded listing's description in `lang`: the template's, which fits every variant. */
export function templateDescription(template: ItemTemplate, lang: string): string {
  return textOf(template, lang).description;
}

/** The words a language adds around a reverse auction's title ("Wanted:", "Suche:"), without `{title}`. */
export function wantedWording(lang: string): string {
  return (catalogFixture().attributes.wanted[lang] ?? '').replace('{title}', ' ');
}
