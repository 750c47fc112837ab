import querystring from 'node:querystring';
import type { ValidateFunction } from 'ajv';
import { loadSpec } from './spec.js';
import { validatorOptions } from './validator.js';
import { compileQueryCheck } from './validator-patches.js';

/** A query string's validated parameters, or undefined when the full pipeline must judge it. */
export type QueryCheck = (search: string) => Record<string, unknown> | undefined;

/** One `name=value` pair in the form every check below is sure about: plain name, unreserved or %-encoded value. */
const PLAIN_PAIR = /^[A-Za-z0-9_]+=[A-Za-z0-9\-._~%]+$/;
/** A number written the one plain way (no exponent, sign only for negatives, no padding). */
const PLAIN_NUMBER = /^-?(0|[1-9]\d{0,15})(\.\d{1,15})?$/;
const LONGEST_QUERY = 4096;

type Parameter = { name: string; in: string; schema?: Record<string, unknown> };
type Spec = {
  openapi: string;
  components?: { schemas?: Record<string, unknown> };
  paths: Record<string, Record<string, { operationId?: string; parameters?: Parameter[] }>>;
};

/** The operation's query parameters as one object schema, compiled by the request validator's own ajv. */
function validatorFor(spec: Spec, parameters: Parameter[]): ValidateFunction {
  const properties: Record<string, unknown> = {};
  for (const p of parameters) properties[p.name] = p.schema ?? {};
  return compileQueryCheck(spec, validatorOptions(spec), { type: 'object', properties });
}

/** The parameter's schema with a local `$ref` followed. */
function resolved(spec: Spec, schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const ref = schema?.$ref;
  if (typeof ref !== 'string') return schema ?? {};
  const name = ref.replace('#/components/schemas/', '');
  return (spec.components?.schemas?.[name] as Record<string, unknown> | undefined) ?? {};
}

/**
 * A strict check of an operation's query string for the fast paths (http/fast-search.ts). It
 * accepts only queries whose outcome through express-openapi-validator is certain, and then gives
 * the query object exactly as the validator leaves it for the handler: parsed by Express's query
 * parser (node:querystring), numbers coerced, defaults added. Everything else (an unknown, repeated
 * or empty parameter, a raw reserved character such as `+`, a number written any other way than
 * plainly, a value the schema refuses) comes back undefined and goes to the full pipeline, which
 * answers it, usually with the validator's 400. test/http/fast-search.test.ts checks the two
 * agree on random valid and invalid queries.
 */
export function strictQuery(operationId: string): QueryCheck {
  let check: QueryCheck | undefined;
  return (search) => {
    check ??= compile(operationId);
    return check(search);
  };
}

function compile(operationId: string): QueryCheck {
  const spec = loadSpec() as unknown as Spec;
  const op = Object.values(spec.paths)
    .flatMap((item) => Object.values(item))
    .find((o) => o.operationId === operationId);
  if (!op) throw new Error(`openapi.yaml has no operation ${operationId}`);
  const parameters = (op.parameters ?? []).filter((p) => p.in === 'query');
  const numeric = new Set(
    parameters
      .filter((p) => ['number', 'integer'].includes(resolved(spec, p.schema).type as string))
      .map((p) => p.name),
  );
  const strings = new Set(
    parameters.filter((p) => resolved(spec, p.schema).type === 'string').map((p) => p.name),
  );
  const validate = validatorFor(spec, parameters);
  return (search) => {
    if (search.length > LONGEST_QUERY) return undefined;
    if (search !== '' && !search.split('&').every((pair) => PLAIN_PAIR.test(pair))) return undefined;
    const query = querystring.parse(search) as Record<string, unknown>;
    for (const name in query) {
      const value = query[name];
      if (typeof value !== 'string' || value === '') return undefined;
      if (numeric.has(name) ? !PLAIN_NUMBER.test(value) : !strings.has(name)) return undefined;
    }
    return validate(query) ? query : undefined;
  };
}
