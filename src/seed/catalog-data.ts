import { loadFixture } from '../fixtures.js';

/** `fixtures/categories.json`: top-level categories, each with its subcategories. */
export interface CategoryFixture {
  slug: string;
  icon: string;
  name: Record<string, string>;
  subcategories: { slug: string; icon: string; name: Record<string, string> }[];
}

export interface CityFixture {
  city: string;
  country: string;
  lat: number;
  lng: number;
}

export const categoryFixture = (): CategoryFixture[] => loadFixture<CategoryFixture[]>('categories.json');
export const cityFixture = (): CityFixture[] => loadFixture<CityFixture[]>('cities.json');

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

/** A seeded source of choices. */
export class Draw {
  constructor(readonly rand: () => number) {}
  any<T>(list: readonly T[]): T {
    return list[Math.floor(this.rand() * list.length)];
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.rand() * (max - min + 1));
  }
  /** One of the values, each as likely as its weight. */
  weighted<T>(mix: readonly (readonly [T, number])[]): T {
    const sum = mix.reduce((s, [, w]) => s + w, 0);
    let r = this.rand() * sum;
    for (const [value, weight] of mix) {
      r -= weight;
      if (r < 0) return value;
    }
    return mix[mix.length - 1][0];
  }
}
