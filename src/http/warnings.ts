import type { ServerResponse } from 'node:http';

/** The response header listing what the sandbox let through (several joined with `; `). */
export const WARNING_HEADER = 'X-Sandbox-Warning';
/** The response header with the sandbox's own reason for an error whose body is the document's text. */
export const ERROR_DETAIL_HEADER = 'X-Sandbox-Error-Detail';

/** What the sandbox says beside an answer, kept as written for the request journal. */
export interface ResponseNotes {
  warnings: string[];
  errorDetail?: string;
}

const NOTES = Symbol('sandbox response notes');
type Noted = ServerResponse & { [NOTES]?: ResponseNotes };

/** The notes of a response, if any was made. */
export function notesOf(res: ServerResponse): ResponseNotes | undefined {
  return (res as Noted)[NOTES];
}

function notes(res: ServerResponse): ResponseNotes {
  const noted = res as Noted;
  return (noted[NOTES] ??= { warnings: [] });
}

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

/** Adds a warning to the response (its header, and the journal's record). */
export function addWarning(res: ServerResponse, warning: string): void {
  const { warnings } = notes(res);
  if (warnings.includes(warning)) return;
  warnings.push(warning);
  if (!res.headersSent) res.setHeader(WARNING_HEADER, warnings.map(headerText).join('; '));
}

/** Sets the detail of an error answer (its header, and the journal's record). */
export function setErrorDetail(res: ServerResponse, detail: string): void {
  notes(res).errorDetail = detail;
  if (!res.headersSent) res.setHeader(ERROR_DETAIL_HEADER, headerText(detail));
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
