import { describe, expect, it } from 'vitest';
import { accounts, logIn, useSandbox } from './support/client.js';
import { buyableListing, checkoutBody } from './support/shop.js';

// Interface document, "3. States and transitions":
// "No states are named for any resource. States and transitions: not shown."
// The sandbox's documented choice (openapi.yaml `Order`; docs/money.md, "Orders"): orders move
// `pending_payment → paid` and `pending_payment → cancelled`; a wallet payment is paid at once.
const ctx = useSandbox();

type Order = { id: string; status: string };
type Redirect = { paymentMethod: string; approvalUrl: string; orderId: string; paymentId: string };

async function providerOrder(): Promise<{ token: string; redirect: Redirect }> {
  const token = await logIn(ctx.api, accounts.broke.email, accounts.broke.password);
  const listing = await buyableListing(ctx.api);
  const res = await ctx.api.post<Redirect>('/api/shop/checkout', checkoutBody(listing.id), { token });
  expect([res.status, res.body.paymentMethod]).toEqual([200, 'payprovider']);
  return { token, redirect: res.body };
}

const orderStatus = async (token: string, id: string) =>
  (await ctx.api.get<Order>(`/api/shop/orders/${id}`, { token })).body.status;

describe('3. "No states are named for any resource. States and transitions: not shown." (sandbox choice: order statuses)', () => {
  it('"When the balance suffices, the amount is deducted from the wallet." (4.14): that order is paid at once (sandbox choice)', async () => {
    const token = await logIn(ctx.api, accounts.buyer.email, accounts.buyer.password);
    const listing = await buyableListing(ctx.api);
    const res = await ctx.api.post<{ orderId: string }>('/api/shop/checkout', checkoutBody(listing.id), {
      token,
    });
    expect(await orderStatus(token, res.body.orderId)).toBe('paid');
  });

  it('"Otherwise the buyer is sent to the external payment provider." (4.14): that order is pending_payment until the provider approves it, then paid (sandbox choice)', async () => {
    const { token, redirect } = await providerOrder();
    expect(await orderStatus(token, redirect.orderId)).toBe('pending_payment');
    const approve = await ctx.api.post(`/__sandbox/payprovider/${redirect.paymentId}/approve`, {});
    expect(approve.status).toBe(200);
    expect(await orderStatus(token, redirect.orderId)).toBe('paid');
  });

  it('"Otherwise the buyer is sent to the external payment provider." (4.14): cancelled at the provider, that order is cancelled, and stays so (sandbox choice)', async () => {
    const { token, redirect } = await providerOrder();
    expect((await ctx.api.post(`/__sandbox/payprovider/${redirect.paymentId}/cancel`, {})).status).toBe(200);
    expect(await orderStatus(token, redirect.orderId)).toBe('cancelled');
    // No transition out of cancelled: approving afterwards is refused and changes nothing.
    const late = await ctx.api.post(`/__sandbox/payprovider/${redirect.paymentId}/approve`, {});
    expect(late.status).toBe(409);
    expect(await orderStatus(token, redirect.orderId)).toBe('cancelled');
  });
});
