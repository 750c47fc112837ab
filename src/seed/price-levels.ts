import { loadFixture } from '../fixtures.js';
import type { ItemTemplate } from '../i18n/catalog-fixture.js';

/** `fixtures/price-levels.json`: per country, what local work and housing cost against the US (1.0). */
interface PriceLevels {
  /** Top-level category → the level its prices follow (`work`, `housing`). */
  categories: Record<string, string>;
  levels: Record<string, Record<string, number>>;
}

let levels: PriceLevels | undefined;

/**
 * The factor a listing's USD price takes in `country`: a job's pay, a service's rate (`work`) and
 * real estate (`housing`) follow what the country pays and rents cost (a barista in Bengaluru
 * earns a tenth of one in New York); goods cost the same everywhere (1). A country the fixture
 * does not list is priced as the US.
 * @example priceLevel(barista, 'IN') // 0.12
 */
export function priceLevel(template: Pick<ItemTemplate, 'category'>, country: string): number {
  levels ??= loadFixture<PriceLevels>('price-levels.json');
  const kind = levels.categories[template.category];
  if (kind === undefined) return 1;
  return levels.levels[country]?.[kind] ?? 1;
}
