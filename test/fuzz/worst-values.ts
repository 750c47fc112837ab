import { deref, spec, type Param, type Schema, type SpecOperation } from './fuzz-arbitraries.js';

/** A text shape a free-text field is filled with, up to its limit. */
export type Filler = (length: number) => string;

/** Shapes that have each cost something: words to look up, one long run, text without spaces. */
export const FILLERS: Record<string, Filler> = {
  words: (n) => 'lamp under 50 dollars in New York jacket Berlin '.repeat(Math.ceil(n / 48)).slice(0, n),
  'one run': (n) => 'a'.repeat(n),
  'spaces and digits': (n) => `under ${' 1'.repeat(n)}`.slice(0, n),
  unicode: (n) => 'ランプ'.repeat(Math.ceil(n / 3)).slice(0, n),
};

/** What a field without a limit in the contract gets: characters of text, items of an array. */
export interface Unbounded {
  text: number;
  items: number;
}

type Example = unknown;

/** Fields whose value names a record (a category, a plan, a currency): the example's, so the handler goes on. */
const NAMING = new Set([
  'category',
  'subcategory',
  'referralCode',
  'plan',
  'planId',
  'plan_id',
  'token',
  'currency',
  'accepted_currencies',
]);

/**
 * Fields left out: images must be the caller's uploads (upload-quota.test.ts covers those), and a
 * featuring's payment method needs `is_featured`, which would cost the account its plan's slots.
 */
const LEFT_OUT = new Set(['images', 'featured_payment_method']);

/**
 * The largest value the schema allows, kept valid where the contract's example says how: every
 * property present, every array at maxItems, every free-text string (no pattern, format or enum)
 * at maxLength in the filler's shape; a string with a pattern or format takes the example's value.
 */
export function largest(
  raw: Schema | undefined,
  example: Example,
  fill: Filler,
  unbounded: Unbounded,
  depth = 0,
  key = '',
): unknown {
  const s = (raw ? deref(raw) : {}) as Schema & { pattern?: string; example?: unknown };
  if (LEFT_OUT.has(key)) return undefined;
  const given = example ?? s.example;
  if (depth > 12) return given;
  if (s.enum) return given ?? s.enum[0];
  const alternatives = s.oneOf ?? s.anyOf;
  if (alternatives) return largest(alternatives[0], given, fill, unbounded, depth + 1, key);
  if (s.allOf)
    return largest(
      Object.assign({}, ...s.allOf.map((x) => deref(x))) as Schema,
      given,
      fill,
      unbounded,
      depth,
      key,
    );
  if (s.type === 'string') {
    // A field naming a record without an example is left out (an unknown one would be refused).
    if (NAMING.has(key)) return given;
    if (s.pattern || s.format) return given ?? formatted(s.format);
    return fill(s.maxLength ?? unbounded.text);
  }
  // The first page: the last allowed one is empty, which costs nothing.
  if (key === 'page') return 1;
  if (s.type === 'integer' || s.type === 'number') return given ?? s.maximum ?? 1;
  if (s.type === 'boolean') return given ?? false;
  if (s.type === 'array') {
    const items = Array.isArray(given) && given.length ? given : [undefined];
    const n = s.maxItems ?? unbounded.items;
    return Array.from({ length: n }, (_, i) =>
      largest(s.items, items[i % items.length], fill, unbounded, depth + 1, key),
    );
  }
  if (s.type === 'object' || s.properties) {
    const base = (typeof given === 'object' && given !== null ? given : {}) as Record<string, unknown>;
    if (!s.properties) return base;
    return Object.fromEntries(
      Object.entries(s.properties).map(([k, v]) => [k, largest(v, base[k], fill, unbounded, depth + 1, k)]),
    );
  }
  return given;
}

function formatted(format: string | undefined): string {
  if (format === 'email') return 'worst.case@example.com';
  if (format === 'date-time') return '2026-01-01T00:00:00.000Z';
  if (format === 'uri' || format === 'url') return 'https://example.com/return';
  return 'x';
}

/** The body as JSON at its largest that still fits the 1 MB body limit (unbounded parts shrunk to fit). */
export function largestBody(op: SpecOperation, fill: Filler): string | undefined {
  if (!op.body) return undefined;
  const unbounded = { text: 20_000, items: 200 };
  for (;;) {
    const text = JSON.stringify(largest(op.body.schema, bodyExample(op), fill, unbounded));
    if (Buffer.byteLength(text) < 1_000_000 || unbounded.text < 10) return text;
    unbounded.text = Math.floor(unbounded.text / 2);
    unbounded.items = Math.max(1, Math.floor(unbounded.items / 2));
  }
}

/** The example the contract gives for an operation's JSON body, when it gives one. */
export function bodyExample(op: SpecOperation): Example {
  const raw = spec.paths[op.path][op.method].requestBody as { $ref?: string } | undefined;
  const body = raw ? deref(raw) : undefined;
  const media = (
    body as {
      content?: Record<string, { example?: unknown; examples?: Record<string, { value?: unknown }> }>;
    }
  )?.content?.['application/json'];
  return media?.example ?? Object.values(media?.examples ?? {})[0]?.value;
}

/** The operation's query string with every parameter at its largest. */
export function largestQuery(op: SpecOperation, fill: Filler): string {
  const parts = op.parameters
    .filter((p: Param) => p.in === 'query' && p.name !== 'api_key' && p.name !== 'sandbox_id')
    .map((p) => {
      const v = largest(
        p.schema,
        (p as Param & { example?: unknown }).example,
        fill,
        { text: 2000, items: 20 },
        0,
        p.name,
      );
      const values = Array.isArray(v) ? v : [v];
      return values
        .filter((x) => x !== undefined)
        .map((x) => `${p.name}=${encodeURIComponent(typeof x === 'object' ? JSON.stringify(x) : String(x))}`)
        .join('&');
    })
    .filter(Boolean);
  return parts.length ? `?${parts.join('&')}` : '';
}

/**
 * Bodies whose parse costs the most for their size, each as much of it as the size limit lets
 * through (1 MB) under the operation's first property: keys of their own names (each a new shape
 * for the parser), and arrays nested 64 deep side by side (half a million arrays).
 */
export function mostValues(op: SpecOperation): Record<string, string> {
  const key = Object.keys(deref(op.body?.schema ?? {}).properties ?? {})[0] ?? 'x';
  const keys = Array.from({ length: 80_000 }, (_, i) => `"k${i}":0`).join(',');
  const chunk = `${'['.repeat(64)}${']'.repeat(64)}`;
  return {
    'keys of their own': `{"${key}":{${keys}}}`,
    'objects of their own keys': `{"${key}":[${Array.from({ length: 70_000 }, (_, i) => `{"k${i}":0}`).join(',')}]}`,
    'nested arrays side by side': `{"${key}":[${Array(7_600).fill(chunk).join(',')}]}`,
  };
}

/** As deep as JSON nesting goes in a body the size limit lets through (1 MB). */
export function deepestNesting(op: SpecOperation): string {
  const key = Object.keys(deref(op.body?.schema ?? {}).properties ?? {})[0] ?? 'x';
  const depth = 250_000;
  return `{"${key}":${'['.repeat(depth)}${']'.repeat(depth)}}`;
}
