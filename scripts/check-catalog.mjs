#!/usr/bin/env node
// Checks the curated catalogue fixtures (fixtures/catalog/README.md) and prints every problem.
// Usage: node scripts/check-catalog.mjs [items/<category>.json ...]   (no argument: everything)
// Exit code 1 when a problem is found.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ATTRIBUTE_IDS, GENDERS, LANGS, ONE_OF_MANY, TYPES } from './catalog-rules.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
const dir = join(root, 'catalog');
const read = (path) => JSON.parse(readFileSync(path, 'utf8'));

export { ATTRIBUTE_IDS, GENDERS, LANGS } from './catalog-rules.mjs';

const WORD = /[\p{L}\p{M}]+/gu;
const wordsOf = (text) => (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length >= 2);

const problems = [];
const say = (where, what) => problems.push(`${where}: ${what}`);

const categories = read(join(root, 'categories.json'));
const subsOf = new Map(categories.map((c) => [c.slug, c.subcategories.map((s) => s.slug)]));
const cities = new Set(read(join(root, 'cities.json')).map((c) => c.city));
const attributes = existsSync(join(dir, 'attributes.json')) ? read(join(dir, 'attributes.json')) : null;

/**
 * Units a language writes in its own script, never as the Latin abbreviation, so that one title
 * does not say `55 cm` and the next `50 × 70 सेमी`.
 */
const LATIN_UNITS = { hi: /\d\s?(cm|mm|ml)\b/, ur: /\d\s?(cm|mm|ml)\b/ };

/** Languages whose wanted ads put the title in the accusative: a feminine one needs its `acc`. */
const ACCUSATIVE = attributes?.wanted_style?.accusative ?? [];

function checkText(where, t, names, types = []) {
  for (const lang of ACCUSATIVE)
    if (types.includes('reverse_auction') && t[lang]?.g === 'f' && !t[lang]?.acc)
      say(where, `${lang} needs acc: the title in the accusative, as a wanted ad puts it`);
  const en = t.en;
  if (!en) return say(where, 'no en text');
  const allowed = new Set(names.flatMap((n) => wordsOf(n)));
  const englishTitle = new Set(wordsOf(en.title).filter((w) => !allowed.has(w)));
  const englishDescription = wordsOf(en.description);
  for (const lang of LANGS) {
    const x = t[lang];
    if (!x) {
      say(where, `no ${lang} text`);
      continue;
    }
    if (typeof x.title !== 'string' || x.title.length < 2 || x.title.length > 60)
      say(where, `${lang} title must be 2–60 characters`);
    if (typeof x.description !== 'string' || x.description.length < 20 || x.description.length > 300)
      say(where, `${lang} description must be 20–300 characters`);
    if (/[{}]/.test(`${x.title}${x.description}`)) say(where, `${lang} text holds a { or }`);
    const latin = LATIN_UNITS[lang]?.exec(`${x.title} ${x.description}`);
    if (latin) say(where, `${lang} writes ${latin[1]} in its own script (as every other ${lang} text does)`);
    const genders = GENDERS[lang];
    if (genders && !genders.includes(x.g)) say(where, `${lang}.g must be one of ${genders.join(' ')}`);
    if (!genders && x.g !== undefined) say(where, `${lang}.g is not used in ${lang}`);
    if (x.acc !== undefined && !ACCUSATIVE.includes(lang))
      say(where, `${lang}.acc is only for ${ACCUSATIVE.join(' ')} (wanted_style.accusative)`);
    if (x.acc !== undefined && (typeof x.acc !== 'string' || x.acc.length < 2 || x.acc.length > 60))
      say(where, `${lang}.acc must be 2–60 characters`);
    if (lang === 'en') continue;
    if (x.loanwords !== undefined && !Array.isArray(x.loanwords))
      say(where, `${lang}.loanwords must be a list`);
    const loans = new Set((x.loanwords ?? []).flatMap((w) => wordsOf(String(w))));
    const leaked = wordsOf(x.title ?? '').filter((w) => englishTitle.has(w) && !loans.has(w));
    if (leaked.length)
      say(
        where,
        `${lang} title keeps English word(s) ${leaked.join(', ')} (list brands in names, real loanwords of the language in loanwords)`,
      );
    if (x.description === en.description) say(where, `${lang} description is the English one`);
    const words = wordsOf(x.description ?? '');
    const english = new Set(englishDescription.filter((w) => w.length > 3 && !allowed.has(w)));
    const shared = words.filter((w) => english.has(w)).length;
    if (words.length >= 6 && shared / words.length > 0.3)
      say(where, `${lang} description looks untranslated (${shared} of ${words.length} words are English)`);
  }
}

function checkValueForms(where, value, genderUsers) {
  if (typeof value === 'string') return;
  for (const lang of LANGS) {
    const form = value[lang];
    if (form === undefined) {
      say(where, `no ${lang} form`);
      continue;
    }
    if (typeof form === 'string') continue;
    for (const g of genderUsers.get(lang) ?? [])
      if (!form[g]) say(where, `${lang} has no form for gender ${g}`);
    for (const g of Object.keys(form))
      if (!(GENDERS[lang] ?? []).includes(g)) say(where, `${lang} form ${g} is not a gender of ${lang}`);
  }
}

const templates = [];
function checkItems(file) {
  const data = read(join(dir, file));
  const subs = subsOf.get(data.category);
  if (!subs) return say(file, `unknown category ${data.category}`);
  const count = new Map(subs.map((s) => [s, 0]));
  for (const [i, t] of (data.templates ?? []).entries()) {
    const where = `${file} #${i} ${t.id ?? ''}`;
    templates.push({ file, t });
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(t.id ?? '')) say(where, 'id must be kebab-case');
    if (!subs.includes(t.subcategory)) say(where, `subcategory ${t.subcategory} is not in ${data.category}`);
    else count.set(t.subcategory, count.get(t.subcategory) + 1);
    if (!Array.isArray(t.types) || t.types.length === 0 || t.types.some((x) => !TYPES.includes(x)))
      say(where, `types must be a non-empty list of ${TYPES.join(', ')}`);
    if (data.category === 'jobs-services' && t.types?.some((x) => x !== 'classifieds'))
      say(where, 'jobs and services are classifieds only');
    if (
      ['vehicles', 'real-estate'].includes(data.category) &&
      t.types?.some((x) => !['classifieds', 'auction'].includes(x))
    )
      // Bike shops and parts dealers hold stock: only cars and motorcycles are one-offs.
      if (!(data.category === 'vehicles' && ['auto-parts', 'bicycles'].includes(t.subcategory)))
        say(where, 'vehicles and real estate are classifieds or auctions');
    const [lo, hi] = t.price_usd ?? [];
    if (!(Number.isFinite(lo) && Number.isFinite(hi) && lo >= 0 && lo <= hi && hi <= 5_000_000))
      say(where, 'price_usd must be [min, max] with 0 <= min <= max <= 5,000,000');
    if (hi === 0 && !t.types?.includes('classifieds'))
      say(where, 'a free item must be a classifieds listing');
    if (lo > 0 && hi / lo > 20) say(where, 'price_usd range is too wide (max > 20 × min)');
    const [qlo, qhi] = t.quantity ?? [];
    if (!(Number.isInteger(qlo) && Number.isInteger(qhi) && qlo >= 1 && qlo <= qhi && qhi <= 500))
      say(where, 'quantity must be [min, max] integers with 1 <= min <= max <= 500');
    const conditions = t.attributes?.condition;
    if (Array.isArray(conditions) && !conditions.some((c) => ONE_OF_MANY.includes(c)) && qhi !== 1)
      say(where, 'an item never sold new or refurbished is a one-off: quantity must be [1, 1]');
    if (!Array.isArray(t.names)) say(where, 'names must be a list (may be empty)');
    for (const [name, values] of Object.entries(t.attributes ?? {})) {
      if (name === 'model') {
        if (!Array.isArray(values) || values.some((v) => typeof v !== 'string' || !v))
          say(where, 'model must be a list of model names');
        continue;
      }
      const known = ATTRIBUTE_IDS[name];
      if (!known) say(where, `unknown attribute ${name}`);
      else if (!Array.isArray(values) || values.length === 0) say(where, `attribute ${name} needs values`);
      else for (const v of values) if (!known.includes(v)) say(where, `${name} has no value ${v}`);
    }
    checkText(where, t.text ?? {}, t.names ?? [], t.types ?? []);
  }
  for (const [sub, n] of count) if (n < 8) say(file, `${sub} has ${n} templates (at least 8)`);
}

function checkAttributes() {
  for (const key of ['separator', 'wanted'])
    for (const lang of LANGS)
      if (typeof attributes[key]?.[lang] !== 'string') say('attributes.json', `${key} has no ${lang}`);
  for (const lang of LANGS)
    if (attributes.wanted?.[lang] && !attributes.wanted[lang].includes('{title}'))
      say('attributes.json', `wanted.${lang} lacks {title}`);
  for (const key of ['lowercase', 'accusative'])
    if (!(attributes.wanted_style?.[key] ?? []).every((lang) => LANGS.includes(lang)))
      say('attributes.json', `wanted_style.${key} must list language codes`);
  // A wanted ad's descriptions: a buyer's words, as many in every language.
  const buyers = attributes.wanted_descriptions ?? {};
  const count = buyers.en?.length ?? 0;
  if (count < 2) say('attributes.json', 'wanted_descriptions.en needs at least two texts');
  for (const lang of LANGS) {
    const list = buyers[lang];
    if (!Array.isArray(list) || list.length !== count)
      say('attributes.json', `wanted_descriptions.${lang} must hold ${count} texts, as en does`);
    else
      for (const text of list)
        if (typeof text !== 'string' || text.length < 20 || text.length > 300 || /[{}]/.test(text))
          say('attributes.json', `wanted_descriptions.${lang}: each text 20–300 characters, no { or }`);
  }
  // Which genders each attribute value meets, from the templates that use it.
  const users = new Map();
  for (const { t } of templates)
    for (const [name, values] of Object.entries(t.attributes ?? {}))
      for (const v of Array.isArray(values) ? values : []) {
        const key = `${name}.${v}`;
        if (!users.has(key)) users.set(key, new Map());
        for (const lang of Object.keys(GENDERS)) {
          const g = t.text?.[lang]?.g;
          if (!g) continue;
          if (!users.get(key).has(lang)) users.get(key).set(lang, new Set());
          users.get(key).get(lang).add(g);
        }
      }
  for (const [name, ids] of Object.entries(ATTRIBUTE_IDS)) {
    const attr = attributes.attributes?.[name];
    if (!attr) {
      say('attributes.json', `no attribute ${name}`);
      continue;
    }
    if (attr.pattern) {
      for (const lang of LANGS)
        if (!String(attr.pattern[lang] ?? '').includes('{v}'))
          say('attributes.json', `${name}.pattern.${lang} lacks {v}`);
    }
    for (const id of ids) {
      const value = attr.values?.[id];
      if (value === undefined) say('attributes.json', `${name} has no value ${id}`);
      else checkValueForms(`attributes.json ${name}.${id}`, value, users.get(`${name}.${id}`) ?? new Map());
    }
  }
}

function checkStores() {
  const { stores } = read(join(dir, 'stores.json'));
  const slugs = new Set();
  const perCategory = new Map();
  for (const s of stores) {
    const where = `stores.json ${s.slug}`;
    if (!/^[a-z0-9]+(-[a-z0-9]+)*$/.test(s.slug ?? '')) say(where, 'slug must be kebab-case');
    if (slugs.has(s.slug)) say(where, 'duplicate slug');
    slugs.add(s.slug);
    const subs = subsOf.get(s.category);
    if (!subs) say(where, `unknown category ${s.category}`);
    else if (!s.subcategories?.length || s.subcategories.some((x) => !subs.includes(x)))
      say(where, `subcategories must be subcategories of ${s.category}`);
    if (!cities.has(s.city)) say(where, `city ${s.city} is not in fixtures/cities.json`);
    if (typeof s.store_name !== 'string' || s.store_name.length < 3) say(where, 'store_name missing');
    if (typeof s.description !== 'string' || s.description.length < 20) say(where, 'description missing');
    perCategory.set(s.category, (perCategory.get(s.category) ?? 0) + 1);
  }
  for (const slug of subsOf.keys())
    if ((perCategory.get(slug) ?? 0) < 2) say('stores.json', `${slug} has fewer than two stores`);
}

/** fixtures/price-levels.json: a work and a housing level for every country a listing may be in. */
function checkPriceLevels() {
  const { categories, levels } = read(join(root, 'price-levels.json'));
  for (const slug of Object.keys(categories ?? {}))
    if (!subsOf.has(slug)) say('price-levels.json', `unknown category ${slug}`);
  const kinds = new Set(Object.values(categories ?? {}));
  for (const country of new Set(read(join(root, 'cities.json')).map((c) => c.country)))
    for (const kind of kinds) {
      const level = levels?.[country]?.[kind];
      if (!(typeof level === 'number' && level > 0 && level <= 2))
        say('price-levels.json', `${country} needs a ${kind} level in (0, 2]`);
    }
}

const only = process.argv.slice(2).map((f) => f.replace(/^.*fixtures\/catalog\//, ''));
const itemFiles = only.length
  ? only
  : existsSync(join(dir, 'items'))
    ? readdirSync(join(dir, 'items'))
        .filter((f) => f.endsWith('.json'))
        .map((f) => `items/${f}`)
    : [];
for (const file of itemFiles) checkItems(file);
const ids = new Map();
const titles = new Map();
for (const { file, t } of templates) {
  if (ids.has(t.id)) say(file, `id ${t.id} is also in ${ids.get(t.id)}`);
  ids.set(t.id, file);
  const title = t.text?.en?.title?.toLowerCase();
  if (titles.has(title))
    say(file, `English title "${t.text.en.title}" is also template ${titles.get(title)}`);
  titles.set(title, t.id);
}
if (!only.length) {
  for (const slug of subsOf.keys())
    if (!itemFiles.includes(`items/${slug}.json`)) say('items', `no file for category ${slug}`);
  if (templates.length < 400) say('items', `${templates.length} templates in all (at least 400)`);
  if (attributes) checkAttributes();
  else say('attributes.json', 'missing');
  if (existsSync(join(dir, 'stores.json'))) checkStores();
  else say('stores.json', 'missing');
  checkPriceLevels();
} else if (attributes) checkAttributes();

for (const p of problems) console.log(p);
console.log(`${templates.length} templates checked, ${problems.length} problem(s)`);
process.exit(problems.length ? 1 : 0);
