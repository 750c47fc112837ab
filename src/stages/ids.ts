import type { RequestHandler } from 'express';
import { loadSpec, type Operation } from '../contract/spec.js';

type Schema = {
  $ref?: string;
  type?: string;
  format?: string;
  items?: Schema;
  properties?: Record<string, Schema>;
};
type Parameter = { name: string; in: string; schema?: Schema };
type Spec = {
  paths: Record<
    string,
    Record<
      string,
      { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }
    >
  >;
  components?: { schemas?: Record<string, Schema> };
};

/** Turns one value into its canonical form in place (or returns the new value). */
type Canonical = (value: unknown) => unknown;

/** Nesting followed into a request body's schema (the contract's bodies are two levels deep). */
const MAX_DEPTH = 6;

function resolve(spec: Spec, schema: Schema | undefined): Schema {
  const name = schema?.$ref?.replace('#/components/schemas/', '');
  return (name ? spec.components?.schemas?.[name] : schema) ?? {};
}

const lower: Canonical = (value) => (typeof value === 'string' ? value.toLowerCase() : value);

/** What lower-cases every `format: uuid` string under `schema`, or undefined when it has none. */
function canonicalFor(spec: Spec, raw: Schema | undefined, depth = 0): Canonical | undefined {
  const schema = resolve(spec, raw);
  if (depth > MAX_DEPTH) return undefined;
  if (schema.type === 'string' && schema.format === 'uuid') return lower;
  if (schema.type === 'array') {
    const item = canonicalFor(spec, schema.items, depth + 1);
    return item && ((value) => (Array.isArray(value) ? value.map(item) : value));
  }
  const fields: [string, Canonical][] = [];
  for (const [name, property] of Object.entries(schema.properties ?? {})) {
    const field = canonicalFor(spec, property, depth + 1);
    if (field) fields.push([name, field]);
  }
  if (fields.length === 0) return undefined;
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const record = value as Record<string, unknown>;
    for (const [name, field] of fields) if (Object.hasOwn(record, name)) record[name] = field(record[name]);
    return value;
  };
}

/**
 * Record ids are UUIDs, which are case-insensitive (RFC 9562: read either case, write lower case):
 * every path parameter, query parameter and body field the contract types `format: uuid` is
 * lower-cased, as the sandbox's ids are written, before the handler looks it up, so
 * `/api/shop/listings/6BDAF0D3-…` reads the listing `6bdaf0d3-…` does, and so does every other
 * lookup by id (cart, checkout, orders, payments, API keys). Runs in the handler's route, after
 * validation (which takes either case), so the handler sees the route's parameters as set here.
 * Undefined for an operation without such a field.
 */
export function canonicalIds(op: Operation): RequestHandler | undefined {
  const spec = loadSpec() as unknown as Spec;
  const item = spec.paths[op.path][op.method];
  const path: string[] = [];
  const query: string[] = [];
  for (const p of item.parameters ?? []) {
    const schema = resolve(spec, p.schema);
    if (schema.type !== 'string' || schema.format !== 'uuid') continue;
    if (p.in === 'path') path.push(p.name);
    if (p.in === 'query') query.push(p.name);
  }
  const body = canonicalFor(spec, item.requestBody?.content?.['application/json']?.schema);
  if (path.length === 0 && query.length === 0 && !body) return undefined;
  return (req, _res, next) => {
    for (const name of path) req.params[name] = lower(req.params[name]) as string;
    if (query.length > 0) {
      // Express 5 parses req.query at each read: the handler reads the object set here.
      const q = { ...(req.query as Record<string, unknown>) };
      for (const name of query) q[name] = lower(q[name]);
      Object.defineProperty(req, 'query', { value: q, writable: true, configurable: true, enumerable: true });
    }
    if (body) body(req.body);
    next();
  };
}
