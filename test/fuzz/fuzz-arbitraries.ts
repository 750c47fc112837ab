import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { parse } from 'yaml';
import { SPEC_PATH } from '../../src/contract/spec.js';

/** Just enough of JSON Schema / OpenAPI 3.0 to generate requests from openapi.yaml. */
export interface Schema {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  items?: Schema;
  properties?: Record<string, Schema>;
  required?: string[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
}

export interface Param {
  name: string;
  in: 'query' | 'path' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
  $ref?: string;
}

export interface SpecOperation {
  method: string;
  path: string;
  operationId: string;
  parameters: Param[];
  /** Media type → schema of the request body, when the operation takes one. */
  body?: { type: string; schema: Schema; required: boolean };
}

type Doc = Record<string, unknown> & { paths: Record<string, Record<string, Record<string, unknown>>> };
export const spec = parse(readFileSync(SPEC_PATH, 'utf8')) as Doc;

/** Follows `#/components/...` references. */
export function deref<T extends { $ref?: string }>(node: T): T {
  let current: T = node;
  while (current?.$ref) {
    let target: unknown = spec;
    for (const part of current.$ref.replace(/^#\//, '').split('/'))
      target = (target as Record<string, unknown>)[part];
    current = target as T;
  }
  return current;
}

/** Every operation of openapi.yaml with its parameters and body schema. */
export function specOperations(): SpecOperation[] {
  const out: SpecOperation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    const shared = ((item.parameters ?? []) as unknown as Param[]).map(deref);
    for (const method of ['get', 'post', 'put', 'patch', 'delete']) {
      const op = item[method];
      if (!op) continue;
      const own = ((op.parameters ?? []) as Param[]).map(deref);
      const body = op.requestBody ? deref(op.requestBody as { $ref?: string }) : undefined;
      const content = (body as { content?: Record<string, { schema: Schema }> } | undefined)?.content;
      const type = content ? Object.keys(content)[0] : undefined;
      out.push({
        method,
        path,
        operationId: op.operationId as string,
        parameters: [...shared.filter((p) => !own.some((o) => o.name === p.name)), ...own],
        body:
          content && type
            ? {
                type,
                schema: content[type].schema,
                required: (body as { required?: boolean }).required === true,
              }
            : undefined,
      });
    }
  }
  return out;
}

/** Values of the wrong kind, at the edges, or hostile. */
export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.constantFrom(-1, -0, 0, 1e308, -1e308, Number.MAX_SAFE_INTEGER + 2, 2 ** 31, 0.5),
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.constantFrom(
    'x'.repeat(20_000),
    '\u0000',
    '😀'.repeat(100),
    '../../../etc/passwd',
    '<script>',
    "' OR 1=1 --",
  ),
  fc.constant([]),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.constant({}),
  fc.constant({ __proto__: null, nested: { deep: [1, 'x'] } }),
);

function stringArb(s: Schema): fc.Arbitrary<string> {
  if (s.format === 'uuid') return fc.uuid();
  if (s.format === 'email') return fc.emailAddress();
  if (s.format === 'date-time') return fc.date({ noInvalidDate: true }).map((d) => d.toISOString());
  if (s.format === 'uri' || s.format === 'url') return fc.webUrl();
  return fc.string({ minLength: s.minLength ?? 0, maxLength: Math.min(s.maxLength ?? 40, 60) });
}

function numberArb(s: Schema, integer: boolean): fc.Arbitrary<number> {
  const min = Math.max(s.minimum ?? -1e6, -1e12);
  const max = Math.min(s.maximum ?? 1e9, 1e12);
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) });
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
}

function objectArb(s: Schema, depth: number): fc.Arbitrary<unknown> {
  const props = Object.fromEntries(
    Object.entries(s.properties ?? {}).map(([k, v]) => [k, valueArb(v, depth + 1)]),
  );
  return fc.record(props, { requiredKeys: (s.required ?? []).filter((k) => k in props) });
}

/** Values that satisfy the schema (mostly; patterns are not generated). */
export function valueArb(raw: Schema | undefined, depth = 0): fc.Arbitrary<unknown> {
  const s = raw ? deref(raw) : {};
  if (depth > 5) return fc.constant(null);
  let arb: fc.Arbitrary<unknown>;
  if (s.enum) arb = fc.constantFrom(...s.enum);
  else if (s.oneOf || s.anyOf)
    arb = fc.oneof(...(s.oneOf ?? s.anyOf ?? []).map((x) => valueArb(x, depth + 1)));
  else if (s.allOf) arb = valueArb(Object.assign({}, ...s.allOf.map((x) => deref(x))) as Schema, depth + 1);
  else if (s.type === 'string') arb = stringArb(s);
  else if (s.type === 'integer' || s.type === 'number') arb = numberArb(s, s.type === 'integer');
  else if (s.type === 'boolean') arb = fc.boolean();
  else if (s.type === 'array')
    arb = fc.array(valueArb(s.items, depth + 1), {
      minLength: s.minItems ?? 0,
      maxLength: Math.max(s.minItems ?? 0, Math.min(s.maxItems ?? 4, 4)),
    });
  else if (s.type === 'object' || s.properties) arb = objectArb(s, depth);
  else arb = junk;
  return s.nullable ? fc.option(arb, { nil: null }) : arb;
}

/** Keys a client might try to smuggle in: prototype pollution and mass assignment. */
export const hostileKeys = fc.constantFrom(
  '__proto__',
  'constructor',
  'prototype',
  'balance_cents',
  'is_featured',
  'seller_id',
  'user_id',
  'id',
  'role',
  'unexpected',
);

/** Adds `key` as an own, enumerable property (so `__proto__` really ends up in the JSON text). */
export function withKey(obj: unknown, key: string, value: unknown): unknown {
  if (typeof obj !== 'object' || obj === null || Array.isArray(obj)) return obj;
  const copy = { ...(obj as Record<string, unknown>) };
  Object.defineProperty(copy, key, { value, enumerable: true, configurable: true, writable: true });
  return copy;
}

const hostilePathSegment = fc.constantFrom(
  '..%2F..%2Fpackage.json',
  '%2e%2e',
  '%00',
  'x'.repeat(3000),
  '%F0%9F%98%80',
);

/** A path of the operation: its parameters valid, arbitrary or hostile. */
export function pathArb(op: SpecOperation): fc.Arbitrary<string> {
  const params = op.parameters.filter((p) => p.in === 'path');
  const parts = params.map((p) =>
    fc.oneof(
      { weight: 3, arbitrary: valueArb(p.schema).map((v) => encodeURIComponent(String(v))) },
      { weight: 1, arbitrary: fc.string({ minLength: 1 }).map(encodeURIComponent) },
      { weight: 1, arbitrary: hostilePathSegment },
    ),
  );
  return fc.tuple(...parts).map((values) => {
    let path = op.path;
    params.forEach((p, i) => (path = path.replace(`{${p.name}}`, values[i])));
    return path;
  });
}
