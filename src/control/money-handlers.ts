import type { AppDeps } from '../app/deps.js';
import { ApiError, Messages } from '../contract/errors.js';
import { testAccounts } from '../seed/accounts.js';
import type { Handlers } from '../contract/handler.js';
import { findUserByEmail } from '../api/auth/users.js';
import { newestFirst } from '../api/orders/newest-first.js';
import { approvePayment, cancelPayment, sweepExpired } from '../api/payprovider/settle.js';
import { formatUsd, postLedger } from '../api/wallet/ledger.js';
import { paymentView } from '../api/payprovider/view.js';

/** The most one fund call may add or remove: keeps balances far inside safe integers. */
export const MAX_FUND_CENTS = 1_000_000_000;

export function moneyControlHandlers(_deps: AppDeps) {
  return {
    listTestAccounts: (req, res) => {
      const { db } = req.world.store;
      const accounts = testAccounts().map((a) => ({
        email: a.email,
        password: a.password,
        fullName: a.fullName,
        about: a.about,
        balance_cents: findUserByEmail(db, a.email)?.balance_cents ?? 0,
        api_key: a.api_key,
      }));
      res.json({ accounts });
    },
    fundWallet: async (req, res) => {
      const amount = req.body?.amount_cents;
      // The marketplace API's own message for a missing amount (docs/errors.md).
      if (amount === undefined || amount === 0)
        throw new ApiError(400, Messages.amountRequired, {}, 'body.amount_cents is required and not 0');
      const { email } = req.params;
      const world = req.world;
      const result = await world.store.commit((db) => {
        const user = findUserByEmail(db, email);
        if (!user) throw new ApiError(404, `No user with e-mail ${email}`);
        if (user.balance_cents + amount < 0)
          throw new ApiError(409, `The balance is ${user.balance_cents} cents; it cannot go below 0`);
        postLedger(db, {
          userId: user.id,
          amountCents: amount,
          kind: 'fund',
          reference: null,
          description:
            amount > 0 ? 'Funded through the sandbox control API' : 'Drained through the sandbox control API',
          at: world.clock.nowIso(),
        });
        return {
          email: user.email,
          balance_cents: user.balance_cents,
          balance_usd: formatUsd(user.balance_cents),
        };
      });
      res.json(result);
    },
    listPayments: async (req, res) => {
      await sweepExpired(req.world);
      const { status } = req.query;
      const payments = Object.values(req.world.store.db.payments)
        .reverse()
        .filter((p) => status === undefined || p.status === status);
      res.json({ payments });
    },
    listAllOrders: async (req, res) => {
      await sweepExpired(req.world);
      const { status } = req.query;
      const orders = newestFirst(req.world.store.db.orders).filter(
        (o) => status === undefined || o.status === status,
      );
      res.json({ orders });
    },
    getProviderPayment: async (req, res) => {
      await sweepExpired(req.world);
      res.json(paymentView(req.world.store.db, req.params.paymentId));
    },
    approveProviderPayment: async (req, res) => {
      const id = req.params.paymentId;
      const now = req.world.clock.now();
      await req.world.store.commit((db) => approvePayment(db, id, now));
      res.json(paymentView(req.world.store.db, id));
    },
    cancelProviderPayment: async (req, res) => {
      const id = req.params.paymentId;
      const now = req.world.clock.now();
      await req.world.store.commit((db) => cancelPayment(db, id, now));
      res.json(paymentView(req.world.store.db, id));
    },
  } satisfies Handlers;
}
