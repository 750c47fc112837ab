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

/**
 * The shortest secret value also redacted wherever else it appears in a journal entry (a reset
 * token quoted in a mail's text): a shorter one would blank ordinary words of the entry.
 */
export const MIN_SCRUBBED_LENGTH = 6;

/** Adds every value under a secret name in `value` (strings and numbers, at any depth) to `into`. */
export function secretValues(value: unknown, into: Set<string>, secret = false, depth = 0): void {
  if (value === null || value === undefined || depth > MAX_DEPTH) return;
  if (typeof value !== 'object') {
    const text = String(value);
    if (secret && text.length >= MIN_SCRUBBED_LENGTH) into.add(text);
    return;
  }
  if (Array.isArray(value)) {
    for (const v of value) secretValues(v, into, secret, depth + 1);
    return;
  }
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    secretValues(v, into, secret || isSecretName(k), depth + 1);
}

/**
 * Adds the secrets of secret headers to `into`: the credential of `Authorization` (without its
 * scheme), each cookie's value, the whole value of any other (`X-Api-Key`, `X-Guest-Token`).
 */
export function headerSecretValues(headers: Record<string, unknown>, into: Set<string>): void {
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || !isSecretName(name)) continue;
    for (const text of Array.isArray(value) ? value.map(String) : [String(value)]) {
      const lower = name.toLowerCase();
      const parts =
        lower === 'authorization'
          ? [text.replace(/^\s*[A-Za-z]+\s+/, '').trim()]
          : lower === 'cookie' || lower === 'set-cookie'
            ? text.split(';').map((pair) => pair.slice(pair.indexOf('=') + 1).trim())
            : [text.trim()];
      for (const part of parts) if (part.length >= MIN_SCRUBBED_LENGTH) into.add(part);
    }
  }
}

const escapeForRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A function that replaces every occurrence of the given secrets in a text by `[REDACTED]` (the
 * longest first, one regular expression of literals: linear in the text), or undefined when
 * there is none.
 */
export function scrubberOf(secrets: Set<string>): ((text: string) => string) | undefined {
  if (secrets.size === 0) return undefined;
  const alternatives = [...secrets].sort((a, b) => b.length - a.length).map(escapeForRegExp);
  const pattern = new RegExp(alternatives.join('|'), 'g');
  return (text) => text.replace(pattern, REDACTED);
}

/** A copy of `value` with `scrub` applied to every string in it (keys too), at any depth. */
export function scrubDeep(value: unknown, scrub: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return scrub(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_DEPTH) return REDACTED;
  if (Array.isArray(value)) return value.map((v) => scrubDeep(v, scrub, depth + 1));
  const out = Object.create(null) as Record<string, unknown>;
  for (const [k, v] of Object.entries(value as Record<string, unknown>))
    out[scrub(k)] = scrubDeep(v, scrub, depth + 1);
  return out;
}
