import express, { type Request, type RequestHandler } from 'express';
import { jsonShapeProblem } from './json-shape.js';

const UNREAD = Symbol('body error');
type WithBodyError = { [UNREAD]?: unknown };

/**
 * A multipart body sent with a Content-Encoding: the upload's parser (multer) reads the body as
 * sent and decodes none, so an encoded body would only come out as a malformed form.
 */
function encodedMultipart(req: Request): Error | undefined {
  const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding === 'identity' || !/^multipart\//i.test(req.headers['content-type'] ?? '')) return undefined;
  return Object.assign(new Error('unsupported content encoding'), {
    status: 415,
    type: 'encoding.unsupported',
    encoding,
  });
}

/**
 * Before the parse: a body nested too deep or holding too many arrays, objects and keys for its
 * parse to stay cheap (json-shape.ts) is refused with a 400 that says the limit.
 */
function checkShape(_req: unknown, _res: unknown, body: Buffer, encoding: string | null): void {
  const problem = jsonShapeProblem(body, encoding);
  if (problem !== undefined) throw Object.assign(new Error(problem), { status: 400, type: 'entity.shape' });
}

/**
 * The body stage (docs/architecture.md, 5): the JSON body parsed (up to `limit`), once its shape
 * is checked (`checkShape`). A body it cannot read (malformed, too large, too deep or too many
 * values, an encoding or charset it does not know, an encoded multipart body) is kept back rather
 * than refused here, so that on an operation that needs a credential the credential is checked
 * first (a bad token with a bad body is a 401): {@link refuseUnreadBody} refuses it after security.
 */
export function jsonBody(limit: string): RequestHandler {
  const parse = express.json({ limit, verify: checkShape });
  return (req, res, next) =>
    parse(req, res, (err?: unknown) => {
      const unread = err ?? encodedMultipart(req);
      if (unread !== undefined) (res.locals as WithBodyError)[UNREAD] = unread;
      next();
    });
}

/** Refuses a request whose body the body stage could not read (after security; once). */
export const refuseUnreadBody: RequestHandler = (_req, res, next) => {
  const locals = res.locals as WithBodyError;
  const err = locals[UNREAD];
  if (err === undefined) return next();
  delete locals[UNREAD];
  next(err);
};
