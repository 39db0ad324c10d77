import type { MatrixRole, World } from './authz-fixtures';

/**
 * The authorisation matrix calls a payment route that names a card or an invoice
 * (`/api/payment/methods/:id`, `/api/payment/invoices/:id/pdf`) on one of the caller's own, made
 * before each call: these routes answer 404 for anyone else's (decision 0250).
 */
export async function paymentFixtureUrl(w: World, who: MatrixRole, url: string): Promise<string> {
  if (!/^\/api\/payment\/(methods|invoices)\/:id/.test(url)) return url;
  const userId = who === 'anonymous' ? w.users.owner.user.id : w.users[who].user.id;
  if (url.startsWith('/api/payment/methods/')) {
    const method = await w.ctx.db
      .insertInto('payment_methods')
      .values({ user_id: userId, provider: 'local', provider_method_id: `pm_local_ok_matrix${Math.random().toString(36).slice(2, 8)}`, brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2099 })
      .returning('id')
      .executeTakeFirstOrThrow();
    return url.replace(':id', String(method.id));
  }
  const invoice = await w.ctx.db
    .insertInto('invoices')
    .values({
      number: `MATRIX-${Math.random().toString(36).slice(2, 10)}`,
      user_id: userId,
      subscription_id: null,
      status: 'paid',
      provider: 'local',
      currency: 'USD',
      subtotal: 1000,
      total: 1000,
      lines: JSON.stringify([{ kind: 'plan', description: 'Pro (month)', amount: 1000, plan_name: 'Pro', interval: 'month', from: '2026-01-01', to: '2026-02-01' }]),
      change: JSON.stringify({ plan: 'pro' }),
      coupon: null,
      created_at: w.ctx.now(),
      paid_at: w.ctx.now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return url.replace(':id', String(invoice.id));
}
