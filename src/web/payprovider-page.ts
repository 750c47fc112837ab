import { baseUrl } from '../api/base-url.js';
import { Router, type Request, type RequestHandler, type Response } from 'express';
import type { WorldRegistry } from '../world/registry-types.js';
import { ApiError } from '../contract/errors.js';
import { approvePayment, cancelPayment, sweepExpired } from '../api/payprovider/settle.js';
import { paymentView } from '../api/payprovider/view.js';
import { isSandboxId } from '../world/sandbox-id.js';
import { worldNamedBy } from '../world/sandbox-query.js';
import type { World } from '../world/world.js';
import { renderPaymentPage } from './payprovider-html.js';
import { PROVIDER_PAGE_PATHS, ROUTER_OPTIONS } from '../contract/routing.js';

/**
 * The world the page acts on: the approval URL's `sandbox_id` (a browser cannot send
 * `X-Sandbox-Id`), else the world the request selected. The page is outside the contract, so
 * the id's form is checked here rather than by request validation.
 */
async function pageWorld(worlds: WorldRegistry, req: Request): Promise<World> {
  const id = req.query.sandbox_id;
  if (id !== undefined && (typeof id !== 'string' || !isSandboxId(id)))
    throw new ApiError(400, 'query sandbox_id must be 1-64 characters of A-Z, a-z, 0-9, _ and -');
  // The page comes before the rate limit, so it never makes a sandbox: one that holds no data
  // holds no payment either.
  const world = await worldNamedBy(worlds, req.world, id, { existingOnly: true });
  if (!world) throw new ApiError(404, `Payment not found: ${String(req.params.paymentId)}`);
  return world;
}

/**
 * The buttons change state without any credential (the page is the buyer's side of the payment,
 * reached by its unguessable-enough link), so a browser may only press them from the page
 * itself: a cross-site form or script sends another `Origin` and is refused. Clients that are not
 * browsers send no `Origin`.
 */
function checkSameOrigin(req: Request): void {
  const origin = req.headers.origin;
  if (origin === undefined || origin === baseUrl(req)) return;
  throw new ApiError(403, "The provider page's buttons work only from the provider page itself");
}

type Settle = typeof approvePayment;

/**
 * Serves the provider page `GET /sandbox/payprovider/{paymentId}` and its buttons'
 * `POST /sandbox/payprovider/{paymentId}/approve|cancel`, all with the approval URL's
 * `?sandbox_id=`. Outside the API contract (like /docs) and never behind the admin token; the
 * control API's `/__sandbox/payprovider/...` does the same for automation.
 */
export function payproviderPages(worlds: WorldRegistry): RequestHandler {
  const router = Router(ROUTER_OPTIONS);
  // A payment id is a UUID, read in either case like every id of the API (stages/ids.ts).
  router.param('paymentId', (req, _res, next, id: string) => {
    req.params.paymentId = id.toLowerCase();
    next();
  });
  router.get('/sandbox/payprovider/:paymentId', async (req, res) => {
    const world = await pageWorld(worlds, req);
    await sweepExpired(world);
    const { payment, order } = paymentView(world.store.db, req.params.paymentId);
    res.type('html').send(renderPaymentPage(payment, order ?? null, world.id));
  });
  const button = (settle: Settle) => async (req: Request, res: Response) => {
    checkSameOrigin(req);
    const world = await pageWorld(worlds, req);
    const id = req.params.paymentId as string;
    const now = world.clock.now();
    await world.store.commit((db) => settle(db, id, now));
    res.json(paymentView(world.store.db, id));
  };
  router.post('/sandbox/payprovider/:paymentId/approve', button(approvePayment));
  router.post('/sandbox/payprovider/:paymentId/cancel', button(cancelPayment));
  // Only the provider's paths enter the router (pages.ts says why).
  return (req, res, next) => (PROVIDER_PAGE_PATHS.test(req.path) ? router(req, res, next) : next());
}
