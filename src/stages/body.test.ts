import { describe, expect, it } from 'vitest';
import { jsonShapeProblem, MAX_JSON_DEPTH, MAX_JSON_MEMBERS } from './body.js';

const utf8 = (text: string) => jsonShapeProblem(Buffer.from(text), 'utf-8');
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const keys = (n: number) => `{${Array.from({ length: n }, (_, i) => `"k${i}":0`).join(',')}}`;
const DEEP = `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
const MANY = `Request body holds more than ${MAX_JSON_MEMBERS} arrays, objects and keys`;

describe('the shape of a JSON body, judged before its parse', () => {
  it('takes nesting up to the limit and refuses one level more', () => {
    expect(utf8(nested(MAX_JSON_DEPTH))).toBeUndefined();
    expect(utf8(nested(MAX_JSON_DEPTH + 1))).toBe(DEEP);
    expect(utf8(`{"a":${'{"b":'.repeat(MAX_JSON_DEPTH)}1${'}'.repeat(MAX_JSON_DEPTH)}}`)).toBe(DEEP);
    // Depth is nesting, not a count: siblings do not add up.
    expect(
      utf8(
        `[${Array(100)
          .fill(nested(MAX_JSON_DEPTH - 1))
          .join(',')}]`,
      ),
    ).toBeUndefined();
  });

  it('counts arrays, objects and keys together, up to the limit', () => {
    // The outer object and its keys.
    expect(utf8(keys(MAX_JSON_MEMBERS - 1))).toBeUndefined();
    expect(utf8(keys(MAX_JSON_MEMBERS))).toBe(MANY);
    expect(
      utf8(
        `[${Array(MAX_JSON_MEMBERS - 1)
          .fill('[]')
          .join(',')}]`,
      ),
    ).toBeUndefined();
    expect(utf8(`[${Array(MAX_JSON_MEMBERS).fill('[]').join(',')}]`)).toBe(MANY);
    // Numbers, strings, true, false and null cost a parse little: they are not counted.
    expect(utf8(`[${Array(200_000).fill('1,"a",null').join(',')}]`)).toBeUndefined();
  });

  it('reads nothing inside strings, escaped quotes and backslashes included', () => {
    const brackets = '[{:'.repeat(MAX_JSON_MEMBERS);
    expect(utf8(`{"a":"${brackets}"}`)).toBeUndefined();
    expect(utf8(`{"a":"\\"${brackets}\\\\"}`)).toBeUndefined();
    expect(utf8(`["\\\\", ${nested(MAX_JSON_DEPTH + 1)}]`)).toBe(DEEP);
    expect(utf8(`["\\\\\\"${nested(MAX_JSON_DEPTH + 1)}"]`)).toBeUndefined();
    // A string left open (malformed: the parse refuses it) hides what follows.
    expect(utf8(`["${nested(MAX_JSON_DEPTH + 1)}`)).toBeUndefined();
  });

  it('reads a body in another charset as the parser decodes it', () => {
    const deep = `{"a":${nested(MAX_JSON_DEPTH + 1)}}`;
    expect(jsonShapeProblem(Buffer.from(deep, 'utf16le'), 'utf-16le')).toBe(DEEP);
    expect(
      jsonShapeProblem(Buffer.from(`{"a":"${'[{'.repeat(200)}"}`, 'utf16le'), 'utf-16le'),
    ).toBeUndefined();
    expect(jsonShapeProblem(Buffer.from(deep), null)).toBe(DEEP);
  });
});
