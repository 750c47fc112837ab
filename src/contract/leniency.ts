import type { Request, RequestHandler } from 'express';
import { ApiError, isMarketplacePath } from './errors.js';
import { loadSpec, type Operation } from './spec.js';
import { addWarning, quoted } from './warnings.js';

type Schema = {
  $ref?: string;
  type?: string;
  nullable?: boolean;
  readOnly?: boolean;
  maximum?: number;
  enum?: unknown[];
  'x-sandbox-null-is-absent'?: boolean;
};
type ObjectSchema = Schema & { properties?: Record<string, Schema> };
type Parameter = { name: string; in: string; schema?: Schema };
type OperationSpec = {
  parameters?: Parameter[];
  security?: Record<string, unknown>[];
  requestBody?: { content?: Record<string, { schema?: ObjectSchema }> };
};
type Spec = {
  security?: Record<string, unknown>[];
  paths: Record<string, Record<string, OperationSpec>>;
  components?: {
    schemas?: Record<string, ObjectSchema>;
    securitySchemes?: Record<string, { in?: string; name?: string }>;
  };
};

/** What one operation's leniencies need, read from openapi.yaml once at start-up. */
interface Leniency {
  params: Map<string, QueryParameter>;
  /** Names a query may also carry: a credential's (`api_key`) where the operation takes one. */
  known: Set<string>;
  /** Credential names (`api_key`) the operation does not take: dropped, never unknown. */
  ignored: Set<string>;
  body: BodyFields;
}

function resolve<T extends Schema>(spec: Spec, schema: T | undefined): T {
  const name = schema?.$ref?.replace('#/components/schemas/', '');
  return ((name ? spec.components?.schemas?.[name] : schema) ?? {}) as T;
}

function leniencyOf(spec: Spec, op: Operation): Leniency {
  const item = spec.paths[op.path][op.method];
  const params = new Map<string, QueryParameter>();
  for (const p of item.parameters ?? []) {
    if (p.in !== 'query') continue;
    const schema = resolve(spec, p.schema);
    const languages = p.name === 'lang' && schema.enum ? (schema.enum as string[]) : undefined;
    const maximum = p.name === 'limit' ? schema.maximum : undefined;
    params.set(p.name, { name: p.name, languages, maximum });
  }
  const known = new Set<string>();
  for (const alternative of item.security ?? spec.security ?? [])
    for (const scheme of Object.keys(alternative)) {
      const declared = spec.components?.securitySchemes?.[scheme];
      if (declared?.in === 'query' && declared.name) known.add(declared.name);
    }
  const ignored = new Set<string>();
  for (const declared of Object.values(spec.components?.securitySchemes ?? {}))
    if (declared.in === 'query' && declared.name && !known.has(declared.name)) ignored.add(declared.name);
  const schema = resolve(spec, item.requestBody?.content?.['application/json']?.schema);
  const properties = Object.entries(schema.properties ?? {}).map(([name, raw]) => ({
    name,
    schema: resolve(spec, raw),
  }));
  const nullable = properties
    .filter(({ schema }) => schema.nullable === true)
    .map(({ name, schema }) => ({
      name,
      type: schema.type ?? 'string',
      absent: schema['x-sandbox-null-is-absent'] === true,
    }));
  const readOnly = properties.filter(({ schema }) => schema.readOnly === true).map(({ name }) => name);
  return { params, known, ignored, body: { nullable, readOnly } };
}

/** The query the later stages read (Express 5 parses req.query from the URL at each read). */
function setQuery(req: Request, query: Record<string, unknown>): void {
  Object.defineProperty(req, 'query', { value: query, writable: true, configurable: true, enumerable: true });
}

/**
 * The leniency stage of one operation (docs/architecture.md, 12c), before request validation. On
 * the marketplace API: the query as a live service would most likely read it (`lenientQuery`)
 * and a body as a client sends back what it read (`lenientBody`), each noticed in
 * `X-Sandbox-Warning`; with `strict`, what would be warned about is left to validation to refuse.
 * The control API keeps its strict reading (it is the sandbox's own, not the service's), but
 * there as everywhere a query credential (`api_key`) the operation does not take is dropped, as a
 * credential header is: it is never an unknown parameter.
 */
export function leniencyStage(op: Operation, strict: boolean): RequestHandler | undefined {
  const { params, known, ignored, body } = leniencyOf(loadSpec() as unknown as Spec, op);
  if (!isMarketplacePath(op.path)) {
    if (ignored.size === 0) return undefined;
    return (req, _res, next) => {
      if (req.url.includes('?')) setQuery(req, withoutNames(req.query as Record<string, unknown>, ignored));
      next();
    };
  }
  return (req, res, next) => {
    const warnings = lenientBody(req.body, body, strict);
    if (req.url.includes('?')) {
      const sent = withoutNames(req.query as Record<string, unknown>, ignored);
      const lenient = lenientQuery(sent, params, known, strict);
      setQuery(req, lenient.query);
      warnings.push(...lenient.warnings);
    }
    for (const warning of warnings) addWarning(res, warning);
    next();
  };
}

/** The query without the given names, kept as own properties of a null-prototype object. */
function withoutNames(query: Record<string, unknown>, names: ReadonlySet<string>): Record<string, unknown> {
  if (![...names].some((name) => Object.hasOwn(query, name))) return query;
  const kept: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of Object.keys(query))
    if (!names.has(name))
      Object.defineProperty(kept, name, {
        value: query[name],
        writable: true,
        enumerable: true,
        configurable: true,
      });
  return kept;
}

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

/** A body the leniency stage went through: its nullable fields hold no `null` (taken as absent, or refused). */
export type NullsTakenAsAbsent<T> = { [K in keyof T]: Exclude<T[K], null> };

/**
 * The type of a body once the leniency stage (`leniencyStage`) ran, which every operation of the
 * marketplace API passes before its handler: the stage took each `null` out, or refused it.
 */
export const afterLeniency = <T>(body: T): NullsTakenAsAbsent<T> => body as NullsTakenAsAbsent<T>;

/** A request body property the contract declares nullable, with the type it has when not null. */
export interface NullableField {
  name: string;
  type: string;
  /**
   * `x-sandbox-null-is-absent`: a `null` here is how JSON says "none" (an amount not given), taken
   * as absent in either mode without a warning.
   */
  absent?: boolean;
}

/** What the body leniencies of one operation need, read from its request body schema. */
export interface BodyFields {
  nullable: readonly NullableField[];
  /** Properties marked `readOnly`: what a read shows and the server sets (`id`, `created_at`). */
  readOnly: readonly string[];
}

/**
 * A body as a client sends back what it read (docs/errors.md, "Warnings"); returns the warnings
 * and changes `body` in place:
 * - a `null` in a field the contract shows as nullable (`description`, `location_city`,
 *   `featured_payment_method`, …) is taken as absent, with a warning each; with `strict` it is
 *   the 400 it would be for a field that takes only its type;
 * - a `null` in a field marked `x-sandbox-null-is-absent` (`price_cents`) is absent, in either
 *   mode, without a warning (a missing amount is then `Amount required`);
 * - a read-only field (`id`, `store_slug`, `created_at`, `expires_at` of a listing) is ignored,
 *   with a warning each; with `strict` it is a 400 `body.<field> is read-only`.
 */
export function lenientBody(body: unknown, fields: BodyFields, strict: boolean): string[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const record = body as Record<string, unknown>;
  const warnings: string[] = [];
  for (const name of fields.readOnly) {
    if (!Object.hasOwn(record, name)) continue;
    if (strict) throw new ApiError(400, `body.${name} is read-only`);
    delete record[name];
    warnings.push(`body.${name} is read-only: ignored`);
  }
  for (const { name, type, absent } of fields.nullable) {
    if (record[name] !== null) continue;
    if (absent) {
      delete record[name];
      continue;
    }
    if (strict) throw new ApiError(400, `body.${name} must be ${type}`);
    delete record[name];
    warnings.push(`body.${name} null taken as absent`);
  }
  return warnings;
}
