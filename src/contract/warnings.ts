import type { ServerResponse } from 'node:http';

/** The response header listing what the sandbox let through (several joined with `; `). */
export const WARNING_HEADER = 'X-Sandbox-Warning';
/** The response header with the sandbox's own reason for an error whose body is the document's text. */
export const ERROR_DETAIL_HEADER = 'X-Sandbox-Error-Detail';
/** What joins several warnings in one header (a warning never holds it, see {@link quoted}). */
export const WARNING_SEPARATOR = '; ';

/**
 * A header value made of any text: printable ASCII stays, anything else (non-ASCII, control
 * characters) is percent-encoded as UTF-8, so a header never refuses what a warning quotes.
 */
export function headerText(text: string): string {
  return text.replace(/[^\x20-\x7e]+/gu, (run) =>
    encodeURIComponent(run.replace(/[\ud800-\udfff]/g, '\ufffd')),
  );
}

/**
 * A value the client sent, quoted inside a warning or a detail: at most 40 characters, and no `;`
 * (which separates warnings in the header).
 * @example quoted('de-DE') === '"de-DE"'
 */
export function quoted(value: unknown): string {
  const text = String(value);
  const short = text.length > 40 ? `${text.slice(0, 40)}…` : text;
  return JSON.stringify(short).replace(/;/g, '%3B');
}

/**
 * The longest `X-Sandbox-Warning` (bytes; the header is ASCII): each warning quotes at most 40
 * characters of what was sent, and unknown parameters share one warning, so real requests stay
 * far below it; it guarantees a header any client reads (Node's fetch refuses 16 KB of headers).
 */
export const MAX_WARNING_BYTES = 2048;
/** The last warning of a header that reached {@link MAX_WARNING_BYTES}. */
export const MORE_WARNINGS = 'further warnings left out';

/** Adds a warning to the response's `X-Sandbox-Warning` (the journal reads it from there). */
export function addWarning(res: ServerResponse, warning: string): void {
  if (res.headersSent) return;
  const text = headerText(warning);
  const before = res.getHeader(WARNING_HEADER);
  const list = before === undefined ? [] : String(before).split(WARNING_SEPARATOR);
  if (list.includes(text) || list.includes(MORE_WARNINGS)) return;
  let joined = [...list, text].join(WARNING_SEPARATOR);
  if (joined.length > MAX_WARNING_BYTES)
    joined = [...list, MORE_WARNINGS].join(WARNING_SEPARATOR).slice(0, MAX_WARNING_BYTES);
  res.setHeader(WARNING_HEADER, joined);
}

/** The warnings a response carries, one per entry. */
export function warningsOf(res: ServerResponse): string[] {
  const value = res.getHeader(WARNING_HEADER);
  return value === undefined ? [] : String(value).split(WARNING_SEPARATOR);
}

/** Sets the detail of an error answer (`X-Sandbox-Error-Detail`; the journal reads it from there). */
export function setErrorDetail(res: ServerResponse, detail: string): void {
  if (!res.headersSent) res.setHeader(ERROR_DETAIL_HEADER, headerText(detail));
}

/** The detail of an error answer, if it has one. */
export function errorDetailOf(res: ServerResponse): string | null {
  const value = res.getHeader(ERROR_DETAIL_HEADER);
  return value === undefined ? null : String(value);
}

/**
 * One leniency (docs/errors.md, "Warnings"): where the document leaves room and a live service
 * would most likely take the request, the sandbox takes it and says so in a warning; with
 * `--strict` it refuses the request with the error it would otherwise have been.
 */
export function lenient(res: ServerResponse, strict: boolean, warning: string, refusal: () => Error): void {
  if (strict) throw refusal();
  addWarning(res, warning);
}
