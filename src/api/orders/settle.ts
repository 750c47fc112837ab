import type { Db, OrderRecord } from '../../store/types.js';
import { postLedger } from '../wallet/ledger.js';

/**
 * Credits each seller their items' price minus the platform fee recorded at checkout, one
 * ledger entry per seller, and marks the order paid.
 */
export function payOrder(db: Db, order: OrderRecord, at: string): void {
  const proceeds = new Map<string, number>();
  for (const item of order.items) {
    const net = item.line_total_cents - (item.platform_fee_cents ?? 0);
    proceeds.set(item.seller_id, (proceeds.get(item.seller_id) ?? 0) + net);
  }
  for (const [sellerId, cents] of proceeds) {
    if (cents <= 0 || !db.users[sellerId]) continue;
    postLedger(db, {
      userId: sellerId,
      amountCents: cents,
      kind: 'sale',
      reference: order.id,
      description: `Sale proceeds of order ${order.id} (after the platform fee)`,
      at,
    });
  }
  order.status = 'paid';
  order.paid_at = at;
}

/** Cancels a pending order and puts its held stock back on the listings that still exist. */
export function cancelOrder(db: Db, order: OrderRecord, at: string): void {
  for (const item of order.items) {
    const listing = db.listings[item.listing_id];
    if (listing) listing.quantity_available += item.quantity;
  }
  order.status = 'cancelled';
  order.cancelled_at = at;
}
