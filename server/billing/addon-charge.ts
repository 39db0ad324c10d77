import type { AppContext } from '../context';
import { ApiError } from '../http/errors';
import { Messages } from '../../schema/messages';
import type { AddonCharge } from './addons';
import { paymentProvider } from './payments/registry';
import { PaymentDeclinedError } from './payments/provider';

/**
 * Charges an add-on through the configured payment provider (decision 0255): the user's customer
 * at the provider and their newest saved card (payments part, decision 0250). Without a saved card
 * the purchase is refused ("Choose a card to pay with."); a refused card answers 402 with the
 * provider's reason, and nothing is stored.
 */
export function addonCharge(ctx: AppContext): AddonCharge {
  return async ({ userId, subscriptionId, description, amount, currency, idempotencyKey }) => {
    const provider = paymentProvider(ctx);
    const customer = await ctx.db.selectFrom('payment_customers').select('customer_id').where('user_id', '=', userId).where('provider', '=', provider.key).executeTakeFirst();
    const method = customer
      ? await ctx.db.selectFrom('payment_methods').select('provider_method_id').where('user_id', '=', userId).where('provider', '=', provider.key).orderBy('id', 'desc').executeTakeFirst()
      : undefined;
    if (!customer || !method) throw new ApiError(422, Messages.cardRequired, 'card_required', [`card_id: ${Messages.cardRequired}`]);
    try {
      const result = await provider.charge({
        customerId: customer.customer_id,
        paymentMethodId: method.provider_method_id,
        amount,
        currency,
        invoiceNumber: `addon-${subscriptionId}`,
        description,
        lines: [{ description, amount }],
        idempotencyKey,
      });
      return { status: 'paid', ref: result.chargeId };
    } catch (error) {
      if (error instanceof PaymentDeclinedError) throw new ApiError(402, error.message, error.code);
      throw error;
    }
  };
}
