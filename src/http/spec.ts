import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';

/** openapi.yaml at the package root, resolved from this module (src/ or dist/). */
export const SPEC_PATH = fileURLToPath(new URL('../../openapi.yaml', import.meta.url));

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
}

type SpecDoc = {
  security?: Record<string, string[]>[];
  paths: Record<string, Record<string, { operationId?: string; security?: Record<string, string[]>[] }>>;
};

let cached: SpecDoc | undefined;

/** The parsed contract (read once per process). */
export function loadSpec(): SpecDoc {
  cached ??= parse(readFileSync(SPEC_PATH, 'utf8')) as SpecDoc;
  return cached;
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'];

/** The route table: every operation of the spec, in the spec's order. */
export function operations(spec: SpecDoc = loadSpec()): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(spec.paths)) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      if (!op.operationId)
        throw new Error(`openapi.yaml: ${method.toUpperCase()} ${path} has no operationId`);
      const alternatives = op.security ?? spec.security ?? [];
      out.push({
        operationId: op.operationId,
        method,
        path,
        expressPath: path.replace(/\{([^}]+)\}/g, ':$1'),
        security: [...new Set(alternatives.flatMap((alt) => Object.keys(alt)))],
        optionalAuth: alternatives.length === 0 || alternatives.some((alt) => Object.keys(alt).length === 0),
      });
    }
  }
  return out;
}
