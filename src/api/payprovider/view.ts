import { ApiError } from '../../contract/errors.js';
import type { Db, OrderRecord, PaymentRecord } from '../../store/types.js';

/** A provider payment as the control API and the page show it: the record, plus its order when it pays one. */
export function paymentView(db: Db, paymentId: string): { payment: PaymentRecord; order?: OrderRecord } {
  const payment = db.payments[paymentId];
  if (!payment) throw new ApiError(404, `Payment not found: ${paymentId}`);
  const order = payment.kind === 'order' ? db.orders[payment.reference] : undefined;
  return order ? { payment, order } : { payment };
}
