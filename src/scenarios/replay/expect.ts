import { isDeepStrictEqual } from 'node:util';

/**
 * The value at a dotted path (`items.0.id`); undefined when any part is missing.
 * @example valueAt({ a: [{ b: 1 }] }, 'a.0.b') // 1
 */
export function valueAt(root: unknown, path: string): unknown {
  if (path === '') return root;
  let current: unknown = root;
  for (const part of path.split('.')) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[part];
  }
  return current;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number' && Number.isInteger(value)) return 'integer';
  return typeof value;
}

function isOperatorObject(m: unknown): m is Record<string, unknown> {
  return (
    m !== null &&
    typeof m === 'object' &&
    !Array.isArray(m) &&
    Object.keys(m).length > 0 &&
    Object.keys(m).every((k) => k.startsWith('$'))
  );
}

function checkOperator(actual: unknown, op: string, expected: unknown): string | null {
  const shown = JSON.stringify(actual);
  switch (op) {
    case '$exists':
      return (actual !== undefined) === expected ? null : expected ? 'is missing' : `is present (${shown})`;
    case '$match':
      return typeof actual === 'string' && new RegExp(String(expected)).test(actual)
        ? null
        : `${shown} does not match /${String(expected)}/`;
    case '$type': {
      const t = typeOf(actual);
      return t === expected || (expected === 'number' && t === 'integer')
        ? null
        : `is ${t}, not ${String(expected)}`;
    }
    case '$gte':
      return typeof actual === 'number' && actual >= Number(expected)
        ? null
        : `${shown} is not >= ${String(expected)}`;
    case '$lte':
      return typeof actual === 'number' && actual <= Number(expected)
        ? null
        : `${shown} is not <= ${String(expected)}`;
    case '$ne':
      return isDeepStrictEqual(actual, expected) ? `is ${shown}` : null;
    case '$length': {
      const length = typeof actual === 'string' || Array.isArray(actual) ? actual.length : undefined;
      return length === expected ? null : `has length ${String(length)}, not ${String(expected)}`;
    }
    default:
      return `unknown matcher ${op}`;
  }
}

/**
 * Checks one value: a literal (deep equality) or an object of `$`-operators
 * (`$exists`, `$match`, `$type`, `$gte`, `$lte`, `$ne`, `$length`). Returns the failure, or null.
 * @example checkMatcher(5, { $gte: 1 }) // null
 */
export function checkMatcher(actual: unknown, matcher: unknown): string | null {
  if (isOperatorObject(matcher)) {
    for (const [op, expected] of Object.entries(matcher)) {
      const failure = checkOperator(actual, op, expected);
      if (failure) return failure;
    }
    return null;
  }
  return isDeepStrictEqual(actual, matcher)
    ? null
    : `is ${JSON.stringify(actual)}, expected ${JSON.stringify(matcher)}`;
}

const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Replaces `${name}` in every string of a value with saved variables. A string that is exactly one
 * `${name}` takes the variable's own type (a number stays a number).
 */
export function interpolate(value: unknown, vars: Record<string, unknown>): unknown {
  if (typeof value === 'string') {
    const whole = /^\$\{([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(value);
    if (whole && whole[1] in vars) return vars[whole[1]];
    return value.replace(VAR, (text, name: string) => (name in vars ? String(vars[name]) : text));
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, vars));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, vars)]));
  }
  return value;
}

/** Variable names still unresolved in a value (a step that uses a value never saved). */
export function unresolved(value: unknown): string[] {
  const text = JSON.stringify(value) ?? '';
  return [...text.matchAll(VAR)].map((m) => m[1]);
}

/**
 * What `save` takes from a response: `body.orderId`, `headers.retry-after`, and with
 * `|last-segment` the last path segment of a URL (the payment id of an approvalUrl).
 */
export function extract(source: { body: unknown; headers: Record<string, string> }, spec: string): unknown {
  const [path, filter] = spec.split('|').map((s) => s.trim());
  const [root, ...rest] = path.split('.');
  const value =
    root === 'headers' ? source.headers[rest.join('.').toLowerCase()] : valueAt(source.body, rest.join('.'));
  if (filter === 'last-segment' && typeof value === 'string') {
    return value
      .replace(/[?#].*$/, '')
      .replace(/\/+$/, '')
      .split('/')
      .pop();
  }
  return value;
}
