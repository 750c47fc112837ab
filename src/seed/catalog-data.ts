import { loadFixture } from '../fixtures.js';

/** `fixtures/categories.json`: top-level categories, each with subcategories and their nouns. */
export interface CategoryFixture {
  slug: string;
  icon: string;
  name: Record<string, string>;
  subcategories: { slug: string; icon: string; name: Record<string, string>; nouns: string[] }[];
}

export interface CityFixture {
  city: string;
  country: string;
  lat: number;
  lng: number;
}

export const categoryFixture = (): CategoryFixture[] => loadFixture<CategoryFixture[]>('categories.json');
export const cityFixture = (): CityFixture[] => loadFixture<CityFixture[]>('cities.json');

/** Title words by role; only those present in vocabulary.json are used (so every title translates). */
export const ADJECTIVES = [
  'new',
  'used',
  'vintage',
  'refurbished',
  'rare',
  'handmade',
  'premium',
  'compact',
  'classic',
  'modern',
  'portable',
  'authentic',
  'durable',
  'lightweight',
  'large',
  'small',
  'antique',
  'elegant',
  'professional',
  'unused',
  'luxury',
  'wireless',
  'waterproof',
  'cozy',
  'limited',
];
export const COLORS = [
  'red',
  'blue',
  'green',
  'yellow',
  'black',
  'white',
  'gray',
  'brown',
  'pink',
  'purple',
  'orange',
  'navy',
  'silver',
  'golden',
];
export const MATERIALS = [
  'leather',
  'wooden',
  'steel',
  'cotton',
  'wool',
  'glass',
  'plastic',
  'ceramic',
  'silk',
  'bamboo',
  'aluminum',
  'linen',
];

/**
 * A small fast PRNG (mulberry32): the listing generator draws several numbers per listing, and
 * faker per listing would make 100k listings take far too long.
 */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Capitalises each word: `red leather jacket` → `Red Leather Jacket`. */
export const titleCase = (text: string): string =>
  text.replace(/(^|\s)(\p{Ll})/gu, (_m, s, c) => s + c.toUpperCase());
