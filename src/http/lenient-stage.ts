import type { RequestHandler } from 'express';
import { isMarketplacePath } from './error-wording.js';
import { nullsAsAbsent, type NullableField } from './lenient-body.js';
import { lenientQuery, type QueryParameter } from './lenient-query.js';
import { loadSpec, type Operation } from './spec.js';
import { addWarning } from './warnings.js';

type Schema = { $ref?: string; type?: string; nullable?: boolean; maximum?: number; enum?: unknown[] };
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
  nullable: NullableField[];
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
  const body = resolve(spec, item.requestBody?.content?.['application/json']?.schema);
  const nullable = Object.entries(body.properties ?? {})
    .map(([name, raw]) => ({ name, schema: resolve(spec, raw) }))
    .filter(({ schema }) => schema.nullable === true)
    .map(({ name, schema }) => ({ name, type: schema.type ?? 'string' }));
  return { params, known, nullable };
}

/**
 * The leniency stage of one operation of the marketplace API (docs/architecture.md, 12c), before
 * request validation: the query as a live service would most likely read it (lenient-query.ts)
 * and a `null` read back from a listing taken as absent (lenient-body.ts), each noticed in
 * `X-Sandbox-Warning`; with `strict`, what would be warned about is left to validation to refuse.
 * The control API keeps its strict reading: it is the sandbox's own, not the service's.
 */
export function leniencyStage(op: Operation, strict: boolean): RequestHandler | undefined {
  if (!isMarketplacePath(op.path)) return undefined;
  const { params, known, nullable } = leniencyOf(loadSpec() as unknown as Spec, op);
  return (req, res, next) => {
    const warnings = nullsAsAbsent(req.body, nullable, strict);
    if (req.url.includes('?')) {
      const lenient = lenientQuery(req.query as Record<string, unknown>, params, known, strict);
      // Express 5 parses req.query from the URL at each read: the stages after this one (the
      // validator, the handler, the journal) read the query made here.
      Object.defineProperty(req, 'query', {
        value: lenient.query,
        writable: true,
        configurable: true,
        enumerable: true,
      });
      warnings.push(...lenient.warnings);
    }
    for (const warning of warnings) addWarning(res, warning);
    next();
  };
}
