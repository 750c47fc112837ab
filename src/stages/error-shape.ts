import type { ErrorRequestHandler, Request, RequestHandler, Response } from 'express';
import {
  ApiError,
  Messages,
  unreadableMultipart,
  unsupportedMediaType,
  wordingOf,
} from '../contract/errors.js';
import { setErrorDetail } from '../contract/warnings.js';

/** A path no route answers, after validation's 404 and 405 (a page path, say). */
export const notFoundHandler: RequestHandler = (req, _res, next) => {
  next(new ApiError(404, `Not found: ${req.method} ${req.path}`));
};

interface ValidatorItem {
  path?: string;
  message?: string;
  errorCode?: string;
}

interface HttpishError {
  status?: number;
  statusCode?: number;
  type?: string;
  message?: string;
  errors?: ValidatorItem[];
  headers?: Record<string, string>;
  code?: string;
  field?: string;
}

/** `/body/title` + "must have required property 'title'" → `body.title is required`. */
export function describeValidationItem(item: ValidatorItem): string {
  const where = (item.path ?? '')
    .replace(/^\.?\/?/, '')
    .replace(/[/]/g, '.')
    .replace(/^(query|body|params|headers|path)\.?/, '$1.');
  const message = item.message ?? 'is invalid';
  // The validator's own sentence already names the parameter: "Unknown query parameter 'x'".
  if (/^Unknown query parameter /.test(message)) return message;
  // Not a field but the request itself (the path): the multipart parser's limits ("Too many parts").
  if (!/^(query|body|params|headers|path)\b/.test(where)) return message;
  const required = /must have required property '([^']+)'/.exec(message);
  if (required) {
    const base = where.endsWith(`.${required[1]}`) ? where : `${where}.${required[1]}`.replace(/\.\./g, '.');
    return `${base.replace(/\.$/, '')} is required`;
  }
  if (/must NOT have additional properties/.test(message))
    return `${where.replace(/\.$/, '')} is not allowed`;
  return `${where.replace(/\.$/, '')} ${message}`.trim();
}

function messageFor(err: HttpishError, status: number, req: Request): string {
  if (err.type === 'entity.parse.failed') return 'Malformed JSON in request body';
  if (err.type === 'entity.too.large') return 'Request body is larger than 1 MB';
  if (status === 415) return unsupportedMediaType(err, req);
  if (status === 405) {
    const allow = withHead(err.headers ?? {}).Allow;
    return `Method ${req.method} not allowed on ${req.path}${allow ? `; allowed: ${allow}` : ''}`;
  }
  if (status === 404 && (!err.message || /^not found$/i.test(err.message)))
    return `Not found: ${req.method} ${req.path}`;
  if (Array.isArray(err.errors) && err.errors.length > 0)
    return err.errors.map(describeValidationItem).join('; ');
  return err.message ?? 'Bad request';
}

/** The single error handler: every error becomes `{"error": "..."}` and nothing else. */
export function errorHandler(log: (err: unknown, msg: string) => void): ErrorRequestHandler {
  return (err: unknown, req, res, next) => {
    if (res.headersSent) return next(err);
    try {
      respond(err, req, res, log);
    } catch (failure) {
      // Sending the error failed itself: still one shape.
      log(failure, `error handler failed on ${req.method} ${req.originalUrl}`);
      if (res.headersSent) return;
      res.statusCode = 500;
      res.setHeader('content-type', 'application/json; charset=utf-8');
      res.end(JSON.stringify({ error: Messages.internal }));
    }
  };
}

/** A 405's `Allow` (the validator's, from the contract) names HEAD wherever it names GET: both are answered. */
function withHead(headers: Record<string, string>): Record<string, string> {
  const { Allow, allow, ...rest } = headers;
  const methods = Allow ?? allow;
  if (methods === undefined) return headers;
  const list = methods.split(/,\s*/);
  if (list.includes('GET') && !list.includes('HEAD')) list.splice(list.indexOf('GET') + 1, 0, 'HEAD');
  return { ...rest, Allow: list.join(', ') };
}

/** Sends one error as `{error}` with its status (4xx as given, anything else a logged 500). */
function respond(err: unknown, req: Request, res: Response, log: (err: unknown, msg: string) => void): void {
  if (err instanceof ApiError) {
    res.set(err.headers);
    send(req, res, err.status, err.message, err.detail);
    return;
  }
  const e = (err ?? {}) as HttpishError;
  const status = e.status ?? e.statusCode;
  const unreadable = unreadableMultipart(e.message, req.headers['content-type']);
  if (unreadable !== undefined) return send(req, res, 400, unreadable);
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (e.headers) res.set(withHead(e.headers));
    send(req, res, status, messageFor(e, status, req));
    return;
  }
  log(err, `unhandled error on ${req.method} ${req.originalUrl}`);
  res.status(500).json({ error: Messages.internal });
}

/** Sends `{error}` in the document's words where it has them, the sandbox's reason as the detail. */
function send(req: Request, res: Response, status: number, message: string, detail?: string): void {
  const wording = wordingOf(req.path, status, message, detail);
  if (wording.detail !== undefined) setErrorDetail(res, wording.detail);
  res.status(status).json({ error: wording.error });
}
