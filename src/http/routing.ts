/**
 * The options of every router: a path matches only as written, case included. Express matches
 * without case by default, while the checks in front of the handlers (the admin token, the rate
 * limit's exemption of control calls: control-paths.ts) compare the path as written, so
 * `GET /__SANDBOX/accounts` once reached the handler of `/__sandbox/accounts` without the admin
 * token. The app sets the same for its own router and the request validator
 * (`case sensitive routing`, which express-openapi-validator reads), so every stage sees one path.
 */
export const ROUTER_OPTIONS = { caseSensitive: true } as const;
