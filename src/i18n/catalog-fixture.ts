import { existsSync, readdirSync } from 'node:fs';
import { FIXTURES_DIR, loadFixture } from '../fixtures.js';
import type { ListingType } from '../store/types.js';

/** One language's text of an item template (fixtures/catalog/README.md). */
export interface TemplateText {
  title: string;
  description: string;
  /** Gender and number of the title's head noun, where the language makes adjectives agree. */
  g?: string;
  loanwords?: string[];
  /** The title in the accusative, as a wanted ad puts it (`wanted_style.accusative` languages). */
  acc?: string;
}

/** A curated item a seeded listing is drawn from. */
export interface ItemTemplate {
  id: string;
  category: string;
  subcategory: string;
  types: ListingType[];
  price_usd: [number, number];
  quantity: [number, number];
  /** Attribute id → the value ids this item may take (`model`: model names, the same in every language). */
  attributes?: Record<string, string[]>;
  names: string[];
  text: Record<string, TemplateText>;
}

/** A value's text: one string for every language, or per language one string or one form per gender. */
export type ValueText = string | Record<string, string | Record<string, string>>;

export interface AttributeFixture {
  /** How each language joins the title and a variant. */
  separator: Record<string, string>;
  /** A reverse auction's title per language, `{title}` being the item's title. */
  wanted: Record<string, string>;
  /**
   * How a wanted ad's title follows its wording: in lower case (`lowercase` languages: "Busco
   * guitarra"), in the accusative (`accusative` languages: the template's `acc` title).
   */
  wanted_style: { lowercase: string[]; accusative: string[] };
  /** A reverse auction's descriptions per language: a buyer's words, the same count in each. */
  wanted_descriptions: Record<string, string[]>;
  attributes: Record<string, { pattern?: Record<string, string>; values: Record<string, ValueText> }>;
}

export interface CatalogFixture {
  templates: ItemTemplate[];
  byId: Map<string, ItemTemplate>;
  /** Template id → its place in `templates`. */
  indexOf: Map<string, number>;
  attributes: AttributeFixture;
}

const ITEMS_DIR = 'catalog/items/';

function readCatalog(): CatalogFixture {
  const dir = FIXTURES_DIR + ITEMS_DIR;
  const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.json')) : [];
  const templates: ItemTemplate[] = [];
  for (const file of files.sort()) {
    const data = loadFixture<{ category: string; templates: Omit<ItemTemplate, 'category'>[] }>(
      ITEMS_DIR + file,
    );
    for (const t of data.templates) templates.push({ ...t, category: data.category });
  }
  return {
    templates,
    byId: new Map(templates.map((t) => [t.id, t])),
    indexOf: new Map(templates.map((t, i) => [t.id, i])),
    attributes: loadFixture<AttributeFixture>('catalog/attributes.json'),
  };
}

let catalog: CatalogFixture | undefined;

/**
 * The curated catalogue (fixtures/catalog): every item template, in file-name order and then in
 * file order, so one seed always draws the same items; and the attributes their variants use.
 * Read once per process, on first use (static data, like loadFixture).
 */
export function catalogFixture(): CatalogFixture {
  catalog ??= readCatalog();
  return catalog;
}
