// End to end: the dashboard of a sandbox started with an admin token, in headless Chromium.
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSandbox } from '../helpers/sandbox.js';
import { CHROMIUM, chromiumMissing } from '../contract/contract.js';

const noBrowser = chromiumMissing();
const TOKEN = 'team-token-1234';
let server: Server;
let base: string;
let browser: Browser;

const MISSING = 'needs the X-Sandbox-Admin-Token header';

describe.skipIf(noBrowser)('dashboard of a sandbox with SANDBOX_ADMIN_TOKEN', () => {
  beforeAll(async () => {
    const sb = await makeSandbox({ adminToken: TOKEN, listings: 30 });
    server = sb.app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox'] });
  });

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function open(page: Page, path = '/__sandbox/ui'): Promise<string> {
    await page.goto(base + path);
    await page.waitForSelector('body[data-ready]', { timeout: 20_000 });
    return (await page.getAttribute('body', 'data-ready')) as string;
  }

  it('asks for the token once per tab, keeps it in session storage and sends it', async () => {
    const page = await browser.newPage();
    expect(await open(page)).toBe('token');
    expect(await page.textContent('[data-test=admin-prompt]')).toContain('runs with SANDBOX_ADMIN_TOKEN');
    expect(await page.textContent('main')).not.toContain(MISSING);

    await page.fill('[data-test=admin-token]', 'wrong');
    await Promise.all([page.waitForEvent('load'), page.click('[data-test=admin-submit]')]);
    await page.waitForSelector('body[data-ready]');
    expect(await page.textContent('[data-test=admin-prompt]')).toContain('refused that token');

    await page.fill('[data-test=admin-token]', TOKEN);
    await Promise.all([page.waitForEvent('load'), page.click('[data-test=admin-submit]')]);
    await page.waitForSelector('body[data-ready="true"]', { timeout: 20_000 });
    await page.waitForSelector('[data-test^="balance-"]');
    expect(await page.textContent('main')).not.toContain(MISSING);
    expect(await page.evaluate(() => window.sessionStorage.getItem('sandbox.adminToken'))).toBe(TOKEN);
    expect(await page.evaluate(() => window.localStorage.getItem('sandbox.adminToken'))).toBeNull();

    expect(await open(page)).toBe('true'); // a reload of the tab is not asked again
    await page.click('[data-test=admin-forget]');
    await page.waitForSelector('body[data-ready="token"]');
    await page.close();

    const other = await browser.newPage(); // another tab has its own session storage
    expect(await open(other)).toBe('token');
    await other.close();
  });

  it('opens on the sandbox a provider page links to', async () => {
    const page = await browser.newPage();
    await open(page, '/__sandbox/ui?sandbox_id=job-5');
    expect(await page.inputValue('[aria-label="sandbox id"]')).toBe('job-5');
    await page.close();
  });
});
