import type { Express, RequestHandler } from 'express';
import { operations } from './spec.js';
import { lookupAndCheck } from './validator-patches.js';

/** The parts of a request the validator's route lookup and request check read. */
interface Probe {
  app: Express;
  method: string;
  url: string;
  originalUrl: string;
  path: string;
  baseUrl: string;
  headers: Record<string, string>;
  query: Record<string, unknown>;
  params: Record<string, string>;
  body?: unknown;
  openapi?: { schema?: { requestBody?: { required?: boolean; content?: Record<string, unknown> } } };
}

function probe(app: Express, method: string, path: string, contentType?: string): Probe {
  return {
    app,
    method,
    url: path,
    originalUrl: path,
    path,
    baseUrl: '',
    headers: contentType === undefined ? {} : { 'content-type': contentType },
    query: {},
    params: {},
  };
}

/** Runs one middleware on a probe; resolves when it passes it on, refused or not. */
function pass(handler: RequestHandler, req: Probe): Promise<void> {
  return new Promise((resolve) => {
    try {
      const done = handler(req as never, {} as never, () => resolve());
      Promise.resolve(done).then(
        () => resolve(),
        () => resolve(),
      );
    } catch {
      resolve();
    }
  });
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

/**
 * Builds, ahead of the first requests, the per-operation checks that express-openapi-validator
 * otherwise builds on an operation's first request (an ajv compile of its parameters and body:
 * 5-45 ms each, about 180 ms for a process's first request): of the validator's middlewares
 * (`handlers`), each operation is sent through the route lookup and the request check
 * (validator-patches.ts, 6) as an empty probe request, once per Content-Type it can arrive with after
 * `validatedContentType` (validator-media-type.ts): none when it takes no body or an optional one,
 * and each media type its body declares. The probe is refused (it is empty); what stays is the
 * built check, under the key a real request looks it up by. One operation per turn of the event
 * loop, so requests that come meanwhile wait for one compile at most.
 */
export async function precompileValidation(app: Express, handlers: RequestHandler[]): Promise<void> {
  const stages = lookupAndCheck(handlers);
  if (!stages) return;
  const { lookup, check } = stages;
  await nextTurn(); // a server listens first
  for (const op of operations()) {
    const method = op.method.toUpperCase();
    const path = op.path.replace(/\{[^}]+\}/g, 'x');
    const found = probe(app, method, path);
    await pass(lookup, found);
    const body = found.openapi?.schema?.requestBody;
    if (!found.openapi) continue; // a page the validator leaves alone
    const declared = Object.keys(body?.content ?? {});
    const types = declared.length > 0 && body?.required !== false ? declared : [undefined, ...declared];
    for (const type of types) {
      const req = probe(app, method, path, type);
      await pass(lookup, req);
      await pass(check, req);
      await nextTurn();
    }
  }
}
