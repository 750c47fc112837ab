import { catalogFixture, type ItemTemplate, type ValueText } from './catalog-fixture.js';
import type { TextRef } from './text-ref.js';

/**
 * The accusative of a variant's words in a language whose wanted ads put the item in it
 * (`wanted_style.accusative`), where the variant agrees with a feminine title: Russian feminine
 * adjectives are regular, `-ая` → `-ую` and `-яя` → `-юю` ("Куплю электрогитару, чёрную").
 */
const ACCUSATIVE: Record<string, (text: string, g: string | undefined) => string> = {
  ru: (text, g) => (g === 'f' ? text.replace(/ая(?=$|[\s,])/g, 'ую').replace(/яя(?=$|[\s,])/g, 'юю') : text),
};

const accusativeIn = (lang: string) => catalogFixture().attributes.wanted_style.accusative.includes(lang);

/**
 * A variant as a language writes it after a title: the value in the form that agrees with the
 * template's head noun (`g`), wrapped in the attribute's pattern ("size M", "Größe M", "Mサイズ"),
 * and in a wanted ad in the case the title takes there. `model` values are model names, the same
 * in every language.
 * @example variantText(t, 'colour', 'black', 'fr') // 'noire' for a feminine title
 */
export function variantText(
  template: ItemTemplate,
  attribute: string,
  value: string,
  lang: string,
  wanted = false,
): string {
  if (attribute === 'model') return value;
  const attr = catalogFixture().attributes.attributes[attribute];
  const raw = attr?.values[value];
  if (raw === undefined) return value;
  const g = template.text[lang]?.g;
  let text = formOf(raw, lang, g);
  if (wanted && accusativeIn(lang)) text = ACCUSATIVE[lang]?.(text, g) ?? text;
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
 * The template's title as a wanted ad writes it after its wording: in the accusative where the
 * language puts the object there (`text.ru.acc`: "Куплю электрогитару"), and in lower case where
 * the language does not capitalise what follows ("Busco guitarra", "Recherche : guitare"),
 * unless it starts with a name (`Fender`, `iPhone`, `IKEA`) or a model (`PS5`).
 * @example wantedHead(fender, 'ru') // 'электрогитару Fender Player Stratocaster'
 */
export function wantedHead(template: ItemTemplate, lang: string): string {
  const text = textOf(template, lang);
  const style = catalogFixture().attributes.wanted_style;
  const head = (accusativeIn(lang) ? text.acc : undefined) ?? text.title;
  if (!style.lowercase.includes(lang)) return head;
  const first = head.split(/\s/, 1)[0];
  const named = template.names.some((name) => head.startsWith(name));
  if (named || /\d/.test(first) || /\p{Lu}/u.test([...first].slice(1).join(''))) return head;
  const [letter = ''] = head;
  return letter.toLocaleLowerCase(lang) + head.slice(letter.length);
}

/**
 * A seeded listing's title in `lang`: the template's title, each variant after the language's
 * separator, and for a reverse auction the language's "wanted" wording around it, the title as
 * that wording takes it ({@link wantedHead}).
 * @example templateTitle(t, ref, 'en', false) // 'Apple iPhone 14, 128 GB, blue'
 */
export function templateTitle(template: ItemTemplate, ref: TextRef, lang: string, wanted: boolean): string {
  const { separator, wanted: wording } = catalogFixture().attributes;
  const sep = separator[lang] ?? ', ';
  let title = wanted ? wantedHead(template, lang) : textOf(template, lang).title;
  for (const [attribute, value] of ref.variants)
    title += sep + variantText(template, attribute, value, lang, wanted);
  return wanted ? (wording[lang] ?? '{title}').replace('{title}', title) : title;
}

/** A seeded listing's description in `lang`: the template's, which fits every variant. */
export function templateDescription(template: ItemTemplate, lang: string): string {
  return textOf(template, lang).description;
}

/**
 * Which of the buyer's descriptions a reverse auction shows: one of `count`, the same for a text
 * reference every time (FNV-1a of it), so listings of one item do not all say the same.
 */
export function wantedTextIndex(textRef: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < textRef.length; i += 1) hash = Math.imul(hash ^ textRef.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % Math.max(1, count);
}

/** How many buyer's descriptions a reverse auction may show (the same in every language). */
export const wantedTextCount = (): number => catalogFixture().attributes.wanted_descriptions.en.length;

/**
 * A reverse auction's description in `lang`: a buyer's words (what they want, in what state, how
 * they pay), never the seller's description of the template, chosen by {@link wantedTextIndex}.
 * @example wantedDescription('guitar-gibson-les-paul|colour=red', 'en') // 'Looking to buy one in good working order. …'
 */
export function wantedDescription(textRef: string, lang: string): string {
  const texts = catalogFixture().attributes.wanted_descriptions;
  const list = texts[lang] ?? texts.en;
  return list[wantedTextIndex(textRef, wantedTextCount())] ?? list[0];
}

/** The words a language adds around a reverse auction's title ("Wanted:", "Suche:"), without `{title}`. */
export function wantedWording(lang: string): string {
  return (catalogFixture().attributes.wanted[lang] ?? '').replace('{title}', ' ');
}
