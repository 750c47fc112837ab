import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as Yaml from 'yaml';

/** openapi.yaml at the package root, resolved from this module (src/ or dist/). */
export const SPEC_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

/** openapi.yaml cannot be used: start-up stops with this one line (bin.ts). */
export class ContractError extends Error {}

export interface Operation {
  operationId: string;
  method: string;
  /** OpenAPI path, e.g. `/api/shop/listings/{id}`. */
  path: string;
  /** Express path, e.g. `/api/shop/listings/:id`. */
  expressPath: string;
  /** Security scheme names accepted; empty means public. */
  security: string[];
  /** True when `{}` is among the alternatives: a credential is optional. */
  optionalAuth: boolean;
  /** The parameters it declares (the path item's and its own), by where they are sent. */
  parameters: { name: string; in: 'path' | 'query' | 'header' | 'cookie' }[];
  /** `x-sandbox-cacheable: true`: its answers may come from the answer cache (stages/answer-cache.ts). */
  cacheable: boolean;
  /** The query parameters a credential it accepts may come in (`api_key`). */
  queryCredentials: string[];
}

type ParameterSpec = { name: string; in: Operation['parameters'][number]['in'] } | { $ref: string };
type OperationSpec = {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: ParameterSpec[];
  'x-sandbox-cacheable'?: boolean;
};

type SpecDoc = {
  security?: Record<string, string[]>[];
  components?: {
    parameters?: Record<string, ParameterSpec>;
    securitySchemes?: Record<string, { in?: string; name?: string }>;
  };
  paths: Record<string, Record<string, OperationSpec> & { parameters?: ParameterSpec[] }>;
};

let cached: SpecDoc | undefined;

/**
 * The parsed contract, read once per process and kept as JSON in the temp directory under a hash
 * of its text: parsing the YAML is 300 ms of a start, reading the JSON 2 ms (docs/architecture.md).
 */
export function loadSpec(): SpecDoc {
  if (cached) return cached;
  const text = readFileSync(SPEC_PATH, 'utf8');
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 24);
  const cacheFile = join(tmpdir(), `marketplace-sandbox-spec-${hash}.json`);
  try {
    cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as SpecDoc;
    return cached;
  } catch {
    // no cache yet, or unreadable: parse the YAML
  }
  // The YAML parser is loaded only on a cache miss: most starts never need it.
  const { parse } = createRequire(import.meta.url)('yaml') as typeof Yaml;
  try {
    cached = parse(text) as SpecDoc;
  } catch (err) {
    throw new ContractError(`${SPEC_PATH} does not parse: ${(err as Error).message.split('\n')[0]}`);
  }
  try {
    const tmp = `${cacheFile}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(cached));
    renameSync(tmp, cacheFile);
  } catch {
    // a read-only temp directory only costs the parse next time
  }
  return cached;
}

/**
 * A private copy of the parsed contract for the validator (it resolves refs in place). Without
 * `responses` (the server's: the tests' client validates responses) responses are left out, which
 * the validator would otherwise walk and preprocess at start-up.
 */
export function specForValidator({ responses = true }: { responses?: boolean } = {}): object {
  const spec = structuredClone(loadSpec()) as SpecDoc & { components?: { responses?: unknown } };
  readReservedAsSent(spec);
  if (responses) return spec;
  for (const item of Object.values(spec.paths))
    for (const method of METHODS) delete (item[method] as { responses?: unknown } | undefined)?.responses;
  delete spec.components?.responses;
  return spec;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

type Parameter = { in?: string; allowReserved?: boolean };

/**
 * Every query parameter of the validator's copy is `allowReserved`. OpenAPI's `allowReserved`
 * tells a client whether it may leave reserved characters unencoded; express-openapi-validator
 * also refuses, on the server, any raw reserved character in a parameter without it (`Parameter
 * 'x' must be url encoded…`), which no live server does: `category=home+garden`, `type=mall,auction`
 * or `limit=+5` are ordinary form encoding. Each value is then judged like any other, decoded
 * (a `+` is a space): taken if valid, else the 400 that says what is wrong with it (docs/errors.md,
 * "Warnings"). This is the only place that check is decided, for every query parameter.
 */
function readReservedAsSent(spec: SpecDoc): void {
  for (const item of Object.values(spec.paths) as Record<string, unknown>[]) {
    const lists = [item.parameters, ...METHODS.map((m) => (item[m] as { parameters?: unknown })?.parameters)];
    for (const list of lists)
      for (const p of (list ?? []) as Parameter[]) if (p.in === 'query') p.allowReserved = true;
  }
  const shared = (spec as { components?: { parameters?: Record<string, Parameter> } }).components?.parameters;
  for (const p of Object.values(shared ?? {})) if (p.in === 'query') p.allowReserved = true;
}

/**
 * The admin token is declared on control operations for generated clients, but the admin-token
 * stage checks it for every control path: per-operation security concerns users and guests only.
 */
function userCredentials(alternative: Record<string, string[]>): Record<string, string[]> {
  const { adminToken: _admin, ...rest } = alternative;
  return rest;
}

/**
 * The paths a template of the contract (`/api/shop/listings/{id}`) names, as the source of a
 * regular expression without anchors: the text as written (case-sensitive, as the sandbox routes),
 * each parameter one path segment.
 * @example new RegExp(`^${templatePattern(op.path)}$`).test('/api/shop/listings/abc') // true
 */
export function templatePattern(template: string): string {
  return template
    .split(/(\{[^}]+\})/)
    .map((part, i) => (i % 2 ? '[^/]+' : part.replace(/[.*+?^$()|[\]\\]/g, '\\$&')))
    .join('');
}

/** The declared parameters of an operation, shared `$ref`s resolved. */
function declaredParameters(spec: SpecDoc, lists: (ParameterSpec[] | undefined)[]): Operation['parameters'] {
  const out: Operation['parameters'] = [];
  for (const p of lists.flatMap((list) => list ?? [])) {
    const found = '$ref' in p ? spec.components?.parameters?.[p.$ref.split('/').pop() ?? ''] : p;
    if (found && !('$ref' in found)) out.push({ name: found.name, in: found.in });
  }
  return out;
}

/** The names of the query parameters the security schemes of `alternatives` are sent in. */
function queryCredentials(spec: SpecDoc, alternatives: Record<string, string[]>[]): string[] {
  const schemes = alternatives.flatMap((alt) => Object.keys(alt));
  const names = schemes
    .map((scheme) => spec.components?.securitySchemes?.[scheme])
    .filter((s) => s?.in === 'query');
  return [...new Set(names.map((s) => s?.name ?? ''))].filter((name) => name !== '');
}

/** The route table: every operation of the spec, in the spec's order. */
export function operations(spec: SpecDoc = loadSpec()): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method] as OperationSpec | undefined;
      if (!op) continue;
      if (!op.operationId)
        throw new Error(`openapi.yaml: ${method.toUpperCase()} ${path} has no operationId`);
      const alternatives = (op.security ?? spec.security ?? []).map(userCredentials);
      out.push({
        operationId: op.operationId,
        method,
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        security: [...new Set(alternatives.flatMap((alt) => Object.keys(alt)))],
        optionalAuth: alternatives.length === 0 || alternatives.some((alt) => Object.keys(alt).length === 0),
        parameters: declaredParameters(spec, [item.parameters, op.parameters]),
        cacheable: op['x-sandbox-cacheable'] === true,
        queryCredentials: queryCredentials(spec, alternatives),
      });
    }
  }
  return out;
}
