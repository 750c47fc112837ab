import { quoted } from './warnings.js';

/** What the query leniency needs to know of one declared query parameter. */
export interface QueryParameter {
  name: string;
  /** The largest value a page size (`limit`) takes: above it, the maximum is answered. */
  maximum?: number;
  /** The language codes a `lang` parameter takes: another case or a region is read as its base. */
  languages?: readonly string[];
}

/** The query an operation is handed, and what was noticed on the way. */
export interface LenientQuery {
  query: Record<string, unknown>;
  warnings: string[];
}

/** A language tag as browsers send it: `de`, `EN`, `de-DE`, `pt_BR`, `zh-Hant-TW`. */
const LANGUAGE_TAG = /^([A-Za-z]{2,3})(?:[-_][A-Za-z0-9]{1,8})*$/;
/** Unknown parameters named in their warning; the rest are counted ("and 445 more"). */
const NAMED_UNKNOWN = 5;

/**
 * The query an operation takes, made from the one sent, the way a live service would most likely
 * read it (docs/errors.md, "Warnings"):
 * - an empty value (`?q=&category=`, as forms send them) is absent, without a warning;
 * - `lang` in another case (`EN`) is that language, without a warning;
 * - an unknown parameter (`?_=1700000000`, a global `lang`) is ignored, with a warning;
 * - a page size above its maximum (`limit=100`) is the maximum, with a warning;
 * - `lang` with a region (`de-DE`) is its base language, and an unknown language English, with a
 *   warning each.
 * With `strict`, the cases with a warning are left as sent, for request validation to refuse (the
 * 400 each would have been). `known` also holds the names a credential may come in (`api_key`).
 * @example lenientQuery({ q: '', limit: '100' }, params, known, false)
 *   // { query: { limit: '50' }, warnings: ['limit=100 is above the maximum 50: answered with 50'] }
 */
export function lenientQuery(
  sent: Record<string, unknown>,
  params: ReadonlyMap<string, QueryParameter>,
  known: ReadonlySet<string>,
  strict: boolean,
): LenientQuery {
  const query: Record<string, unknown> = {};
  const warnings: string[] = [];
  const unknown: string[] = [];
  for (const name of Object.keys(sent)) {
    const value = sent[name];
    if (value === '') continue;
    const param = params.get(name);
    if (!param) {
      if (strict || known.has(name)) own(query, name, value);
      else unknown.push(name);
      continue;
    }
    if (typeof value !== 'string') own(query, name, value);
    else if (param.languages) own(query, name, language(value, param.languages, strict, warnings));
    else if (param.maximum !== undefined) own(query, name, pageSize(value, param.maximum, strict, warnings));
    else own(query, name, value);
  }
  if (unknown.length > 0) warnings.push(unknownWarning(unknown));
  return { query, warnings };
}

/**
 * One warning for every unknown parameter, naming the first few: a request with hundreds of them
 * still gets a header of a few hundred bytes (a client refuses response headers over 16 KB).
 * @example unknownWarning(['_']) === 'unknown query parameter "_" ignored'
 */
function unknownWarning(names: readonly string[]): string {
  if (names.length === 1) return `unknown query parameter ${quoted(names[0])} ignored`;
  const named = names.slice(0, NAMED_UNKNOWN).map(quoted).join(', ');
  const more = names.length > NAMED_UNKNOWN ? ` and ${names.length - NAMED_UNKNOWN} more` : '';
  return `unknown query parameters ${named}${more} ignored`;
}

/**
 * Sets `name` as an own property, like the query parser's null-prototype object holds it: a plain
 * assignment of `__proto__` (`?__proto__=a&__proto__=b`, kept for validation under --strict)
 * would set the query's prototype instead.
 */
function own(query: Record<string, unknown>, name: string, value: unknown): void {
  Object.defineProperty(query, name, { value, writable: true, enumerable: true, configurable: true });
}

function language(value: string, languages: readonly string[], strict: boolean, warnings: string[]): string {
  const lower = value.toLowerCase();
  if (languages.includes(lower) || strict) return languages.includes(lower) ? lower : value;
  const base = LANGUAGE_TAG.exec(value)?.[1].toLowerCase();
  if (base !== undefined && languages.includes(base)) {
    warnings.push(`lang ${quoted(value)} answered in ${base} (no regional variants)`);
    return base;
  }
  warnings.push(`lang ${quoted(value)} is not a supported language: answered in en`);
  return 'en';
}

/**
 * A page size above the maximum, however it is written (`100`, `1e2`, `60.0`, 20 digits), is the
 * maximum; anything else is left to validation (a number it coerces as `Number` does, or a 400).
 */
function pageSize(value: string, maximum: number, strict: boolean, warnings: string[]): string {
  const size = value.trim() === '' ? Number.NaN : Number(value);
  if (strict || !(size > maximum)) return value;
  const shown = /^[\w.+-]{1,40}$/.test(value) ? value : quoted(value);
  warnings.push(`limit=${shown} is above the maximum ${maximum}: answered with ${maximum}`);
  return String(maximum);
}
