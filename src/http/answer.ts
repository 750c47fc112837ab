import type { RequestContext } from './request-context.js';

/** The Content-Type Express's `res.json` sends. */
export const JSON_TYPE = 'application/json; charset=utf-8';

/** An answer made before it is sent: what the response cache keeps, and what the fast search makes. */
export interface Answer {
  status: number;
  /** The headers the handler set (Content-Type…), by their names as written. */
  headers: Record<string, string | number | string[]>;
  /** The body's UTF-8 bytes. */
  bytes: Buffer;
}

/**
 * The serialization stage for an answer made beforehand (a cache hit, a fast search): its status,
 * its headers, `Content-Length` and its bytes, as Express's `res.send` would write them for a GET
 * that carries no condition. The body is kept in the context for the journal.
 */
export function writeAnswer(ctx: RequestContext, answer: Answer): void {
  const { res } = ctx;
  res.statusCode = answer.status;
  for (const name in answer.headers) res.setHeader(name, answer.headers[name]);
  res.setHeader('Content-Length', answer.bytes.length);
  ctx.sent = answer.bytes;
  res.end(answer.bytes);
}
