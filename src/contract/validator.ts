import type { Express, Request, RequestHandler } from 'express';
import { middleware } from 'express-openapi-validator';
import { PAGE_PATHS } from './routing.js';
import { ContractError, SPEC_PATH } from './spec.js';

/** The validator's options, named through its public `middleware` (its own type lives in dist/). */
type OpenApiValidatorOpts = Parameters<typeof middleware>[0];

/**
 * The request validator's options, in one place: the app's validation stage and the tests'
 * response check start from them.
 * `apiSpec` must be a private object (the library resolves references in it in place).
 */
export function validatorOptions(apiSpec: object): OpenApiValidatorOpts {
  return {
    apiSpec: apiSpec as never,
    // Checked by test/contract/openapi-contract.test.ts, not at every start (see docs/hardening.md).
    validateApiSpec: false,
    validateRequests: { allowUnknownQueryParameters: false },
    validateResponses: false,
    validateSecurity: false,
    ignorePaths: PAGE_PATHS,
    validateFormats: true,
  };
}

const pending = new Set<Promise<void>>();

/**
 * Resolves once the validator's middlewares can answer, or rejects with why its contract cannot
 * be loaded: a probe through its first middleware, which waits for the contract to load and
 * hands on the loading error if there is one. Of the request it reads only `app`, on which it
 * sets up its path parameters as a first request would.
 */
function probe(handlers: RequestHandler[], app: Express): Promise<void> {
  return new Promise((resolve, reject) => {
    const next = (err?: unknown) => {
      if (!err) return resolve();
      const why = err instanceof Error ? err.message.split('\n')[0] : String(err);
      reject(new ContractError(`${SPEC_PATH} cannot be loaded by the request validator: ${why}`));
    };
    void handlers[0]({ app } as never, {} as never, next);
  });
}

/**
 * The validation stage: express-openapi-validator's middlewares as it ships them, whose contract
 * loading start-up waits for (`validatorsReady()`), so the ready line comes only once the
 * validator can answer and a broken contract fails the start with one line.
 */
export function requestValidator(options: OpenApiValidatorOpts, app: Express): RequestHandler[] {
  const handlers = middleware(options) as unknown as RequestHandler[];
  const loaded = probe(handlers, app);
  pending.add(loaded);
  loaded.then(
    () => pending.delete(loaded),
    () => pending.delete(loaded),
  );
  return handlers;
}

/** Waits until every request validator built so far has loaded its contract (start-up uses it). */
export async function validatorsReady(): Promise<void> {
  await Promise.all([...pending]);
}

/**
 * Each of `handlers` (the validator's middlewares) sees the request as `show` changes it; `show`
 * returns what changes it back (undefined when it changed nothing), which runs as the handler
 * passes the request on, fails it or throws, so every stage after the validator, the journal and
 * the error handler see the request that was sent.
 */
export function seenAs(
  handlers: RequestHandler[],
  show: (req: Request) => (() => void) | undefined,
): RequestHandler[] {
  return handlers.map((handler) => (req, res, next) => {
    const undo = show(req);
    if (!undo) return handler(req, res, next);
    const back = (err?: unknown) => {
      undo();
      next(err);
    };
    try {
      return handler(req, res, back);
    } catch (err) {
      undo();
      throw err;
    }
  });
}

/**
 * HEAD on every GET operation: a HEAD is answered as its GET without the body (RFC 9110 9.3.2;
 * Express routes it to the GET's handler, and Node sends no body for it), but the contract lists
 * GETs only, so the validator would call it a 405. Each validator middleware sees the request as
 * the GET it mirrors (same parameters, same security) and gives it back as HEAD (`seenAs`).
 */
export function headAsGet(handlers: RequestHandler[]): RequestHandler[] {
  return seenAs(handlers, (req) => {
    if (req.method !== 'HEAD') return undefined;
    req.method = 'GET';
    return () => {
      req.method = 'HEAD';
    };
  });
}

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
