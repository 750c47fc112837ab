import { describe, expect, it } from 'vitest';
import { accounts, logIn, useSandbox } from './support/client.js';
import { buyableListing, checkoutBody } from './support/shop.js';

// Interface document, "6. Events": "Webhooks, notifications or any other events: not shown."
// The sandbox emits none: its contract (served at /openapi.json) declares no webhook or callback,
// and the one message the document implies ("a reset link has been sent", 4.3 and 7 rule 2) is
// kept in the sandbox's mailbox instead of being sent (openapi.yaml `forgotPassword` and `getMailbox`; README.md, "Control API").
const ctx = useSandbox();

type Mailbox = { messages: { to: string; token: string | null }[] };

describe('6. Events: "Webhooks, notifications or any other events: not shown."', () => {
  it('"Webhooks, notifications or any other events: not shown.": the contract the sandbox serves declares no webhooks and no callbacks', async () => {
    const res = await ctx.api.get<Record<string, unknown>>('/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body).not.toHaveProperty('webhooks');
    expect(res.text).not.toMatch(/"callbacks"\s*:/);
  });

  it('"Forgot-password always returns success, whatever the e-mail." (7, rule 2): the reset link is kept in the mailbox, once per request (sandbox choice)', async () => {
    await ctx.api.post('/api/auth/forgot-password', { email: accounts.buyer.email });
    await ctx.api.post('/api/auth/forgot-password', { email: 'nobody-here@example.com' });
    const buyer = await ctx.api.get<Mailbox>('/__sandbox/mailbox', { query: { to: accounts.buyer.email } });
    expect(buyer.body.messages).toHaveLength(1);
    expect(buyer.body.messages[0]).toMatchObject({ to: accounts.buyer.email, token: expect.any(String) });
    // An address with no account gets a mail without a token (the sandbox's choice, as live services do).
    const nobody = await ctx.api.get<Mailbox>('/__sandbox/mailbox', {
      query: { to: 'nobody-here@example.com' },
    });
    expect(nobody.body.messages).toEqual([
      expect.objectContaining({ to: 'nobody-here@example.com', token: null }),
    ]);
  });

  it('"Webhooks, notifications or any other events: not shown.": a checkout sends no message of its own', async () => {
    const token = await logIn(ctx.api, accounts.buyer.email, accounts.buyer.password);
    const listing = await buyableListing(ctx.api);
    expect((await ctx.api.post('/api/shop/checkout', checkoutBody(listing.id), { token })).status).toBe(200);
    const all = await ctx.api.get<Mailbox>('/__sandbox/mailbox');
    expect(all.body.messages).toEqual([]);
  });
});
