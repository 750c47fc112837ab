import type { RequestHandler } from 'express';
import type { OpenApiValidatorOpts } from 'express-openapi-validator/dist/framework/types.js';
import schemaValidatorModule from 'express-openapi-validator/dist/framework/openapi.schema.validator.js';
import { OpenApiSpecLoader } from 'express-openapi-validator/dist/framework/openapi.spec.loader.js';
import { SchemaPreprocessor } from 'express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js';
import { OpenApiValidator } from 'express-openapi-validator/dist/openapi.validator.js';
import { cacheValidatorRouteMatchers } from './route-matchers.js';

type SchemaValidatorClass = new (opts: object) => { validate(doc: object): { errors: unknown[] } };

/**
 * express-openapi-validator 5.x builds its OpenAPI metaschema validator (an ajv compile of the
 * whole OpenAPI 3 schema, ~170 ms) on every start, even with `validateApiSpec: false`, where it
 * is never used. This swaps in a class that builds the same validator on the first `validate()`
 * call, so the cost is only paid when the spec is actually checked; the contract itself is
 * checked by test/contract/openapi-contract.test.ts. Returns false when the library's shape
 * changed and the swap could not be made (then start-up is only slower, never wrong).
 */
export function deferSpecSelfCheck(): boolean {
  // The CommonJS exports object itself (the framework reads the class from it at each use).
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
 * The library's preprocessor looks up every `$ref` it meets through `ajv.getSchema`, which
 * compiles the referenced schema into a validator that is then thrown away with the preprocessor
 * (~60-90 ms here). What it keeps is only the schema object, which for a local ref is the object
 * at that pointer in the same document; this reads it directly and leaves any other ref (none in
 * our contract) to the original lookup (kept as `resolveSchema.compiling`);
 * test/contract/openapi-contract.test.ts checks the preprocessed contract is identical either way.
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

const pending = new Set<Promise<void>>();

/**
 * `OpenApiValidator.middleware(options)` as the library builds it, with this file's workarounds and
 * the route-matcher cache (route-matchers.ts) applied, and except that the spec-loading
 * promise is kept, so the CLI prints its ready line only after the validator can answer
 * (`validatorsReady()`), and a broken spec fails the start instead of every request.
 * `apiSpec` must be a private object: the library resolves references in it in place.
 */
export function requestValidator(options: OpenApiValidatorOpts): RequestHandler[] {
  deferSpecSelfCheck();
  resolveRefsWithoutCompiling();
  cacheValidatorRouteMatchers();
  const validator = new OpenApiValidator(options);
  const spec = new OpenApiSpecLoader({
    apiDoc: options.apiSpec as never,
    validateApiSpec: options.validateApiSpec,
    $refParser: options.$refParser,
  }).load();
  // The library chains its preprocessing on `spec` first, so once this settles, so has that.
  const handlers = validator.installMiddleware(spec) as unknown as RequestHandler[];
  const ready = spec.then(() => undefined);
  pending.add(ready);
  ready.then(
    () => pending.delete(ready),
    () => pending.delete(ready),
  );
  return handlers;
}

/** Waits until every request validator built so far has loaded its spec (start-up uses it). */
export async function validatorsReady(): Promise<void> {
  await Promise.all([...pending]);
}
