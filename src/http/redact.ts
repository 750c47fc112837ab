export const REDACTED = '[REDACTED]';

/** Headers that carry a secret whatever their name says. */
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'set-cookie']);

/**
 * Names that carry a secret, in headers, bodies and queries: passwords, tokens, keys and the
 * credential a sticky scenario is scoped to (`x-guest-token`, `api_key`, `X-Api-Key`, `newPassword`).
 */
const SECRET_NAME = /pass(word)?|token|secret|api[-_]?key|^key$|authorization|credential|cookie/i;

/** Nesting kept in a redacted copy; anything deeper is replaced whole, so no secret hides below it. */
const MAX_DEPTH = 32;

const isSecretName = (name: string) => SECRET_NAME.test(name) || SECRET_HEADERS.has(name.toLowerCase());

/** A copy of the headers with every secret replaced by `[REDACTED]`. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    out[name] = isSecretName(name) ? REDACTED : text;
  }
  return out;
}

/**
 * A deep copy in which every value under a secret name, of any type (a string, a number, an array,
 * an object: `"password": ["…"]`, `?api_key=K&api_key=K`), is `[REDACTED]`, at any depth: what lies
 * deeper than {@link MAX_DEPTH} levels is replaced whole. Only `null` is kept, which holds nothing.
 * @example redact({ email: 'a@b.c', password: ['x'] }) // { email: 'a@b.c', password: '[REDACTED]' }
 */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  // No prototype: a `__proto__` key sent in a body stays a key of the copy.
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = isSecretName(k) && v !== null && v !== undefined ? REDACTED : redact(v, depth + 1);
  }
  return out;
}
