import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import schemaValidatorModule from 'express-openapi-validator/dist/framework/openapi.schema.validator.js';
import { OpenApiSpecLoader } from 'express-openapi-validator/dist/framework/openapi.spec.loader.js';
import { SchemaPreprocessor } from 'express-openapi-validator/dist/middlewares/parsers/schema.preprocessor.js';
import { OpenApiValidator } from 'express-openapi-validator/dist/openapi.validator.js';
import { describe, expect, it } from 'vitest';
import { specForValidator } from '../../src/http/spec.js';
import { validatorOptions } from '../../src/http/validator.js';
import {
  applyValidatorPatches,
  compileQueryCheck,
  installValidator,
  memoizeRouteMatchers,
} from '../../src/http/validator-patches.js';
import { makeSandbox } from '../helpers/sandbox.js';

/**
 * The shapes src/http/validator-patches.ts relies on. A failure here means a dependency changed
 * under a patch: read the patch's comment before changing either.
 */
const require = createRequire(import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  dependencies: Record<string, string>;
};
const fromValidator = createRequire(require.resolve('express-openapi-validator'));

type SchemaValidatorClass = new (opts: object) => { validate(doc: object): { errors: unknown[] } };
const schemaValidatorExports = schemaValidatorModule as unknown as {
  OpenAPISchemaValidator: SchemaValidatorClass & { deferred?: true };
};

describe('the packages validator-patches.ts reaches into', () => {
  it.each(['express-openapi-validator', 'path-to-regexp'])(
    '%s is pinned exactly, and installed at that version',
    (name) => {
      const pinned = pkg.dependencies[name];
      expect(pinned, `${name} must be pinned to an exact version in package.json`).toMatch(/^\d+\.\d+\.\d+$/);
      const installed = new URL(`../../node_modules/${name}/package.json`, import.meta.url);
      expect((JSON.parse(readFileSync(installed, 'utf8')) as { version: string }).version).toBe(pinned);
    },
  );

  it('the validator loads the same path-to-regexp as the sandbox (the one patch 3 memoizes)', () => {
    expect(fromValidator('path-to-regexp')).toBe(memoizeRouteMatchers());
  });

  it('every patch applies', () => {
    expect(applyValidatorPatches()).toEqual({ deferred: true, viaPointer: true, memoized: true });
  });
});

describe('patch 1: the metaschema validator is built on first use', () => {
  it('the framework still constructs it from the module exports at each spec load', async () => {
    applyValidatorPatches();
    const kept = schemaValidatorExports.OpenAPISchemaValidator;
    let built = 0;
    schemaValidatorExports.OpenAPISchemaValidator = class {
      constructor() {
        built += 1;
      }
      validate() {
        return { errors: [] };
      }
    } as never;
    try {
      await new OpenApiSpecLoader({
        apiDoc: specForValidator({ responses: false }) as never,
        validateApiSpec: false,
      }).load();
    } finally {
      schemaValidatorExports.OpenAPISchemaValidator = kept;
    }
    expect(built).toBe(1);
  });

  it('keeps the verdict of the eager class', () => {
    applyValidatorPatches();
    const Deferred = schemaValidatorExports.OpenAPISchemaValidator;
    expect(Deferred.deferred).toBe(true);
    const checker = new Deferred({ version: '3.0.3', validateApiSpec: true });
    expect(checker.validate({ openapi: '3.0.3' }).errors.length).toBeGreaterThan(0);
  });
});

describe('patch 2: local $refs are read, not compiled', () => {
  it('the preprocessor still resolves through resolveSchema and keeps apiDoc and resolvedSchemaCache', () => {
    const proto = SchemaPreprocessor.prototype as unknown as { resolveSchema: unknown };
    expect(typeof proto.resolveSchema).toBe('function');
    const options = validatorOptions(specForValidator({ responses: false }));
    const ajvOpts = new OpenApiValidator({ ...options }).ajvOpts.preprocessor;
    const instance = new SchemaPreprocessor(
      specForValidator({ responses: false }) as never,
      ajvOpts,
      undefined as never,
    );
    const fields = instance as unknown as { apiDoc: unknown; resolvedSchemaCache: unknown };
    expect(typeof fields.apiDoc).toBe('object');
    expect(fields.resolvedSchemaCache).toBeInstanceOf(Map);
  });
});

describe('patch 3: route matchers are compiled once', () => {
  it('compiles each path and options once, and keeps results apart by options', () => {
    const mod = memoizeRouteMatchers();
    expect(memoizeRouteMatchers()).toBe(mod);
    const a = mod.pathToRegexp('/api/shop/listings/:id', { strict: false, sensitive: false });
    const b = mod.pathToRegexp('/api/shop/listings/:id', { strict: false, sensitive: false });
    const c = mod.pathToRegexp('/api/shop/listings/:id', { strict: false, sensitive: true });
    const d = mod.pathToRegexp('/api/shop/listings/:id', { strict: true, sensitive: false });
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    expect(d).not.toBe(a);
    expect(mod.pathToRegexp('/api/shop/listings/:id', { sensitive: false })).toBe(a);
    // An option the cache does not key on is compiled each time, never answered from another's.
    const e = mod.pathToRegexp('/api/shop/listings/:id', { sensitive: false, end: false });
    expect(e).not.toBe(a);
    expect((e as { regexp: RegExp }).regexp.test('/api/shop/listings/abc/more')).toBe(true);
    expect((a as { regexp: RegExp }).regexp.test('/api/shop/listings/abc/more')).toBe(false);
    const { regexp, keys } = a as { regexp: RegExp; keys: { name: string }[] };
    expect(regexp.exec('/api/shop/listings/abc')?.[1]).toBe('abc');
    expect(regexp.exec('/api/shop/listings/abc')?.[1]).toBe('abc');
    expect(keys.map((k) => k.name)).toEqual(['id']);
  });

  it('the validator reads pathToRegexp from the exports at each request, and still routes', async () => {
    const sb = await makeSandbox();
    const mod = memoizeRouteMatchers();
    const memoized = mod.pathToRegexp;
    let calls = 0;
    mod.pathToRegexp = Object.assign(
      (path: string, options?: Record<string, unknown>) => {
        calls += 1;
        return memoized(path, options);
      },
      { memoized: true as const },
    );
    try {
      const list = await sb.http.get('/api/shop/listings/00000000-0000-4000-8000-000000000000');
      expect(list.status).toBe(404);
    } finally {
      mod.pathToRegexp = memoized;
    }
    expect(calls).toBeGreaterThan(0);
    const id = (await sb.http.get('/api/shop/listings?limit=1')).body.listings[0].id as string;
    expect((await sb.http.get(`/api/shop/listings/${id}`)).body.id).toBe(id);
    expect((await sb.http.get('/api/shop/orders/00000000-0000-4000-8000-000000000000')).status).toBe(401);
    expect((await sb.http.get('/api/shop/listings/x')).status).toBe(400);
  });
});

describe('patch 4: the middleware is installed with its spec-loading promise', () => {
  it('gives the middleware chain and a promise that settles once the spec is loaded', async () => {
    const { handlers, loaded } = installValidator(validatorOptions(specForValidator({ responses: false })));
    expect(handlers.length).toBeGreaterThanOrEqual(4);
    expect(handlers.every((h) => typeof h === 'function')).toBe(true);
    await expect(loaded).resolves.toBeUndefined();
  });

  it('rejects that promise for a contract the validator cannot load', async () => {
    const broken = {
      openapi: '3.0.3',
      info: { title: 'x', version: '1' },
      paths: { '/a': { get: { $ref: '#/nope' } } },
    };
    const { loaded } = installValidator(validatorOptions(broken));
    await expect(loaded).rejects.toThrow();
  });
});

describe("patch 5: the request validator's ajv for the fast search query check", () => {
  it('coerces query strings, writes defaults, and reads OpenAPI 3.0 exclusiveMinimum', () => {
    const spec = { openapi: '3.0.3', components: { schemas: {} } };
    const check = compileQueryCheck(spec, validatorOptions(spec), {
      type: 'object',
      properties: {
        n: { type: 'integer', minimum: 0, exclusiveMinimum: true },
        sort: { type: 'string', default: 'newest' },
      },
    });
    const query: Record<string, unknown> = { n: '3' };
    expect(check(query)).toBe(true);
    expect(query).toEqual({ n: 3, sort: 'newest' });
    expect(check({ n: '0' })).toBe(false);
    expect(check({ n: 'x' })).toBe(false);
  });
});
