import type { OrderRecord, PaymentRecord } from '../store/types.js';
import { formatUsd } from '../api/wallet/ledger.js';
import { DEFAULT_SANDBOX_ID } from '../world/sandbox-id.js';

const escape = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's own query: `?sandbox_id=<id>` for an isolated sandbox, nothing for the default one. */
export function sandboxQuery(sandboxId: string): string {
  return sandboxId === DEFAULT_SANDBOX_ID ? '' : `?sandbox_id=${encodeURIComponent(sandboxId)}`;
}

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

/** An order's quote (a currency its listings accept): the items in it, shipping in USD. */
function quoteLine(payment: PaymentRecord): string {
  const { quote } = payment;
  if (!quote) return '';
  return ` (charged as <strong id="quote">${formatUsd(quote.items_cents)} ${escape(quote.currency)}</strong> for the items, shipping in USD)`;
}

/** The return link: the checkout's `returnUrl`, else the dashboard of the payment's sandbox. */
function returnLink(payment: PaymentRecord, sandboxId: string): string {
  const [href, text] = payment.return_url
    ? [payment.return_url, 'Return to the shop']
    : [`/__sandbox/ui${sandboxQuery(sandboxId)}`, 'Back to the sandbox'];
  return `<a id="return" href="${escape(href)}">${text}</a>`;
}

/**
 * The provider stand-in page: amount, items, Approve / Cancel buttons that post to the page's own
 * endpoints (same sandbox, no admin token), and the return link.
 */
export function renderPaymentPage(
  payment: PaymentRecord,
  order: OrderRecord | null,
  sandboxId: string,
): string {
  const pending = payment.status === 'pending';
  const buttons = pending
    ? `<button id="approve" onclick="act('approve')">Approve</button> <button id="cancel" onclick="act('cancel')">Cancel</button>`
    : `<p>This payment is <strong>${escape(payment.status)}</strong>; nothing left to do.</p>`;
  // The ids are a uuid and a sandbox id ([A-Za-z0-9_-]); JSON text with `<` escaped stays inside the script.
  const actions = JSON.stringify({
    base: `/sandbox/payprovider/${encodeURIComponent(payment.id)}/`,
    query: sandboxQuery(sandboxId),
  }).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Sandbox payment provider</title>
<style>body{font-family:system-ui,sans-serif;max-width:36rem;margin:3rem auto;padding:0 1rem}
table{border-collapse:collapse;width:100%}td,th{border-bottom:1px solid #ddd;padding:.4rem;text-align:left}
button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.5rem}#approve{background:#1a7f37;color:#fff;border:0}</style></head>
<body><h1>Sandbox payment provider</h1>
<p>Nothing is charged: this page stands in for the external provider.</p>
<p><strong>${escape(payment.description)}</strong></p>
<p>Amount: <strong id="amount">${formatUsd(payment.amount_cents)} USD</strong>${quoteLine(payment)}</p>
<p>Status: <strong id="status">${escape(payment.status)}</strong> (expires ${escape(payment.expires_at)})</p>
${itemsTable(order)}
<p>${buttons}</p><p id="result"></p>
<p>${returnLink(payment, sandboxId)}</p>
<script>
const page = ${actions};
async function act(action) {
  const res = await fetch(page.base + action + page.query, { method: 'POST' });
  const body = await res.json();
  document.getElementById('result').textContent = res.ok ? 'Payment ' + body.payment.status : body.error;
  if (res.ok) setTimeout(() => location.reload(), 400);
}
</script></body></html>`;
}
