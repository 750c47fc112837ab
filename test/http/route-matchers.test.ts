import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { cacheValidatorRouteMatchers } from '../../src/http/route-matchers.js';
import { makeSandbox } from '../helpers/sandbox.js';

describe('route matchers of the validator', () => {
  it('compiles each path and options once, and keeps results apart by options', () => {
    const mod = cacheValidatorRouteMatchers();
    expect(cacheValidatorRouteMatchers()).toBe(mod);
    // The copy the validator itself loads.
    const fromValidator = createRequire(createRequire(import.meta.url).resolve('express-openapi-validator'));
    expect(fromValidator('path-to-regexp')).toBe(mod);
    const a = mod.pathToRegexp('/api/shop/listings/:id', { strict: false, sensitive: false });
    const b = mod.pathToRegexp('/api/shop/listings/:id', { strict: false, sensitive: false });
    const c = mod.pathToRegexp('/api/shop/listings/:id', { strict: false, sensitive: true });
    expect(b).toBe(a);
    expect(c).not.toBe(a);
    const { regexp, keys } = a as { regexp: RegExp; keys: { name: string }[] };
    expect(regexp.exec('/api/shop/listings/abc')?.[1]).toBe('abc');
    expect(regexp.exec('/api/shop/listings/abc')?.[1]).toBe('abc');
    expect(keys.map((k) => k.name)).toEqual(['id']);
  });

  it('still routes and validates path parameters through the validator', async () => {
    const sb = await makeSandbox();
    const list = await sb.http.get('/api/shop/listings?limit=1');
    const id = list.body.listings[0].id as string;
    expect((await sb.http.get(`/api/shop/listings/${id}`)).body.id).toBe(id);
    expect((await sb.http.get(`/api/shop/listings/${id}`)).status).toBe(200);
    expect((await sb.http.get('/api/shop/listings/00000000-0000-4000-8000-000000000000')).status).toBe(404);
    expect((await sb.http.get('/api/shop/orders/00000000-0000-4000-8000-000000000000')).status).toBe(401);
    expect((await sb.http.get('/api/shop/orders/x')).status).toBe(400);
  });
});
