import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { Ajv, type ValidateFunction } from 'ajv';
import express, { type ErrorRequestHandler, type Express, type RequestHandler } from 'express';
import * as OpenApiValidator from 'express-openapi-validator';
import { loadSpec, specForValidator, templatePattern } from '../../src/contract/spec.js';
import { validatorOptions } from '../../src/contract/validator.js';

/** A response as a client received it. */
export interface ReceivedAnswer {
  method: string;
  /** Path and query as sent. */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The body as text (empty when there was none); undefined for a binary body. */
  text: string | undefined;
}

type Schema = Record<string, unknown>;
type ResponseSpec = { headers?: Record<string, Schema>; content?: Record<string, unknown>; $ref?: string };
type OperationSpec = { responses?: Record<string, ResponseSpec> };
type Spec = {
  paths: Record<string, Record<string, OperationSpec>>;
  components?: {
    responses?: Record<string, ResponseSpec>;
    headers?: Record<string, Schema>;
    schemas?: Schema;
  };
};

/** What the checker app found for one answer. */
type Verdict = { route: string | undefined; broke: string | undefined };

const JSON_TYPE = /^application\/(.+\+)?json(;|$)/i;

/**
 * express-openapi-validator as the server configures it (`validatorOptions`), with response
 * validation on and request validation off: the answer is replayed through it (status, content
 * type and body go to `res.json`, which the library checks), so a body is judged by the same
 * validator, the same ajv and the same contract copy the server's validation stage uses.
 */
function checkerApp(): Express {
  const app = express();
  app.use(
    OpenApiValidator.middleware({
      ...validatorOptions(specForValidator({ responses: true })),
      validateRequests: false,
      validateResponses: true,
      fileUploader: false,
    }),
  );
  const replay: RequestHandler = (req, res) => {
    const { answer, done } = res.locals as { answer: ReceivedAnswer; done: (v: Verdict) => void };
    const route = (req as { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute;
    // Only a JSON body goes to the library (HEAD has none); headers and media types are checked below.
    if (route === undefined || answer.method === 'HEAD' || !isJson(answer))
      return done({ route, broke: undefined });
    res.status(answer.status).type(String(answer.headers['content-type']));
    res.json(answer.text ? JSON.parse(answer.text) : undefined);
    // A broken body goes to the error handler instead of being sent.
    if (res.writableEnded) done({ route, broke: undefined });
  };
  const failed: ErrorRequestHandler = (err: { message?: string; errors?: unknown[] }, req, res, _next) => {
    const route = (req as { openapi?: { openApiRoute?: string } }).openapi?.openApiRoute;
    const { done } = res.locals as { done: (v: Verdict) => void };
    // No operation matched (404, 405, malformed path): the answer is checked as an error below.
    if (route === undefined) return done({ route, broke: undefined });
    done({ route, broke: err.message ?? String(err) });
  };
  app.use(replay, failed);
  return app;
}

let app: Express | undefined;

function isJson(answer: ReceivedAnswer): boolean {
  return JSON_TYPE.test(String(answer.headers['content-type'] ?? ''));
}

/** Runs the answer through the checker app in this process (no socket): the operation and the library's verdict. */
function replay(answer: ReceivedAnswer): Promise<Verdict> {
  app ??= checkerApp();
  return new Promise((resolve) => {
    const req = new IncomingMessage(new Socket());
    req.method = answer.method === 'HEAD' ? 'GET' : answer.method;
    req.url = answer.url;
    req.headers = { host: 'contract.check' };
    const res = new ServerResponse(req);
    const locals = { answer, done: resolve };
    // Express keeps res.locals when it is already there.
    (res as unknown as { locals: object }).locals = locals;
    (app as unknown as (q: IncomingMessage, s: ServerResponse, next: (err?: unknown) => void) => void)(
      req,
      res,
      (err) => resolve({ route: undefined, broke: err ? String(err) : 'no answer from the checker' }),
    );
  });
}

const spec = () => loadSpec() as unknown as Spec;
const headerChecks = new Map<string, ValidateFunction>();
const ajv = new Ajv({ strict: false, coerceTypes: true });

/** `#/components/<kind>/<name>` followed once. */
function deref<T>(node: T & { $ref?: string }): T {
  const ref = node.$ref;
  if (!ref?.startsWith('#/components/')) return node;
  const [kind, name] = ref.slice('#/components/'.length).split('/');
  return (spec().components as Record<string, Record<string, T>>)[kind][name];
}

function declaredResponse(route: string, method: string, status: number): ResponseSpec | undefined {
  const responses = spec().paths[route]?.[method.toLowerCase()]?.responses ?? {};
  const found = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  return found && deref(found);
}

function headerCheck(schema: Schema): ValidateFunction {
  const key = JSON.stringify(schema);
  let check = headerChecks.get(key);
  if (!check) {
    check = ajv.compile({ type: 'object', properties: { value: schema }, components: spec().components });
    headerChecks.set(key, check);
  }
  return check;
}

/** Every header the contract declares for this response: present when required, matching its schema. */
function headerProblems(declared: ResponseSpec, answer: ReceivedAnswer): string[] {
  const problems: string[] = [];
  for (const [name, raw] of Object.entries(declared.headers ?? {})) {
    const header = deref(raw) as { required?: boolean; schema?: Schema };
    const value = answer.headers[name.toLowerCase()];
    if (value === undefined) {
      if (header.required) problems.push(`header ${name} is required`);
      continue;
    }
    const check = headerCheck(header.schema ?? {});
    // An object around the value, so ajv can coerce it (headers are text; a schema may say integer).
    if (!check({ value: Array.isArray(value) ? value.join(', ') : value }))
      problems.push(
        `header ${name} ${ajv.errorsText(check.errors, { dataVar: '' })}: ${JSON.stringify(value)}`,
      );
  }
  return problems;
}

/** A non-JSON answer: its media type must be one the contract declares for that status. */
function mediaTypeProblem(declared: ResponseSpec, answer: ReceivedAnswer): string | undefined {
  const type = String(answer.headers['content-type'] ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
  const types = Object.keys(declared.content ?? {});
  if (answer.method === 'HEAD' || types.length === 0 || types.includes(type)) return undefined;
  return `content type ${type || '(none)'} is not one of ${types.join(', ')}`;
}

/** The error shape every refusal has (openapi.yaml: "Every error is {"error": "<message>"}"). */
function errorShapeProblem(answer: ReceivedAnswer): string | undefined {
  if (answer.method === 'HEAD') return undefined;
  try {
    const body = JSON.parse(answer.text ?? '') as unknown;
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    if (keys.length === 1 && keys[0] === 'error' && typeof (body as { error: unknown }).error === 'string')
      return undefined;
  } catch {
    // not JSON: reported below
  }
  return `an error must be exactly {"error": "<message>"}, got ${JSON.stringify(answer.text?.slice(0, 200))}`;
}

/** Whether the path of `url` is the contract's `route` as written: same case, parameters filled in. */
function writtenAs(route: string, url: string): boolean {
  return new RegExp(`^${templatePattern(route)}/?$`).test(url.split('?')[0]);
}

/**
 * Node's HTTP parser answers a request line or headers over 16 KB itself, before the app
 * (process/client-errors.ts, docs/errors.md): a 431 belongs to no operation.
 */
function outsideTheApp(answer: ReceivedAnswer): boolean {
  return answer.status === 431;
}

/**
 * What in this answer breaks openapi.yaml, or undefined when nothing does. The operation is found
 * by the validator's own route lookup; status and JSON body are judged by the validator (which,
 * as on a server, leaves 5xx bodies alone: those must still be `{"error"}`), the declared headers
 * and, for non-JSON bodies, the media type here. Pages outside the contract (`/docs`, the
 * dashboard, the provider page, `/openapi.*`) and CORS preflights (`OPTIONS`, web/cors.ts) are
 * not checked; any other path outside it, and Node's own refusals, may only answer an error.
 */
export async function contractProblems(answer: ReceivedAnswer): Promise<string | undefined> {
  if (outsideTheApp(answer)) return errorShapeProblem(answer);
  if (answer.method === 'OPTIONS' && answer.status < 400) return undefined;
  const verdict = await replay(answer);
  // The checker's router matches paths in any case; the sandbox's is case-sensitive (a path in
  // another case is no operation of the contract, docs/security.md), and so is this check.
  const route =
    verdict.route !== undefined && writtenAs(verdict.route, answer.url) ? verdict.route : undefined;
  const broke = route === undefined ? undefined : verdict.broke;
  const problems: string[] = [];
  if (broke) problems.push(broke);
  if (route === undefined) {
    const page = /^\/(docs|__sandbox\/ui|sandbox\/payprovider|openapi\.(yaml|json))(\/|\?|$)/.test(
      answer.url,
    );
    if (!page && answer.status < 400) problems.push('answered a path or method openapi.yaml does not have');
    if (!page && answer.status >= 400) problems.push(errorShapeProblem(answer) ?? '');
  } else {
    if (answer.status >= 500) problems.push(errorShapeProblem(answer) ?? '');
    const declared = declaredResponse(route, answer.method === 'HEAD' ? 'GET' : answer.method, answer.status);
    if (declared) {
      problems.push(...headerProblems(declared, answer));
      if (!isJson(answer)) problems.push(mediaTypeProblem(declared, answer) ?? '');
    } else if (!broke && answer.status < 500) {
      problems.push(`no response declared for status ${answer.status}`);
    }
  }
  const found = problems.filter(Boolean);
  return found.length > 0 ? found.join('; ') : undefined;
}

/** Throws, saying what broke, when the answer breaks openapi.yaml. */
export async function assertContract(answer: ReceivedAnswer): Promise<void> {
  const problem = await contractProblems(answer);
  if (problem !== undefined)
    throw new Error(
      `Response breaks openapi.yaml: ${answer.method} ${answer.url} -> ${answer.status}: ${problem}`,
    );
}
