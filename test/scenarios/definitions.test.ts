import { describe, expect, it } from 'vitest';
import {
  DEFINITIONS,
  formatSwitch,
  parseSwitch,
  parseSwitchList,
  validNames,
} from '../../src/scenarios/definitions.js';
import { pathMatches } from '../../src/scenarios/path-pattern.js';

describe('the scenario definitions', () => {
  it('parses names with and without parameters, filling defaults', () => {
    expect(parseSwitchList(' wallet.insufficient , latency=800,,rates.stale')).toEqual([
      { name: 'wallet.insufficient', param: null },
      { name: 'latency', param: 800 },
      { name: 'rates.stale', param: 6 },
    ]);
    expect(parseSwitch('server.unavailable', 7)).toEqual({ name: 'server.unavailable', param: 7 });
    expect(formatSwitch({ name: 'latency', param: 5 })).toBe('latency=5');
  });

  it('refuses unknown names and parameters out of range', () => {
    expect(() => parseSwitch('nope')).toThrow(/unknown scenario "nope"; valid: /);
    expect(() => parseSwitch('latency=60001')).toThrow(/from 0 to 60000, got "60001"/);
    expect(() => parseSwitch('latency=-1')).toThrow(/whole number/);
    expect(() => parseSwitch('ratelimit.exceeded=0')).toThrow(/from 1 to 3600/);
  });

  it('lists every name once, parameters shown', () => {
    expect(new Set(DEFINITIONS.map((d) => d.name)).size).toBe(DEFINITIONS.length);
    expect(validNames()).toContain('latency=<ms>');
    expect(validNames()).toContain('server.unavailable[=<seconds>]');
  });
});

describe('path patterns', () => {
  it('match exact paths, one segment with * and any depth with **', () => {
    expect(pathMatches('/api/shop/checkout', '/api/shop/checkout')).toBe(true);
    expect(pathMatches('/api/shop/checkout', '/api/shop/checkout/')).toBe(true);
    expect(pathMatches('/api/shop/checkout', '/api/shop/checkouts')).toBe(false);
    expect(pathMatches('/api/shop/listings/*', '/api/shop/listings/abc')).toBe(true);
    expect(pathMatches('/api/shop/listings/*', '/api/shop/listings/abc/feature')).toBe(false);
    expect(pathMatches('/api/**', '/api/shop/listings/abc/feature')).toBe(true);
    expect(pathMatches('/api/(x)', '/api/x')).toBe(false);
  });
});
