/** `/__sandbox` and everything under it: the sandbox control API. */
export function isControlPath(path: string): boolean {
  return path === '/__sandbox' || path.startsWith('/__sandbox/');
}
