import { announceChange, onChange } from './api.js';
import { h, listOf, section, usd } from './dom.js';

const LIST = 'GET /__sandbox/accounts';
const FUND = 'POST /__sandbox/wallets/{email}/fund';

/** Test accounts with live balances; fund a wallet by an amount in USD. */
export function mountAccounts(api) {
  const s = section('accounts');
  const missing = api.missing([LIST]);
  if (missing.length > 0) return s.fill(s.unavailable(missing));
  const canFund = api.has('POST', '/__sandbox/wallets/{email}/fund');

  async function fund(email, input) {
    const amount = Number(input.value);
    if (!Number.isFinite(amount) || amount <= 0) throw new Error('give a positive amount in USD');
    const amount_cents = Math.round(amount * 100);
    await api.call('POST', `/__sandbox/wallets/${encodeURIComponent(email)}/fund`, { amount_cents });
    announceChange();
    return `Funded ${email} with ${usd(amount_cents)}`;
  }

  function row(account) {
    const input = h('input', {
      type: 'number',
      min: '0.01',
      step: '0.01',
      value: '100.00',
      'aria-label': `amount for ${account.email}`,
      size: 8,
    });
    const button = h(
      'button',
      {
        'data-test': `fund-${account.email}`,
        onclick: () => s.run('Fund', () => fund(account.email, input)),
      },
      'Fund',
    );
    return h(
      'tr',
      { 'data-email': account.email },
      h(
        'td',
        { title: account.about ?? '' },
        h('code', {}, account.email),
        h('div', { class: 'muted' }, account.about ?? ''),
      ),
      h('td', {}, account.fullName ?? account.full_name ?? ''),
      h('td', { class: 'balance', 'data-test': `balance-${account.email}` }, usd(account.balance_cents)),
      h('td', {}, h('code', { title: 'API key' }, account.api_key ?? '')),
      h(
        'td',
        {},
        canFund
          ? h('div', { class: 'row' }, input, button)
          : h('span', { class: 'unavailable' }, `no ${FUND}`),
      ),
    );
  }

  async function refresh() {
    try {
      const accounts = listOf(await api.call('GET', '/__sandbox/accounts'), 'accounts');
      s.fill(
        h(
          'table',
          {},
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              ...['account', 'name', 'balance', 'API key', 'fund (USD)'].map((t) => h('th', {}, t)),
            ),
          ),
          h('tbody', {}, accounts.map(row)),
        ),
      );
    } catch (err) {
      s.say(`Accounts: ${err.message}`, 'error');
    }
  }

  onChange(refresh);
  return refresh();
}
