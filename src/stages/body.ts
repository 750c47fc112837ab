import express, { type Request, type RequestHandler } from 'express';
import iconv from 'iconv-lite';

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
 * parse to stay cheap (`jsonShapeProblem`, below) is refused with a 400 that says the limit.
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

/** The deepest a JSON body may nest arrays and objects (the contract's deepest body nests 8). */
export const MAX_JSON_DEPTH = 100;

/**
 * The most arrays, objects and keys a JSON body may hold in all (the contract's largest bodies
 * hold a few hundred). Parsing costs about 0.2 µs an array or object and up to 1.5 µs a key of
 * its own name, against some 10 ns a byte of text or numbers: within the 1 MB limit, half a
 * million of them took `JSON.parse` 50-200 ms, however they were nested; 20,000 take a few ms.
 */
export const MAX_JSON_MEMBERS = 20_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;

/** The index of the quote that ends the string opened at `open` (or the end of the text). */
function stringEnd(text: Uint8Array, open: number): number {
  let from = open + 1;
  for (;;) {
    const quote = text.indexOf(QUOTE, from);
    if (quote < 0) return text.length;
    let backslashes = 0;
    while (quote - backslashes - 1 > open && text[quote - backslashes - 1] === BACKSLASH) backslashes += 1;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}

/**
 * Why a JSON body is refused before it is parsed, or undefined: nested deeper than
 * {@link MAX_JSON_DEPTH} or holding more than {@link MAX_JSON_MEMBERS} arrays, objects and keys.
 * One pass over the bytes, outside strings only (a string's end is found by `indexOf`), so the
 * check costs about a millisecond a megabyte and what follows it (the parse, every walk of the
 * body) is bounded whatever the body holds. A body that is not JSON at all is left to the parse,
 * which refuses it as before. `encoding` is the body's charset as the JSON parser reads it: the
 * bytes of any charset but UTF-8 are decoded the same way first (iconv-lite, the parser's own).
 * @example jsonShapeProblem(Buffer.from('[[[]]]'), 'utf-8') // undefined
 */
export function jsonShapeProblem(body: Buffer, encoding: string | null): string | undefined {
  const text =
    encoding === null || /^utf-?8$/i.test(encoding)
      ? body
      : Buffer.from(iconv.decode(body, encoding), 'utf8');
  let depth = 0;
  let members = 0;
  for (let i = 0; i < text.length; i += 1) {
    const byte = text[i];
    if (byte === QUOTE) {
      i = stringEnd(text, i);
      continue;
    }
    if (byte === OPEN_ARRAY || byte === OPEN_OBJECT) {
      depth += 1;
      members += 1;
      if (depth > MAX_JSON_DEPTH) return `Request body is nested deeper than ${MAX_JSON_DEPTH} levels`;
    } else if (byte === CLOSE_ARRAY || byte === CLOSE_OBJECT) depth -= 1;
    else if (byte === COLON) members += 1;
    else continue;
    if (members > MAX_JSON_MEMBERS)
      return `Request body holds more than ${MAX_JSON_MEMBERS} arrays, objects and keys`;
  }
  return undefined;
}
