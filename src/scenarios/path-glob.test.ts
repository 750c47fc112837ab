import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { needsAutomaton, pathMatches } from './path-glob.js';

/** The reference: the backtracking regular expression the matcher replaces (slow, but plainly right). */
function reference(pattern: string, path: string): boolean {
  const source = pattern
    .split('**')
    .map((part) =>
      part
        .split('*')
        .map((s) => s.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('[^/]*'),
    )
    .join('.*');
  return new RegExp(`^${source}/?$`).test(path);
}

/** A second reference for long inputs: which (pattern, path) position pairs can match, bottom up. */
function table(pattern: string, path: string): boolean {
  const tokens = pattern.match(/\*\*+|\*|[^*]/g) ?? [];
  const whole = (text: string) => {
    let can = new Array<boolean>(text.length + 1).fill(false);
    can[text.length] = true;
    for (let t = tokens.length - 1; t >= 0; t -= 1) {
      const next = new Array<boolean>(text.length + 1).fill(false);
      for (let j = text.length; j >= 0; j -= 1) {
        const token = tokens[t];
        if (token.startsWith('**')) next[j] = can[j] || (j < text.length && next[j + 1]);
        else if (token === '*') next[j] = can[j] || (j < text.length && text[j] !== '/' && next[j + 1]);
        else next[j] = j < text.length && text[j] === token && can[j + 1];
      }
      can = next;
    }
    return can[0];
  };
  return whole(path) || (path.endsWith('/') && whole(path.slice(0, -1)));
}

describe('pathMatches', () => {
  it('matches * within a segment, ** across, and one trailing slash', () => {
    expect(pathMatches('/api/shop/listings/*', '/api/shop/listings/abc')).toBe(true);
    expect(pathMatches('/api/shop/listings/*', '/api/shop/listings/abc/')).toBe(true);
    expect(pathMatches('/api/shop/listings/*', '/api/shop/listings/a/b')).toBe(false);
    expect(pathMatches('/api/**', '/api/shop/cart')).toBe(true);
    expect(pathMatches('/api/**', '/apis')).toBe(false);
    expect(pathMatches('/api/shop/checkout', '/api/shop/checkout')).toBe(true);
    expect(pathMatches('/api/shop/checkout', '/api/shop/checkout//')).toBe(false);
    expect(pathMatches('/**.json', '/openapi.json')).toBe(true);
    expect(pathMatches('/ä/*', '/ä/ö')).toBe(true);
  });

  it('agrees with the regular expression it replaces on random patterns and paths', () => {
    const char = fc.constantFrom('/', 'a', 'b', '*', '.', 'ä', '?', '(');
    const pathChar = fc.constantFrom('/', 'a', 'b', '.', 'ä', '?', '(', 'c');
    fc.assert(
      fc.property(
        fc.string({ unit: char, maxLength: 12 }),
        fc.string({ unit: pathChar, maxLength: 16 }),
        (p, s) => {
          const pattern = `/${p}`;
          expect(pathMatches(pattern, s), `${pattern} ${s}`).toBe(reference(pattern, s));
          expect(pathMatches(pattern, `/${s}`), `${pattern} /${s}`).toBe(reference(pattern, `/${s}`));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('agrees on long patterns of every kind, the automaton of several words included', () => {
    // Checked against a table of every (pattern, path) position pair, as the regular expression
    // would take minutes on them; up to 160 positions, so the automaton takes up to 6 words.
    const unit = fc.constantFrom('a', 'b', '/', '*', '**');
    fc.assert(
      fc.property(
        fc.array(unit, { minLength: 30, maxLength: 80 }),
        fc.string({ unit: fc.constantFrom('a', 'b', '/'), maxLength: 200 }),
        (units, s) => {
          const pattern = `/${units.join('')}`;
          expect(pathMatches(pattern, `/${s}`), `${pattern} /${s}`).toBe(table(pattern, `/${s}`));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('agrees on patterns the string search matches: every * before the first ** or after the last', () => {
    // Literals holding `/` (whose place after a `*` is forced) and literals without (leftmost in
    // their segment, rightmost from the end), with at most two `**` and no `*` between them.
    const part = fc.array(fc.constantFrom('a', 'b', '/', 'ab', '/a', 'b/', '*'), { maxLength: 12 });
    fc.assert(
      fc.property(
        part,
        fc.array(fc.constantFrom('a', 'b', '/', 'ab/'), { maxLength: 4 }),
        part,
        fc.nat(2),
        fc.string({ unit: fc.constantFrom('a', 'b', '/', 'ab', '/a'), maxLength: 40 }),
        (before, between, after, anys, s) => {
          const middle = anys === 0 ? '' : anys === 1 ? '**' : `**${between.join('')}**`;
          const pattern = `/${before.join('')}${middle}${after.join('')}`;
          for (const path of [`/${s}`, `/${s}/`, s])
            expect(pathMatches(pattern, path), `${pattern} ${path}`).toBe(table(pattern, path));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('takes the automaton only for a * between two **', () => {
    expect(needsAutomaton('/api/shop/listings/*')).toBe(false);
    expect(needsAutomaton('/api/**/items/*/reviews')).toBe(false);
    expect(needsAutomaton('/*/x/**/y/*')).toBe(false);
    expect(needsAutomaton('/**a**a**b')).toBe(false);
    expect(needsAutomaton('/**/items/*/**')).toBe(true);
    expect(needsAutomaton('/**a*b**')).toBe(true);
  });
});
