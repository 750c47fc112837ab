import { describe, expect, it } from 'vitest';
import { operations } from '../../src/http/spec.js';
import { PNG_1X1 } from '../catalog/helpers.js';
import { accounts, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { checksAddedBy } from '../helpers/validator-checks.js';

/**
 * A warm sandbox has built the request check of every operation (src/http/validator-warm.ts), under
 * the keys its requests look them up by: the first request of each operation compiles nothing,
 * where a sandbox that was not warmed compiles on each.
 */
const key = `Bearer ${accounts.buyer.apiKey}`;

/** One request of every operation of openapi.yaml, with a body of the type it declares; HEADs too. */
async function everyOperationOnce(sb: TestSandbox): Promise<number> {
  let sent = 0;
  for (const op of operations()) {
    if (op.operationId === 'deleteSandbox') continue;
    const path = op.path.replace(/\{[^}]+\}/g, 'x');
    const method = op.method as 'get' | 'post' | 'put' | 'patch' | 'delete';
    let req = sb.http[method](path).set('Authorization', key);
    if (op.operationId === 'uploadImages') req = req.attach('images', PNG_1X1, 'a.png');
    else if (method !== 'get' && method !== 'delete')
      req = req.set('Content-Type', 'application/json; charset=utf-8').send('{}');
    await req;
    if (method === 'get') await sb.http.head(path).set('Authorization', key);
    sent++;
  }
  return sent;
}

describe('a warm sandbox', () => {
  it("has every operation's request check built before its first request", async () => {
    const cold = await makeSandbox();
    const coldChecks = await checksAddedBy(async () => {
      expect(await everyOperationOnce(cold)).toBeGreaterThan(40);
    });
    // Most operations reach validation with these requests (a few are refused before it).
    expect(coldChecks).toBeGreaterThan(40);

    const warm = await makeSandbox();
    await warm.warmed;
    expect(await checksAddedBy(() => everyOperationOnce(warm).then(() => undefined))).toBe(0);
  });
});
