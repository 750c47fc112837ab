import type { OrderRecord } from '../../store/types.js';

/** Newest first; orders created in the same millisecond keep their creation order, reversed. */
export function newestFirst(orders: Record<string, OrderRecord>): OrderRecord[] {
  return Object.values(orders).reverse();
}
