import type { AppContext } from '../../context';
import { ApiError, notFound } from '../../http/errors';
import { Messages } from '../../../schema/messages';
import { paymentProvider } from './registry';
import { CardSetupNotFoundError, PaymentDeclinedError, type PaymentMethodInfo, type ProviderEvent } from './provider';
import { customerOf, declined, methodView, type PaymentMethodView } from './service';
import { cardSetupBody, finishCardSetupBody, type CardSetupStart } from '../../../schema/payments';

/**
 * Card entry on the provider's own page (decision 0300): with Stripe, "Add card" asks for a Checkout
 * Session in setup mode, the browser goes to Stripe's page, and comes back to the page it left with
 * `card_setup={CHECKOUT_SESSION_ID}` (or `card_setup=cancelled`). The return asks the server to
 * finish: it retrieves the session, its SetupIntent and PaymentMethod at Stripe and stores brand,
 * last four digits and expiry as the user's saved card. Stripe's `checkout.session.completed`
 * webhook does the same through the job runner, so a browser that never comes back still leaves the
 * card saved. Both paths store one row per PaymentMethod (unique (provider, provider_method_id)).
 * No card number ever reaches this server.
 */

/** Both bodies and the start's answer are shared with the app: schema/payments.ts. */
export { cardSetupBody, finishCardSetupBody };

/** Only a path on this server: never another site (`//host`, `/\host`, `https:`). */
function localPath(value: string): string {
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\') || /[\s]/.test(value)) {
    throw new ApiError(422, `${Messages.validationPrefix}return_to must be a path of this app`, 'validation', { field: 'return_to' });
  }
  // The page's own card_setup answer is not carried into the next round trip.
  const url = new URL(value, 'http://local');
  url.searchParams.delete('card_setup');
  return url.pathname + url.search;
}

export async function startCardSetup(ctx: AppContext, userId: number, returnTo: string): Promise<CardSetupStart> {
  const provider = paymentProvider(ctx);
  if (!provider.startCardSetup) throw new ApiError(422, Messages.cardSetupUnsupported, 'card_setup_unsupported');
  const path = localPath(returnTo);
  const back = `${ctx.config.publicUrl.replace(/\/+$/, '')}${path}${path.includes('?') ? '&' : '?'}card_setup=`;
  const customerId = await customerOf(ctx, userId);
  // Stripe puts the session id in place of {CHECKOUT_SESSION_ID} when it sends the browser back.
  const session = await provider.startCardSetup({ customerId, userId, successUrl: `${back}{CHECKOUT_SESSION_ID}`, cancelUrl: `${back}cancelled` });
  return { session_id: session.sessionId, url: session.url };
}

/** Stores a provider's card for a user once: a second finish of the same session answers the same row. */
async function storeCard(ctx: AppContext, userId: number, providerKey: string, info: PaymentMethodInfo): Promise<PaymentMethodView> {
  await ctx.db
    .insertInto('payment_methods')
    .values({ user_id: userId, provider: providerKey, provider_method_id: info.providerMethodId, brand: info.brand, last4: info.last4, exp_month: info.expMonth, exp_year: info.expYear })
    .onConflict((oc) => oc.columns(['provider', 'provider_method_id']).doNothing())
    .execute();
  const row = await ctx.db.selectFrom('payment_methods').selectAll().where('provider', '=', providerKey).where('provider_method_id', '=', info.providerMethodId).executeTakeFirstOrThrow();
  if (row.user_id !== userId) throw notFound();
  return methodView(row);
}

/** The return from the provider's page: the card of the caller's finished session, saved. */
export async function finishCardSetup(ctx: AppContext, userId: number, sessionId: string): Promise<PaymentMethodView> {
  const provider = paymentProvider(ctx);
  if (!provider.finishCardSetup) throw new ApiError(422, Messages.cardSetupUnsupported, 'card_setup_unsupported');
  if (!/^cs_[A-Za-z0-9_]+$/.test(sessionId)) throw notFound();
  // A user without a customer at the provider has started no session: any id is someone else's.
  const customer = await ctx.db.selectFrom('payment_customers').select('customer_id').where('user_id', '=', userId).where('provider', '=', provider.key).executeTakeFirst();
  if (!customer) throw notFound();
  let info: PaymentMethodInfo | null;
  try {
    info = await provider.finishCardSetup(customer.customer_id, sessionId);
  } catch (error) {
    if (error instanceof CardSetupNotFoundError) throw notFound();
    if (error instanceof PaymentDeclinedError) throw declined(error);
    throw error;
  }
  if (!info) throw new ApiError(409, Messages.cardSetupIncomplete, 'card_setup_incomplete');
  return storeCard(ctx, userId, provider.key, info);
}

/** The webhook path (job runner): the same finish for the customer's user; an unknown customer or a session not complete is left alone. */
export async function finishCardSetupFromEvent(ctx: AppContext, providerKey: string, event: ProviderEvent): Promise<void> {
  if (!event.customerId || !event.setupSessionId) return;
  const provider = paymentProvider(ctx);
  if (provider.key !== providerKey || !provider.finishCardSetup) return;
  const customer = await ctx.db.selectFrom('payment_customers').select('user_id').where('provider', '=', providerKey).where('customer_id', '=', event.customerId).executeTakeFirst();
  if (!customer) return;
  let info: PaymentMethodInfo | null;
  try {
    info = await provider.finishCardSetup(event.customerId, event.setupSessionId);
  } catch (error) {
    if (error instanceof CardSetupNotFoundError || error instanceof PaymentDeclinedError) return;
    throw error;
  }
  if (info) await storeCard(ctx, customer.user_id, providerKey, info).catch((error) => {
    if (!(error instanceof ApiError)) throw error;
  });
}
