import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_AFTER_WILDCARD, pathMatches, pathPatternProblem } from './path-pattern.js';

/**
 * The reference for patterns without `**`: a regular expression written from the rules (slow
 * on long input, but plainly right on short): each `*` any characters but `/`, at least one as a
 * whole last segment, never a `.` or `..` segment; anything else itself; one trailing `/` allowed.
 */
function reference(pattern: string, path: string): boolean {
  const segments = pattern.split('/').map((segment, i, all) => {
    if (!segment.includes('*')) return segment.replace(/[.+?^${}()|[\]\\]/g, '\\$&');
    const [before, after] = segment.split('*').map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
    const star = segment === '*' && i === all.length - 1 ? '[^/]+' : '[^/]*';
    return `${before === '' ? '(?!\\.\\.?(?:/|$))' : ''}${before}${star}${after}`;
  });
  return new RegExp(`^${segments.join('/')}/?$`).test(path);
}

describe('pathMatches', () => {
  it('matches * within a segment, a ** segment across any number, and one trailing slash', () => {
    expect(pathMatches('/api/shop/listings/*', '/api/shop/listings/abc')).toBe(true);
    expect(pathMatches('/api/shop/listings/*', '/api/shop/listings/abc/')).toBe(true);
    expect(pathMatches('/api/shop/listings/*', '/api/shop/listings/a/b')).toBe(false);
    expect(pathMatches('/api/shop/listings/*', '/api/shop/listings/')).toBe(false);
    expect(pathMatches('/api/**', '/api/shop/cart')).toBe(true);
    expect(pathMatches('/api/**', '/apis')).toBe(false);
    expect(pathMatches('/api/**/items/*', '/api/items/3')).toBe(true);
    expect(pathMatches('/api/**/items/*', '/api/a/b/items/3')).toBe(true);
    expect(pathMatches('/**/checkout', '/api/shop/checkout')).toBe(true);
    expect(pathMatches('/**/checkout', '/checkout')).toBe(true);
    expect(pathMatches('/api/**', '/api')).toBe(false);
    expect(pathMatches('/api/*/x', '/api/../x')).toBe(false);
    expect(pathMatches('/**/*.json', '/api/openapi.json')).toBe(true);
    expect(pathMatches('/api/shop/checkout', '/api/shop/checkout')).toBe(true);
    expect(pathMatches('/api/shop/checkout', '/api/shop/checkout//')).toBe(false);
    expect(pathMatches('/ä/*', '/ä/ö')).toBe(true);
  });

  it("takes every character but * and / as itself, picomatch's other syntax included", () => {
    for (const text of [
      '(x)',
      'a?b',
      '[ab]',
      '{a,b}',
      '!(a)',
      '+(a)',
      '@(a)',
      'a|b',
      '$x^',
      'a.b',
      '%20',
      "'q'",
    ]) {
      expect(pathMatches(`/api/${text}/*`, `/api/${text}/y`), text).toBe(true);
      expect(pathMatches(`/api/*/${text}`, `/api/y/${text}`), text).toBe(true);
    }
    expect(pathMatches('/api/(x)/*', '/api/x/y')).toBe(false);
    expect(pathMatches('/a?b/*', '/axb/y')).toBe(false);
    expect(pathMatches('/[ab]/*', '/a/y')).toBe(false);
    expect(pathMatches('/{a,b}/*', '/a/y')).toBe(false);
    expect(pathMatches('/!(a)/*', '/b/y')).toBe(false);
  });

  it('agrees with the rules on random patterns without ** and random paths', () => {
    const specials = [...'.?([{)]}!+@,;|^$~#%"\'&=:<> \t\0', '\x7f'];
    const unit = fc.constantFrom('/', 'a', 'b', 'ä', ...specials);
    const pattern = fc
      .array(fc.tuple(fc.string({ unit, maxLength: 4 }), fc.boolean(), fc.string({ unit, maxLength: 4 })))
      .map((parts) => `/${parts.map(([a, star, b]) => `${a}${star ? '*' : ''}${b}`).join('/')}`)
      .filter((p) => pathPatternProblem(p) === undefined && p.includes('*'));
    fc.assert(
      fc.property(pattern, fc.string({ unit, maxLength: 16 }), (p, s) => {
        for (const path of [`/${s}`, s])
          expect(pathMatches(p, path), `${p} ${path}`).toBe(reference(p, path));
      }),
      { numRuns: 3000 },
    );
  });

  it('matches every path made from a pattern by filling its wildcards in', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', '-', 'ä', '(', '?'),
      minLength: 1,
      maxLength: 5,
    });
    const segment = fc.oneof(
      text,
      fc
        .tuple(fc.string({ unit: fc.constantFrom('a', '.', '['), maxLength: 3 }), text)
        .map(([a, b]) => `${a}*${b}`),
      fc.constant('*'),
    );
    fc.assert(
      fc.property(
        fc.array(segment, { maxLength: 3 }),
        fc.array(segment, { maxLength: 2 }),
        fc.array(text, { maxLength: 3 }),
        fc.array(text, { minLength: 6, maxLength: 6 }),
        (head, tail, middle, fills) => {
          const pattern = `/${[...head, '**', ...tail].join('/')}`;
          // A last `**` stands for one segment or more: `/api/**` is not `/api`.
          fc.pre(pathPatternProblem(pattern) === undefined && tail.length + middle.length > 0);
          let k = 0;
          const fill = (s: string) => s.replace('*', () => fills[k++ % fills.length]);
          const path = `/${[...head.map(fill), ...middle, ...tail.map(fill)].join('/')}`;
          expect(pathMatches(pattern, path), `${pattern} ${path}`).toBe(true);
          expect(pathMatches(pattern, `${path}/`), `${pattern} ${path}/`).toBe(true);
        },
      ),
      { numRuns: 1000 },
    );
  });
});

describe('pathPatternProblem', () => {
  it('takes the patterns one writes, and any exact path', () => {
    for (const pattern of [
      '/api/shop/listings/*',
      '/api/**',
      '/api/**/items/*',
      '/**/checkout',
      '/**/*.json',
      '/*/x/**',
      '/a\\b',
      '/a(b)?',
    ])
      expect(pathPatternProblem(pattern), pattern).toBeUndefined();
  });

  it('refuses, naming the pattern, what picomatch would not match in linear time or as documented', () => {
    const refused: [string, RegExp][] = [
      ['/a*a*a*a*a*b', /"\/a\*a\*a\*a\*a\*b" has more than one \* in the segment "a\*a\*a\*a\*a\*b"/],
      ['/**a**a**b', /"\/\*\*a\*\*a\*\*b" has \*\* inside the segment/],
      ['/api/***', /has \*\* inside the segment "\*\*\*"/],
      ['/**/a/**/b', /"\/\*\*\/a\/\*\*\/b" has more than one \*\*/],
      ['/**/items/*/**', /has more than one \*\*/],
      ['/**/*/*', /"\/\*\*\/\*\/\*" has more than one \* after its \*\*/],
      [`/*${'a'.repeat(MAX_AFTER_WILDCARD + 1)}`, /has more than 32 characters after the \* in "\*a+"/],
      [`/**/${'a'.repeat(MAX_AFTER_WILDCARD)}`, /has more than 32 characters after its \*\*/],
      ['/a/*\\\\\\\\', /holds a \\: a pattern has no escapes/],
    ];
    for (const [pattern, message] of refused) expect(pathPatternProblem(pattern), pattern).toMatch(message);
    expect(pathPatternProblem(`/*${'a'.repeat(MAX_AFTER_WILDCARD)}`)).toBeUndefined();
    expect(pathPatternProblem(`/**/${'a'.repeat(MAX_AFTER_WILDCARD - 1)}`)).toBeUndefined();
  });

  it('leaves a refused pattern unmatched rather than compiled', () => {
    expect(() => pathMatches('/a*b*c', '/abc')).toThrow(/more than one \*/);
  });
});
