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

/**
 * What busboy (multer's parser, run by the request validator on the upload) says of a multipart
 * body it cannot read, and what that means to the client. busboy throws plain errors, which the
 * validator passes on as a 500 (or, for a missing boundary, as "multipart file(s) required").
 */
const UNREADABLE: Readonly<Record<string, string>> = {
  'Unexpected end of form': 'the body ends before its closing boundary (cut short?)',
  'Unexpected end of file': 'a file ends before the boundary that closes it (cut short?)',
  'Malformed part header': 'a part has a malformed header',
  'Multipart: Boundary not found': 'the Content-Type names no boundary',
  'multipart file(s) required': 'the Content-Type names no boundary',
};

/**
 * The 400 message for a multipart body the parser could not read, or undefined when `message` is
 * not such a failure or the request is not multipart (docs/errors.md).
 * @example unreadableMultipart('Unexpected end of form', 'multipart/form-data; boundary=x')
 *   // 'Malformed multipart body: the body ends before its closing boundary (cut short?)'
 */
export function unreadableMultipart(
  message: string | undefined,
  contentType: string | undefined,
): string | undefined {
  if (message === undefined || !/^multipart\//i.test(contentType ?? '')) return undefined;
  const why = Object.hasOwn(UNREADABLE, message) ? UNREADABLE[message] : undefined;
  if (why === undefined) return undefined;
  if (message === 'multipart file(s) required' && /boundary=/i.test(contentType ?? '')) return undefined;
  return `Malformed multipart body: ${why}`;
}

/** What a 415 from body-parser or the request validator carries. */
interface MediaTypeError {
  type?: string;
  encoding?: string;
  charset?: string;
}

/** The request as far as a 415 needs it: its headers, and the operation the validator matched. */
interface MediaTypeRequest {
  headers: { 'content-type'?: string };
  openapi?: unknown;
}

/** The Content-Encodings body-parser decodes (besides identity). */
const ENCODINGS = 'gzip, deflate or br';

/** The media types the matched operation takes, from its requestBody in openapi.yaml. */
function acceptedTypes(req: MediaTypeRequest): string[] {
  const op = req.openapi as { schema?: { requestBody?: { content?: Record<string, unknown> } } } | undefined;
  const types = Object.keys(op?.schema?.requestBody?.content ?? {});
  return types.length > 0 ? types : ['application/json'];
}

/**
 * The message of a 415, naming what was wrong and what to send instead: a Content-Encoding the
 * sandbox cannot decode, a charset other than UTF-8, or a media type the operation does not take.
 * @example an upload sent as JSON: `Unsupported media type application/json: send multipart/form-data`
 */
export function unsupportedMediaType(err: MediaTypeError, req: MediaTypeRequest): string {
  if (err.type === 'encoding.unsupported') {
    // The upload's parser decodes no encoding at all; body-parser (JSON) decodes three.
    const multipart = /^multipart\//i.test(req.headers['content-type'] ?? '');
    const ways = multipart ? 'unencoded (a multipart body is read as sent)' : `unencoded or as ${ENCODINGS}`;
    return `Unsupported Content-Encoding "${err.encoding ?? ''}": send the body ${ways}`;
  }
  if (err.type === 'charset.unsupported')
    return `Unsupported charset "${err.charset ?? ''}": send the body as UTF-8`;
  const sent = req.headers['content-type'];
  const accepted = acceptedTypes(req).join(' or ');
  return sent
    ? `Unsupported media type ${sent}: send ${accepted}`
    : `Content-Type is missing: send ${accepted}`;
}
