import { z } from 'zod';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { requireUser } from '../../auth/guard';
import { ApiError, parseBody } from '../../http/errors';
import { BILLING_OFF_MESSAGE } from '../routes';
import { cardSetupBody, finishCardSetup, finishCardSetupBody, startCardSetup } from './card-setup';
import { cardSetupStartSchema, paymentMethodSchema } from '../../../schema/payments';

/**
 * Card entry on the provider's own page (decision 0300, docs/api/billing.md): start a session
 * (the browser goes to its `url`) and finish it on the way back. Only for a provider with a hosted
 * card page (Stripe); the local provider answers 422 card_setup_unsupported and keeps its form.
 */
export function cardSetupRoutes(app: FastifyInstance, ctx: AppContext) {
  const tag = 'Billing';
  const billingOn = () => {
    if (!ctx.config.billing) throw new ApiError(422, BILLING_OFF_MESSAGE, 'billing_off');
  };
  app.post(
    '/api/payment/card-setup',
    {
      config: {
        docs: {
          tag,
          summary: 'Start entering a card on the payment provider’s page',
          description:
            '`{return_to}` (a path of this app) → `{data: {session_id, url}}`. With Stripe: a Checkout Session in setup mode for the caller’s customer; send the browser to `url`. Stripe sends it back to `return_to` with `card_setup={session id}` (or `card_setup=cancelled`). 422 `card_setup_unsupported` with the local provider (it has its own card form).',
          status: 201,
          body: cardSetupBody,
          response: z.object({ data: cardSetupStartSchema }),
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(ctx.db, request);
      billingOn();
      const body = parseBody(cardSetupBody, request.body);
      return reply.status(201).send({ data: await startCardSetup(ctx, user.id, body.return_to) });
    },
  );
  app.post(
    '/api/payment/card-setup/finish',
    {
      config: {
        docs: {
          tag,
          summary: 'Save the card entered on the payment provider’s page',
          description:
            '`{session_id}` → `{data: card}` (the saved card: brand, last four digits, expiry). Finishing the same session again answers the same card (stored once). Another user’s or an unknown session is a 404; a session whose card was not entered is a 409 `card_setup_incomplete`.',
          body: finishCardSetupBody,
          response: z.object({ data: paymentMethodSchema }),
        },
      },
    },
    async (request) => {
      const user = await requireUser(ctx.db, request);
      billingOn();
      const body = parseBody(finishCardSetupBody, request.body);
      return { data: await finishCardSetup(ctx, user.id, body.session_id) };
    },
  );
}
