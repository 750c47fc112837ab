/**
 * The error texts of the marketplace API, by status (docs/errors.md, "The interface's words";
 * openapi.yaml info and `components/responses`): on the marketplace API every answer with one of
 * these statuses carries its text as `error`, and the sandbox's own, more precise reason goes in
 * `X-Sandbox-Error-Detail` (`components/headers/ErrorDetail`). 404 `Listing not found` and
 * 400 `Amount required` are not by status: the code that looks a listing up or misses an amount
 * says them itself.
 */
const DOCUMENT_TEXTS: Readonly<Record<number, string>> = {
  401: 'Invalid or expired token',
  403: 'Not authorized',
  429: 'Too many requests',
  500: 'Internal server error',
};

/** The marketplace API (openapi.yaml: every tag but `sandbox`): `/api/…` and the locale files. */
export function isMarketplacePath(path: string): boolean {
  return path.startsWith('/api/') || path.startsWith('/locales/');
}

export interface Wording {
  /** The body's `error`. */
  error: string;
  /** The sandbox's own reason, when the body does not say it. */
  detail?: string;
}

/**
 * What an error answer says: the document's text for its status on the marketplace API, with the
 * sandbox's message as the detail; elsewhere (control API, pages) the sandbox's message itself.
 * @example wordingOf('/api/shop/checkout', 403, 'You cannot buy your own listing 1f…')
 *   // { error: 'Not authorized', detail: 'You cannot buy your own listing 1f…' }
 */
export function wordingOf(path: string, status: number, message: string, detail?: string): Wording {
  const text = isMarketplacePath(path) ? DOCUMENT_TEXTS[status] : undefined;
  if (text === undefined || text === message) return { error: message, detail };
  return { error: text, detail: detail ?? message };
}
