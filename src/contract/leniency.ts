import type { Request, RequestHandler } from 'express';
import { isMarketplacePath } from './error-wording.js';
import { lenientBody, type BodyFields } from './lenient-body.js';
import { lenientQuery, type QueryParameter } from './lenient-query.js';
import { loadSpec, type Operation } from './spec.js';
import { addWarning } from './warnings.js';

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
 * the marketplace API: the query as a live service would most likely read it (lenient-query.ts)
 * and a body as a client sends back what it read (lenient-body.ts), each noticed in
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
