export const REDACTED = '[REDACTED]';

/** Headers that carry a secret. */
const SECRET_HEADERS = new Set([
  'authorization',
  'x-guest-token',
  'x-sandbox-admin-token',
  'cookie',
  'set-cookie',
]);

/** Field names that carry a secret, in bodies and queries: passwords, tokens, keys. */
const SECRET_FIELD = /pass(word)?|token|secret|api_?key|^key$|authorization/i;

/** A copy of the headers with every secret replaced by `[REDACTED]`. */
export function redactHeaders(headers: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const text = Array.isArray(value) ? value.join(', ') : String(value);
    out[name] = SECRET_HEADERS.has(name.toLowerCase()) ? REDACTED : text;
  }
  return out;
}

/**
 * A deep copy with the value of every secret-named field replaced by `[REDACTED]`.
 * @example redact({ email: 'a@b.c', password: 'x' }) // { email: 'a@b.c', password: '[REDACTED]' }
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 20 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redact(v, depth + 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    out[k] = SECRET_FIELD.test(k) && v !== null && typeof v !== 'object' ? REDACTED : redact(v, depth + 1);
  }
  return out;
}
