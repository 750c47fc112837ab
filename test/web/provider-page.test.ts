import { describe, expect, it } from 'vitest';
import { accounts, expectError, makeSandbox, type TestSandbox } from '../helpers/sandbox.js';

const ADMIN = 'team-token';
const BROKE = `Bearer ${accounts.broke.apiKey}`;

/** An empty-wallet checkout of a seeded listing in sandbox `id` (no header for 'default'). */
async function checkout(sb: TestSandbox, id: string, extra: Record<string, unknown> = {}) {
  const sandbox = id === 'default' ? {} : { 'X-Sandbox-Id': id };
  const listings = await sb.http.get('/api/shop/listings').set(sandbox);
  const listing = (listings.body.listings as { id: string; quantity_available: number }[]).find(
    (l) => l.quantity_available > 0,
  )!;
  const res = await sb.http
    .post('/api/shop/checkout')
    .set({ Authorization: BROKE, ...sandbox })
    .send({ cartItems: [{ listing_id: listing.id, quantity: 1 }], deliveryMethod: 'pickup', ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { url: new URL(res.body.approvalUrl as string), paymentId: res.body.paymentId as string };
}

const statusIn = async (sb: TestSandbox, id: string, paymentId: string) =>
  (await sb.worlds.open(id)).store.db.payments[paymentId].status;

describe('the approval URL of an isolated sandbox', () => {
  it('carries sandbox_id, and none for the default sandbox', async () => {
    const sb = await makeSandbox();
    const isolated = await checkout(sb, 'job-7');
    expect(isolated.url.pathname).toBe(`/sandbox/payprovider/${isolated.paymentId}`);
    expect(isolated.url.search).toBe('?sandbox_id=job-7');
    const shared = await checkout(sb, 'default');
    expect(shared.url.search).toBe('');
    const subscribe = await sb.http
      .post('/api/shop/subscriptions/subscribe')
      .set({ Authorization: BROKE, 'X-Sandbox-Id': 'job-7' })
      .send({ planId: 'pro', billingCycle: 'monthly', paymentMethod: 'payprovider', currency: 'USD' });
    expect(new URL(subscribe.body.approvalUrl as string).search).toBe('?sandbox_id=job-7');
  });

  it('opens in a browser that sends no header: the page finds the payment in its sandbox', async () => {
    const sb = await makeSandbox();
    const { url, paymentId } = await checkout(sb, 'job-7');
    const page = await sb.http.get(url.pathname + url.search);
    expect(page.status).toBe(200);
    expect(page.text).toContain('>Approve</button>');
    expect(page.text).toContain(`"query":"?sandbox_id=job-7"`);
    // The same payment id without the sandbox is not in the default sandbox.
    expectError(await sb.http.get(url.pathname), 404, `Payment not found: ${paymentId}`);
  });

  it('refuses a malformed sandbox_id with 400', async () => {
    const sb = await makeSandbox();
    const { url } = await checkout(sb, 'job-7');
    for (const bad of ['', 'a%20b', 'x'.repeat(65), 'a/b'])
      expectError(await sb.http.get(`${url.pathname}?sandbox_id=${bad}`), 400, /query sandbox_id must be/);
    expectError(await sb.http.get(`${url.pathname}?sandbox_id=a&sandbox_id=b`), 400, /query sandbox_id/);
  });
});

describe("the provider page's buttons", () => {
  it('approve without the admin token, in the sandbox of the URL, while the control API still needs it', async () => {
    const sb = await makeSandbox({ adminToken: ADMIN });
    const { url, paymentId } = await checkout(sb, 'job-7');
    expect((await sb.http.get(url.pathname + url.search)).status).toBe(200);
    const control = await sb.http
      .post(`/__sandbox/payprovider/${paymentId}/approve`)
      .set('X-Sandbox-Id', 'job-7');
    expectError(control, 401, 'The control API needs the X-Sandbox-Admin-Token header');
    expect(await statusIn(sb, 'job-7', paymentId)).toBe('pending');

    const res = await sb.http.post(`${url.pathname}/approve${url.search}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.payment).toMatchObject({ id: paymentId, status: 'approved' });
    expect(res.body.order.status).toBe('paid');
    expect(await statusIn(sb, 'job-7', paymentId)).toBe('approved');
    const page = await sb.http.get(url.pathname + url.search);
    expect(page.text).toContain('<strong>approved</strong>');
    expect(page.text).not.toContain('>Approve</button>');
    expectError(await sb.http.post(`${url.pathname}/cancel${url.search}`), 409, /already approved/);
  });

  it('cancel releases the order; an unknown payment is a 404 and nothing else changes', async () => {
    const sb = await makeSandbox({ adminToken: ADMIN });
    const { url, paymentId } = await checkout(sb, 'job-8');
    expectError(await sb.http.post(`${url.pathname}/cancel`), 404, `Payment not found: ${paymentId}`);
    expect(await statusIn(sb, 'job-8', paymentId)).toBe('pending');
    const res = await sb.http.post(`${url.pathname}/cancel${url.search}`);
    expect(res.status).toBe(200);
    expect(res.body.order.status).toBe('cancelled');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expectError(await sb.http.post(`/sandbox/payprovider/${unknown}/approve${url.search}`), 404);
  });

  it('are refused from another site (Origin), and nothing changes', async () => {
    const sb = await makeSandbox();
    const { url, paymentId } = await checkout(sb, 'job-9');
    const forged = await sb.http
      .post(`${url.pathname}/approve${url.search}`)
      .set('Origin', 'https://evil.example');
    expectError(forged, 403, "The provider page's buttons work only from the provider page itself");
    expect(await statusIn(sb, 'job-9', paymentId)).toBe('pending');
    const host = await sb.http
      .post(`${url.pathname}/approve${url.search}`)
      .set('Host', 'shop.test')
      .set('Origin', 'http://shop.test');
    expect(host.status).toBe(200);
  });
});

describe("the provider page's return link", () => {
  it("leads to the checkout's returnUrl, kept on the payment", async () => {
    const sb = await makeSandbox();
    const returnUrl = 'https://shop.example/orders/42?x=1&y="2"';
    const { url, paymentId } = await checkout(sb, 'job-7', { returnUrl });
    const page = await sb.http.get(url.pathname + url.search);
    expect(page.text).toContain(
      '<a id="return" href="https://shop.example/orders/42?x=1&#38;y=&#34;2&#34;">',
    );
    const payments = await sb.http.get('/__sandbox/payments').set('X-Sandbox-Id', 'job-7');
    expect(payments.body.payments.find((p: { id: string }) => p.id === paymentId).return_url).toBe(returnUrl);
  });

  it('leads back to the dashboard of the sandbox without one', async () => {
    const sb = await makeSandbox();
    const isolated = await checkout(sb, 'job-7');
    const page = await sb.http.get(isolated.url.pathname + isolated.url.search);
    expect(page.text).toContain(
      '<a id="return" href="/__sandbox/ui?sandbox_id=job-7">Back to the sandbox</a>',
    );
    const shared = await checkout(sb, 'default');
    expect((await sb.http.get(shared.url.pathname)).text).toContain('<a id="return" href="/__sandbox/ui">');
  });

  it('refuses a returnUrl that is not http(s), so no script can hide in the link', async () => {
    const sb = await makeSandbox();
    for (const returnUrl of ['javascript:alert(1)', 'data:text/html,x', '/relative', 'ftp://x.test/'])
      expectError(
        await sb.http
          .post('/api/shop/checkout')
          .set('Authorization', BROKE)
          .send({
            cartItems: [{ listing_id: '00000000-0000-4000-8000-000000000000', quantity: 1 }],
            returnUrl,
          }),
        400,
        /returnUrl/,
      );
  });
});
