/**
 * A seeded listing's text reference: its item template and the variants put into its title, e.g.
 * `apple-iphone-14|storage=128gb|colour=blue`. Stored with the listing (`text_ref`), so its title
 * and description in every language are made from the template, never word by word.
 */
export interface TextRef {
  template: string;
  /** `[attribute id, value id]` in title order (`model` values are model names). */
  variants: [string, string][];
}

/**
 * Attributes in the order a shop puts them after a title: what the item is (model, year,
 * capacity, size), then how it looks, then its condition ("iPhone 13, 128 GB, blue, like new").
 */
export const VARIANT_ORDER = [
  'model',
  'year',
  'storage',
  'screen',
  'size',
  'shoe-size',
  'rooms',
  'area',
  'mileage',
  'format',
  'age',
  'colour',
  'condition',
];

/** @example formatTextRef({ template: 'sofa', variants: [['colour', 'grey']] }) // 'sofa|colour=grey' */
export function formatTextRef(ref: TextRef): string {
  return [ref.template, ...ref.variants.map(([a, v]) => `${a}=${v}`)].join('|');
}

/** The reference in a `text_ref` string; a value may itself hold `=` (model names), never `|`. */
export function parseTextRef(text: string): TextRef {
  const [template, ...rest] = text.split('|');
  return {
    template,
    variants: rest.map((part) => {
      const at = part.indexOf('=');
      return [part.slice(0, at), part.slice(at + 1)] as [string, string];
    }),
  };
}
