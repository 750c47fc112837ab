// The ids and codes the curated catalogue may use (fixtures/catalog/README.md), read by
// scripts/check-catalog.mjs.
import { readFileSync } from 'node:fs';
import { URL } from 'node:url';

/** The languages the sandbox serves (fixtures/languages.json), English first. */
export const LANGS = JSON.parse(
  readFileSync(new URL('../fixtures/languages.json', import.meta.url), 'utf8'),
).map((l) => l.code);
export const GENDERS = {
  de: ['m', 'f', 'n', 'pl'],
  ru: ['m', 'f', 'n', 'pl'],
  fr: ['m', 'f', 'mp', 'fp'],
  es: ['m', 'f', 'mp', 'fp'],
  pt: ['m', 'f', 'mp', 'fp'],
  hi: ['m', 'f', 'mp', 'fp'],
  ur: ['m', 'f', 'mp', 'fp'],
  ar: ['m', 'f', 'mp', 'fp'],
  sv: ['c', 'n', 'pl'],
};
export const TYPES = ['mall', 'classifieds', 'auction', 'reverse_auction'];
/** Conditions a shop may hold more than one of (src/seed/condition.ts): a used item is a one-off. */
export const ONE_OF_MANY = ['new', 'refurbished'];
const range = (prefix, from, to, suffix = '') =>
  Array.from({ length: to - from + 1 }, (_, i) => `${prefix}${from + i}${suffix}`);
export const ATTRIBUTE_IDS = {
  condition: ['new', 'like-new', 'used', 'refurbished', 'for-parts'],
  colour: [
    'black',
    'white',
    'grey',
    'silver',
    'red',
    'blue',
    'green',
    'yellow',
    'pink',
    'brown',
    'beige',
    'gold',
    'purple',
    'orange',
  ],
  size: ['xs', 's', 'm', 'l', 'xl', 'xxl'],
  'shoe-size': range('eu-', 36, 46),
  storage: ['32gb', '64gb', '128gb', '256gb', '512gb', '1tb'],
  screen: ['13in', '14in', '15in', '24in', '27in', '32in', '43in', '55in', '65in'],
  year: range('y', 2005, 2024),
  mileage: ['km-10000', 'km-25000', 'km-50000', 'km-80000', 'km-120000', 'km-180000'],
  rooms: range('rooms-', 1, 5),
  area: ['m2-25', 'm2-45', 'm2-60', 'm2-80', 'm2-100', 'm2-140', 'm2-200', 'm2-400'],
  age: ['age-0-6m', 'age-6-12m', 'age-1-3y', 'age-3-6y', 'age-6-12y'],
  format: ['hardcover', 'paperback', 'vinyl', 'cd', 'dvd', 'blu-ray'],
};
