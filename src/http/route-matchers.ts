import * as pathToRegexpNamespace from 'path-to-regexp';

type Compile = (path: string, options?: Record<string, unknown>) => unknown;
interface PathToRegexpModule {
  pathToRegexp: Compile & { memoized?: true };
}

/** Matchers kept per path and options; the contract has a few dozen paths. */
const MAX_ENTRIES = 1000;

/**
 * express-openapi-validator 5.6 compiles the path-to-regexp matcher of every route it scans, on
 * every request, to find the operation (upstream pull request cdimascio/express-openapi-validator
 * #1217 adds a cache). Until a release has it, the `pathToRegexp` of path-to-regexp (the copy the
 * validator loads: the project's top-level one) is memoized here. It is a pure function of path and options, and its callers
 * only read the result (a regexp without the `g` flag, and the key names), so one compiled matcher
 * per (path, options) can be shared. Express's own router calls path-to-regexp's `match`, which is
 * not affected. Returns the module, for tests.
 */
export function cacheValidatorRouteMatchers(): PathToRegexpModule {
  // The CommonJS exports object (the validator reads `pathToRegexp` from it at each call), the
  // same one in Node and in the esbuild bundle; a test checks it is the validator's instance.
  const ns = pathToRegexpNamespace as unknown as { default?: PathToRegexpModule };
  const mod = ns.default ?? (ns as unknown as PathToRegexpModule);
  if (mod.pathToRegexp.memoized) return mod;
  const compile = mod.pathToRegexp;
  const cache = new Map<string, unknown>();
  const memoized: Compile & { memoized?: true } = (path, options = {}) => {
    if (typeof path !== 'string') return compile(path, options);
    const key = `${JSON.stringify(options)} ${path}`;
    let found = cache.get(key);
    if (found === undefined) {
      found = compile(path, options);
      if (cache.size >= MAX_ENTRIES) cache.clear();
      cache.set(key, found);
    }
    return found;
  };
  memoized.memoized = true;
  mod.pathToRegexp = memoized;
  return mod;
}
