// The dashboard's sections driven in headless Chromium against a stand-in control API with the
// agreed shapes (stub-control-api.ts): proves the page's own logic before the real areas merge.
// dashboard.e2e.test.ts drives the same clicks against the real sandbox.
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHROMIUM, chromiumMissing } from '../contract/contract.js';
import { stubControlApi } from './stub-control-api.js';

const noBrowser = chromiumMissing();

describe.skipIf(noBrowser)('dashboard sections against a stand-in control API', () => {
  const app = stubControlApi();
  let server: Server;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    server = await new Promise<Server>((resolve) => {
      const s = app.listen(0, '127.0.0.1', () => resolve(s));
    });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(`http://127.0.0.1:${(server.address() as AddressInfo).port}/__sandbox/ui`);
    await page.waitForSelector('body[data-ready="true"]');
    expect(errors).toEqual([]);
    expect(await page.$$('[data-test$=-unavailable]')).toHaveLength(0);
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  it('funds a wallet and shows the new balance', async () => {
    await page.fill('tr[data-email="broke@sandbox.test"] input', '12.34');
    await page.click('[data-test="fund-broke@sandbox.test"]');
    await expect.poll(() => page.textContent('[data-test="balance-broke@sandbox.test"]')).toBe('12.34 USD');
    expect(await page.textContent('[data-test=accounts-status]')).toBe(
      'Funded broke@sandbox.test with 12.34 USD',
    );
  });

  it('switches a listed scenario on and off', async () => {
    await page.check('[data-test="scenario-wallet.insufficient"]');
    await page.waitForSelector('[data-test="active-wallet.insufficient"]');
    await page.uncheck('[data-test="scenario-wallet.insufficient"]');
    await page.waitForSelector('[data-test="active-wallet.insufficient"]', { state: 'detached' });
    await page.fill('[data-test=scenario-custom]', 'rates.stale');
    await page.click('text=Switch on');
    await page.waitForSelector('[data-test="active-rates.stale"]');
  });

  it('shows a new request in the live journal and opens it', async () => {
    (app.locals.record as (path: string) => void)('/api/shop/cart');
    const row = await page.waitForSelector('[data-test=journal-rows] tr[data-path="/api/shop/cart"]', {
      timeout: 10_000,
    });
    await row.click();
    await expect
      .poll(() => page.textContent('[data-test=journal-detail-json]'))
      .toContain('"/api/shop/cart"');
  });

  it('approves a pending provider payment and the order shows paid', async () => {
    await page.click('[data-test="approve-pay-1"]');
    await page.waitForSelector('[data-test="approve-pay-1"]', { state: 'detached' });
    expect(await page.textContent('[data-test=payments-status]')).toBe('Payment pay-1 approved');
    await expect.poll(() => page.textContent('[data-test=orders-table]')).toContain('paid');
  });

  it('saves a snapshot and lists it', async () => {
    await page.fill('[aria-label="snapshot name"]', 'before-checkout');
    await page.click('text=Save snapshot');
    await page.waitForSelector('[data-snapshot="before-checkout"]');
  });
});
