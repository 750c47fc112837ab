// End to end: the dashboard in headless Chromium against an in-process sandbox. Parts whose
// control calls belong to other areas skip (with the reason printed) until openapi.yaml has them.
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../../src/index.js';
import { accounts } from '../helpers/sandbox.js';
import { absent, CHROMIUM, chromiumMissing, skipReason } from '../contract/contract.js';

const noBrowser = chromiumMissing();
let sandbox: Sandbox;
let browser: Browser;
let page: Page;

async function api(
  method: string,
  path: string,
  body?: unknown,
  key?: string,
): Promise<Record<string, unknown>> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (key) headers.authorization = `Bearer ${key}`;
  const res = await fetch(sandbox.url + path, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = (await res.json()) as Record<string, unknown>;
  expect(res.ok, `${method} ${path}: ${JSON.stringify(data)}`).toBe(true);
  return data;
}

describe.skipIf(noBrowser)('dashboard at /__sandbox/ui in headless Chromium', () => {
  beforeAll(async () => {
    // Pinned: the clock tests read the dates the dashboard shows.
    sandbox = await startSandbox({ seed: 42, listings: 30, clockStart: '2026-01-01T00:00:00.000Z' });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`${sandbox.url}/__sandbox/ui`);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    expect(errors).toEqual([]);
  });

  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
  });

  it('shows the version and seed, and says which sections this build lacks', async () => {
    await expect.poll(() => page.textContent('[data-test=health]')).toMatch(/seed 42/);
    const sections: [string, string[]][] = [
      ['accounts', ['GET /__sandbox/accounts']],
      ['scenarios', ['GET /__sandbox/scenarios', 'POST /__sandbox/scenarios']],
      ['journal', ['GET /__sandbox/requests']],
    ];
    for (const [id, needs] of sections) {
      const notice = await page.$(`[data-test=${id}-unavailable]`);
      expect(notice !== null, `${id}: "not available" shown iff ${needs} absent`).toBe(
        absent(...needs).length > 0,
      );
    }
  });

  it('advances and freezes the clock, then resets to the seed', async () => {
    await page.fill('[data-test=clock-advance-input]', '25h');
    await page.click('[data-test=clock-advance]');
    await expect.poll(() => page.textContent('[data-test=clock-status]')).toMatch(/Clock now 2026-01-02 01:/);
    expect((await sandbox.clock.get()).now).toMatch(/^2026-01-02T01:/);

    await page.click('[data-test=clock-freeze]');
    await expect.poll(() => page.textContent('[data-test=clock-frozen]')).toBe('frozen');
    expect((await sandbox.clock.get()).frozen).toBe(true);

    await page.click('[data-test=reset]');
    await page.click('[data-test=reset]'); // the second click confirms
    await expect.poll(() => page.textContent('[data-test=snapshots-status]')).toMatch(/Reset to seed 42/);
    await expect.poll(() => page.textContent('[data-test=clock-frozen]')).toBe('running');
    const clock = await sandbox.clock.get();
    expect(clock.frozen).toBe(false);
    expect(clock.now).toMatch(/^2026-01-01T00:/);
  });

  it.skipIf(skipReason('fund a wallet', 'GET /__sandbox/accounts', 'POST /__sandbox/wallets/{email}/fund'))(
    'funds a wallet',
    async () => {
      const email = accounts.broke.email;
      const before = (await api('GET', '/__sandbox/accounts')).accounts as {
        email: string;
        balance_cents: number;
      }[];
      const start = before.find((a) => a.email === email)!.balance_cents;
      await page.fill(`tr[data-email="${email}"] input`, '12.34');
      await page.click(`[data-test="fund-${email}"]`);
      await expect
        .poll(() => page.textContent('[data-test=accounts-status]'))
        .toMatch(/Funded broke@sandbox.test/);
      const after = (await api('GET', '/__sandbox/accounts')).accounts as {
        email: string;
        balance_cents: number;
      }[];
      expect(after.find((a) => a.email === email)!.balance_cents).toBe(start + 1234);
      await expect
        .poll(() => page.textContent(`[data-test="balance-${email}"]`))
        .toContain(`${Math.floor((start + 1234) / 100).toLocaleString('en-US')}.34`);
    },
  );

  it.skipIf(
    skipReason(
      'switch a scenario on',
      'GET /__sandbox/scenarios',
      'POST /__sandbox/scenarios',
      'GET /__sandbox/scenarios/catalog',
    ),
  )('switches a scenario on and off', async () => {
    const toggles = await page.$$eval('input[data-test^="scenario-"][type=checkbox]', (els) =>
      els.map((e) => e.getAttribute('data-test')!.slice('scenario-'.length)),
    );
    expect(toggles.length).toBeGreaterThan(0);
    // Prefer a switch that cannot disturb the dashboard's own control calls.
    const name =
      ['rates.stale', 'listing.not-found', 'wallet.insufficient'].find((n) => toggles.includes(n)) ??
      toggles[0];
    await page.check(`[data-test="scenario-${name}"]`);
    await page.waitForSelector(`[data-test="active-${name}"]`);
    expect(JSON.stringify(await api('GET', '/__sandbox/scenarios'))).toContain(name);
    await page.uncheck(`[data-test="scenario-${name}"]`);
    await page.waitForSelector(`[data-test="active-${name}"]`, { state: 'detached' });
  });

  it.skipIf(skipReason('see a request in the journal', 'GET /__sandbox/requests'))(
    'shows a new request in the live journal and opens it',
    async () => {
      await api('GET', '/api/auth/me', undefined, accounts.buyer.apiKey);
      const row = await page.waitForSelector('[data-test=journal-rows] tr[data-path="/api/auth/me"]', {
        timeout: 10_000,
      });
      await row.click();
      await expect.poll(() => page.textContent('[data-test=journal-detail-json]')).toContain('/api/auth/me');
    },
  );

  it.skipIf(skipReason('see a warning in the journal', 'GET /__sandbox/requests'))(
    'shows what the sandbox warned about beside the request',
    async () => {
      await api('GET', '/api/shop/categories?_=42');
      const notes = await page.waitForSelector(
        '[data-test=journal-rows] tr[data-path="/api/shop/categories"] [data-test=journal-notes]',
        { timeout: 10_000 },
      );
      expect(await notes.textContent()).toBe('unknown query parameter "_" ignored');
    },
  );

  it.skipIf(
    skipReason(
      'approve a pending payment',
      'GET /api/shop/listings',
      'POST /api/shop/checkout',
      'GET /__sandbox/payments',
      'POST /__sandbox/payprovider/{paymentId}/approve',
    ),
  )('approves a pending provider payment', async () => {
    // The empty-wallet buyer's checkout goes to the provider: a pending payment appears.
    const { listings } = (await api('GET', '/api/shop/listings?type=mall&limit=20')) as {
      listings: { id: string; price_cents: number }[];
    };
    const listing = listings.find((l) => l.price_cents > 0)!;
    const checkout = await api(
      'POST',
      '/api/shop/checkout',
      {
        cartItems: [{ listing_id: listing.id, quantity: 1 }],
        shippingAddress: { street: '1 Test Street', city: 'Berlin', zip: '10115' },
        deliveryMethod: 'shipping',
        paymentMethod: 'credit_wallet',
        shippingCostCents: 0,
      },
      accounts.broke.apiKey,
    );
    expect(checkout.paymentMethod).toBe('payprovider');
    const paymentId = String(checkout.approvalUrl).split('/').pop()!;
    await page.click(`[data-test="approve-${paymentId}"]`, { timeout: 10_000 });
    await expect.poll(() => page.textContent('[data-test=payments-status]')).toMatch(/approved/);
    await page.waitForSelector(`[data-test="approve-${paymentId}"]`, { state: 'detached' });
    const pending = JSON.stringify(await api('GET', '/__sandbox/payments?status=pending'));
    expect(pending).not.toContain(paymentId);
  });
});

describe.skipIf(noBrowser)('interactive docs at /docs in headless Chromium', () => {
  let docsSandbox: Sandbox;
  let docsBrowser: Browser;
  beforeAll(async () => {
    docsSandbox = await startSandbox({ listings: 10 });
    docsBrowser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await docsBrowser?.close();
    await docsSandbox?.close();
  });

  it('renders the contract and "Try it out" calls this sandbox', async () => {
    const docs = await docsBrowser.newPage();
    const offsite: string[] = [];
    docs.on('request', (r) => {
      if (!r.url().startsWith(docsSandbox.url) && !r.url().startsWith('data:')) offsite.push(r.url());
    });
    await docs.goto(`${docsSandbox.url}/docs`);
    await docs.click('#operations-sandbox-getHealth .opblock-summary-control', { timeout: 20_000 });
    await docs.click('#operations-sandbox-getHealth button.execute');
    const status = docs.locator(
      '#operations-sandbox-getHealth .live-responses-table tr.response .response-col_status',
    );
    await expect.poll(() => status.first().textContent(), { timeout: 10_000 }).toContain('200');
    const body = await docs
      .locator('#operations-sandbox-getHealth .live-responses-table .microlight')
      .first()
      .textContent();
    expect(body).toContain('"status": "ok"');
    expect(offsite).toEqual([]);
  });
});
