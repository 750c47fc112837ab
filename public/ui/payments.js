import { announceChange, onChange } from './api.js';
import { h, listOf, section, time, usd } from './dom.js';

const amountOf = (r) => r.amount_cents ?? r.total_cents ?? r.price_cents;
const whoOf = (r) => r.email ?? r.user_email ?? r.user_id ?? '';

/** Pending provider payments (approve, cancel) and every order, newest first. */
export function mountPayments(api) {
  const s = section('payments');
  const canPayments = api.has('GET', '/__sandbox/payments');
  const canOrders = api.has('GET', '/__sandbox/orders');
  if (!canPayments && !canOrders)
    return s.fill(s.unavailable(['GET /__sandbox/payments', 'GET /__sandbox/orders']));

  async function decide(id, verdict) {
    await api.call('POST', `/__sandbox/payprovider/${encodeURIComponent(id)}/${verdict}`);
    announceChange();
    return `Payment ${id} ${verdict === 'approve' ? 'approved' : 'cancelled'}`;
  }

  function paymentRow(p) {
    const can = (verdict) => api.has('POST', `/__sandbox/payprovider/{paymentId}/${verdict}`);
    return h(
      'tr',
      { 'data-payment': p.id },
      h('td', {}, h('code', {}, p.id)),
      h('td', {}, p.kind ?? p.purpose ?? p.type ?? ''),
      h('td', {}, usd(amountOf(p))),
      h('td', {}, whoOf(p)),
      h('td', {}, time(p.created_at)),
      h(
        'td',
        {},
        h(
          'a',
          { href: `/sandbox/payprovider/${encodeURIComponent(p.id)}`, target: '_blank' },
          'provider page',
        ),
        ' ',
        can('approve')
          ? h(
              'button',
              {
                'data-test': `approve-${p.id}`,
                onclick: () => s.run('Approve', () => decide(p.id, 'approve')),
              },
              'Approve',
            )
          : null,
        ' ',
        can('cancel')
          ? h(
              'button',
              {
                class: 'danger',
                'data-test': `cancel-${p.id}`,
                onclick: () => s.run('Cancel', () => decide(p.id, 'cancel')),
              },
              'Cancel',
            )
          : null,
      ),
    );
  }

  function orderRow(o) {
    return h(
      'tr',
      { 'data-order': o.id },
      h('td', {}, h('code', {}, o.id)),
      h(
        'td',
        {},
        h(
          'span',
          { class: `badge ${o.status === 'paid' ? 'on' : o.status === 'cancelled' ? 'bad' : ''}` },
          o.status ?? '',
        ),
      ),
      h('td', {}, usd(o.total_cents)),
      h('td', {}, o.paymentMethod ?? o.payment_method ?? ''),
      h('td', {}, whoOf(o)),
      h('td', {}, time(o.created_at)),
    );
  }

  const table = (heads, rows, test) =>
    h(
      'table',
      { 'data-test': test },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          heads.map((t) => h('th', {}, t)),
        ),
      ),
      h('tbody', {}, rows),
    );

  async function refresh() {
    try {
      const parts = [h('h3', {}, 'Pending provider payments')];
      if (canPayments) {
        const pending = listOf(await api.call('GET', '/__sandbox/payments?status=pending'), 'payments');
        parts.push(
          pending.length === 0
            ? h(
                'p',
                { class: 'muted', 'data-test': 'payments-none' },
                'No payment is waiting at the provider.',
              )
            : table(
                ['payment', 'for', 'amount', 'who', 'created', ''],
                pending.map(paymentRow),
                'payments-table',
              ),
        );
      } else parts.push(s.unavailable(['GET /__sandbox/payments']));
      parts.push(h('h3', {}, 'Orders'));
      if (canOrders) {
        const orders = listOf(await api.call('GET', '/__sandbox/orders'), 'orders');
        parts.push(
          orders.length === 0
            ? h('p', { class: 'muted' }, 'No orders yet.')
            : h(
                'div',
                { class: 'scroll' },
                table(
                  ['order', 'status', 'total', 'paid with', 'buyer', 'created'],
                  orders.map(orderRow),
                  'orders-table',
                ),
              ),
        );
      } else parts.push(s.unavailable(['GET /__sandbox/orders']));
      s.fill(...parts);
    } catch (err) {
      s.say(`Payments: ${err.message}`, 'error');
    }
  }

  onChange(refresh);
  window.setInterval(refresh, 5000);
  return refresh();
}
