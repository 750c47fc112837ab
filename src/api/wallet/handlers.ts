import type { AppDeps } from '../../deps.js';
import { userId } from '../../http/auth.js';
import type { Handlers } from '../handlers.js';
import { formatUsd } from './ledger.js';

export function walletHandlers(_deps: AppDeps): Handlers {
  return {
    getWalletBalance: (req, res) => {
      const user = req.world.store.db.users[userId(req)];
      res.json({ balance_cents: user.balance_cents, balance_usd: formatUsd(user.balance_cents) });
    },
  };
}
