import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import '../http/request-context.js';
import type { AppDeps } from './deps.js';
import { allHandlers, handlerOf } from './handlers.js';
import { payproviderPages } from '../web/payprovider-page.js';
import { applyDueExpiries } from '../api/payprovider/settle.js';
import { resolvePrincipal } from '../http/auth.js';
import { jsonBody, refuseUnreadBody } from '../http/body-stage.js';
import { mediaTypeAsDeclared } from '../http/validator-media-type.js';
import { operationStages } from '../http/operation-stages.js';
import { errorHandler, notFoundHandler } from '../http/errors.js';
import { fastReads } from '../http/fast-read.js';
import { responseCache } from '../http/response-cache.js';
import { operations, specForValidator } from '../http/spec.js';
import { headAsGet, requestValidator, validatorOptions } from '../http/validator.js';
import { canonicalIds } from '../http/uuid-case.js';
import { controlStages } from '../http/control-stage.js';
import { series } from '../http/series.js';
import { worldStage } from '../http/world-stage.js';
import { scenarioEffects } from '../scenarios/effects.js';
import { uploadReceiver } from '../api/uploads/receive.js';
import { pagesStage } from '../web/pages.js';
import { ROUTER_OPTIONS } from '../http/routing.js';
import { useClientStage } from '../http/client-address.js';

export const BODY_LIMIT = '1mb';

type FullPath = (req: IncomingMessage, res: ServerResponse, done?: (err?: unknown) => void) => void;

/**
 * The full path: every stage in Express, world → body → principal → validation → handler → one
 * error shape (docs/architecture.md lists them). Never listens.
 */
export function createPipeline(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  useClientStage(app, deps.config.trustProxy); // client: req.ip and req.protocol, as the fast paths read them
  app.set('etag', false);
  // Paths match only as written (http/routing.ts): this app's router and the request validator.
  app.set('case sensitive routing', true);

  // The stages in the order of docs/architecture.md's table; the numbers are its rows. They run
  // in series as one Express layer (http/series.ts): each layer costs Express a few µs more.
  const validation = validatorOptions(specForValidator({ responses: false }));
  // Uploads stream into the sandbox's upload space, never whole into memory.
  validation.fileUploader = uploadReceiver(deps.config.uploadQuotaMb);
  const stages: RequestHandler[] = [
    worldStage(deps), // 1-2 version, world
    pagesStage(deps), // 3 pages: CORS, /docs, /openapi.*, /__sandbox/ui
    applyDueExpiries, // 4 expiries
    payproviderPages(deps.worlds), // 3 pages: the provider page
    jsonBody(BODY_LIMIT), // 5 body (a body it cannot read is refused after 12a)
    resolvePrincipal(deps.jwtSecret), // 6 principal
    ...controlStages(deps), // 7-10 journal, admin token, rate limit, scenarios
    responseCache(), // 11 cache lookup (18, the record, when the handler sends)
    // 12a security, 12b the body 5 could not read, 12c leniencies: per operation, before validation.
    operationStages(deps.config.strict),
    refuseUnreadBody, // 12b for a path that is no operation
    // 12d validation; a HEAD is validated as its GET, a body as its declared media type.
    ...headAsGet(mediaTypeAsDeclared(requestValidator(validation))),
    scenarioEffects(), // 13 scenario effects: after validation, so a scenario never bypasses it
  ];
  app.use(series(stages));

  const handlers = allHandlers(deps);
  const router = express.Router(ROUTER_OPTIONS);
  for (const op of operations()) {
    const handler = handlerOf(handlers, op.operationId);
    if (!handler) throw new Error(`openapi.yaml operation ${op.operationId} has no handler`);
    // 16 handler (17, serialization, is the handler's res.json); security is 12a, in operationStages.
    // Ids in either case are the same record (http/uuid-case.ts); a HEAD runs the GET's route.
    const ids = canonicalIds(op);
    router[op.method as 'get'](op.expressPath, ...(ids ? [ids] : []), handler);
  }
  app.use(router);
  app.use(notFoundHandler);
  app.use(errorHandler((err, msg) => deps.log.error({ err }, msg))); // 19 error shape
  return app;
}

/**
 * The sandbox's app: the full path (`createPipeline`) with the fast paths in front of it. Never
 * listens; the CLI (bin.ts) or a test does.
 */
export function createApp(deps: AppDeps): Express {
  const app = createPipeline(deps);
  // The hot read path (http/fast-read.ts) answers cached repeats before Express sets up the
  // request; `app.handle` is what the app function, `app.listen` and a mounting app all call.
  const fast = fastReads(deps);
  const handled = app as unknown as { handle: FullPath };
  const handle = handled.handle.bind(app);
  handled.handle = (req, res, done) => {
    if (!fast(req, res)) handle(req, res, done);
  };
  return app;
}
