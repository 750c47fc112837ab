import express, { type Express, type RequestHandler } from 'express';
import type { AppDeps } from './deps.js';
import { allHandlers, handlerOf } from './handlers.js';
import type { AllHandlers } from '../contract/handler.js';
import { payproviderPages } from '../web/payprovider-page.js';
import { applyDueExpiries } from '../api/payprovider/settle.js';
import { resolvePrincipal } from '../stages/principal.js';
import { enforceSecurity } from '../stages/security.js';
import { jsonBody, refuseUnreadBody } from '../stages/body.js';
import { errorHandler, notFoundHandler } from '../stages/error-shape.js';
import { answerCache } from '../stages/answer-cache.js';
import { operations, specForValidator, type Operation } from '../contract/spec.js';
import { headAsGet, mediaTypeAsDeclared, requestValidator, validatorOptions } from '../contract/validator.js';
import { canonicalIds } from '../stages/ids.js';
import { adminTokenGuard } from '../stages/admin-token.js';
import { rateCountersOf, rateLimiting } from '../stages/rate-limit.js';
import { requestJournal } from '../stages/journal.js';
import { scenariosStage } from '../stages/scenarios.js';
import { leniencyStage } from '../contract/leniency.js';
import { worldStage } from '../stages/world.js';
import { scenarioEffects } from '../scenarios/effects.js';
import { uploadReceiver } from '../api/uploads/receive.js';
import { pagesStage } from '../web/pages.js';
import { ROUTER_OPTIONS } from '../contract/routing.js';

export const BODY_LIMIT = '1mb';

/**
 * With `--trust-proxy`, only the one proxy in front (nginx, an ingress) is trusted: trusting every
 * hop would take the left-most `X-Forwarded-For` entry, which a client writes itself.
 */
export const TRUSTED_PROXY_HOPS = 1;

/** The request validator's middlewares; a HEAD is validated as its GET, a body as its declared media type. */
function validation(deps: AppDeps, app: Express): RequestHandler[] {
  const options = validatorOptions(specForValidator({ responses: false }));
  // Uploads stream into the sandbox's upload space, never whole into memory.
  options.fileUploader = uploadReceiver(deps.config.uploadQuotaMb);
  return headAsGet(mediaTypeAsDeclared(requestValidator(options, app)));
}

/**
 * One operation's route: its stages in the order of docs/architecture.md's table, security first
 * (a bad credential with a bad body is a 401) and the answer cache's lookup before validation.
 */
function operationRoute(
  deps: AppDeps,
  handlers: AllHandlers,
  op: Operation,
  validate: RequestHandler[],
): RequestHandler[] {
  const handler = handlerOf(handlers, op.operationId);
  if (!handler) throw new Error(`openapi.yaml operation ${op.operationId} has no handler`);
  const cache = answerCache(op, deps.log);
  const stages = [
    enforceSecurity(op.security, op.optionalAuth, deps.config.strict),
    refuseUnreadBody,
    leniencyStage(op, deps.config.strict),
    cache?.lookup,
    ...validate,
    scenarioEffects(op),
    canonicalIds(op),
    cache ? cache.keeping(handler) : handler,
  ];
  return stages.filter((stage): stage is RequestHandler => stage !== undefined);
}

/**
 * The sandbox's app: every request runs the same stages, in one order, as Express middleware
 * and per-route handlers (docs/architecture.md lists them). Never listens; the CLI (bin.ts) or a
 * test does.
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', deps.config.trustProxy ? TRUSTED_PROXY_HOPS : false);
  app.set('etag', false);
  // Paths match only as written (contract/routing.ts): this app's router and the request validator.
  app.set('case sensitive routing', true);

  app.use(worldStage(deps)); // version, world
  app.use(pagesStage(deps)); // pages: CORS, /docs, /openapi.*, /__sandbox/ui
  app.use(applyDueExpiries); // expiries
  app.use(payproviderPages(deps.worlds)); // pages: the provider page, once expiries are settled
  app.use(jsonBody(BODY_LIMIT)); // body (a body it cannot read is refused after security)
  app.use(resolvePrincipal(deps.jwtSecret)); // principal
  app.use(requestJournal(deps.config.journalSize)); // journal: sees every answer, 401s and 429s too
  app.use(adminTokenGuard(deps.config.adminToken)); // admin token (control calls)
  app.use(rateLimiting(deps.config, rateCountersOf(deps.worlds))); // rate limit
  app.use(scenariosStage(deps.config)); // scenarios switched on for the request

  const validate = validation(deps, app);
  const handlers = allHandlers(deps);
  const router = express.Router(ROUTER_OPTIONS);
  // A HEAD runs the GET's route (Express routes it there).
  for (const op of operations())
    router[op.method as 'get'](op.expressPath, ...operationRoute(deps, handlers, op, validate));
  // A path or method that is no operation: its unread body, then validation's 404 or 405.
  router.use(refuseUnreadBody, ...validate);
  app.use(router);
  app.use(notFoundHandler);
  app.use(errorHandler((err, msg) => deps.log.error({ err }, msg))); // error shape
  return app;
}
