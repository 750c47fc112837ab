/**
 * A failure with an HTTP status and the message sent as `{"error": message}`; `detail`, when
 * given, is the sandbox's own reason, sent in `X-Sandbox-Error-Detail` (docs/errors.md).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
    readonly detail?: string,
  ) {
    super(message);
  }
}

/** The marketplace API's fixed messages and the sandbox's own, listed once (docs/errors.md). */
export const Messages = {
  invalidToken: 'Invalid or expired token',
  notAuthorized: 'Not authorized',
  listingNotFound: 'Listing not found',
  amountRequired: 'Amount required',
  tooManyRequests: 'Too many requests',
  internal: 'Internal server error',
  authRequired: 'Authentication required',
  notFound: 'Not found',
} as const;
