/** `/__sandbox` and everything under it: the sandbox control API. */
export function isControlPath(path: string): boolean {
  return path === '/__sandbox' || path.startsWith('/__sandbox/');
}

/**
 * The path as the router takes it: without the one trailing slash it also accepts
 * (`/__sandbox/health/` is the health check), so checks that name a path see what the router does.
 */
export function routedPath(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
