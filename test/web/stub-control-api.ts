import express, { type Express } from 'express';
import { dashboardRouter } from '../../src/web/dashboard.js';

/**
 * A stand-in for the control API of other areas, built to the shapes the helpers agreed on
 * (helper brief): lets the dashboard test exercise every section before those areas merge.
 */
export function stubControlApi(): Express {
  const accounts = [
    {
      email: 'buyer@sandbox.test',
      fullName: 'Funded Buyer',
      about: 'funded',
      balance_cents: 100000,
      api_key: 'mk_test_b',
    },
    {
      email: 'broke@sandbox.test',
      fullName: 'Empty Wallet Buyer',
      about: 'empty',
      balance_cents: 0,
      api_key: 'mk_test_c',
    },
  ];
  let active: { id: string; name: string }[] = [];
  const requests = [
    {
      id: 'r1',
      at: '2026-01-01T00:00:01.000Z',
      method: 'GET',
      path: '/api/auth/me',
      query: {},
      status: 200,
      duration_ms: 3,
      scenario: null,
      sandbox_id: 'default',
      request_headers: {},
      request_body: null,
      response_body: { email: 'buyer@sandbox.test' },
    },
  ];
  const payments = [
    {
      id: 'pay-1',
      status: 'pending',
      kind: 'order',
      amount_cents: 1999,
      email: 'broke@sandbox.test',
      created_at: '2026-01-01T00:00:00.000Z',
    },
  ];
  const orders = [
    {
      id: 'ord-1',
      status: 'pending_payment',
      total_cents: 1999,
      paymentMethod: 'payprovider',
      created_at: '2026-01-01T00:00:00.000Z',
    },
  ];
  const snapshots: { name: string; created_at: string }[] = [];
  let clock = { now: '2026-01-01T00:00:00.000Z', frozen: true };
  let nextId = 1;

  const ops: Record<string, string[]> = {
    '/__sandbox/health': ['get'],
    '/__sandbox/clock': ['get', 'post'],
    '/__sandbox/reset': ['post'],
    '/__sandbox/accounts': ['get'],
    '/__sandbox/wallets/{email}/fund': ['post'],
    '/__sandbox/scenarios': ['get', 'post', 'delete'],
    '/__sandbox/scenarios/{id}': ['delete'],
    '/__sandbox/scenarios/catalog': ['get'],
    '/__sandbox/requests': ['get', 'delete'],
    '/__sandbox/requests/{id}': ['get'],
    '/__sandbox/payments': ['get'],
    '/__sandbox/payprovider/{paymentId}/approve': ['post'],
    '/__sandbox/payprovider/{paymentId}/cancel': ['post'],
    '/__sandbox/orders': ['get'],
    '/__sandbox/snapshots': ['get', 'post'],
    '/__sandbox/snapshots/{name}/restore': ['post'],
    '/__sandbox/snapshots/{name}': ['delete'],
  };
  const spec = {
    openapi: '3.0.3',
    paths: Object.fromEntries(
      Object.entries(ops).map(([p, ms]) => [p, Object.fromEntries(ms.map((m) => [m, {}]))]),
    ),
  };
  spec.paths['/__sandbox/scenarios'].post = {
    requestBody: {
      content: {
        'application/json': { schema: { properties: { name: {}, times: {} }, required: ['name'] } },
      },
    },
  };

  const app = express();
  app.use(express.json());
  app.use(dashboardRouter());
  app.get('/openapi.json', (_req, res) => void res.json(spec));
  app.get('/__sandbox/health', (_req, res) => void res.json({ status: 'ok', version: 'stub', seed: 1 }));
  app.get('/__sandbox/clock', (_req, res) => void res.json(clock));
  app.post('/__sandbox/clock', (req, res) => {
    if (req.body.freeze !== undefined) clock = { ...clock, frozen: req.body.freeze };
    res.json(clock);
  });
  app.post('/__sandbox/reset', (_req, res) => void res.json({ success: true, seed: 1, clock }));
  app.get('/__sandbox/accounts', (_req, res) => void res.json({ accounts }));
  app.post('/__sandbox/wallets/:email/fund', (req, res) => {
    const account = accounts.find((a) => a.email === req.params.email)!;
    account.balance_cents += req.body.amount_cents as number;
    res.json({ email: account.email, balance_cents: account.balance_cents });
  });
  app.get(
    '/__sandbox/scenarios/catalog',
    (_req, res) =>
      void res.json({
        scenarios: [
          { name: 'wallet.insufficient', description: 'checkouts go to the provider' },
          { name: 'rates.stale', description: 'old rates' },
        ],
      }),
  );
  app.get('/__sandbox/scenarios', (_req, res) => void res.json({ scenarios: active }));
  app.post('/__sandbox/scenarios', (req, res) => {
    const entry = { id: `s${nextId++}`, name: req.body.name as string };
    active.push(entry);
    res.status(201).json(entry);
  });
  app.delete('/__sandbox/scenarios/:id', (req, res) => {
    active = active.filter((a) => a.id !== req.params.id);
    res.status(204).end();
  });
  app.get('/__sandbox/requests', (_req, res) => void res.json({ requests: requests.slice().reverse() }));
  app.get(
    '/__sandbox/requests/:id',
    (req, res) => void res.json(requests.find((r) => r.id === req.params.id)),
  );
  app.get(
    '/__sandbox/payments',
    (_req, res) => void res.json({ payments: payments.filter((p) => p.status === 'pending') }),
  );
  app.post('/__sandbox/payprovider/:id/:verdict', (req, res) => {
    const payment = payments.find((p) => p.id === req.params.id)!;
    payment.status = req.params.verdict === 'approve' ? 'approved' : 'cancelled';
    orders[0].status = req.params.verdict === 'approve' ? 'paid' : 'cancelled';
    res.json(payment);
  });
  app.get('/__sandbox/orders', (_req, res) => void res.json({ orders }));
  app.get('/__sandbox/snapshots', (_req, res) => void res.json({ snapshots }));
  app.post('/__sandbox/snapshots', (req, res) => {
    snapshots.push({ name: req.body.name as string, created_at: clock.now });
    res.status(201).json(snapshots.at(-1));
  });
  app.post('/__sandbox/snapshots/:name/restore', (_req, res) => void res.json({ success: true }));
  /** Adds a journal entry, as the journal would for an API call. */
  app.locals.record = (path: string) =>
    requests.push({ ...requests[0], id: `r${nextId++}`, path, at: '2026-01-01T00:00:02.000Z' });
  return app;
}
