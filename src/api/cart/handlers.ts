import type { AppDeps } from '../../app/deps.js';
import type { Db } from '../../store/types.js';
import type { AnyRequest, Handlers } from '../../contract/handler.js';
import { ratesNow } from '../wallet/rates.js';
import { cartOwner, cartView, mergeGuestCart, removeCartItem, setCartItem } from './service.js';

/** Applies a change to the caller's cart (after merging a guest cart sent alongside a user credential). */
async function changeCart(req: AnyRequest, change?: (db: Db, owner: string) => void) {
  const world = req.world;
  const owner = cartOwner(req.principal);
  const now = world.clock.now();
  const needsMerge = !!req.principal.user && !!req.principal.guest;
  if (change || needsMerge) {
    await world.store.commit((db) => {
      // The merge is always right to apply; the change then runs against the merged cart.
      mergeGuestCart(db, req.principal, new Date(now).toISOString());
      change?.(db, owner);
    });
  }
  return cartView(world.store.db, owner, ratesNow(world), now);
}

export function cartHandlers(_deps: AppDeps) {
  return {
    getCart: async (req, res) => {
      res.json(await changeCart(req));
    },
    setCartItem: async (req, res) => {
      const body = req.body;
      res.json(await changeCart(req, (db, owner) => setCartItem(db, owner, body, req.world.clock.now())));
    },
    removeCartItem: async (req, res) => {
      const { listingId } = req.params;
      const at = req.world.clock.nowIso();
      res.json(await changeCart(req, (db, owner) => removeCartItem(db, owner, listingId, at)));
    },
  } satisfies Handlers;
}
