/**
 * The options of every router: a path matches only as written, case included. Express matches
 * without case by default, while the checks in front of the handlers (the admin token, the rate
 * limit's exemption of control calls: control-paths.ts) compare the path as written, so
 * `GET /__SANDBOX/accounts` once reached the handler of `/__sandbox/accounts` without the admin
 * token. The app sets the same for its own router and the request validator
 * (`case sensitive routing`, which express-openapi-validator reads), so every stage sees one path.
 */
export const ROUTER_OPTIONS = { caseSensitive: true } as const;

/**
 * The paths the sandbox serves outside the API contract: the pages and assets (web/), matched
 * as written like every route. The pages stage lets only these into its routers, and request
 * validation ignores them.
 */
export const PAGE_PATHS = /^\/(docs|__sandbox\/ui|sandbox\/payprovider|openapi\.(yaml|json))(\/|$)/;

/** The provider page's paths (web/payprovider-page.ts), one of {@link PAGE_PATHS}. */
export const PROVIDER_PAGE_PATHS = /^\/sandbox\/payprovider(\/|$)/;
