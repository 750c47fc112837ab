import type { AppDeps } from '../../app/deps.js';
import { userId } from '../../stages/principal.js';
import type { Handlers } from '../../contract/handler.js';
import { pageOf, paginate } from '../pagination.js';
import { formatUsd } from './ledger.js';
import { ratesNow } from './rates.js';
import { scenarioParam } from '../../scenarios/query.js';

export function walletHandlers(_deps: AppDeps) {
  return {
    getWalletBalance: (req, res) => {
      const user = req.world.store.db.users[userId(req)];
      res.json({ balance_cents: user.balance_cents, balance_usd: formatUsd(user.balance_cents) });
    },
    getExchangeRates: (req, res) => {
      // rates.stale: the table of a window that many hours back, as if the rate feed had stopped.
      const staleHours = scenarioParam(req, 'rates.stale');
      const table = ratesNow(req.world, req.world.clock.now() - (staleHours ?? 0) * 3_600_000);
      const rates: Record<string, { rate: number }> = {};
      for (const [code, rate] of table.rates) rates[code] = { rate };
      res.json({ base: 'USD', rates, updated_at: table.updatedAt });
    },
    listWalletTransactions: (req, res) => {
      const owner = userId(req);
      const { page, limit } = pageOf(req.query);
      const entries = req.world.store.db.ledger.filter((e) => e.user_id === owner).reverse();
      const { items, pagination } = paginate(entries, page, limit);
      const balance = req.world.store.db.users[owner].balance_cents;
      res.json({
        transactions: items.map(({ user_id: _u, ...entry }) => entry),
        balance_cents: balance,
        pagination,
      });
    },
  } satisfies Handlers;
}
