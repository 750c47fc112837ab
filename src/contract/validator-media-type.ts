import type { Request, RequestHandler } from 'express';
import { seenAs } from './validator.js';

/** What the validator's route lookup (its first middleware) leaves on a request it matched. */
interface Matched {
  openapi?: { schema?: { requestBody?: { content?: Record<string, unknown> } } };
}

/**
 * The Content-Type the request validator should see: what decides how it validates, and nothing
 * a client can vary freely. express-openapi-validator builds (and compiles with ajv) one validator
 * per method, route and Content-Type as sent, parameters included, and keeps every one: without
 * this, `application/json; v=1`, `; v=2`, ... each cost a fresh compile (about 15 ms on
 * POST /api/shop/listings) and about 400 KB kept for good, and a GET took any Content-Type at all.
 * - An operation without a request body: none (a GET's Content-Type decides nothing).
 * - A media type the operation declares, in any case and with any parameters: the media type as
 *   declared, with the multipart boundary kept (the upload's parser needs it; the validator leaves it
 *   out of its key). The charset was the body stage's to read, and it has read the body.
 * - Any other media type: as sent. The validator refuses it with a 415 before it builds anything.
 * Undefined for the header's absence; a request the lookup did not match keeps what it sent.
 */
export function validatedContentType(req: Pick<Request, 'headers'> & Matched): string | undefined {
  const sent = req.headers['content-type'];
  if (!req.openapi || sent === undefined) return sent;
  const declared = Object.keys(req.openapi.schema?.requestBody?.content ?? {});
  if (declared.length === 0) return undefined;
  const mediaType = sent.split(';', 1)[0].trim().toLowerCase();
  const type = declared.find((t) => t.toLowerCase() === mediaType);
  if (type === undefined) return sent;
  const boundary = /;\s*boundary=([^;]*)/i.exec(sent);
  return boundary ? `${type}; boundary=${boundary[1]}` : type;
}

/**
 * Each of the validator's middlewares sees the request's Content-Type as
 * {@link validatedContentType} gives it, and gets the header back as sent (`seenAs`), so every
 * stage after it, the journal and the error handler (whose 415 names the type sent) see what the
 * client sent.
 */
export function mediaTypeAsDeclared(handlers: RequestHandler[]): RequestHandler[] {
  return seenAs(handlers, (req) => {
    const sent = req.headers['content-type'];
    const seen = validatedContentType(req);
    if (seen === sent) return undefined;
    const put = (value: string | undefined) => {
      if (value === undefined) delete req.headers['content-type'];
      else req.headers['content-type'] = value;
    };
    put(seen);
    return () => put(sent);
  });
}
