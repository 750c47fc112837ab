import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import '../http/request-context.js';
import type { AppDeps } from './deps.js';
import { allHandlers, handlerOf } from './handlers.js';
import { payproviderPages } from '../web/payprovider-page.js';
import { applyDueExpiries } from '../api/payprovider/settle.js';
import { enforceSecurity, resolvePrincipal } from '../http/auth.js';
import { errorHandler, notFoundHandler } from '../http/errors.js';
import { fastReads } from '../http/fast-read.js';
import { responseCache } from '../http/response-cache.js';
import { operations, specForValidator } from '../http/spec.js';
import { requestValidator } from '../http/validator.js';
import { mountControlStage } from '../http/control-stage.js';
import { scenarioEffects } from '../scenarios/effects.js';
import { uploadReceiver } from '../api/uploads/receive.js';
import { pagesStage } from '../web/pages.js';

export const BODY_LIMIT = '1mb';

type FullPath = (req: IncomingMessage, res: ServerResponse, done?: (err?: unknown) => void) => void;

/** Paths served by the sandbox that are not part of the API contract (pages and assets). */
export const UNDOCUMENTED_PATHS = /^\/(docs|__sandbox\/ui|sandbox\/payprovider|openapi\.(yaml|json))(\/|$)/;

/**
 * Builds the Express app: world → body → principal → validation → handler → one error shape.
 * Never listens; the CLI (bin.ts) or a test does.
 */
export function createApp(deps: AppDeps): Express {
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.set('etag', false);

  const selectWorld: RequestHandler = async (req, res, next) => {
    res.set('X-Sandbox-Version', deps.version);
    req.world = await deps.worlds.resolve(req);
    next();
  };
  app.use(selectWorld);
  // Stage: pages and assets outside the contract (CORS, /docs, /openapi.*, /__sandbox/ui, /sandbox/payprovider).
  app.use(pagesStage(deps));
  app.use(applyDueExpiries);
  app.use(payproviderPages());
  app.use(express.json({ limit: BODY_LIMIT }));
  app.use(resolvePrincipal(deps.jwtSecret));
  // Stage: admin token, rate limiting, request journal, scenario switches (after the principal, before validation).
  mountControlStage(app, deps);
  // Stage: response cache lookup: after the stage above, before validation, so a repeat skips it.
  app.use(responseCache((path) => path.startsWith('/api/')));
  app.use(
    requestValidator({
      apiSpec: specForValidator({ responses: deps.config.validateResponses }) as never,
      // Checked by test/contract/openapi-contract.test.ts, not at every start (see docs/hardening.md).
      validateApiSpec: false,
      validateRequests: { allowUnknownQueryParameters: false },
      validateResponses: deps.config.validateResponses,
      validateSecurity: false,
      ignorePaths: UNDOCUMENTED_PATHS,
      validateFormats: true,
      // Uploads stream into the sandbox's upload space, never whole into memory (api/uploads/receive.ts).
      fileUploader: uploadReceiver(deps.config.uploadQuotaMb),
    }),
  );
  // Scenario effects run after validation passed: a scenario never bypasses request validation.
  app.use(scenarioEffects());

  const handlers = allHandlers(deps);
  const router = express.Router();
  for (const op of operations()) {
    const handler = handlerOf(handlers, op.operationId);
    if (!handler) throw new Error(`openapi.yaml operation ${op.operationId} has no handler`);
    router[op.method as 'get'](op.expressPath, enforceSecurity(op.security, op.optionalAuth), handler);
  }
  app.use(router);
  app.use(notFoundHandler);
  app.use(errorHandler((err, msg) => deps.log.error({ err }, msg)));

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
