import schemaValidatorModule from 'express-openapi-validator/dist/framework/openapi.schema.validator.js';
import { SchemaPreprocessor } from 'express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js';
import { OpenApiValidator } from 'express-openapi-validator/dist/openapi.validator.js';
import { describe, expect, it } from 'vitest';
import { loadSpec, specForValidator } from '../../src/http/spec.js';
import { deferSpecSelfCheck, resolveRefsWithoutCompiling } from '../../src/http/validator-patches.js';

type SchemaValidator = new (opts: object) => { validate(doc: object): { errors: unknown[] } };
const { OpenAPISchemaValidator } = schemaValidatorModule as unknown as {
  OpenAPISchemaValidator: SchemaValidator;
};

/** The library's own spec check, the one `validateApiSpec: true` would run at every start. */
function metaschemaErrors(doc: object): unknown[] {
  return new OpenAPISchemaValidator({ version: '3.0.3', validateApiSpec: true }).validate(doc).errors;
}

/**
 * ajv adds "null" to a `type` array of a `nullable: true` schema when it compiles it (in place, and
 * idempotently); the compiling lookup compiles some schemas early, so it shows there first. Applying
 * the same step here compares what the request-time compile will see either way.
 */
function asCompiled(node: unknown, seen = new Set<unknown>()): unknown {
  if (node === null || typeof node !== 'object' || seen.has(node)) return node;
  seen.add(node);
  const schema = node as { type?: unknown; nullable?: unknown };
  if (Array.isArray(schema.type) && schema.nullable === true && !schema.type.includes('null'))
    schema.type.push('null');
  for (const value of Object.values(node)) asCompiled(value, seen);
  return node;
}

/** What the validator keeps of a contract after its preprocessing (responses on or off). */
function preprocessed(responses: boolean): object {
  const options = {
    apiSpec: specForValidator({ responses }) as never,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: responses,
  };
  const ajvOpts = new OpenApiValidator(options).ajvOpts.preprocessor;
  const apiDoc = specForValidator({ responses });
  const out = new SchemaPreprocessor(
    apiDoc as never,
    ajvOpts,
    responses ? {} : (undefined as never),
  ).preProcess();
  return asCompiled(out) as object;
}

describe('openapi.yaml against the OpenAPI 3.0 metaschema (the server skips this check at start-up)', () => {
  it('is a valid OpenAPI 3.0 document', () => {
    expect(metaschemaErrors(structuredClone(loadSpec()))).toEqual([]);
  });

  it('would catch a broken contract', () => {
    const broken = structuredClone(loadSpec()) as { paths: Record<string, Record<string, object>> };
    const [path, item] = Object.entries(broken.paths)[0];
    broken.paths[path] = { ...item, get: { responses: 'none' } };
    expect(metaschemaErrors(broken).length).toBeGreaterThan(0);
  });
});

describe('start-up shortcuts in the request validator (src/http/validator-patches.ts)', () => {
  it('still apply to the installed express-openapi-validator', () => {
    expect(deferSpecSelfCheck()).toBe(true);
    expect(resolveRefsWithoutCompiling()).toBe(true);
  });

  it('defer the metaschema compile but keep its verdict when asked', () => {
    deferSpecSelfCheck();
    const { OpenAPISchemaValidator: Deferred } = schemaValidatorModule as unknown as {
      OpenAPISchemaValidator: SchemaValidator & { deferred?: true };
    };
    expect(Deferred.deferred).toBe(true);
    const checker = new Deferred({ version: '3.0.3', validateApiSpec: true });
    expect(checker.validate(structuredClone(loadSpec())).errors).toEqual([]);
    expect(checker.validate({ openapi: '3.0.3' }).errors.length).toBeGreaterThan(0);
  });

  it.each([false, true])(
    'preprocess the contract exactly as the compiling lookup does (responses %s)',
    (responses) => {
      resolveRefsWithoutCompiling();
      const proto = SchemaPreprocessor.prototype as unknown as {
        resolveSchema: ((schema: unknown) => unknown) & { compiling: (schema: unknown) => unknown };
      };
      const viaPointer = proto.resolveSchema;
      const fast = preprocessed(responses);
      proto.resolveSchema = viaPointer.compiling as typeof viaPointer;
      try {
        expect(fast).toEqual(preprocessed(responses));
      } finally {
        proto.resolveSchema = viaPointer;
      }
    },
  );

  it('leaves responses out of the validator copy only when responses are not validated', () => {
    const without = specForValidator({ responses: false }) as {
      paths: Record<string, Record<string, { responses?: unknown }>>;
      components: { responses?: unknown; schemas: unknown };
    };
    const ops = Object.values(without.paths).flatMap((item) => Object.values(item));
    expect(ops.every((op) => op.responses === undefined)).toBe(true);
    expect(without.components.responses).toBeUndefined();
    expect(without.components.schemas).toEqual((loadSpec() as unknown as typeof without).components.schemas);
    const full = specForValidator() as typeof without;
    expect(Object.values(full.paths).flatMap((item) => Object.values(item))[0].responses).toBeDefined();
  });
});
