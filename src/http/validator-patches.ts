/**
 * Every use of another package's internals, in one file. Both packages are pinned to exact
 * versions in package.json (express-openapi-validator 5.6.2, path-to-regexp 8.4.2), and
 * test/http/validator-patches.test.ts fails, naming the patch, when a shape relied on here changes.
 * Each entry says what it touches, why no public option does the same, and what upstream change
 * would let it go. Everything else uses the packages' public API.
 */
import { createRequestAjv } from 'express-openapi-validator/dist/framework/ajv/index.js';
import schemaValidatorModule from 'express-openapi-validator/dist/framework/openapi.schema.validator.js';
import { OpenApiSpecLoader } from 'express-openapi-validator/dist/framework/openapi.spec.loader.js';
import type { OpenApiValidatorOpts } from 'express-openapi-validator/dist/framework/types.js';
import { SchemaPreprocessor } from 'express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js';
import { OpenApiValidator } from 'express-openapi-validator/dist/openapi.validator.js';
import type { ValidateFunction } from 'ajv';
import type { RequestHandler } from 'express';
import * as pathToRegexpNamespace from 'path-to-regexp';

type SchemaValidatorClass = new (opts: object) => { validate(doc: object): { errors: unknown[] } };

/**
 * 1. Class swap on `framework/openapi.schema.validator`'s exports. The framework builds its
 * OpenAPI metaschema validator (an ajv compile of the whole OpenAPI 3 schema, ~170 ms) on every
 * start, even with `validateApiSpec: false`, where it is never used; no option avoids it. The swap
 * builds the same validator on the first `validate()` call instead, which never comes at run time
 * (test/contract/openapi-contract.test.ts checks the contract against the metaschema).
 * Upstream: no issue asks for exactly this (searched: #541 / #544 made the check itself optional,
 * not the construction; #833, open, loads specs lazily; #910, open, start-up cost), and this
 * workplace reaches no issue tracker to file one; to file: "initialize() builds
 * OpenAPISchemaValidator when validateApiSpec is false". Removable once `framework/index.ts`
 * constructs it only when `validateApiSpec` is on. Returns false when the shape changed (start-up
 * is then only slower).
 */
export function deferSpecSelfCheck(): boolean {
  // The CommonJS exports object itself: the framework reads the class from it at each use.
  const mod = schemaValidatorModule as unknown as {
    OpenAPISchemaValidator?: SchemaValidatorClass & { deferred?: true };
  };
  const Eager = mod.OpenAPISchemaValidator;
  if (typeof Eager !== 'function') return false;
  if (Eager.deferred) return true;
  mod.OpenAPISchemaValidator = class DeferredSchemaValidator {
    static deferred = true as const;
    private built?: InstanceType<SchemaValidatorClass>;
    constructor(private readonly opts: object) {}
    validate(doc: object) {
      this.built ??= new Eager(this.opts);
      return this.built.validate(doc);
    }
  };
  return true;
}

type Preprocessor = {
  apiDoc: object;
  resolvedSchemaCache: Map<string, unknown>;
  resolveSchema(schema: unknown): unknown;
};

/** The value at a local JSON pointer (`#/components/schemas/Listing`), or undefined. */
function atPointer(doc: object, ref: string): unknown {
  let node: unknown = doc;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (node === null || typeof node !== 'object' || !Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

/**
 * 2. Prototype patch of `SchemaPreprocessor.prototype.resolveSchema`. The preprocessor looks up
 * every `$ref` through `ajv.getSchema`, which compiles the referenced schema into a validator that
 * is thrown away with the preprocessor (~60-90 ms here); it keeps only the schema object, which
 * for a local ref is the object at that pointer in the same document. This reads it directly and
 * leaves any other ref (none in our contract) to the original (kept as `resolveSchema.compiling`);
 * test/contract/openapi-contract.test.ts checks the preprocessed contract is identical either way.
 * `$refParser: { mode: 'dereference' }`, the public option nearest to it, inlines every ref and
 * makes ajv compile each shared schema once per use instead. Upstream: no issue found (searched
 * the tracker's start-up issues: #910, #833), none filed from here (no tracker reachable); to file:
 * "SchemaPreprocessor.resolveSchema compiles every $ref it only reads". Removable once the
 * preprocessor resolves local refs without compiling them.
 */
export function resolveRefsWithoutCompiling(): boolean {
  const proto = SchemaPreprocessor.prototype as unknown as Preprocessor & { viaPointer?: true };
  const original = proto.resolveSchema;
  if (typeof original !== 'function') return false;
  if (proto.viaPointer) return true;
  const viaPointer = function (this: Preprocessor, schema: unknown) {
    const ref = (schema as { $ref?: unknown } | null)?.$ref;
    if (typeof ref !== 'string' || !ref.startsWith('#/')) return original.call(this, schema);
    if (this.resolvedSchemaCache.has(ref)) return this.resolvedSchemaCache.get(ref);
    const found = atPointer(this.apiDoc, ref);
    if (found === undefined) return original.call(this, schema);
    this.resolvedSchemaCache.set(ref, found);
    return found;
  };
  proto.resolveSchema = Object.assign(viaPointer, { compiling: original });
  proto.viaPointer = true;
  return true;
}

type Compile = (path: string, options?: Record<string, unknown>) => unknown;
export interface PathToRegexpModule {
  pathToRegexp: Compile & { memoized?: true };
}

/** Matchers kept per path and options; the contract has a few dozen paths. */
const MAX_MATCHERS = 1000;

/**
 * 3. Overwrites `pathToRegexp` on path-to-regexp's exports. The validator's route lookup
 * (`middlewares/openapi.metadata`) compiles the matcher of every route it scans, on every request.
 * `pathToRegexp` is a pure function of path and options and its callers only read the result (a
 * regexp without the `g` flag, and the key names), so one compiled matcher per (path, options) is
 * shared. The validator reads it from the exports object at each call (the same object in Node and
 * in the esbuild bundle); Express's router calls `match`, which is not affected.
 * Upstream: cdimascio/express-openapi-validator#1217 (open) caches the matchers in the validator.
 * Returns the module, for tests.
 */
export function memoizeRouteMatchers(): PathToRegexpModule {
  const ns = pathToRegexpNamespace as unknown as { default?: PathToRegexpModule };
  const mod = ns.default ?? (ns as unknown as PathToRegexpModule);
  if (mod.pathToRegexp.memoized) return mod;
  const compile = mod.pathToRegexp;
  // One table per combination of the two options the validator passes (`sensitive`, `strict`),
  // so a lookup builds no key; any other option goes to the compiler uncached.
  const tables = [
    new Map<string, unknown>(),
    new Map<string, unknown>(),
    new Map<string, unknown>(),
    new Map<string, unknown>(),
  ];
  const memoized: Compile & { memoized?: true } = (path, options = {}) => {
    if (typeof path !== 'string') return compile(path, options);
    for (const name in options) if (name !== 'sensitive' && name !== 'strict') return compile(path, options);
    const cache = tables[(options.sensitive ? 2 : 0) + (options.strict ? 1 : 0)];
    let found = cache.get(path);
    if (found === undefined) {
      found = compile(path, options);
      if (cache.size >= MAX_MATCHERS) cache.clear();
      cache.set(path, found);
    }
    return found;
  };
  memoized.memoized = true;
  mod.pathToRegexp = memoized;
  return mod;
}

/**
 * 4. Builds the middleware as the public `middleware(options)` does, from its internal classes
 * (`OpenApiValidator`, `OpenApiSpecLoader`), in order to keep the spec-loading promise: start-up
 * awaits it, so the ready line comes only once the validator can answer and a contract it cannot
 * load fails the start instead of every request. It also skips the public function's deep copy of
 * `apiSpec` (ours is already a private copy). Upstream: cdimascio/express-openapi-validator#431
 * (open) asks for that promise.
 */
export function installValidator(options: OpenApiValidatorOpts): {
  handlers: RequestHandler[];
  loaded: Promise<void>;
} {
  const validator = new OpenApiValidator(options);
  const spec = new OpenApiSpecLoader({
    apiDoc: options.apiSpec as never,
    validateApiSpec: options.validateApiSpec,
    $refParser: options.$refParser,
  }).load();
  // The library chains its preprocessing on `spec` first, so once this settles, so has that.
  const handlers = validator.installMiddleware(spec) as unknown as RequestHandler[];
  return { handlers, loaded: spec.then(() => undefined) };
}

type QuerySpec = { openapi: string; components?: { schemas?: Record<string, unknown> } };

/**
 * 5. The ajv the validator's `RequestValidator` builds for parameters, from its factory
 * (`framework/ajv`) and its own option mapping (`AjvOptions.request` of the same options, query
 * coercion forced on as `RequestValidator` does): draft-04 keywords for OpenAPI 3.0, its formats,
 * defaults written into the query. The fast search path's query check (http/fast-query.ts) compiles
 * with it, so it judges a query exactly as the validator would. Upstream: no issue found, none
 * filed from here (no tracker reachable); to file: "expose the request ajv (or a
 * validateQuery(operation, query)) for callers that judge a request outside the middleware".
 * Removable once the validator exposes one.
 */
export function compileQueryCheck(
  spec: QuerySpec,
  options: OpenApiValidatorOpts,
  schema: object,
): ValidateFunction {
  // A shallow copy: the constructor fills in defaults on the object it is given.
  const request = new OpenApiValidator({ ...options }).ajvOpts.request;
  const ajv = createRequestAjv(
    {
      openapi: spec.openapi,
      components: { schemas: structuredClone(spec.components?.schemas ?? {}) },
    } as never,
    (request.coerceTypes ? request : { ...request, coerceTypes: true }) as never,
  );
  return ajv.compile(schema);
}

/** Applies the three start-up patches (1-3); each is applied once per process. */
export function applyValidatorPatches(): { deferred: boolean; viaPointer: boolean; memoized: boolean } {
  return {
    deferred: deferSpecSelfCheck(),
    viaPointer: resolveRefsWithoutCompiling(),
    memoized: memoizeRouteMatchers().pathToRegexp.memoized === true,
  };
}
