import { Router } from 'express';
import type { OrderRecord, PaymentRecord } from '../store/types.js';
import { formatUsd } from '../api/wallet/ledger.js';
import { sweepExpired } from '../api/payprovider/settle.js';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function itemsTable(order: OrderRecord | null): string {
  if (!order) return '';
  const rows = order.items
    .map(
      (i) =>
        `<tr><td>${escape(i.title)}</td><td>${i.quantity}</td><td>${formatUsd(i.line_total_cents)} USD</td></tr>`,
    )
    .join('');
  return `<table><thead><tr><th>Item</th><th>Qty</th><th>Amount</th></tr></thead><tbody>${rows}
<tr><td>Shipping</td><td></td><td>${formatUsd(order.shipping_cents)} USD</td></tr></tbody></table>`;
}

/** The provider stand-in page: amount, items, and Approve / Cancel buttons that call the control API. */
export function renderPaymentPage(payment: PaymentRecord, order: OrderRecord | null): string {
  const id = escape(payment.id);
  const pending = payment.status === 'pending';
  const buttons = pending
    ? `<button id="approve" onclick="act('approve')">Approve</button> <button id="cancel" onclick="act('cancel')">Cancel</button>`
    : `<p>This payment is <strong>${escape(payment.status)}</strong>; nothing left to do.</p>`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sandbox payment provider</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}
button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem}#approve{background:#1a7f37;color:#fff;border:0}</style></head>
<body><h1>Sandbox payment provider</h1>
<p>Nothing is charged: this page stands in for the external provider.</p>
<p><strong>${escape(payment.description)}</strong></p>
<p>Amount: <strong id="amount">${formatUsd(payment.amount_cents)} USD</strong></p>
<p>Status: <strong id="status">${escape(payment.status)}</strong> (expires ${escape(payment.expires_at)})</p>
${itemsTable(order)}
<p>${buttons}</p><p id="result"></p>
<script>
async function act(action) {
  const res = await fetch('/__sandbox/payprovider/${id}/' + action, { method: 'POST' });
  const body = await res.json();
  document.getElementById('result').textContent = res.ok ? 'Payment ' + body.payment.status : body.error;
  if (res.ok) setTimeout(() => location.reload(), 400);
}
</script></body></html>`;
}

/** Serves GET /sandbox/payprovider/{paymentId} (outside the API contract, like /docs). */
export function payproviderPages(): Router {
  const router = Router();
  router.get('/sandbox/payprovider/:paymentId', async (req, res) => {
    await sweepExpired(req.world);
    const payment = req.world.store.db.payments[req.params.paymentId];
    if (!payment) {
      res.status(404).json({ error: `Payment not found: ${req.params.paymentId}` });
      return;
    }
    const order = payment.kind === 'order' ? (req.world.store.db.orders[payment.reference] ?? null) : null;
    res.type('html').send(renderPaymentPage(payment, order));
  });
  return router;
}
