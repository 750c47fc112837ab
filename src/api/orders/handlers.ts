import type { AppDeps } from '../../app/deps.js';
import { userId } from '../../stages/principal.js';
import { ApiError } from '../../contract/errors.js';
import type { OrderRecord } from '../../store/types.js';
import type { Handlers } from '../../contract/handler.js';
import { sweepExpired } from '../payprovider/settle.js';
import { newestFirst } from './newest-first.js';
import { pageOf, paginate } from '../pagination.js';

function involves(order: OrderRecord, user: string, role: 'buyer' | 'seller'): boolean {
  return role === 'buyer' ? order.buyer_id === user : order.items.some((i) => i.seller_id === user);
}

export function orderHandlers(_deps: AppDeps) {
  return {
    listOrders: async (req, res) => {
      await sweepExpired(req.world);
      const user = userId(req);
      const { role = 'buyer', status } = req.query;
      const mine = newestFirst(req.world.store.db.orders).filter(
        (o) => involves(o, user, role) && (status === undefined || o.status === status),
      );
      const { page, limit } = pageOf(req.query);
      const { items, pagination } = paginate(mine, page, limit);
      res.json({ orders: items, pagination });
    },
    getOrder: async (req, res) => {
      await sweepExpired(req.world);
      const user = userId(req);
      const order = req.world.store.db.orders[req.params.id];
      // Someone else's order is indistinguishable from a missing one.
      if (!order || !(involves(order, user, 'buyer') || involves(order, user, 'seller')))
        throw new ApiError(404, 'Order not found');
      res.json(order);
    },
  } satisfies Handlers;
}
