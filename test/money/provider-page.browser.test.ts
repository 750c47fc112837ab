import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';
import { addListing, balanceOf } from './helpers.js';

/** A real browser clicks the provider page's buttons; skipped where no Chromium is installed. */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const hasBrowser = existsSync(CHROMIUM);

describe.skipIf(!hasBrowser)('the provider page in a browser', () => {
  let sb: TestSandbox;
  let server: ReturnType<TestSandbox['app']['listen']>;
  let base: string;
  let browser: Browser;

  beforeAll(async () => {
    sb = await makeSandbox();
    server = sb.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function checkoutUrl(listingId: string): Promise<string> {
    const res = await fetch(`${base}/api/shop/checkout`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${accounts.broke.apiKey}` },
      body: JSON.stringify({ cartItems: [{ listing_id: listingId, quantity: 1 }], deliveryMethod: 'pickup' }),
    });
    const body = (await res.json()) as { approvalUrl: string };
    expect(body.approvalUrl.startsWith(`${base}/sandbox/payprovider/`)).toBe(true);
    return body.approvalUrl;
  }

  it('Approve pays the order; Cancel releases the stock', async () => {
    const listing = addListing(sb, { price_cents: 1500, quantity_available: 2 });
    const page = await browser.newPage();
    await page.goto(await checkoutUrl(listing.id));
    expect(await page.textContent('#amount')).toBe('15.00 USD');
    await page.click('#approve');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'approved');
    expect(balanceOf(sb, accounts.seller.email)).toBe(2500 + 1500 - 75);

    await page.goto(await checkoutUrl(listing.id));
    expect(sb.world.store.db.listings[listing.id].quantity_available).toBe(0);
    await page.click('#cancel');
    await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'cancelled');
    expect(sb.world.store.db.listings[listing.id].quantity_available).toBe(1);
    await page.close();
  });

  it('works from an isolated sandbox behind an admin token, and returns to the shop', async () => {
    const guarded = await makeSandbox({ adminToken: 'team-token' });
    const server = guarded.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const at = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const job = { 'x-sandbox-id': 'job-42' };
      const listings = (await (await fetch(`${at}/api/shop/listings`, { headers: job })).json()) as {
        listings: { id: string }[];
      };
      const res = await fetch(`${at}/api/shop/checkout`, {
        method: 'POST',
        headers: {
          ...job,
          'content-type': 'application/json',
          authorization: `Bearer ${accounts.broke.apiKey}`,
        },
        body: JSON.stringify({
          cartItems: [{ listing_id: listings.listings[0].id, quantity: 1 }],
          deliveryMethod: 'pickup',
          returnUrl: `${at}/docs?back=1`,
        }),
      });
      const { approvalUrl, paymentId } = (await res.json()) as { approvalUrl: string; paymentId: string };
      expect(approvalUrl).toBe(`${at}/sandbox/payprovider/${paymentId}?sandbox_id=job-42`);
      const page = await browser.newPage();
      await page.goto(approvalUrl);
      await page.click('#approve');
      await page.waitForFunction(() => document.querySelector('#status')?.textContent === 'approved');
      expect((await guarded.worlds.open('job-42')).store.db.payments[paymentId].status).toBe('approved');
      await Promise.all([page.waitForURL(`${at}/docs?back=1`), page.click('#return')]);
      await page.close();
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
