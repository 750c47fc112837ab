import { createRequire } from 'node:module';
import { vi } from 'vitest';

/** ajv's core class, as express-openapi-validator loads it (its request checks are instances). */
const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
const AjvCore = (fromValidator('ajv/dist/core') as { default: { prototype: { addSchema: () => unknown } } })
  .default;

/** A request check's key (`POST-/api/auth/login-application/json`), not a response check's (`...-200-application/json`). */
const REQUEST_CHECK = /^[A-Z]+-\/(?!.*-\d{3}-)/;

/**
 * Counts the request checks the validators add while `work` runs (each is compiled on first use):
 * the schemas the validator keys `METHOD-/route-content type`, not the test client's response checks.
 */
export async function checksAddedBy(work: () => Promise<void>): Promise<number> {
  const spy = vi.spyOn(AjvCore.prototype, 'addSchema');
  try {
    await work();
    return spy.mock.calls.filter((args: unknown[]) => REQUEST_CHECK.test(String(args[1]))).length;
  } finally {
    spy.mockRestore();
  }
}
