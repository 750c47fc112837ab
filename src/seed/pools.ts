import { catalogFixture, type ItemTemplate } from '../i18n/catalog-fixture.js';
import { computeRates, type RateTable } from '../api/wallet/rates.js';
import { cityFixture, type CityFixture } from './catalog-data.js';
import type { SeedContext } from './context.js';
import type { SeededStore } from './sellers.js';

/** What every drawn listing picks from. */
export interface Pools {
  templates: ItemTemplate[];
  storesBySub: Map<string, SeededStore[]>;
  people: string[];
  cities: CityFixture[];
  /** The seed's rates: prices are converted from USD at these. */
  rates: RateTable;
}

export function makePools(ctx: SeedContext, stores: SeededStore[], people: string[]): Pools {
  const storesBySub = new Map<string, SeededStore[]>();
  for (const store of stores)
    for (const sub of store.subcategories) storesBySub.set(sub, [...(storesBySub.get(sub) ?? []), store]);
  return {
    templates: catalogFixture().templates,
    storesBySub,
    people,
    cities: cityFixture(),
    rates: computeRates(ctx.seed, ctx.now),
  };
}
