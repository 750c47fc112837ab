import express from 'express';
import { describe, expect, it } from 'vitest';
import { loadSpec, specForValidator } from '../../src/contract/spec.js';
import { requestValidator, validatorOptions, validatorsReady } from '../../src/contract/validator.js';

/**
 * The request validator's own check of a contract against the OpenAPI 3.0 metaschema, through its
 * public option (`validateApiSpec`): the server leaves it off at start-up, so it runs here.
 */
async function metaschemaCheck(doc: object): Promise<void> {
  requestValidator({ ...validatorOptions(doc), validateApiSpec: true }, express());
  await validatorsReady();
}

describe('openapi.yaml against the OpenAPI 3.0 metaschema (the server skips this check at start-up)', () => {
  it('is a valid OpenAPI 3.0 document', async () => {
    await expect(metaschemaCheck(specForValidator())).resolves.toBeUndefined();
  });

  it('would catch a broken contract', async () => {
    const broken = specForValidator() as { paths: Record<string, Record<string, object>> };
    const [path, item] = Object.entries(broken.paths)[0];
    broken.paths[path] = { ...item, get: { responses: 'none' } };
    await expect(metaschemaCheck(broken)).rejects.toThrow();
  });
});

describe('the validator copy of the contract', () => {
  it('leaves responses out only when responses are not validated', () => {
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
